//! The hook model and the machinery every dialect's file reader shares: reading a file into a
//! JSON root ([`file`]), the reading context and entry reader ([`entry`]), matchers
//! ([`matcher`]), Claude's `if` rules ([`if_rule`]), `${…}` expansion ([`template`]) and the
//! hooks they produce ([`hook`]). The dialects' own readers live in `harness/<name>/`.

pub(crate) mod candidate;
pub(crate) mod entry;
pub(crate) mod file;
pub(crate) mod hook;
pub(crate) mod if_rule;
pub(crate) mod matcher;
pub(crate) mod template;

pub use candidate::HomeVars;
pub use candidate::PluginDir;
pub(crate) use candidate::{Candidate, HomeDir, Roots};
pub(crate) use entry::{FileCtx, LoadSink};
pub use hook::Hook;
pub(crate) use hook::{FamilyFields, HandlerSpec, OutboundTarget};
pub(crate) use matcher::Matcher;
pub(crate) use template::Substitutions;
