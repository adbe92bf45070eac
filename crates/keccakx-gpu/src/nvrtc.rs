//! NVRTC (the CUDA run-time compiler), loaded at run time.
//!
//! Our own small loader rather than cudarc's: a missing library must be an
//! error value (cudarc's loader panics), and the library may live outside
//! the loader's path (the PyPI wheel `nvidia-cuda-nvrtc` installs
//! `nvidia/cu13/lib/libnvrtc.so.13`). Search order:
//! 1. `KECCAKX_NVRTC_LIB`: a path to the library file, or a directory holding it;
//! 2. the system loader: `libnvrtc.so.13`, `libnvrtc.so.12`, `libnvrtc.so`;
//! 3. `$CUDA_PATH`, `$CUDA_HOME`, `/usr/local/cuda`, `/usr/local/cuda-*`
//!    (`lib64/`, `lib/`);
//! 4. Python environments (`$VIRTUAL_ENV`, `$CONDA_PREFIX`, `~/.local`,
//!    `/usr/local`, `/usr`): `lib/python3*/{site,dist}-packages/nvidia/{cu13,cuda_nvrtc}/lib/`.
//!
//! A library found by path gets its `libnvrtc-builtins` loaded from the
//! same directory first (see [`Nvrtc::load`]).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libloading::Library;

use crate::error::GpuError;

type Prog = *mut c_void;
type NvRes = c_int;

/// A loaded NVRTC.
pub struct Nvrtc {
    path: String,
    version: (u32, u32),
    version_fn: unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvRes,
    error_string: unsafe extern "C" fn(NvRes) -> *const c_char,
    create: unsafe extern "C" fn(
        *mut Prog,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> NvRes,
    compile: unsafe extern "C" fn(Prog, c_int, *const *const c_char) -> NvRes,
    destroy: unsafe extern "C" fn(*mut Prog) -> NvRes,
    log_size: unsafe extern "C" fn(Prog, *mut usize) -> NvRes,
    log: unsafe extern "C" fn(Prog, *mut c_char) -> NvRes,
    cubin_size: unsafe extern "C" fn(Prog, *mut usize) -> NvRes,
    cubin: unsafe extern "C" fn(Prog, *mut c_char) -> NvRes,
    ptx_size: unsafe extern "C" fn(Prog, *mut usize) -> NvRes,
    ptx: unsafe extern "C" fn(Prog, *mut c_char) -> NvRes,
    num_archs: unsafe extern "C" fn(*mut c_int) -> NvRes,
    archs: unsafe extern "C" fn(*mut c_int) -> NvRes,
    // Keeps the function pointers above valid; dropped last.
    _lib: Library,
    // libnvrtc-builtins loaded from libnvrtc's own directory (see `load`).
    _builtins: Vec<Library>,
    builtins_path: Option<String>,
}

// SAFETY: NVRTC's API is thread-safe for distinct programs (each compile
// creates and destroys its own program); the struct only holds immutable
// function pointers into a library that stays loaded while it lives.
unsafe impl Send for Nvrtc {}
unsafe impl Sync for Nvrtc {}

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Machine code (cubin) for `sm_XY`.
    Cubin(u32, u32),
    /// PTX for `compute_XY`, JIT-compiled by the driver at load time.
    Ptx(u32, u32),
}

impl Target {
    /// The `--gpu-arch` value.
    pub fn arch_flag(&self) -> String {
        match *self {
            Target::Cubin(a, b) => format!("sm_{a}{b}"),
            Target::Ptx(a, b) => format!("compute_{a}{b}"),
        }
    }
    /// File extension of the image.
    pub fn extension(&self) -> &'static str {
        match self {
            Target::Cubin(..) => "cubin",
            Target::Ptx(..) => "ptx",
        }
    }
}

/// A compiled module image and the compiler's log (warnings).
pub struct Compiled {
    pub image: Vec<u8>,
    pub log: String,
}

/// One header given to the compiler by name (for `#include "name"`).
pub type Header<'a> = (&'a str, &'a str);

