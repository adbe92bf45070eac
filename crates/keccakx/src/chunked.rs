//! Cutting a stream into fixed-size chunks whose chaining values are
//! computed independently on the engine (KT leaves, ParallelHash blocks).
//! Written once; the modes only say what a chunk is and where CVs go.

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::{BatchHint, EngineRef, LaneSpec};
use crate::sponge::ByteSponge;

// How much one engine call takes comes from the engine (`batch_hint`): on
// the CPU 1 MiB of whole chunks gathered when input arrives in small pieces
// (128 KT leaves, so a 2-thread split amortizes the hand-off,
// bench/NOTES.md), and at most 4096 chunks per call when it arrives in one
// big piece (keeps the chaining-value scratch bounded: a 10 GB mmap is not
// one call); a GPU asks for far more.

/// Less than one chunk of input not hashed yet (portable states): its
/// bytes, or (large chunks) the sponge that absorbed `filled` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    Bytes(Vec<u8>),
    Sponge {
        state: crate::permutation::State,
        pos: usize,
        filled: usize,
    },
}

/// Hashes chunk after chunk; hands chaining values to a sink in order (the
/// mode's final node counts them). The sink may also be called with no
/// values: the first call during an engine call is for the mode's serial
/// work (see `hash_chunks`).
#[derive(Clone)]
pub(crate) struct ChunkHasher {
    spec: LaneSpec,
    chunk_len: usize,
    cv_len: usize,
    /// Small chunks: queued bytes (whole chunks, then a partial one).
    buf: Vec<u8>,
    /// Large chunks: the chunk being filled, and how much it has.
    partial: Option<(ByteSponge, usize)>,
    engine: EngineRef,
    hint: BatchHint,
}

impl ChunkHasher {
    /// Chunks hashed on `engine`.
    pub fn with_engine(spec: LaneSpec, chunk_len: usize, cv_len: usize, engine: EngineRef) -> Self {
        debug_assert!(chunk_len > 0);
        let hint = engine.batch_hint();
        ChunkHasher {
            spec,
            chunk_len,
            cv_len,
            buf: Vec::new(),
            partial: None,
            engine,
            hint,
        }
    }

    fn small(&self) -> bool {
        self.chunk_len <= self.hint.bytes / 4
    }

    fn batch_len(&self) -> usize {
        self.hint.bytes / self.chunk_len * self.chunk_len
    }

    /// Hash `data` as consecutive chunks (the last may be short) on the engine.
    /// The sink runs on this thread during each engine call, with the
    /// previous call's chaining values (none for the first: the mode may do
    /// its own serial work then), and once more after the last call.
    fn hash_chunks(&mut self, data: &[u8], sink: &mut dyn FnMut(&[u8])) {
        let (mut prev, mut cur) = (Vec::new(), Vec::new());
        let mut pieces: Vec<&[u8]> = Vec::new();
        let per_call = self.chunk_len * self.hint.max_items.max(1);
        self.engine.with(|engine| {
            for group in data.chunks(per_call) {
                pieces.clear();
                pieces.extend(group.chunks(self.chunk_len));
                cur.resize(pieces.len() * self.cv_len, 0);
                engine.hash_many_beside(&self.spec, &pieces, self.cv_len, &mut cur, &mut || {
                    sink(&prev)
                });
                core::mem::swap(&mut prev, &mut cur);
            }
        });
        sink(&prev);
    }

    pub fn update(&mut self, mut data: &[u8], sink: &mut dyn FnMut(&[u8])) {
        // A partial chunk in a sponge comes first: large chunks keep one,
        // and a portable state may bring one to a hasher of small chunks
        // (`set_pending`), whose queue is then empty.
        if let Some((mut s, filled)) = self.partial.take() {
            let take = (self.chunk_len - filled).min(data.len());
            s.absorb(&data[..take]);
            data = &data[take..];
            if filled + take < self.chunk_len {
                self.partial = Some((s, filled + take));
                return;
            }
            let mut cv = vec![0u8; self.cv_len];
            s.pad_delimited(self.spec.delimited_suffix);
            s.squeeze(&mut cv);
            sink(&cv);
        } else if self.small() && !self.buf.is_empty() {
            let take = (self.batch_len() - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() < self.batch_len() {
                return;
            }
            let buf = core::mem::take(&mut self.buf);
            self.hash_chunks(&buf, sink);
            self.buf = buf;
            self.buf.clear();
        }
        // Whole chunks straight from the caller's buffer: no copy.
        let whole = data.len() / self.chunk_len * self.chunk_len;
        if whole > 0 {
            self.hash_chunks(&data[..whole], sink);
            data = &data[whole..];
        }
        if data.is_empty() {
            return;
        }
        if self.small() {
            self.buf.extend_from_slice(data);
        } else {
            let mut s = ByteSponge::new(self.spec.rate_bytes, self.spec.rounds);
            s.absorb(data);
            self.partial = Some((s, data.len()));
        }
    }

    /// The partial chunk, for a portable state: the whole chunks still
    /// queued are hashed first (their CVs to `sink`), so what is left is
    /// less than one chunk: its bytes, or the sponge that absorbed them.
    pub fn take_pending(&mut self, sink: &mut dyn FnMut(&[u8])) -> Pending {
        let whole = self.buf.len() / self.chunk_len * self.chunk_len;
        if whole > 0 {
            let buf = core::mem::take(&mut self.buf);
            self.hash_chunks(&buf[..whole], sink);
            self.buf = buf[whole..].to_vec();
        }
        match &self.partial {
            Some((s, filled)) => {
                let (state, _, _, pos) = s.raw();
                Pending::Sponge {
                    state,
                    pos,
                    filled: *filled,
                }
            }
            None => Pending::Bytes(self.buf.clone()),
        }
    }

    /// Continue from a partial chunk taken by [`take_pending`](Self::take_pending)
    /// (from a hasher with nothing queued); false, nothing changed, when
    /// it cannot be one (a whole chunk or more, a position that does not
    /// follow from its length).
    pub fn set_pending(&mut self, p: &Pending) -> bool {
        match p {
            Pending::Bytes(b) if b.len() < self.chunk_len => {
                self.buf.clear();
                self.partial = None;
                // Fed as input: queued, or absorbed into a sponge, as this
                // hasher does it.
                self.update(b, &mut |_| {});
                true
            }
            Pending::Sponge { state, pos, filled }
                if *filled > 0
                    && *filled < self.chunk_len
                    && *pos == filled % self.spec.rate_bytes =>
            {
                let mut s = ByteSponge::new(self.spec.rate_bytes, self.spec.rounds);
                s.set_raw(*state, *pos);
                self.buf.clear();
                self.partial = Some((s, *filled));
                true
            }
            _ => false,
        }
    }

    /// Hash what is left (a last, possibly short, chunk); no empty chunk.
    pub fn finish(&mut self, sink: &mut dyn FnMut(&[u8])) {
        if !self.buf.is_empty() {
            let buf = core::mem::take(&mut self.buf);
            self.hash_chunks(&buf, sink);
        }
        if let Some((mut s, _)) = self.partial.take() {
            let mut cv = vec![0u8; self.cv_len];
            s.pad_delimited(self.spec.delimited_suffix);
            s.squeeze(&mut cv);
            sink(&cv);
        }
    }
}
