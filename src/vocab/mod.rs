//! The vocabulary every other layer speaks: canonical events, decisions, dialects and handler
//! kinds, scopes, settings types, diagnostics and the shape of a hook's answer. Nothing here
//! imports anything else of the crate (docs/architecture.md).

pub mod answer;
pub mod decision;
pub mod diagnostic;
pub mod dialect;
pub mod event;
pub mod scope;
pub mod settings;
pub mod text;
pub mod tool;

pub use answer::{Answer, EventFields, Raw, RunOutcome, BLOCKED_BY_HOOK, DENIED_BY_EVALUATION};
pub use decision::Decision;
pub use diagnostic::{Diagnostic, Severity};
pub use dialect::{Dialect, HandlerKind, MatcherStyle};
pub use event::{CanonicalEvent, DispatchEvent, EventSpec, ExitTwo, OutputRule, Subject, ToolResult};
pub use scope::{ApprovalScope, Origin, Scope};
pub use settings::{Concurrency, IfRules, LlmOptions, OnError, Order, ProxyOptions, WorkerSettings};
pub use tool::ToolClass;
