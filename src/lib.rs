//! hookrt: a hook runtime for AI agent harnesses.
//!
//! The pure core (everything but [`binding`]) finds the hooks users' configuration files
//! declare ([`config`]), plans them for an event ([`event`], [`matcher`]), runs them
//! ([`handler`]), decodes each answer ([`decode`]) and folds them into one decision
//! ([`fold`]). [`runtime`] ties these together; [`protocol`], [`listen`] and [`cli`] serve
//! it over stdio; [`binding`] is the thin napi layer for Node.
#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod background;
pub mod cli;
pub mod config;
pub mod convert;
pub mod decode;
pub mod dialect;
pub mod doctor;
pub mod env_file;
pub mod event;
pub mod event_fields;
pub mod execute;
pub mod fold;
#[doc(hidden)]
pub mod fuzzing;
pub mod handler;
pub mod harness;
pub mod history;
pub mod listen;
pub mod logging;
pub mod matcher;
pub mod options;
pub mod payload;
pub mod permission_rule;
pub mod protocol;
pub mod runtime;
pub mod stop_guard;
pub mod trust;

#[cfg(feature = "napi")]
pub mod binding;
