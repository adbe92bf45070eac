//! Read-only memory maps of file windows that survive the file shrinking
//! under them: the `keccakx` command maps the files it hashes, and the
//! Python module's cluster tasks map the byte ranges they hash, through
//! [`Window`]. A window is registered with a SIGBUS guard ([`guard`])
//! while it lives, so a file truncated by another process reads as zeros
//! past its new end and [`Window::shrank`] says so, instead of the signal
//! killing the process.

use std::fs::File;
use std::io;

pub mod guard;

/// `len` bytes of a file from `offset`, mapped read-only and guarded.
pub struct Window {
    // Declared first, dropped first: unregistered before it is unmapped,
    // so no other mapping at the same address can match a stale entry.
    guard: guard::Guard,
    map: memmap2::Mmap,
    /// Bytes of the map before `offset` (maps start on a page).
    skip: usize,
}

/// Offsets of maps are multiples of this (the largest base page size of
/// the platforms keccakx runs on; a multiple of the smaller ones).
const MAP_ALIGN: u64 = 1 << 16;

impl Window {
    /// Map `file[offset..offset + len]`. `populate` faults every page in
    /// with the `mmap` call itself (MAP_POPULATE: cheaper than faulting on
    /// first touch when the pages are read at once, as a thread mapping
    /// ahead of the hasher or a task hashing the whole window does).
    /// `Ok(None)`: the window cannot be guarded (not Linux, or too many
    /// windows at once); the caller reads the bytes instead.
    pub fn map(file: &File, offset: u64, len: usize, populate: bool) -> io::Result<Option<Window>> {
        if len == 0 {
            return Ok(None);
        }
        let start = offset / MAP_ALIGN * MAP_ALIGN;
        let skip = (offset - start) as usize;
        let total = len
            .checked_add(skip)
            .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: the map is read-only and dropped with the window. Another
        // process may change the file meanwhile: changed bytes read as what
        // they became; bytes cut off by a truncation would raise SIGBUS,
        // which the guard registered below turns into zero pages and
        // `shrank()`.
        let map = unsafe {
            let mut o = memmap2::MmapOptions::new();
            o.offset(start).len(total);
            if populate {
                o.populate();
            }
            o.map(file)?
        };
        Ok(guard::register(map.as_ptr(), map.len()).map(|guard| Window { guard, map, skip }))
    }

    /// The window's bytes (zeros where the file no longer has any).
    pub fn bytes(&self) -> &[u8] {
        &self.map[self.skip..]
    }

    /// Whether part of the window lay past the end of the file when read:
    /// the file shrank, and `bytes()` read zeros there. A truncation inside
    /// the window's last page faults nowhere (the page's tail reads as
    /// zeros): callers also compare the file's size afterwards.
    pub fn shrank(&self) -> bool {
        self.guard.hit()
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn unaligned_windows_read_the_file_bytes() {
        let path = std::env::temp_dir().join(format!("keccakx-mapped-{}", std::process::id()));
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&data)
            .unwrap();
        let f = File::open(&path).unwrap();
        for (off, len) in [
            (0usize, 1usize),
            (1, 70_000),
            (65_535, 2),
            (65_536, 65_536),
            (123_457, 176_543),
        ] {
            for populate in [false, true] {
                let w = Window::map(&f, off as u64, len, populate).unwrap().unwrap();
                assert_eq!(w.bytes(), &data[off..off + len], "{off} {len}");
                assert!(!w.shrank());
            }
        }
        assert!(Window::map(&f, 5, 0, false).unwrap().is_none());
        let _ = std::fs::remove_file(&path);
    }
}
