//! From the `sum` command line to the library's [`Params`]: the key (from
//! hex or a file), the strings, the numbers. Validation that needs the
//! algorithm happens in `algo::Algo::new`.

use std::ffi::OsString;
use std::io::Read;

use keccakx::registry::Params;

use crate::cli::SumArgs;
use crate::error::Error;
use crate::escape::{os_bytes, quote_os};

/// Largest key file read by --key-file.
const MAX_KEY_FILE: u64 = 1 << 20;

fn os_to_bytes(s: &Option<OsString>) -> Vec<u8> {
    s.as_ref().map(|s| os_bytes(s).to_vec()).unwrap_or_default()
}

/// The library parameters from the command line; [`Error::Params`] for a
/// key refused, [`Error::Read`] for a key file that cannot be read.
pub fn params_from(a: &SumArgs) -> Result<Params, Error> {
    let key = match (&a.key_hex, &a.key_file) {
        (Some(k), _) if k.0.is_empty() && !a.allow_empty_key => {
            return Err(Error::Params(
                "--key-hex: the key is empty; KMAC with an empty key is a keyless hash \
                 (give --allow-empty-key if that is what you want)"
                    .into(),
            ));
        }
        (Some(k), _) => Some(k.0.clone()),
        (None, Some(path)) => {
            let stdin = path.as_os_str() == "-";
            if stdin && (a.files.is_empty() || a.files.iter().any(|f| f == "-")) {
                return Err(Error::Usage(
                    "--key-file -: standard input holds the key, so it cannot be an input too; \
                     name the input files"
                        .into(),
                ));
            }
            let read = if stdin {
                let mut v = Vec::new();
                crate::stdio::stdin_checked()
                    .and_then(|s| s.take(MAX_KEY_FILE + 1).read_to_end(&mut v))
                    .map(|_| v)
            } else {
                std::fs::File::open(path).and_then(|f| {
                    let mut v = Vec::new();
                    f.take(MAX_KEY_FILE + 1).read_to_end(&mut v).map(|_| v)
                })
            };
            match read {
                Ok(v) if v.len() as u64 > MAX_KEY_FILE => {
                    return Err(Error::Params(format!(
                        "--key-file {}: larger than {MAX_KEY_FILE} bytes",
                        quote_os(path.as_os_str())
                    )));
                }
                Ok(v) if v.is_empty() && !a.allow_empty_key => {
                    return Err(Error::Params(format!(
                        "--key-file {}: the file is empty; KMAC with an empty key is a keyless \
                         hash (give --allow-empty-key if that is what you want)",
                        quote_os(path.as_os_str())
                    )));
                }
                Ok(v) => Some(v),
                Err(err) => {
                    return Err(Error::Read {
                        what: format!("--key-file {}", quote_os(path.as_os_str())),
                        err,
                    });
                }
            }
        }
        (None, None) => None,
    };
    let prefix = match (&a.prefix, &a.prefix_hex) {
        (Some(s), _) => Some(os_bytes(s).to_vec()),
        (None, Some(h)) => Some(h.0.clone()),
        (None, None) => None,
    };
    Ok(Params {
        length: a.length,
        customization: os_to_bytes(&a.customization),
        function_name: os_to_bytes(&a.function_name),
        key,
        block_size: a.block_size,
        domain: a.domain,
        width: a.width,
        rate: a.rate,
        capacity: a.capacity,
        rounds: a.rounds,
        suffix: a.suffix,
        degree: a.degree,
        height: a.height,
        prefix,
    })
}
