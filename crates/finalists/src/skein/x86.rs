// TEMPORARY
pub(crate) fn select<const NW: usize>() -> Option<(super::UbiFn<NW>, &'static str)> { None }
