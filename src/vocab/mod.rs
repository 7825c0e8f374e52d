//! The vocabulary every other layer speaks: canonical events, decisions, dialects and handler
//! kinds, scopes, settings types, diagnostics and the shape of a hook's answer. Nothing here
//! imports anything else of the crate (docs/architecture.md).

pub(crate) mod answer;
pub(crate) mod decision;
pub(crate) mod diagnostic;
pub(crate) mod dialect;
pub(crate) mod event;
pub(crate) mod field;
pub(crate) mod files;
pub(crate) mod harnesses;
pub(crate) mod host;
pub(crate) mod scope;
pub(crate) mod settings;
pub(crate) mod text;
pub(crate) mod tool;
pub(crate) mod version;

pub(crate) use answer::{Answer, BLOCKED_BY_HOOK, DENIED_BY_EVALUATION};
pub use answer::{EventFields, Raw, RunOutcome};
pub use decision::Decision;
pub use diagnostic::{Diagnostic, Severity};
pub use dialect::Dialect;
pub(crate) use dialect::{HandlerKind, MatcherStyle};
pub use event::CanonicalEvent;
pub(crate) use event::{DispatchEvent, EventSpec, ExitTwo, OutputRule, Subject, ToolResult};
pub(crate) use field::field;
pub use host::HostHarness;
pub(crate) use host::{hook_call, hookrt_entry, hookrt_url, SERVE_TOKEN_VAR};
pub(crate) use scope::Origin;
pub use scope::{ApprovalScope, Scope};
pub(crate) use settings::Shell;
pub use settings::{Concurrency, Fidelity, IfRules, LlmOptions, OnError, ProxyOptions};
pub(crate) use settings::{Order, WorkerSettings};
pub(crate) use tool::ToolClass;
pub(crate) use version::{Change, Releases};
pub use version::{HarnessVersions, Version};
