//! The parameters a function can take, as fields a user sets: the
//! vocabulary of the registry's checks and of [`Error`](crate::Error)'s
//! field-naming variants. The library names a field by [`Field::name`];
//! each front end spells it its own way (the CLI `--rate`, Python `rate=`).

/// Tree LI's name in messages, as its documents write it (the registry's
/// and the mode's errors, and [`Error`](crate::Error)'s hints, use it).
pub const TREE_LI: &str = "tree-LI";

/// What parameters a function takes (for `list` and validation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Output bytes (XOFs and L-binding functions).
    Length,
    /// The customization string S / C.
    Customization,
    /// cSHAKE's N.
    FunctionName,
    /// KMAC's key.
    Key,
    /// ParallelHash's (and tree LI's) block size B.
    BlockSize,
    /// TurboSHAKE's domain byte.
    Domain,
    /// Rate, capacity, width, rounds and suffix: raw Keccak[r, c].
    Sponge,
    /// Degree, height and prefix: tree LI's D, H and P (tree LI also
    /// takes a rate and a capacity for its Keccak[r, c], width 1600).
    Tree,
}

/// One field of [`Params`](crate::registry::Params): what the front ends parse into, and what a
/// row takes when it takes one of the field's [`Param`] groups. The
/// front ends' parsers and the registry's checks are all derived from
/// [`Field::groups`], [`Params::has`](crate::registry::Params::has) and [`Params::take`](crate::registry::Params::take).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Degree,
    Height,
    Prefix,
    Length,
    Customization,
    FunctionName,
    Key,
    BlockSize,
    Domain,
    Width,
    Rounds,
    Suffix,
    Rate,
    Capacity,
}

impl Field {
    /// Every field, in the order the registry reports the first one a
    /// function does not take.
    pub const ALL: [Field; 14] = [
        Field::Degree,
        Field::Height,
        Field::Prefix,
        Field::Length,
        Field::Customization,
        Field::FunctionName,
        Field::Key,
        Field::BlockSize,
        Field::Domain,
        Field::Width,
        Field::Rounds,
        Field::Suffix,
        Field::Rate,
        Field::Capacity,
    ];

    /// The library's name for it, in messages that no front end has
    /// spelled (front ends spell it their own way: [`Error::spelled`](crate::Error::spelled)).
    pub fn name(self) -> &'static str {
        match self {
            Field::Degree => "degree",
            Field::Height => "height",
            Field::Prefix => "prefix",
            Field::Length => "length",
            Field::Customization => "customization",
            Field::FunctionName => "function name",
            Field::Key => "key",
            Field::BlockSize => "block size",
            Field::Domain => "domain",
            Field::Width => "width",
            Field::Rounds => "rounds",
            Field::Suffix => "suffix",
            Field::Rate => "rate",
            Field::Capacity => "capacity",
        }
    }

    /// The parameter groups that take it: a function takes the field when
    /// it takes any of them (raw Keccak and tree LI both take a rate and
    /// a capacity).
    pub fn groups(self) -> &'static [Param] {
        match self {
            Field::Degree | Field::Height | Field::Prefix => &[Param::Tree],
            Field::Length => &[Param::Length],
            Field::Customization => &[Param::Customization],
            Field::FunctionName => &[Param::FunctionName],
            Field::Key => &[Param::Key],
            Field::BlockSize => &[Param::BlockSize],
            Field::Domain => &[Param::Domain],
            Field::Width | Field::Rounds | Field::Suffix => &[Param::Sponge],
            Field::Rate | Field::Capacity => &[Param::Sponge, Param::Tree],
        }
    }
}
