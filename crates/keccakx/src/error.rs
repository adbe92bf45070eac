//! Errors are values: every invalid parameter a user can pass comes back here.
//!
//! The library speaks in fields ([`Field`]), never in a front end's words:
//! the variants that concern a field carry it, [`Display`](fmt::Display)
//! names it by [`Field::name`], and a front end words the same error in its
//! own spelling with [`Error::spelled`] (the CLI `--rate`, Python `rate`).

use alloc::string::String;
use core::fmt::{self, Write};

use crate::field::Field;

/// What went wrong, worded so a user can act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Permutation width not in {25, 50, 100, 200, 400, 800, 1600}.
    InvalidWidth(usize),
    /// Round count outside 1..=12+2ℓ for the width.
    InvalidRounds {
        width: usize,
        rounds: usize,
        max: usize,
    },
    /// Rate must satisfy 0 < rate < width (in bits).
    InvalidRate { width: usize, rate: usize },
    /// Suffix longer than 7 bits.
    InvalidSuffix { len: u8 },
    /// A parameter outside its documented range.
    InvalidParameter(&'static str),
    /// `function` does not take `field`.
    NotTaken {
        function: &'static str,
        field: Field,
    },
    /// `function` needs one of `fields` (one field, or either of two).
    Missing {
        function: &'static str,
        fields: &'static [Field],
    },
    /// Two fields whose sum breaks `rule` (raw Keccak's rate + capacity and
    /// width; tree LI's rate + capacity and Keccak-f\[1600\]).
    Sum {
        function: &'static str,
        parts: [Field; 2],
        rule: SumRule,
    },
    /// `field` of `function` outside `range` (as a user writes it:
    /// "1..=255", "a multiple of 8 bits in 8..=1592").
    OutOfRange {
        function: &'static str,
        field: Field,
        range: &'static str,
    },
}

/// What the sum of two fields must be ([`Error::Sum`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SumRule {
    /// Equal to another field (rate + capacity = width).
    EqualsField(Field),
    /// Exactly this many bits.
    Equals(usize),
    /// At most this many bits (larger than any Keccak width otherwise).
    AtMost(usize),
}

pub type Result<T> = core::result::Result<T, Error>;

impl Error {
    /// The message, with every field spelled by `spell` (a front end's
    /// flag or keyword name); [`Display`](fmt::Display) is this with
    /// [`Field::name`].
    pub fn spelled(&self, spell: &dyn Fn(Field) -> String) -> String {
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = self.write(&mut s, spell);
        s
    }

    /// The field the error is about, where it is about one (the first of
    /// several): for a front end that reports by argument.
    pub fn field(&self) -> Option<Field> {
        match self {
            Error::NotTaken { field, .. } | Error::OutOfRange { field, .. } => Some(*field),
            Error::Missing { fields, .. } => fields.first().copied(),
            Error::Sum { parts, .. } => Some(parts[0]),
            _ => None,
        }
    }

    fn write(&self, f: &mut dyn Write, spell: &dyn Fn(Field) -> String) -> fmt::Result {
        match self {
            Error::InvalidWidth(w) => write!(
                f,
                "invalid Keccak-p width {w}: must be one of 25, 50, 100, 200, 400, 800, 1600"
            ),
            Error::InvalidRounds { width, rounds, max } => write!(
                f,
                "invalid round count {rounds} for width {width}: must be 1..={max}"
            ),
            Error::InvalidRate { width, rate } => write!(
                f,
                "invalid rate {rate} bits for width {width}: need 0 < rate < width"
            ),
            Error::InvalidSuffix { len } => {
                write!(f, "invalid suffix length {len} bits: at most 7 bits")
            }
            Error::InvalidParameter(msg) => f.write_str(msg),
            Error::NotTaken { function, field } => {
                write!(f, "{function} takes no {}", spell(*field))?;
                not_taken_hint(f, function, *field, spell)
            }
            Error::Missing { function, fields } => {
                write!(f, "{function} needs ")?;
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" and/or ")?;
                    }
                    f.write_str(&spell(*field))?;
                }
                Ok(())
            }
            Error::Sum {
                function,
                parts: [a, b],
                rule,
            } => {
                let (a, b) = (spell(*a), spell(*b));
                match rule {
                    SumRule::EqualsField(w) => {
                        write!(f, "{function}: {a} + {b} must equal {}", spell(*w))
                    }
                    SumRule::Equals(n) => write!(f, "{function}: {a} + {b} must be {n} bits"),
                    SumRule::AtMost(n) => write!(
                        f,
                        "{function}: {a} + {b} is larger than any Keccak width ({n} bits at most)"
                    ),
                }
            }
            Error::OutOfRange {
                function,
                field,
                range,
            } => write!(f, "{function} {} must be {range}", spell(*field)),
        }
    }
}

/// What a user of `function` may have meant instead of `field`.
fn not_taken_hint(
    f: &mut dyn Write,
    function: &str,
    field: Field,
    spell: &dyn Fn(Field) -> String,
) -> fmt::Result {
    use crate::field::Param;
    let tree = function == crate::field::TREE_LI;
    match field {
        Field::Key if tree => write!(f, " (use {} for a key)", spell(Field::Prefix)),
        Field::Width if tree => f.write_str(" (tree-LI uses Keccak-f[1600])"),
        Field::Length => f.write_str(" (its output length is fixed)"),
        _ if tree => Ok(()),
        _ if field.groups() == [Param::Tree] => write!(
            f,
            " ({}, {} and {} are tree-LI parameters)",
            spell(Field::Degree),
            spell(Field::Height),
            spell(Field::Prefix)
        ),
        _ if field.groups().contains(&Param::Sponge) => write!(
            f,
            " (only raw Keccak takes {}, {}, {}, {} and {})",
            spell(Field::Rate),
            spell(Field::Capacity),
            spell(Field::Width),
            spell(Field::Rounds),
            spell(Field::Suffix)
        ),
        _ => Ok(()),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &|field| String::from(field.name()))
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
