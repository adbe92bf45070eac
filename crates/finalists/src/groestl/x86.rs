// TEMPORARY: replaced by the SIMD code in the next step.
pub(crate) fn compress_8(h: &mut [u64; 8], m: &[u64; 8]) { super::portable::compress(h, m) }
pub(crate) fn compress_16(h: &mut [u64; 16], m: &[u64; 16]) { super::portable::compress(h, m) }
pub(crate) fn perm_p_8(h: &mut [u64; 8]) { super::portable::perm_p(h) }
pub(crate) fn perm_p_16(h: &mut [u64; 16]) { super::portable::perm_p(h) }
