//! The replier: a folded decision → the harness's own stdout and exit code, for
//! `hookrt hook <harness>`.

use crate::harness::reply::{Reply, Said};

/// How a harness wants its hook to answer when hookrt runs as one.
pub(crate) trait Replier {
    /// Its own hook's answer for what the dispatch decided.
    fn reply(&self, said: &Said) -> Reply {
        crate::harness::family::reply::reply(said)
    }
}
