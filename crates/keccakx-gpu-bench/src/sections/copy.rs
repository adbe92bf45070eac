//! `copy`: host-to-device and device-to-host bandwidth (pinned).

use super::context::Ctx;
use crate::measure::fail;
use crate::report::{obj, Report};

pub(super) fn run(cx: &mut Ctx, r: &mut Report) {
    let bytes = if cx.quick { 64 << 20 } else { 256 << 20 };
    let h2d = cx
        .gpu
        .h2d_bandwidth(bytes, 5)
        .unwrap_or_else(|e| fail("H2D bandwidth", e));
    let d2h = cx
        .gpu
        .d2h_bandwidth(bytes, 5)
        .unwrap_or_else(|e| fail("D2H bandwidth", e));
    // The host's half of a host-fed batch: packing into pinned staging and
    // draining digests out of it, on all cores (what bounds a host-fed batch
    // when it is below the bus).
    let fill = cx
        .gpu
        .host_copy_bandwidth(bytes, 3, true)
        .unwrap_or_else(|e| fail("host fill bandwidth", e));
    let drain = cx
        .gpu
        .host_copy_bandwidth(bytes, 3, false)
        .unwrap_or_else(|e| fail("host drain bandwidth", e));
    cx.h2d = h2d;
    r.set(
        "copy",
        obj![
            ("bytes", bytes),
            ("h2d_bytes_per_s", h2d),
            ("d2h_bytes_per_s", d2h),
            ("host_fill_pinned_wc_bytes_per_s", fill),
            ("host_drain_pinned_bytes_per_s", drain),
            ("host_threads", rayon::current_num_threads()),
        ],
    );
    r.key(format!(
        "copy (pinned, {} MiB): H2D {:.1} GB/s, D2H {:.1} GB/s; host memcpy on {} threads: \
         pageable -> pinned write-combined {:.1} GB/s, pinned -> pageable {:.1} GB/s",
        bytes >> 20,
        h2d / 1e9,
        d2h / 1e9,
        rayon::current_num_threads(),
        fill / 1e9,
        drain / 1e9
    ));
}