fn candidates() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("KECCAKX_NVRTC_LIB") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            v.extend(lib_files_in(&p));
        } else {
            v.push(p);
        }
    }
    for name in system_names() {
        v.push(PathBuf::from(name));
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    for var in ["CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"] {
        if let Some(root) = std::env::var_os(var) {
            let root = PathBuf::from(root);
            dirs.push(root.join("lib64"));
            dirs.push(root.join("lib"));
        }
    }
    dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
    dirs.push(PathBuf::from("/usr/local/cuda/targets/x86_64-linux/lib"));
    // Versioned toolkits (/usr/local/cuda-13.0), newest first.
    if let Ok(rd) = std::fs::read_dir("/usr/local") {
        let mut versioned: Vec<PathBuf> = rd
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("cuda-"))
            .map(|e| e.path())
            .collect();
        versioned.sort();
        versioned.reverse();
        for v in versioned {
            dirs.push(v.join("lib64"));
            dirs.push(v.join("targets/x86_64-linux/lib"));
        }
    }
    let mut envs: Vec<PathBuf> = Vec::new();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(p) = std::env::var_os(var) {
            envs.push(PathBuf::from(p));
        }
    }
    if let Some(home) = std::env::var_os("HOME") {
        envs.push(PathBuf::from(home).join(".local"));
    }
    // System Python too (pip as root: /usr/local/lib/python3.X/dist-packages).
    envs.push(PathBuf::from("/usr/local"));
    envs.push(PathBuf::from("/usr"));
    for env in envs {
        let lib = env.join("lib");
        if let Ok(rd) = std::fs::read_dir(&lib) {
            for e in rd.flatten() {
                let name = e.file_name();
                if name.to_string_lossy().starts_with("python3") {
                    for pkgs in ["site-packages", "dist-packages"] {
                        let nv = e.path().join(pkgs).join("nvidia");
                        dirs.push(nv.join("cu13").join("lib"));
                        dirs.push(nv.join("cuda_nvrtc").join("lib"));
                    }
                }
            }
        }
    }
    for d in dirs {
        v.extend(lib_files_in(&d));
    }
    v
}

fn system_names() -> &'static [&'static str] {
    if cfg!(windows) {
        &["nvrtc64_130_0.dll", "nvrtc64_120_0.dll"]
    } else {
        &["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]
    }
}

/// NVRTC library files in a directory, newest major version first.
fn lib_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (n.starts_with("libnvrtc.so") || (n.starts_with("nvrtc64_") && n.ends_with(".dll")))
                    && !n.contains("builtins")
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    found.sort();
    found.reverse();
    found
}

/// libnvrtc-builtins files in a directory, newest first.
fn builtins_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .map(|n| n.to_string_lossy().starts_with("libnvrtc-builtins.so"))
                    .unwrap_or(false)
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    found.sort();
    found.reverse();
    found
}

static GLOBAL: OnceLock<Result<Nvrtc, String>> = OnceLock::new();

