//! Every integration test that links hookrt, as one test binary: one link of the crate instead
//! of one per file (most of what `cargo test` spends after compiling hookrt). Each module is what
//! used to be its own `tests/<name>.rs`; `tests/architecture.rs` reads only the source and stays
//! apart.

mod common;

mod auggie_engine;
mod callbacks;
mod claude2026;
mod cline_engine;
mod codex_engine;
mod contract;
mod convert;
mod corpus;
mod dialects;
mod fail_closed;
mod faults;
mod fidelity;
mod fuzz;
mod gemini_engine;
mod harness_trust;
mod harnesses;
mod hermes_engine;
mod history;
mod kimi_engine;
mod process;
mod qwen_engine;
mod schema;
mod trust;
mod typescript_types;
