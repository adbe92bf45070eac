//! The benchmark's record: a JSON document rewritten (write, then rename)
//! after every section, so a run cut short by a timeout keeps what it
//! measured; the key figures (one line each, printed by run-on-gpu.sh); and
//! the run's time budget cut into per-section deadlines.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl From<f64> for J {
    fn from(v: f64) -> J {
        if v.is_finite() {
            J::Num(v)
        } else {
            J::Null
        }
    }
}
impl From<usize> for J {
    fn from(v: usize) -> J {
        J::Num(v as f64)
    }
}
impl From<u64> for J {
    fn from(v: u64) -> J {
        J::Num(v as f64)
    }
}
impl From<u32> for J {
    fn from(v: u32) -> J {
        J::Num(v as f64)
    }
}
impl From<bool> for J {
    fn from(v: bool) -> J {
        J::Bool(v)
    }
}
impl From<&str> for J {
    fn from(v: &str) -> J {
        J::Str(v.to_string())
    }
}
impl From<String> for J {
    fn from(v: String) -> J {
        J::Str(v)
    }
}
impl<T: Into<J>> From<Option<T>> for J {
    fn from(v: Option<T>) -> J {
        v.map_or(J::Null, Into::into)
    }
}
impl From<Vec<J>> for J {
    fn from(v: Vec<J>) -> J {
        J::Arr(v)
    }
}

/// `obj![("key", value), ...]`: a JSON object.
macro_rules! obj {
    ($(($k:expr, $v:expr)),* $(,)?) => {
        $crate::report::J::Obj(vec![$(($k.to_string(), $crate::report::J::from($v))),*])
    };
}
pub(crate) use obj;

impl J {
    fn render(&self, o: &mut String) {
        match self {
            J::Null => o.push_str("null"),
            J::Bool(b) => o.push_str(if *b { "true" } else { "false" }),
            J::Num(v) => {
                if v.fract() == 0.0 && v.abs() < 1e15 {
                    let _ = write!(o, "{}", *v as i64);
                } else {
                    let _ = write!(o, "{v:.6e}");
                }
            }
            J::Str(s) => {
                o.push('"');
                for ch in s.chars() {
                    match ch {
                        '"' => o.push_str("\\\""),
                        '\\' => o.push_str("\\\\"),
                        c if (c as u32) < 0x20 => {
                            let _ = write!(o, "\\u{:04x}", c as u32);
                        }
                        c => o.push(c),
                    }
                }
                o.push('"');
            }
            J::Arr(v) => {
                o.push('[');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    x.render(o);
                }
                o.push(']');
            }
            J::Obj(v) => {
                o.push('{');
                for (i, (k, x)) in v.iter().enumerate() {
                    if i > 0 {
                        o.push_str(",\n ");
                    }
                    J::Str(k.clone()).render(o);
                    o.push_str(": ");
                    x.render(o);
                }
                o.push('}');
            }
        }
    }
    pub fn to_string_pretty(&self) -> String {
        let mut o = String::new();
        self.render(&mut o);
        o
    }
}

/// A point in time a section should not start new work after.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(pub Instant);

impl Deadline {
    pub fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// The record of one run.
pub struct Report {
    path: Option<PathBuf>,
    fields: Vec<(String, J)>,
    key: Vec<String>,
    start: Instant,
    budget: Duration,
    /// Shares of the budget given out to sections so far.
    shares: f64,
}

impl Report {
    pub fn new(path: Option<PathBuf>, budget_s: f64) -> Report {
        Report {
            path,
            fields: Vec::new(),
            key: Vec::new(),
            start: Instant::now(),
            budget: Duration::from_secs_f64(budget_s.max(1.0)),
            shares: 0.0,
        }
    }

    /// The deadline of the next section: the run's start plus the budget's
    /// shares up to and including this one (time a section leaves unused
    /// goes to the ones after it).
    pub fn section(&mut self, name: &str, share: f64) -> Deadline {
        self.shares = (self.shares + share).min(1.0);
        let d = Deadline(self.start + self.budget.mul_f64(self.shares));
        eprintln!(
            "== section {name} (until {:.0} s of the {:.0} s budget; {:.0} s elapsed)",
            self.budget.as_secs_f64() * self.shares,
            self.budget.as_secs_f64(),
            self.start.elapsed().as_secs_f64()
        );
        d
    }

    /// Set (or replace) a top-level field and write the file.
    pub fn set(&mut self, key: &str, v: J) {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(f) => f.1 = v,
            None => self.fields.push((key.to_string(), v)),
        }
        self.flush();
    }

    /// Add a key figure (one line) and write the file.
    pub fn key(&mut self, line: String) {
        eprintln!("KEY {line}");
        self.key.push(line);
        self.flush();
    }

    pub fn to_json(&self) -> J {
        let mut v = self.fields.clone();
        v.push((
            "key_figures".into(),
            J::Arr(self.key.iter().map(|s| J::Str(s.clone())).collect()),
        ));
        v.push((
            "elapsed_s".into(),
            J::from(self.start.elapsed().as_secs_f64()),
        ));
        J::Obj(v)
    }

    /// Write the record now (a temporary file renamed over the old one, so
    /// the file is always whole JSON).
    pub fn flush(&self) {
        let Some(p) = &self.path else { return };
        let tmp = p.with_extension("json.part");
        let text = format!("{}\n", self.to_json().to_string_pretty());
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, p)) {
            eprintln!("keccakx-gpu-bench: writing {}: {e}", p.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_render_as_json() {
        let v = obj![
            ("a", 1.5f64),
            ("b", "x\"y\n"),
            ("c", vec![J::from(3usize), J::Null, J::from(true)]),
            ("d", None::<f64>),
            ("e", f64::NAN)
        ];
        assert_eq!(
            v.to_string_pretty(),
            "{\"a\": 1.500000e0,\n \"b\": \"x\\\"y\\u000a\",\n \"c\": [3, null, true],\n \"d\": null,\n \"e\": null}"
        );
    }

    #[test]
    fn every_section_rewrites_a_whole_file() {
        let dir = std::env::temp_dir().join(format!("kx-gpu-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let mut r = Report::new(Some(path.clone()), 100.0);
        r.set("first", obj![("x", 1usize)]);
        let one = std::fs::read_to_string(&path).unwrap();
        assert!(
            one.contains("\"first\"") && one.contains("\"key_figures\": []"),
            "{one}"
        );
        r.key("perm 1 G/s".into());
        r.set("first", obj![("x", 2usize)]);
        let two = std::fs::read_to_string(&path).unwrap();
        assert!(
            two.contains("\"x\": 2") && two.contains("perm 1 G/s"),
            "{two}"
        );
        assert!(!dir.join("r.json.part").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn section_deadlines_add_up_to_the_budget() {
        let mut r = Report::new(None, 100.0);
        let a = r.section("a", 0.25);
        let b = r.section("b", 0.5);
        let c = r.section("c", 0.5);
        assert!(a.0 < b.0 && b.0 < c.0);
        let d = c.0.duration_since(r.start).as_secs_f64();
        assert!((d - 100.0).abs() < 1e-6, "{d}");
        assert!(!a.passed());
        assert!(Report::new(None, 0.0).section("x", 0.0).passed());
    }
}
