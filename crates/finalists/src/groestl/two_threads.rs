//! Grøstl split over the caller and the helper thread of [`crate::twothread`]
//! (the 2012 study's two-core form): P(h ^ m) here, Q(m) on the helper, one
//! join per block.

use super::portable;
use crate::twothread::{split, wait_at_least};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};
use std::sync::Arc;

struct Done<const C: usize> {
    q: [AtomicU64; C],
    done: AtomicU32,
}

/// P(h ^ m) here, Q(m) on the helper, joined once per block.
pub(crate) fn compress<const C: usize>(h: &mut [u64; C], m: &[u64; C]) {
    let sh = Arc::new(Done::<C> {
        q: core::array::from_fn(|_| AtomicU64::new(0)),
        done: AtomicU32::new(0),
    });
    let sh2 = Arc::clone(&sh);
    let mq = *m;
    split(
        move || {
            let mut q = mq;
            portable::perm_q(&mut q);
            for j in 0..C {
                sh2.q[j].store(q[j], Relaxed);
            }
            sh2.done.store(1, Release);
        },
        || {
            let mut p = [0u64; C];
            for j in 0..C {
                p[j] = h[j] ^ m[j];
            }
            portable::perm_p(&mut p);
            wait_at_least(&sh.done, 1);
            for j in 0..C {
                h[j] ^= p[j] ^ sh.q[j].load(Relaxed);
            }
        },
    )
}
