//! The contract between a host and its hooks: the stdin each hook reads ([`payload`]), how one
//! run's output is decoded ([`decode`]) and how many runs fold into one outcome ([`fold`]).

pub mod decode;
pub mod fold;
pub mod payload;

pub use fold::{fold, Outcome};