impl Nvrtc {
    /// The process-wide NVRTC, loaded on first use by the search order above.
    pub fn get() -> Result<&'static Nvrtc, GpuError> {
        GLOBAL
            .get_or_init(Nvrtc::search)
            .as_ref()
            .map_err(|e| GpuError::Compile(e.clone()))
    }

    fn search() -> Result<Nvrtc, String> {
        let mut tried = Vec::new();
        for c in candidates() {
            match Nvrtc::load(&c) {
                Ok(n) => return Ok(n),
                Err(e) => tried.push(format!("{} ({e})", c.display())),
            }
        }
        Err(format!(
            "NVRTC (libnvrtc) not found: install the CUDA toolkit, or `pip install nvidia-cuda-nvrtc` \
             and set KECCAKX_NVRTC_LIB to its libnvrtc.so.*; tried {}",
            if tried.is_empty() { "nothing".to_string() } else { tried.join(", ") }
        ))
    }

    /// Load NVRTC from one file (or library name for the system loader).
    ///
    /// NVRTC opens `libnvrtc-builtins.so.MAJOR.MINOR` with dlopen by name
    /// when it compiles; a libnvrtc found by absolute path outside the
    /// loader's path (a CUDA toolkit's lib64 not in ld.so.conf, a Python
    /// wheel) would then fail to find it. So the builtins lying next to the
    /// library are loaded first, by path: dlopen by name then finds the
    /// already loaded library by its soname.
    pub fn load(path: &Path) -> Result<Nvrtc, String> {
        let mut builtins = Vec::new();
        let mut builtins_path = None;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            for b in builtins_in(dir) {
                // SAFETY: as for libnvrtc below: the vendor's library, loaded
                // only for its soname to be known to the loader.
                if let Ok(l) = unsafe { Library::new(&b) } {
                    builtins_path = Some(b.display().to_string());
                    builtins.push(l);
                    break;
                }
            }
        }
        // SAFETY: loading a shared library runs its initialisers; libnvrtc's
        // are the vendor's and have no preconditions.
        let lib = unsafe { Library::new(path) }.map_err(|e| e.to_string())?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol is looked up by its documented NVRTC name
                // and typed with its documented C signature; the pointer is
                // copied out and used only while `lib` lives (kept in the struct).
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|e| format!("missing symbol {}: {e}", $name))?
            };
        }
        let mut n = Nvrtc {
            path: path.display().to_string(),
            version: (0, 0),
            version_fn: sym!("nvrtcVersion"),
            error_string: sym!("nvrtcGetErrorString"),
            create: sym!("nvrtcCreateProgram"),
            compile: sym!("nvrtcCompileProgram"),
            destroy: sym!("nvrtcDestroyProgram"),
            log_size: sym!("nvrtcGetProgramLogSize"),
            log: sym!("nvrtcGetProgramLog"),
            cubin_size: sym!("nvrtcGetCUBINSize"),
            cubin: sym!("nvrtcGetCUBIN"),
            ptx_size: sym!("nvrtcGetPTXSize"),
            ptx: sym!("nvrtcGetPTX"),
            num_archs: sym!("nvrtcGetNumSupportedArchs"),
            archs: sym!("nvrtcGetSupportedArchs"),
            _lib: lib,
            _builtins: builtins,
            builtins_path,
        };
        let (mut major, mut minor) = (0, 0);
        // SAFETY: two valid out-pointers.
        let r = unsafe { (n.version_fn)(&mut major, &mut minor) };
        if r != 0 {
            return Err(format!("nvrtcVersion failed ({r})"));
        }
        n.version = (major.max(0) as u32, minor.max(0) as u32);
        Ok(n)
    }

    /// Where it was loaded from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The libnvrtc-builtins loaded by path beside it, if any (otherwise
    /// NVRTC finds its builtins through the system loader).
    pub fn builtins_path(&self) -> Option<&str> {
        self.builtins_path.as_deref()
    }

    /// (major, minor), e.g. (13, 0).
    pub fn version(&self) -> (u32, u32) {
        self.version
    }

    /// The `sm_XY` architectures this NVRTC can compile for, as XY numbers.
    pub fn supported_archs(&self) -> Vec<u32> {
        let mut n: c_int = 0;
        // SAFETY: valid out-pointer.
        if unsafe { (self.num_archs)(&mut n) } != 0 || n <= 0 {
            return Vec::new();
        }
        let mut v = vec![0 as c_int; n as usize];
        // SAFETY: the buffer holds the `n` entries NVRTC said it would write.
        if unsafe { (self.archs)(v.as_mut_ptr()) } != 0 {
            return Vec::new();
        }
        v.into_iter().filter(|a| *a > 0).map(|a| a as u32).collect()
    }

    fn err_text(&self, r: NvRes) -> String {
        // SAFETY: nvrtcGetErrorString returns a static string for any code.
        let p = unsafe { (self.error_string)(r) };
        if p.is_null() {
            format!("NVRTC error {r}")
        } else {
            // SAFETY: non-null, NUL-terminated static string.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    }

    /// Compile one translation unit to `target`.
    pub fn compile(
        &self,
        source: &str,
        name: &str,
        headers: &[Header<'_>],
        options: &[String],
        target: Target,
    ) -> Result<Compiled, GpuError> {
        let cstr =
            |s: &str| CString::new(s).map_err(|_| GpuError::Compile(format!("NUL byte in {name}")));
        let src = cstr(source)?;
        let cname = cstr(name)?;
        let hdr_src: Vec<CString> = headers
            .iter()
            .map(|h| cstr(h.1))
            .collect::<Result<_, _>>()?;
        let hdr_name: Vec<CString> = headers
            .iter()
            .map(|h| cstr(h.0))
            .collect::<Result<_, _>>()?;
        let hdr_src_p: Vec<*const c_char> = hdr_src.iter().map(|c| c.as_ptr()).collect();
        let hdr_name_p: Vec<*const c_char> = hdr_name.iter().map(|c| c.as_ptr()).collect();
        let mut opts: Vec<CString> =
            vec![cstr(&format!("--gpu-architecture={}", target.arch_flag()))?];
        for o in options {
            opts.push(cstr(o)?);
        }
        let opt_p: Vec<*const c_char> = opts.iter().map(|c| c.as_ptr()).collect();

        let mut prog: Prog = std::ptr::null_mut();
        // SAFETY: every pointer is a live NUL-terminated string (owned above
        // until the end of this function); the header arrays have equal length.
        let r = unsafe {
            (self.create)(
                &mut prog,
                src.as_ptr(),
                cname.as_ptr(),
                hdr_src_p.len() as c_int,
                if hdr_src_p.is_empty() {
                    std::ptr::null()
                } else {
                    hdr_src_p.as_ptr()
                },
                if hdr_name_p.is_empty() {
                    std::ptr::null()
                } else {
                    hdr_name_p.as_ptr()
                },
            )
        };
        if r != 0 {
            return Err(GpuError::Compile(format!(
                "nvrtcCreateProgram({name}): {}",
                self.err_text(r)
            )));
        }
        struct Guard<'a>(&'a Nvrtc, Prog);
        impl Drop for Guard<'_> {
            fn drop(&mut self) {
                // SAFETY: the program was created above and is destroyed once.
                unsafe { (self.0.destroy)(&mut self.1) };
            }
        }
        let guard = Guard(self, prog);

        // SAFETY: valid program and option array of opt_p.len() strings.
        let r = unsafe { (self.compile)(guard.1, opt_p.len() as c_int, opt_p.as_ptr()) };
        let log = self.program_log(guard.1);
        if r != 0 {
            return Err(GpuError::Compile(format!(
                "{name} for {} with NVRTC {}.{}: {}\n{log}",
                target.arch_flag(),
                self.version.0,
                self.version.1,
                self.err_text(r)
            )));
        }
        let (size_fn, get_fn) = match target {
            Target::Cubin(..) => (self.cubin_size, self.cubin),
            Target::Ptx(..) => (self.ptx_size, self.ptx),
        };
        let mut size = 0usize;
        // SAFETY: valid program, valid out-pointer.
        let r = unsafe { size_fn(guard.1, &mut size) };
        if r != 0 {
            return Err(GpuError::Compile(format!(
                "{name}: cannot get the image size: {}",
                self.err_text(r)
            )));
        }
        let mut image = vec![0u8; size];
        // SAFETY: the buffer has the size NVRTC reported.
        let r = unsafe { get_fn(guard.1, image.as_mut_ptr() as *mut c_char) };
        if r != 0 {
            return Err(GpuError::Compile(format!(
                "{name}: cannot get the image: {}",
                self.err_text(r)
            )));
        }
        Ok(Compiled { image, log })
    }

    fn program_log(&self, prog: Prog) -> String {
        let mut size = 0usize;
        // SAFETY: valid program, valid out-pointer.
        if unsafe { (self.log_size)(prog, &mut size) } != 0 || size == 0 {
            return String::new();
        }
        let mut buf = vec![0u8; size];
        // SAFETY: the buffer has the size NVRTC reported.
        if unsafe { (self.log)(prog, buf.as_mut_ptr() as *mut c_char) } != 0 {
            return String::new();
        }
        let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).trim().to_string()
    }
}
