//! The contract between a host and its hooks: the stdin each hook reads ([`payload`]), how one
//! run's output is decoded ([`decode`]) and how many runs fold into one outcome ([`fold`]).

pub(crate) mod decode;
pub(crate) mod fold;
pub(crate) mod payload;

pub(crate) use fold::fold;
pub use fold::Outcome;
