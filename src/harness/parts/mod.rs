//! The parts of a harness's hook engine, one job each (docs/architecture.md "A harness"): the
//! [`Reader`] turns its files into hooks, the [`Planner`] picks and orders them for one fire,
//! the [`AnswerReader`] reads one run's exit code and output, the [`Aggregator`] makes the
//! harness's decision from its own runs, the [`Replier`] speaks that decision back to the
//! harness, the [`TrustGate`] says which hooks may run, the [`Installer`] writes the entries
//! that make the harness run hookrt. Each part's default is the Claude Code
//! family's rule (`harness/family/`); a harness overrides the methods where it differs.

mod aggregator;
mod answer;
mod installer;
mod planner;
mod reader;
mod replier;
mod trust_gate;

pub(crate) use aggregator::Aggregator;
pub(crate) use answer::AnswerReader;
pub(crate) use installer::Installer;
pub(crate) use planner::Planner;
pub(crate) use reader::Reader;
pub(crate) use replier::Replier;
pub(crate) use trust_gate::TrustGate;
