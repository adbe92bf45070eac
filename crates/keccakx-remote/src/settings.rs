//! How objects are read: parts, concurrency, timeouts, retries; from the
//! environment (`KECCAKX_OBJECT_*`).

use std::time::Duration;

use crate::error::Error;

/// Reading settings. [`Settings::default`] is what the CLI uses unless the
/// environment says otherwise.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Ranged GETs in flight per object (tree modes).
    pub jobs: usize,
    /// Bytes per ranged GET, rounded to the mode's chunk size.
    pub part: u64,
    /// A request, or a pause inside a response's body, longer than this
    /// fails the attempt (then retried).
    pub timeout: Duration,
    /// Attempts after the first for transient failures.
    pub retries: u32,
    /// Backoff before the first retry; doubled for each next one.
    pub backoff: Duration,
    /// Network threads (0: one per core). They also run the parts' sinks
    /// ([`Client::read_parts_with`](crate::Client::read_parts_with)): the
    /// CLI hashes there, so this is its hashing threads' number too.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            jobs: 8,
            part: 8 << 20,
            timeout: Duration::from_secs(30),
            retries: 4,
            backoff: Duration::from_millis(200),
            threads: 0,
        }
    }
}

/// `123`, `64K`, `8M`, `1G` (binary multiples).
fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, shift) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 10),
        (i, 'm' | 'M') => (&s[..i], 20),
        (i, 'g' | 'G') => (&s[..i], 30),
        _ => (s, 0),
    };
    num.parse::<u64>().ok()?.checked_mul(1 << shift)
}

impl Settings {
    /// The defaults, changed by `KECCAKX_OBJECT_JOBS` (1-256),
    /// `KECCAKX_OBJECT_PART` (bytes, K/M/G suffix; 64K-1G),
    /// `KECCAKX_OBJECT_TIMEOUT` (seconds, may be fractional) and
    /// `KECCAKX_OBJECT_RETRIES` (0-20).
    pub fn from_env() -> Result<Settings, Error> {
        let mut s = Settings::default();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let bad =
            |name: &str, v: &str, want: &str| Error::usage(format!("{name}={v}: expected {want}"));
        if let Some(v) = var("KECCAKX_OBJECT_JOBS") {
            s.jobs = v
                .parse()
                .ok()
                .filter(|n| (1..=256).contains(n))
                .ok_or_else(|| bad("KECCAKX_OBJECT_JOBS", &v, "a count from 1 to 256"))?;
        }
        if let Some(v) = var("KECCAKX_OBJECT_PART") {
            s.part = parse_size(&v)
                .filter(|n| (64 << 10..=1 << 30).contains(n))
                .ok_or_else(|| bad("KECCAKX_OBJECT_PART", &v, "a size from 64K to 1G"))?;
        }
        if let Some(v) = var("KECCAKX_OBJECT_TIMEOUT") {
            s.timeout = v
                .parse::<f64>()
                .ok()
                .filter(|t| *t > 0.0 && *t <= 86400.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| bad("KECCAKX_OBJECT_TIMEOUT", &v, "seconds (0 < t <= 86400)"))?;
        }
        if let Some(v) = var("KECCAKX_OBJECT_RETRIES") {
            s.retries = v
                .parse()
                .ok()
                .filter(|n| *n <= 20)
                .ok_or_else(|| bad("KECCAKX_OBJECT_RETRIES", &v, "a count from 0 to 20"))?;
        }
        Ok(s)
    }

    /// The bytes per ranged GET for a mode whose pieces are `unit` bytes:
    /// [`Settings::part`] rounded down to a whole number of pieces.
    pub fn part_for(&self, unit: u64) -> u64 {
        part_size(self.part, unit)
    }

    /// The memory one object's ranged reads hold at most when whole parts
    /// are kept ([`Client::read_parts`](crate::Client::read_parts)).
    pub fn parts_bound(&self, unit: u64) -> u64 {
        (self.jobs as u64 + 1) * part_size(self.part, unit)
    }
}

/// The part size: `part` rounded down to a multiple of `unit` (at least one unit).
pub(crate) fn part_size(part: u64, unit: u64) -> u64 {
    let unit = unit.max(1);
    (part / unit).max(1) * unit
}

/// One read's retry budget, the same for every kind of read: up to
/// `retries` more tries of a transient failure, waiting `backoff`, then
/// twice as long each time, at most 16 × `backoff`.
pub(crate) struct Retries<'a> {
    settings: &'a Settings,
    tries: u32,
    delay: Duration,
}

impl<'a> Retries<'a> {
    pub(crate) fn new(settings: &'a Settings) -> Self {
        Retries {
            settings,
            tries: 0,
            delay: settings.backoff,
        }
    }

    /// After a failure: true (having waited) when it is transient and
    /// tries remain.
    pub(crate) async fn again(&mut self, transient: bool) -> bool {
        if !transient || self.tries >= self.settings.retries {
            return false;
        }
        self.tries += 1;
        tokio::time::sleep(self.delay).await;
        self.delay = (self.delay * 2).min(self.settings.backoff * 16);
        true
    }

    /// Bytes arrived: the next failure starts a fresh count of tries (the
    /// wait keeps the length it reached).
    pub(crate) fn progressed(&mut self) {
        self.tries = 0;
    }

    /// The error that ends the read, saying how many retries it took.
    pub(crate) fn give_up(&self, mut e: Error, transient: bool) -> Error {
        if transient && self.tries > 0 {
            e.msg = format!("{} (after {} retries)", e.msg, self.tries);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8M"), Some(8 << 20));
        assert_eq!(parse_size("64k"), Some(64 << 10));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("x"), None);
        assert_eq!(part_size(8 << 20, 8192), 8 << 20);
        assert_eq!(part_size(10_000, 8192), 8192);
        assert_eq!(part_size(100, 8192), 8192);
        assert_eq!(part_size(30_000, 3000), 30_000);
        assert_eq!(part_size(5, 0), 5);
        assert_eq!(parse_size(""), None);
    }
}
