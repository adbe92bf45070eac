//! What the hasher keeps between calls: the host-fed pipeline's stages
//! (a stream, pinned staging, device buffers and events each) and the
//! device-resident calls' buffers, allocated empty and grown on demand.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaEvent, CudaStream};

use crate::error::GpuError;
use crate::kernels::BatchJob;
use crate::mem::{DevBuf, Pinned};

/// Pipeline stages (streams with their own buffers) for host-fed batches.
pub const STAGES: usize = 3;

/// The host buffers a pipeline fill step packs into.
pub(super) struct HostBufs {
    pub(super) h_in: Pinned,
    pub(super) h_idx: Pinned,
}

/// One pipeline stage: a stream, its buffers, and events around its copies
/// and kernel (for [`PipelineStats`]).
pub(super) struct Stage {
    pub(super) stream: Arc<CudaStream>,
    pub(super) host: HostBufs,
    pub(super) h_out: Pinned,
    pub(super) d_in: DevBuf,
    pub(super) d_idx: DevBuf,
    pub(super) d_out: DevBuf,
    pub(super) events: [CudaEvent; 4],
    pub(super) pending: Option<(usize, usize)>, // (chunk, output bytes)
}

impl Stage {
    /// A stage with empty buffers and its own stream.
    pub(super) fn new(ctx: &Arc<CudaContext>) -> Result<Stage, GpuError> {
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Stage {
            stream: ctx.new_stream()?,
            host: HostBufs {
                h_in: Pinned::new(ctx, 0, true)?,
                h_idx: Pinned::new(ctx, 0, true)?,
            },
            h_out: Pinned::new(ctx, 0, false)?,
            d_in: DevBuf::empty(ctx),
            d_idx: DevBuf::empty(ctx),
            d_out: DevBuf::empty(ctx),
            events: [
                ctx.new_event(timing)?,
                ctx.new_event(timing)?,
                ctx.new_event(timing)?,
                ctx.new_event(timing)?,
            ],
            pending: None,
        })
    }

    /// Free the stage's buffers (its stream must be idle).
    pub(super) fn release(&mut self, ctx: &Arc<CudaContext>) -> Result<(), GpuError> {
        let mapped = self.host.h_in.is_mapped();
        self.host.h_in = Pinned::with_mapping(ctx, 0, true, mapped)?;
        self.host.h_idx = Pinned::with_mapping(ctx, 0, true, mapped)?;
        self.h_out = Pinned::new(ctx, 0, false)?;
        self.d_in = DevBuf::empty(ctx);
        self.d_idx = DevBuf::empty(ctx);
        self.d_out = DevBuf::empty(ctx);
        self.pending = None;
        Ok(())
    }

    /// Wait for the stage's work to finish (errors ignored: for Drop).
    pub(super) fn wait_idle(&self) {
        let _ = self.stream.synchronize();
    }

    /// The stage's stream.
    pub(super) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }
}

/// What a pipeline fill step put into a stage's host buffers.
pub(super) struct ChunkPlan {
    /// Bytes of `h_in` to upload.
    pub(super) data_bytes: usize,
    /// Indexed layout: `h_idx` holds n offsets then n lengths (u64 LE).
    pub(super) indexed: bool,
    /// Messages, layout and parameters; device pointers are set by the runner.
    pub(super) job: BatchJob,
    /// Every message offset (or the stride) is a multiple of 8.
    pub(super) aligned8: bool,
    /// Upload these `data_bytes` straight from page-locked caller memory
    /// instead of from the staging buffer.
    pub(super) direct: Option<HostSpan>,
}

/// A span of page-locked caller memory a chunk is uploaded from (it
/// outlives the pipeline call that uses it).
#[derive(Clone, Copy)]
pub(super) struct HostSpan(pub(super) *const u8);
// SAFETY: the span is only read, by the copy engines, while the caller's
// borrow of the buffer lasts (the whole pipeline call).
unsafe impl Send for HostSpan {}

/// Buffers the device-resident calls keep between calls: allocating and
/// freeing per call would cost a cuMemFree each, which waits for the whole
/// device. Two of each for the leaves' pipeline (group k drains while group
/// k + 1 runs).
pub(super) struct Scratch {
    pub(super) d_out: [DevBuf; 2],
    pub(super) d_idx: DevBuf,
    /// Gathered messages (device-resident tree LI) and their prefixes.
    pub(super) gather: DevBuf,
    pub(super) prefixes: DevBuf,
    pub(super) h_out: [Pinned; 2],
    pub(super) done: [CudaEvent; 2],
    /// Timing events around each leaf group's kernel, per buffer.
    pub(super) group_events: [[CudaEvent; 2]; 2],
}

impl Scratch {
    /// Empty buffers.
    pub(super) fn new(ctx: &Arc<CudaContext>) -> Result<Scratch, GpuError> {
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Scratch {
            d_out: [DevBuf::empty(ctx), DevBuf::empty(ctx)],
            d_idx: DevBuf::empty(ctx),
            gather: DevBuf::empty(ctx),
            prefixes: DevBuf::empty(ctx),
            h_out: [Pinned::new(ctx, 0, false)?, Pinned::new(ctx, 0, false)?],
            done: [ctx.new_event(None)?, ctx.new_event(None)?],
            group_events: [
                [ctx.new_event(timing)?, ctx.new_event(timing)?],
                [ctx.new_event(timing)?, ctx.new_event(timing)?],
            ],
        })
    }

    /// Free the buffers (nothing may use them any more).
    pub(super) fn release(&mut self, ctx: &Arc<CudaContext>) -> Result<(), GpuError> {
        *self = Scratch::new(ctx)?;
        Ok(())
    }
}
