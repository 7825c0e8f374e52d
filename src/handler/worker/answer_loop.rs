//! Where a worker's answers are read. By default on tokio's reactor, beside everything else;
//! a host with an event loop of its own (the Node addon: the JS thread's libuv loop) can read
//! them there instead, so the callback that reads an answer also settles the host's promise,
//! without waking a second thread on the way.

use futures::future::BoxFuture;
use std::os::fd::OwnedFd;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::AsyncRead;

/// A host event loop that can read pipes and run tasks.
pub trait AnswerLoop: Send + Sync {
    /// A reader of the nonblocking pipe `fd`, driven by this loop: poll it only from a task
    /// given to [`AnswerLoop::spawn`].
    fn pipe(&self, fd: OwnedFd) -> Pin<Box<dyn AsyncRead + Send>>;
    /// Runs `task` on the loop's thread (callable from any thread).
    fn spawn(&self, task: BoxFuture<'static, ()>);
}

/// The host's loop, shared by every worker of a runtime.
#[derive(Clone)]
pub struct HostLoop(pub Arc<dyn AnswerLoop>);

impl std::fmt::Debug for HostLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostLoop")
    }
}
