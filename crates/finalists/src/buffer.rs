//! Block buffering shared by the four families.

/// A partial block of `N` bytes.
#[derive(Clone)]
pub(crate) struct Buffer<const N: usize> {
    pub buf: [u8; N],
    pub len: usize,
}

impl<const N: usize> Buffer<N> {
    pub const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
        }
    }

    /// Absorbs `data`, calling `f` on every complete block as soon as it is
    /// complete; afterwards `len < N`.
    #[inline]
    pub fn absorb_eager(&mut self, mut data: &[u8], mut f: impl FnMut(&[u8; N])) {
        if self.len > 0 {
            let take = (N - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if self.len < N {
                return;
            }
            let block = self.buf;
            f(&block);
            self.len = 0;
        }
        let mut chunks = data.chunks_exact(N);
        for c in &mut chunks {
            f(c.try_into().expect("chunk of N bytes"));
        }
        let rest = chunks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
    }

    /// Absorbs `data` but keeps the last block back (for Skein, whose last
    /// block is flagged): `f` sees a block only when more data follows it;
    /// afterwards `0 <= len <= N`, and `len == N` is possible.
    #[inline]
    pub fn absorb_lazy(&mut self, mut data: &[u8], mut f: impl FnMut(&[u8; N])) {
        if data.is_empty() {
            return;
        }
        if self.len > 0 {
            let take = (N - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if data.is_empty() {
                return;
            }
            let block = self.buf;
            f(&block);
            self.len = 0;
        }
        // `data` is non-empty here; keep at least one byte (up to a full block) back.
        while data.len() > N {
            f(data[..N].try_into().expect("N bytes"));
            data = &data[N..];
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.len = data.len();
    }
}
