//! The hook model and the machinery every dialect's file reader shares: reading a file into a
//! JSON root ([`file`]), the reading context and entry reader ([`entry`]), matchers
//! ([`matcher`]), Claude's `if` rules ([`if_rule`]), `${…}` expansion ([`template`]) and the
//! hooks they produce ([`hook`]). The dialects' own readers live in `harness/<name>/`.

pub mod candidate;
pub mod entry;
pub mod file;
pub mod hook;
pub mod if_rule;
pub mod matcher;
pub mod template;

pub use candidate::{Candidate, PluginDir, Roots};
pub use entry::{FileCtx, LoadSink};
pub use hook::{ClaudeFields, HandlerSpec, Hook, OutboundTarget};
pub use matcher::Matcher;
pub use template::Substitutions;
