// TEMPORARY
pub(crate) fn compress_avx512(x: &mut super::State, m: &[u64; 8]) { super::portable::compress(x, m) }
pub(crate) fn compress_ssse3(x: &mut super::State, m: &[u64; 8]) { super::portable::compress(x, m) }
