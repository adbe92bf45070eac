//! The measured sections, in the order they run, each with its share of the
//! time budget; `--only` picks one (copy always runs: the others use its
//! host-to-device figure).

mod batch;
mod context;
mod copy;
mod cost;
mod focus;
mod perm;
mod tree_modes;
mod treeli;

use crate::report::Report;
pub(crate) use context::Ctx;
pub(crate) use focus::PARTS as FOCUS_PARTS;

/// `--focus`: the copy bandwidths (the host-fed part's reference), then
/// only the second GPU round's measurements, optionally one part.
pub(crate) fn run_focus(cx: &mut Ctx, r: &mut Report, part: Option<&str>) {
    r.section("copy", 0.02);
    copy::run(cx, r);
    let d = r.section("focus", 0.98);
    focus::run(cx, r, d, part);
}

/// Every section `only` allows (all without it), each given its deadline.
pub(crate) fn run_all(cx: &mut Ctx, r: &mut Report, only: Option<&str>) {
    let run = |s: &str| only.is_none_or(|o| o == s);
    // Shares of the budget (estimates for an H100: docs/gpu.md).
    r.section("copy", 0.02);
    copy::run(cx, r); // the others use its H2D figure
    if run("perm") {
        let d = r.section("perm", 0.08);
        perm::run(cx, r, d);
    }
    if run("batch") {
        let d = r.section("batch", 0.25);
        batch::run(cx, r, d);
    }
    if run("cost") {
        let d = r.section("cost", 0.15);
        cost::run(cx, r, d);
    }
    if run("trees") {
        let d = r.section("trees", 0.35);
        tree_modes::run(cx, r, d);
    }
    if run("treeli") {
        let d = r.section("treeli", 0.15);
        treeli::run(cx, r, d);
    }
}
