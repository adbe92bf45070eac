//! The command line: `--help`'s text and the parser.

pub(crate) const SECTIONS: [&str; 6] = ["copy", "perm", "batch", "cost", "trees", "treeli"];

pub(crate) struct Args {
    pub out: Option<String>,
    pub device: usize,
    pub quick: bool,
    pub preflight: bool,
    pub precompile: Option<String>,
    pub only: Option<String>,
    pub budget_s: Option<f64>,
    /// `--focus`: only the second GPU round's measurements (sections/focus.rs).
    pub focus: bool,
    pub focus_part: Option<String>,
}

pub(crate) const USAGE: &str = "usage: keccakx-gpu-bench [--out FILE.json] [--device N] [--quick] [--budget-s S]
                         [--only copy|perm|batch|cost|trees|treeli]
       keccakx-gpu-bench --focus [--focus-part batch64|kt|host|merkle] [--out FILE.json]
                                              only the new paths beside the old ones (~2-3 min)
       keccakx-gpu-bench --preflight          driver, NVRTC (path, builtins), devices; exit 2 without a GPU
       keccakx-gpu-bench --precompile sm_XY   compile every kernel module into $KECCAKX_CACHE_DIR (no GPU needed)
--budget-s: seconds for all sections (default 220, --quick 60, --focus 170); a section past its share starts no new size.";

pub(crate) fn parse() -> Result<Args, String> {
    let mut a = Args {
        out: None,
        device: 0,
        quick: false,
        preflight: false,
        precompile: None,
        only: None,
        budget_s: None,
        focus: false,
        focus_part: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--out" => a.out = Some(it.next().ok_or("--out needs a file name")?),
            "--device" => {
                a.device = it
                    .next()
                    .ok_or("--device needs a number")?
                    .parse()
                    .map_err(|_| "--device: not a number")?
            }
            "--budget-s" => {
                let v: f64 = it
                    .next()
                    .ok_or("--budget-s needs seconds")?
                    .parse()
                    .map_err(|_| "--budget-s: not a number")?;
                if !(v.is_finite() && v > 0.0) {
                    return Err("--budget-s must be positive".into());
                }
                a.budget_s = Some(v)
            }
            "--quick" => a.quick = true,
            "--focus" => a.focus = true,
            "--focus-part" => {
                let v = it.next().ok_or("--focus-part needs a part")?;
                if !crate::sections::FOCUS_PARTS.contains(&v.as_str()) {
                    return Err(format!(
                        "--focus-part {v:?}: not a part ({})",
                        crate::sections::FOCUS_PARTS.join(", ")
                    ));
                }
                a.focus = true;
                a.focus_part = Some(v)
            }
            "--preflight" => a.preflight = true,
            "--precompile" => {
                a.precompile = Some(
                    it.next()
                        .ok_or("--precompile needs an architecture (sm_90)")?,
                )
            }
            "--only" => {
                let v = it.next().ok_or("--only needs a section")?;
                if !SECTIONS.contains(&v.as_str()) {
                    return Err(format!(
                        "--only {v:?}: not a section ({})",
                        SECTIONS.join(", ")
                    ));
                }
                a.only = Some(v)
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(a)
}
