//! Where messages lie in a device buffer ([`Layout`], [`RawLayout`]), the
//! checks every job starts with, and the kernel's parameter block for
//! messages at raw device addresses.

use keccakx::engine::LaneSpec;

use crate::error::GpuError;
use crate::kernels::BatchJob;

/// Where messages lie in a device buffer.
#[derive(Clone, Copy, Debug)]
pub enum Layout<'a> {
    /// Message i = data[i * stride .. i * stride + len], i < count.
    Uniform { count: usize, stride: u64, len: u64 },
    /// Message i = `data[offsets[i] .. offsets[i] + lengths[i]]`.
    Indexed {
        offsets: &'a [u64],
        lengths: &'a [u64],
    },
}

impl Layout<'_> {
    /// Number of messages.
    pub fn count(&self) -> usize {
        match self {
            Layout::Uniform { count, .. } => *count,
            Layout::Indexed { offsets, .. } => offsets.len(),
        }
    }

    pub(super) fn check(&self, data_len: u64) -> Result<(), GpuError> {
        match *self {
            Layout::Uniform { count, stride, len } => {
                if count > 0 {
                    let last = (count as u64 - 1)
                        .checked_mul(stride)
                        .and_then(|o| o.checked_add(len))
                        .ok_or(GpuError::Unsupported("uniform layout overflows"))?;
                    if last > data_len {
                        return Err(GpuError::Unsupported(
                            "uniform layout reaches past the end of the device buffer",
                        ));
                    }
                }
            }
            Layout::Indexed { offsets, lengths } => {
                if offsets.len() != lengths.len() {
                    return Err(GpuError::Unsupported(
                        "offsets and lengths differ in length",
                    ));
                }
                for (o, l) in offsets.iter().zip(lengths) {
                    match o.checked_add(*l) {
                        Some(end) if end <= data_len => {}
                        _ => {
                            return Err(GpuError::Unsupported(
                                "a message reaches past the end of the device buffer",
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The same layout with the index arrays already on the device.
#[derive(Clone, Copy, Debug)]
pub enum RawLayout {
    /// As [`Layout::Uniform`].
    Uniform { count: u64, stride: u64, len: u64 },
    /// `count` u64 offsets and `count` u64 lengths at these device addresses.
    Indexed {
        count: u64,
        offsets: u64,
        lengths: u64,
    },
}

/// Check a LaneSpec built outside `LaneSpec::new` (its fields are public).
pub fn check_spec(spec: &LaneSpec) -> Result<(), GpuError> {
    if spec.rate_bytes == 0 || spec.rate_bytes >= 200 {
        return Err(GpuError::Unsupported("rate must be 1..199 bytes"));
    }
    if spec.rounds == 0 || spec.rounds > 24 {
        return Err(GpuError::Unsupported("rounds must be 1..24"));
    }
    if spec.delimited_suffix == 0 {
        return Err(GpuError::Unsupported("delimited suffix 0x00 is invalid"));
    }
    Ok(())
}

/// The output length per message as the kernel takes it (u32).
pub(super) fn check_out_len(out_len: usize) -> Result<u32, GpuError> {
    u32::try_from(out_len)
        .map_err(|_| GpuError::Unsupported("output length per message must be below 4 GiB"))
}

/// The kernel's parameter block for messages at raw device addresses.
pub(super) fn raw_job(
    spec: &LaneSpec,
    data: u64,
    data_len: u64,
    layout: RawLayout,
    out: u64,
    out_len: u32,
) -> BatchJob {
    let mut job = BatchJob {
        data,
        data_len,
        out,
        rate: spec.rate_bytes as u32,
        suffix: spec.delimited_suffix as u32,
        out_len,
        rounds: spec.rounds as u32,
        ..BatchJob::default()
    };
    match layout {
        RawLayout::Uniform { count, stride, len } => {
            job.n = count;
            job.stride = stride;
            job.msg_len = len;
        }
        RawLayout::Indexed {
            count,
            offsets,
            lengths,
        } => {
            job.n = count;
            job.offsets = offsets;
            job.lengths = lengths;
        }
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_bounds_checked() {
        assert!(Layout::Uniform {
            count: 4,
            stride: 64,
            len: 64
        }
        .check(256)
        .is_ok());
        assert!(Layout::Uniform {
            count: 4,
            stride: 64,
            len: 65
        }
        .check(256)
        .is_err());
        assert!(Layout::Uniform {
            count: 2,
            stride: u64::MAX,
            len: 1
        }
        .check(256)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[0, 10],
            lengths: &[10, 5]
        }
        .check(15)
        .is_ok());
        assert!(Layout::Indexed {
            offsets: &[0, 10],
            lengths: &[10, 6]
        }
        .check(15)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[0],
            lengths: &[]
        }
        .check(15)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[u64::MAX],
            lengths: &[2]
        }
        .check(15)
        .is_err());
    }

    #[test]
    fn spec_check_rejects_hand_built_nonsense() {
        let ok = LaneSpec::new(136, 24, 0x06).unwrap();
        assert!(check_spec(&ok).is_ok());
        for bad in [
            LaneSpec {
                rate_bytes: 0,
                ..ok
            },
            LaneSpec {
                rate_bytes: 200,
                ..ok
            },
            LaneSpec { rounds: 0, ..ok },
            LaneSpec { rounds: 25, ..ok },
            LaneSpec {
                delimited_suffix: 0,
                ..ok
            },
        ] {
            assert!(check_spec(&bad).is_err());
        }
    }
}
