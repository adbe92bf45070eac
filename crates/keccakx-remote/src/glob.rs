//! URL patterns: a prefix (`s3://b/dir/`) or wildcards (`s3://b/a/*.tar`)
//! expanded by listing the store.

use futures::TryStreamExt;
use object_store::path::Path;
use url::Url;

use crate::error::{Error, ErrorKind};
use crate::settings::Settings;
use crate::store::Stores;

fn has_wildcard(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Whether `name` (one segment or, with `**`, several) matches `pat`:
/// `*` any run within a segment, `**` any run, `?` one character,
/// `[abc]`/`[a-z]`/`[!a]` one of a set.
pub(crate) fn matches(pat: &[char], name: &[char]) -> bool {
    match pat.first() {
        None => name.is_empty(),
        Some('*') if pat.get(1) == Some(&'*') => {
            (0..=name.len()).any(|i| matches(&pat[2..], &name[i..]))
        }
        Some('*') => (0..=name.len())
            .take_while(|&i| i == 0 || name[i - 1] != '/')
            .any(|i| matches(&pat[1..], &name[i..])),
        Some('?') => name.first().is_some_and(|&c| c != '/') && matches(&pat[1..], &name[1..]),
        Some('[') => {
            let Some(close) = pat.iter().skip(2).position(|&c| c == ']').map(|p| p + 2) else {
                return name.first() == Some(&'[') && matches(&pat[1..], &name[1..]);
            };
            let Some(&c) = name.first() else { return false };
            let (neg, set) = match pat[1] {
                '!' | '^' => (true, &pat[2..close]),
                _ => (false, &pat[1..close]),
            };
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == '-' {
                    hit |= set[i] <= c && c <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == c;
                    i += 1;
                }
            }
            hit != neg && c != '/' && matches(&pat[close + 1..], &name[1..])
        }
        Some(&p) => name.first() == Some(&p) && matches(&pat[1..], &name[1..]),
    }
}

/// [`Client::expand`](crate::Client::expand).
pub(crate) fn expand(
    rt: &tokio::runtime::Runtime,
    stores: &Stores,
    settings: &Settings,
    pattern: &str,
) -> Result<Vec<String>, Error> {
    let url =
        Url::parse(pattern).map_err(|e| Error::usage(format!("{pattern}: not a URL ({e})")))?;
    let (_, path) = stores.get(settings, pattern)?;
    let key = path.as_ref().to_string();
    let whole = url.path();
    let wild = has_wildcard(whole);
    if !wild && !whole.ends_with('/') {
        return Ok(vec![pattern.to_string()]);
    }
    // The URL up to the object's path: scheme, authority, and the path
    // segments that are not the key's (a bucket named in the path).
    let mut url_segs: Vec<&str> = whole.trim_start_matches('/').split('/').collect();
    if whole.ends_with('/') {
        url_segs.pop();
    }
    let key_segs = if key.is_empty() {
        0
    } else {
        key.split('/').count()
    };
    let lead = url_segs.len().saturating_sub(key_segs);
    let mut base = format!("{}://{}", url.scheme(), url.authority());
    for seg in &url_segs[..lead] {
        base.push('/');
        base.push_str(seg);
    }
    // The object path's literal leading segments: the listing prefix.
    let segs: Vec<&str> = key.split('/').collect();
    let lit = segs.iter().take_while(|s| !has_wildcard(s)).count();
    let prefix = if wild {
        segs[..lit].join("/")
    } else {
        key.clone()
    };
    let (store, _) = stores.get(settings, pattern)?;
    let list_prefix = (!prefix.is_empty()).then(|| Path::from(prefix.as_str()));
    let listing = async {
        store
            .list(list_prefix.as_ref())
            .try_collect::<Vec<_>>()
            .await
    };
    let metas = rt
        .block_on(listing)
        .map_err(|e| Error::new(ErrorKind::Failed, format!("{pattern}: cannot list ({e})")))?;
    let pat: Vec<char> = key.chars().collect();
    let mut out: Vec<String> = metas
        .into_iter()
        .map(|m| m.location.as_ref().to_string())
        .filter(|loc| !wild || matches(&pat, &loc.chars().collect::<Vec<_>>()))
        .map(|loc| format!("{base}/{}", encode_path(&loc)))
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(Error::new(
            ErrorKind::NotFound,
            format!("{pattern}: no objects match"),
        ));
    }
    Ok(out)
}

/// A path as it appears in a URL (reserved characters percent-encoded).
fn encode_path(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for b in p.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'/'
            | b'='
            | b'+'
            | b','
            | b'@'
            | b':' => s.push(b as char),
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, n: &str) -> bool {
        matches(
            &p.chars().collect::<Vec<_>>(),
            &n.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn wildcards() {
        assert!(m("a/*.tar", "a/x.tar"));
        assert!(!m("a/*.tar", "a/b/x.tar"));
        assert!(m("a/**.tar", "a/b/x.tar"));
        assert!(m("a/?.tar", "a/x.tar"));
        assert!(!m("a/?.tar", "a/xy.tar"));
        assert!(m("a/[xy].tar", "a/y.tar"));
        assert!(!m("a/[!xy].tar", "a/y.tar"));
        assert!(m("a/[a-c]1", "a/b1"));
        assert!(m("*", "abc"));
        assert!(!m("*", "a/b"));
        assert!(m("a/*/c", "a/b/c"));
    }

    #[test]
    fn encoded() {
        assert_eq!(encode_path("a b/c%d"), "a%20b/c%25d");
    }
}
