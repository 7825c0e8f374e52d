//! The candidate files of one load, in reading order: policy files, discovery (or the one
//! explicit file, or both), then the plugins the host names.

use crate::config::Candidate;
use crate::harness::{registry, HARNESSES};
use crate::load::{LoadOptions, Policy};
use crate::vocab::Scope;

/// Every candidate file, in reading order.
pub(crate) fn candidates(opts: &LoadOptions) -> Vec<Candidate> {
    let mut list: Vec<Candidate> = Vec::new();
    let policy = match &opts.policy {
        Policy::Off => None,
        Policy::Default => Some(None),
        Policy::At(p) => Some(Some(p.as_path())),
    };
    if let Some(at) = policy {
        list.extend(HARNESSES.iter().flat_map(|h| h.policy_files(at)));
    }
    if opts.discover.unwrap_or(opts.config_path.is_none()) {
        list.extend(registry::discovery(opts.roots()));
    }
    if let Some(p) = &opts.config_path {
        let path = if p.is_absolute() { p.clone() } else { opts.cwd.join(p) };
        list.push(Candidate::settings(path, opts.dialect, Scope::Explicit));
    }
    list.extend(plugin_files(opts));
    if let Some(own) = opts.left_to_harness {
        list.retain(|c| c.dialect != Some(own));
    }
    list
}

/// The files of the plugins the host names.
pub(crate) fn plugin_files(opts: &LoadOptions) -> Vec<Candidate> {
    HARNESSES.iter().flat_map(|h| h.plugin_files(&opts.plugins, &opts.home)).collect()
}
