//! One `extern "C"` entry per row of the study and form; each calls exactly
//! that form's code, so that linking one entry with --gc-sections keeps
//! only what that form needs. The probe is never run: it is built and
//! linked for its size only (see bench/finalists/size.py).
#![cfg_attr(not(feature = "std"), no_std)]

use finalists::study::{hash_into, Row};
use finalists::Impl;

macro_rules! hash_entry {
    ($name:ident, $row:expr, $imp:expr) => {
        /// # Safety
        /// `msg` points to `len` readable bytes, `out` to the row's digest length.
        #[no_mangle]
        pub unsafe extern "C" fn $name(msg: *const u8, len: usize, out: *mut u8) {
            let row = $row;
            // SAFETY: the caller's contract above.
            let (m, o) = unsafe {
                (
                    core::slice::from_raw_parts(msg, len),
                    core::slice::from_raw_parts_mut(out, row.output_len()),
                )
            };
            hash_into(row, $imp, m, o)
        }
    };
}

macro_rules! rows {
    ($imp:expr, $md5:ident, $sha1:ident, $sha256:ident, $blake:ident, $groestl:ident, $jh:ident, $keccak:ident, $skein:ident) => {
        hash_entry!($md5, Row::Md5, $imp);
        hash_entry!($sha1, Row::Sha1, $imp);
        hash_entry!($sha256, Row::Sha256, $imp);
        hash_entry!($blake, Row::Blake256, $imp);
        hash_entry!($groestl, Row::Groestl256, $imp);
        hash_entry!($jh, Row::Jh256, $imp);
        hash_entry!($keccak, Row::Keccak256, $imp);
        hash_entry!($skein, Row::Skein512_256, $imp);
    };
}

rows!(Impl::Sequential, size_md5_sequential, size_sha1_sequential, size_sha256_sequential,
    size_blake256_sequential, size_groestl256_sequential, size_jh256_sequential,
    size_keccak256_sequential, size_skein512_256_sequential);

// SIMD forms exist on x86-64 only (elsewhere `Parallel` is the portable code).
#[cfg(target_arch = "x86_64")]
rows!(Impl::Parallel, size_md5_parallel, size_sha1_parallel, size_sha256_parallel,
    size_blake256_parallel, size_groestl256_parallel, size_jh256_parallel,
    size_keccak256_parallel, size_skein512_256_parallel);

// The two-thread forms need std (a helper thread).
#[cfg(feature = "std")]
rows!(Impl::TwoThreads, size_md5_two_threads, size_sha1_two_threads, size_sha256_two_threads,
    size_blake256_two_threads, size_groestl256_two_threads, size_jh256_two_threads,
    size_keccak256_two_threads, size_skein512_256_two_threads);

/// RC5-32/12/16 as the study counted it: key expansion, encryption and
/// decryption (ECB over `len` bytes). Returns 0, or 1 for a bad length.
/// Inlined so that each entry keeps only its own form.
#[inline(always)]
fn rc5(key: *const u8, data: *mut u8, len: usize, imp: Impl) -> i32 {
    // SAFETY: the entries' contract: 16 key bytes, `len` data bytes.
    let (k, d) = unsafe {
        (
            &*(key as *const [u8; 16]),
            core::slice::from_raw_parts_mut(data, len),
        )
    };
    let r = match finalists::rc5::expand_and_encrypt(k, 12, imp, d) {
        Ok(r) => r,
        Err(_) => return 1,
    };
    let dec = if imp == Impl::Parallel { Impl::Parallel } else { Impl::Sequential };
    match r.decrypt_ecb(d, dec) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// # Safety
/// `key` points to 16 bytes, `data` to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn size_rc5_sequential(key: *const u8, data: *mut u8, len: usize) -> i32 {
    rc5(key, data, len, Impl::Sequential)
}

/// # Safety
/// As for `size_rc5_sequential`.
#[cfg(target_arch = "x86_64")]
#[no_mangle]
pub unsafe extern "C" fn size_rc5_parallel(key: *const u8, data: *mut u8, len: usize) -> i32 {
    rc5(key, data, len, Impl::Parallel)
}

/// # Safety
/// As for `size_rc5_sequential`.
#[cfg(feature = "std")]
#[no_mangle]
pub unsafe extern "C" fn size_rc5_two_threads(key: *const u8, data: *mut u8, len: usize) -> i32 {
    rc5(key, data, len, Impl::TwoThreads)
}

#[cfg(not(feature = "std"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// The `finalists` crate links `alloc`, so a no_std artifact needs an
/// allocator; none of the probed entries allocates, and this one refuses
/// every request (a null pointer is alloc's "out of memory").
#[cfg(not(feature = "std"))]
struct NoHeap;

#[cfg(not(feature = "std"))]
// SAFETY: returning null is a valid answer of `alloc`; `dealloc` is never
// given a pointer, since `alloc` never returns one.
unsafe impl core::alloc::GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _: core::alloc::Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _: *mut u8, _: core::alloc::Layout) {}
}

#[cfg(not(feature = "std"))]
#[global_allocator]
static HEAP: NoHeap = NoHeap;
