//! `perm`: Keccak-f\[1600\] permutations/s of every permutation kernel,
//! against the ALU bound.

use std::collections::HashMap;

use keccakx_gpu::{perm_reference, PermKernel};

use super::context::Ctx;
use crate::measure::{check, fail, INSTR_PER_ROUND};
use crate::report::{obj, Deadline, Report, J};

pub(super) fn run(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let gpu = &cx.gpu;
    let mut rows = Vec::new();
    let mut rate_of = HashMap::new();
    for k in [
        PermKernel::Fast24,
        PermKernel::Fast24Unrolled,
        PermKernel::Fast24By6,
        PermKernel::FastU64,
        PermKernel::Fast12,
        PermKernel::Paper,
        PermKernel::Imad24,
        PermKernel::ImadRho24,
        PermKernel::ImadHalf24,
    ] {
        if dl.passed() {
            rows.push(obj![("kernel", format!("{k:?}")), ("skipped", "deadline")]);
            continue;
        }
        // One whole wave (every block resident at once; no partial tail wave).
        let states = gpu
            .perm_wave_states(k)
            .unwrap_or_else(|e| fail("occupancy", e));
        let (_, v) = gpu
            .perm_run(k, states.min(4096), 2)
            .unwrap_or_else(|e| fail("permutation kernel", e));
        for s in [0u64, 1, 777, 4095]
            .into_iter()
            .filter(|s| *s < v.len() as u64)
        {
            check(
                &format!("{k:?} state {s}"),
                v[s as usize],
                perm_reference(s, 2, k.rounds()),
            );
        }
        // Calibrate to about 200 ms (quick: 50 ms) of kernel time, best of 3.
        let target = if cx.quick { 0.05 } else { 0.2 };
        let mut iters = 4u32;
        loop {
            let (t, _) = gpu
                .perm_run(k, states, iters)
                .unwrap_or_else(|e| fail("permutation kernel", e));
            if t > target / 4.0 || iters > 1 << 20 {
                iters = ((iters as f64) * (target / t.max(1e-6))).clamp(1.0, 1e7) as u32;
                break;
            }
            iters *= 4;
        }
        let best = (0..3)
            .map(|_| {
                gpu.perm_run(k, states, iters)
                    .unwrap_or_else(|e| fail("permutation kernel", e))
                    .0
            })
            .fold(f64::INFINITY, f64::min);
        let rate = states as f64 * iters as f64 / best;
        let bound = cx.alu24.map(|c| if k.rounds() == 12 { 2.0 * c } else { c });
        rate_of.insert(format!("{k:?}"), rate);
        rows.push(obj![
            ("kernel", format!("{k:?}")),
            ("rounds", k.rounds()),
            ("states", states),
            ("iters", iters),
            ("seconds", best),
            ("perms_per_s", rate),
            ("alu_bound_perms_per_s", bound),
            ("ratio_to_alu_bound", bound.map(|b| rate / b)),
        ]);
        r.set("permutations", J::Arr(rows.clone()));
    }
    r.set("permutations", J::Arr(rows));
    let g = |n: &str| rate_of.get(n).copied().unwrap_or(f64::NAN);
    r.key(format!(
        "perm/s: 24 rounds {:.2} G ({}), 12 rounds {:.2} G, u64 kernel {:.2} G, paper kernel {:.2} G (fast/paper {:.1}x)",
        g("Fast24") / 1e9,
        cx.alu24
            .map(|b| format!("{:.0}% of the ALU bound {:.2} G at {INSTR_PER_ROUND} instr/round", 100.0 * g("Fast24") / b, b / 1e9))
            .unwrap_or_else(|| "no clock reported: no ALU bound".into()),
        g("Fast12") / 1e9,
        g("FastU64") / 1e9,
        g("Paper") / 1e9,
        g("Fast24") / g("Paper")
    ));
    r.key(format!(
        "perm/s, 24 rounds by straight-line stretch: 12 rounds (default) {:.2} G, 24 {:.2} G, 6 {:.2} G",
        g("Fast24") / 1e9,
        g("Fast24Unrolled") / 1e9,
        g("Fast24By6") / 1e9
    ));
    r.key(format!(
        "perm/s with rotations from IMAD (the FMA pipe), 24 rounds: all {:.2} G, rho's {:.2} G, \
         half of rho's {:.2} G; best / funnel shifts {:.2}x",
        g("Imad24") / 1e9,
        g("ImadRho24") / 1e9,
        g("ImadHalf24") / 1e9,
        ["Imad24", "ImadRho24", "ImadHalf24"]
            .iter()
            .map(|n| g(n))
            .fold(f64::NAN, f64::max)
            / g("Fast24")
    ));
}
