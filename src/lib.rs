//! hookrt: a hook runtime for AI agent harnesses.
//!
//! Layers, each importing only the ones below it (docs/architecture.md; `tests/architecture.rs`
//! checks): `vocab` → `config` (the hook model and file-reading machinery) → `harness` (one
//! folder per harness) → `load` (files → hook table) → `contract` (stdin, decoding, folding) →
//! `handler` (how each kind of hook runs) → `runtime` (options, dispatch, history) → the faces
//! (`protocol`, `listen`, [`cli`], `doctor`, `convert`, the napi `binding`). Every module is
//! private; what hosts and tests use is re-exported here.
#![deny(clippy::unwrap_used, clippy::expect_used)]
#![warn(unreachable_pub)]

pub mod cli;
mod config;
mod contract;
mod convert;
mod doctor;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod handler;
mod harness;
mod inside;
mod listen;
mod load;
mod protocol;
mod runtime;
mod vocab;

#[cfg(feature = "napi")]
mod binding;

pub use config::if_rule::{Call as IfCall, Rule as IfRule};
pub use config::{HomeVars, Hook, PluginDir};
pub use contract::decode::decode;
pub use contract::Outcome;
pub use convert::{convert_file, Converted, Format};
pub use handler::callback::{Answer as CallbackAnswer, CallbackCall, CallbackCaller, CallbackHost, GiveUp};
pub use handler::oracle::parse_answer as parse_oracle_answer;
pub use harness::reply::Reply;
pub use harness::schema::{
    check_file as check_schema_at, check_root as check_schema, schema_of, SchemaProblem, SCHEMA_BASE,
};
pub use harness::{all_dispatch_names, event_names};
pub use inside::install::{
    Change as InstallChange, InstallError, InstallScope, Plan as InstallPlan, Target as InstallTarget,
};
pub use load::script::{hash_file, script_hash, script_of};
pub use load::{
    legacy_store_path, load, parse_text, store_path, ListedHook, LoadOptions, Loaded, Skipped, Source, Subject,
    TrustEntry, TrustEnv, TrustStatus, TrustStore, Verdict,
};
pub use protocol::{parse_line, quick_answer};
pub use runtime::background::Rewake;
pub use runtime::dispatch::Planned;
pub use runtime::execute::{Progress, ProgressSink};
pub use runtime::history::view::read as read_history;
pub use runtime::history::{rotated as rotated_history, HistoryOptions};
pub use runtime::host_hooks::{CallbackHooks, CallbackMatcher, CallbackRef, HostHooksError};
pub use runtime::host_round::{HostRound, RoundCall, Started};
pub use runtime::options::{OptionsError, RuntimeOptions, DEFAULT_OUTPUT_CAP};
pub use runtime::wire::schemas as wire_schemas;
pub use runtime::{BaseEnv, DispatchError, DispatchRequest, DispatchResult, Host, Run, Runtime};
pub use vocab::{
    ApprovalScope, CanonicalEvent, Concurrency, Decision, Diagnostic, Dialect, EventFields, Fidelity, HarnessVersions,
    HostHarness, IfRules, LlmOptions, OnError, ProxyOptions, Raw, RunOutcome, Scope, Severity, Version,
};
