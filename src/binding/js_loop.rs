//! Dispatches run on the JS thread, and worker answers are read by the JS thread's own libuv
//! loop.
//!
//! Through napi's `async fn` a dispatch crosses threads twice (JS → tokio to start, tokio → JS
//! to settle) and a worker's answer once more (tokio reads it, then wakes the JS thread): most
//! of a worker hook's cost over the bare pipe round trip. Here a dispatch is polled in the
//! call itself, a worker's stdout is watched by a `uv_poll_t` on the JS loop, and the callback
//! that reads an answer goes on to poll the waiting dispatch and settle its promise. What a
//! dispatch waits on elsewhere (timers, command hooks, HTTP, the host's abort) stays on
//! tokio, whose wakers post back here through one `uv_async_t`.
//!
//! Everything here that touches a uv handle or the napi env runs on the loop's own thread:
//! [`Loop`] lives in a thread-local, and the only parts other threads reach ([`Shared`]) are
//! a mutex-guarded inbox and `uv_async_send`, which libuv makes thread-safe.

use crate::handler::worker::AnswerLoop;
use futures::future::BoxFuture;
use napi::{sys, Status};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::future::Future;
use std::os::fd::{AsRawFd, OwnedFd};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::ptr::null_mut;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::ThreadId;
use tokio::io::{AsyncRead, ReadBuf};

/// libuv, as Node exports it to addons.
mod uv {
    use std::alloc::Layout;
    use std::ffi::{c_int, c_void};

    /// `UV_ASYNC` and `UV_POLL` of `uv_handle_type`, and `UV_READABLE`.
    pub(super) const ASYNC: c_int = 1;
    pub(super) const POLL: c_int = 8;
    pub(super) const READABLE: c_int = 1;

    pub(super) type AsyncCb = unsafe extern "C" fn(*mut c_void);
    pub(super) type PollCb = unsafe extern "C" fn(*mut c_void, c_int, c_int);
    pub(super) type CloseCb = unsafe extern "C" fn(*mut c_void);

    extern "C" {
        fn uv_handle_size(kind: c_int) -> usize;
        pub(super) fn uv_async_init(lp: *mut c_void, h: *mut c_void, cb: AsyncCb) -> c_int;
        pub(super) fn uv_async_send(h: *mut c_void) -> c_int;
        pub(super) fn uv_poll_init(lp: *mut c_void, h: *mut c_void, fd: c_int) -> c_int;
        pub(super) fn uv_poll_start(h: *mut c_void, events: c_int, cb: PollCb) -> c_int;
        pub(super) fn uv_poll_stop(h: *mut c_void) -> c_int;
        pub(super) fn uv_close(h: *mut c_void, cb: CloseCb);
        pub(super) fn uv_ref(h: *mut c_void);
        pub(super) fn uv_unref(h: *mut c_void);
    }

    fn layout(kind: c_int) -> Option<Layout> {
        // SAFETY: a plain query of the running libuv.
        let size = unsafe { uv_handle_size(kind) };
        Layout::from_size_align(size.max(16), 16).ok()
    }

    /// A zeroed handle of `kind` (sized by the running libuv), or null.
    pub(super) fn alloc(kind: c_int) -> *mut c_void {
        // SAFETY: the layout is non-zero.
        layout(kind).map_or(std::ptr::null_mut(), |l| unsafe { std::alloc::alloc_zeroed(l) }.cast())
    }

    /// Frees a handle from [`alloc`] (after its close callback).
    ///
    /// # Safety
    /// `h` came from `alloc(kind)` and libuv no longer uses it.
    pub(super) unsafe fn free(h: *mut c_void, kind: c_int) {
        if let Some(l) = layout(kind) {
            std::alloc::dealloc(h.cast(), l);
        }
    }

    /// A handle's `data` field, the first of every uv handle.
    ///
    /// # Safety
    /// `h` is a live handle from [`alloc`].
    pub(super) unsafe fn data(h: *mut c_void) -> *mut c_void {
        *h.cast::<*mut c_void>()
    }

    /// # Safety
    /// `h` is a live handle from [`alloc`].
    pub(super) unsafe fn set_data(h: *mut c_void, d: *mut c_void) {
        *h.cast::<*mut c_void>() = d;
    }
}

/// A dispatch's answer: the result JSON, or the status and message it rejects with.
pub(super) type Settled = Result<String, (Status, String)>;

/// Rounds of polling one drain does before it lets the loop turn.
const MAX_ROUNDS: usize = 64;

thread_local! {
    /// This thread's loop, made by the first runtime created on it.
    static LOOP: RefCell<Option<Rc<Loop>>> = const { RefCell::new(None) };
    /// The loop whose tasks this thread is polling right now: its wakers need no `uv_async_send`.
    static DRAINING: Cell<*const Shared> = const { Cell::new(std::ptr::null()) };
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What other threads may reach of a loop.
struct Shared {
    inbox: Mutex<Inbox>,
}

struct Inbox {
    /// The loop's `uv_async_t`; null once the loop is torn down.
    wake: *mut c_void,
    woken: Vec<u64>,
    spawned: Vec<BoxFuture<'static, ()>>,
}

// SAFETY: `wake` is only passed to `uv_async_send`, which may be called from any thread, and
// only while the mutex is held and the handle open (teardown nulls it under the same mutex).
unsafe impl Send for Inbox {}

impl Shared {
    /// Puts something in the inbox and makes the loop look, unless it is looking already.
    fn post(&self, put: impl FnOnce(&mut Inbox)) {
        let mut inbox = lock(&self.inbox);
        if inbox.wake.is_null() {
            return;
        }
        put(&mut inbox);
        if !std::ptr::eq(DRAINING.with(Cell::get), self) {
            // SAFETY: the handle is open (checked above, under the mutex teardown takes).
            unsafe { uv::uv_async_send(inbox.wake) };
        }
    }
}

/// Wakes one task of a loop from any thread.
struct TaskWaker {
    shared: Arc<Shared>,
    id: u64,
}

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.shared.post(|i| i.woken.push(self.id));
    }
}

struct Task {
    fut: Pin<Box<dyn Future<Output = Settled>>>,
    /// The promise it settles (none for background tasks such as answer readers).
    deferred: Option<sys::napi_deferred>,
    waker: Waker,
}

/// The JS thread's executor: tasks, the `uv_async_t` that brings wakes from other threads,
/// and what settling a promise from a loop callback needs.
pub(super) struct Loop {
    env: sys::napi_env,
    uv_loop: *mut c_void,
    shared: Arc<Shared>,
    wake: *mut c_void,
    tasks: RefCell<FxHashMap<u64, Task>>,
    next_id: Cell<u64>,
    /// Promises not settled yet: while there are any, the async handle keeps Node running
    /// (as a pending napi `async fn` does).
    unsettled: Cell<usize>,
    /// The resource and async context of the callback scope settling runs in, so microtasks
    /// (the host's `await`) run right after.
    resource: sys::napi_ref,
    context: sys::napi_async_context,
    rt: tokio::runtime::Handle,
}

fn check(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(Status::GenericFailure, format!("cannot set up the dispatch loop: {what}")))
    }
}

/// A JS string, or null when it cannot be made.
///
/// # Safety
/// On the env's thread, inside a handle scope.
unsafe fn js_string(env: sys::napi_env, s: &str) -> sys::napi_value {
    let mut v = null_mut();
    sys::napi_create_string_utf8(env, s.as_ptr().cast(), s.len() as isize, &mut v);
    v
}

impl Loop {
    /// This thread's loop, set up on first use.
    pub(super) fn here(env: sys::napi_env) -> napi::Result<Rc<Loop>> {
        if let Some(l) = LOOP.with(|l| l.borrow().clone()) {
            return Ok(l);
        }
        let rt = super::tokio_handle()
            .ok_or_else(|| napi::Error::new(Status::GenericFailure, "no async runtime for dispatches"))?;
        // SAFETY: called from a napi call on the env's own thread.
        let lp = Rc::new(unsafe { Self::new(env, rt)? });
        LOOP.with(|l| *l.borrow_mut() = Some(lp.clone()));
        Ok(lp)
    }

    /// # Safety
    /// On the env's thread, inside a napi call.
    unsafe fn new(env: sys::napi_env, rt: tokio::runtime::Handle) -> napi::Result<Loop> {
        let mut uv_loop = null_mut();
        check(sys::napi_get_uv_event_loop(env, &mut uv_loop), "napi_get_uv_event_loop")?;
        let uv_loop: *mut c_void = uv_loop.cast();
        let wake = uv::alloc(uv::ASYNC);
        if wake.is_null() || uv::uv_async_init(uv_loop, wake, on_wake) != 0 {
            if !wake.is_null() {
                uv::free(wake, uv::ASYNC);
            }
            return Err(napi::Error::new(Status::GenericFailure, "cannot set up the dispatch loop: uv_async_init"));
        }
        uv::uv_unref(wake);
        let (mut obj, mut resource, mut context) = (null_mut(), null_mut(), null_mut());
        check(sys::napi_create_object(env, &mut obj), "napi_create_object")?;
        check(sys::napi_create_reference(env, obj, 1, &mut resource), "napi_create_reference")?;
        check(sys::napi_async_init(env, obj, js_string(env, "hookrt.dispatch"), &mut context), "napi_async_init")?;
        check(sys::napi_add_env_cleanup_hook(env, Some(teardown), null_mut()), "napi_add_env_cleanup_hook")?;
        let inbox = Inbox { wake, woken: Vec::new(), spawned: Vec::new() };
        Ok(Loop {
            env,
            uv_loop,
            shared: Arc::new(Shared { inbox: Mutex::new(inbox) }),
            wake,
            tasks: RefCell::default(),
            next_id: Cell::new(1),
            unsettled: Cell::new(0),
            resource,
            context,
            rt,
        })
    }

    /// The handle runtimes give their worker pool.
    pub(super) fn answer_loop(&self) -> Arc<dyn AnswerLoop> {
        Arc::new(LoopHandle { shared: self.shared.clone(), thread: std::thread::current().id() })
    }

    /// Starts a dispatch: polled at once (a dispatch that waits on nothing settles before this
    /// returns), then whenever woken. Returns its promise.
    ///
    /// Call from a napi call on the loop's thread.
    pub(super) fn start(&self, fut: impl Future<Output = Settled> + 'static) -> napi::Result<sys::napi_value> {
        let (mut deferred, mut promise) = (null_mut(), null_mut());
        // SAFETY: inside a napi call on the env's thread.
        check(unsafe { sys::napi_create_promise(self.env, &mut deferred, &mut promise) }, "napi_create_promise")?;
        if self.unsettled.replace(self.unsettled.get() + 1) == 0 {
            // SAFETY: the handle is open while the loop exists.
            unsafe { uv::uv_ref(self.wake) };
        }
        let id = self.insert(Box::pin(fut), Some(deferred));
        lock(&self.shared.inbox).woken.push(id);
        self.drain(|| {});
        Ok(promise)
    }

    fn insert(&self, fut: Pin<Box<dyn Future<Output = Settled>>>, deferred: Option<sys::napi_deferred>) -> u64 {
        let id = self.next_id.replace(self.next_id.get() + 1);
        let waker = Waker::from(Arc::new(TaskWaker { shared: self.shared.clone(), id }));
        self.tasks.borrow_mut().insert(id, Task { fut, deferred, waker });
        id
    }

    /// Runs `f` (which wakes tasks, such as an answer handed over by JS), then polls what it
    /// woke before returning. Call from a napi call on the loop's thread.
    pub(super) fn wake_here(&self, f: impl FnOnce()) {
        self.drain(f);
    }

    /// Runs `first` (a callback's wakes), then polls woken tasks until none is left (or
    /// [`MAX_ROUNDS`] have passed).
    fn drain(&self, first: impl FnOnce()) {
        let outer = DRAINING.with(|d| d.replace(Arc::as_ptr(&self.shared)));
        let _rt = self.rt.enter();
        first();
        for round in 0.. {
            let (woken, spawned) = {
                let mut inbox = lock(&self.shared.inbox);
                if round == MAX_ROUNDS && !inbox.wake.is_null() && !(inbox.woken.is_empty() && inbox.spawned.is_empty())
                {
                    // Tasks that keep waking each other: go on in the next loop turn, so JS
                    // (timers, I/O) gets the thread in between.
                    // SAFETY: the handle is open while the loop exists.
                    unsafe { uv::uv_async_send(inbox.wake) };
                    break;
                }
                (std::mem::take(&mut inbox.woken), std::mem::take(&mut inbox.spawned))
            };
            if woken.is_empty() && spawned.is_empty() {
                break;
            }
            for fut in spawned {
                let id = self.insert(
                    Box::pin(async move {
                        fut.await;
                        Ok(String::new())
                    }),
                    None,
                );
                self.poll(id);
            }
            for id in woken {
                self.poll(id);
            }
        }
        DRAINING.with(|d| d.set(outer));
    }

    fn poll(&self, id: u64) {
        // Out of the map while polling: the task may start others.
        let Some(mut task) = self.tasks.borrow_mut().remove(&id) else { return };
        let mut cx = Context::from_waker(&task.waker);
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| task.fut.as_mut().poll(&mut cx)));
        match polled {
            Ok(Poll::Pending) => {
                self.tasks.borrow_mut().insert(id, task);
            }
            Ok(Poll::Ready(r)) => self.settle(task.deferred, r),
            Err(_) => self.settle(task.deferred, Err((Status::GenericFailure, "hookrt: dispatch failed".into()))),
        }
    }

    fn settle(&self, deferred: Option<sys::napi_deferred>, r: Settled) {
        let Some(d) = deferred else { return };
        // SAFETY: on the env's thread, inside a napi call or a callback scope of ours; the
        // deferred is settled exactly once (its task is gone).
        unsafe {
            match r {
                Ok(json) => {
                    sys::napi_resolve_deferred(self.env, d, js_string(self.env, &json));
                }
                Err((status, message)) => {
                    let mut err = null_mut();
                    let (code, msg) = (js_string(self.env, status.as_ref()), js_string(self.env, &message));
                    sys::napi_create_error(self.env, code, msg, &mut err);
                    sys::napi_reject_deferred(self.env, d, err);
                }
            }
        }
        let left = self.unsettled.get().saturating_sub(1);
        self.unsettled.set(left);
        if left == 0 {
            // SAFETY: the handle is open while the loop exists.
            unsafe { uv::uv_unref(self.wake) };
        }
    }

    /// Runs `f` from a bare loop callback as Node runs its own: in a handle scope and a
    /// callback scope, whose end runs the microtasks the settled promises queued.
    fn in_callback(&self, f: impl FnOnce()) {
        // SAFETY: loop callbacks run on the env's thread, outside any JS frame.
        unsafe {
            let mut hs = null_mut();
            let handles = sys::napi_open_handle_scope(self.env, &mut hs) == sys::Status::napi_ok;
            let (mut res, mut cs) = (null_mut(), null_mut());
            sys::napi_get_reference_value(self.env, self.resource, &mut res);
            let scoped = !res.is_null()
                && sys::napi_open_callback_scope(self.env, res, self.context, &mut cs) == sys::Status::napi_ok;
            f();
            if scoped {
                sys::napi_close_callback_scope(self.env, cs);
            }
            if handles {
                sys::napi_close_handle_scope(self.env, hs);
            }
        }
    }
}

/// The env of this thread's loop while it is polling its tasks (inside a napi call or a
/// callback scope of ours, where JS may be called): a task polled there may call JS directly.
pub(super) fn draining_env() -> Option<sys::napi_env> {
    let lp = this_loop()?;
    std::ptr::eq(DRAINING.with(Cell::get), Arc::as_ptr(&lp.shared)).then_some(lp.env)
}

fn this_loop() -> Option<Rc<Loop>> {
    LOOP.with(|l| l.borrow().clone())
}

/// Runs a loop callback's body; a panic stops there instead of aborting Node (a panic may not
/// unwind out of an `extern "C"` function).
fn guarded(f: impl FnOnce()) {
    let _ = std::panic::catch_unwind(AssertUnwindSafe(f));
}

/// The async handle fired: something was woken or spawned from another thread.
unsafe extern "C" fn on_wake(_h: *mut c_void) {
    guarded(|| {
        if let Some(lp) = this_loop() {
            lp.in_callback(|| lp.drain(|| {}));
        }
    });
}

/// The env is going away (Node's exit, a worker thread's end): no wake may reach the handle
/// any more; tasks are dropped (their pipes close) and the handle is closed.
unsafe extern "C" fn teardown(_: *mut c_void) {
    let Some(lp) = LOOP.with(|l| l.borrow_mut().take()) else { return };
    let spawned = {
        let mut inbox = lock(&lp.shared.inbox);
        inbox.wake = null_mut();
        std::mem::take(&mut inbox.spawned)
    };
    guarded(|| {
        let _rt = lp.rt.enter();
        drop(spawned);
        let tasks = std::mem::take(&mut *lp.tasks.borrow_mut());
        drop(tasks);
    });
    uv::uv_close(lp.wake, free_async);
    sys::napi_async_destroy(lp.env, lp.context);
    sys::napi_delete_reference(lp.env, lp.resource);
}

unsafe extern "C" fn free_async(h: *mut c_void) {
    uv::free(h, uv::ASYNC);
}

/// A loop's handle for the worker pool, usable from any thread.
struct LoopHandle {
    shared: Arc<Shared>,
    thread: ThreadId,
}

impl AnswerLoop for LoopHandle {
    fn pipe(&self, fd: OwnedFd) -> Pin<Box<dyn AsyncRead + Send>> {
        // tokio hands its pipes over in blocking mode; a read here must never block the JS thread.
        use nix::fcntl::{fcntl, FcntlArg, OFlag};
        let nonblocking = fcntl(&fd, FcntlArg::F_GETFL)
            .and_then(|f| fcntl(&fd, FcntlArg::F_SETFL(OFlag::from_bits_retain(f) | OFlag::O_NONBLOCK)));
        if let Err(e) = nonblocking {
            return Box::pin(Unreadable(std::io::Error::from(e).to_string()));
        }
        Box::pin(Pipe { fd, thread: self.thread, watch: null_mut(), emptied: false })
    }

    fn spawn(&self, task: BoxFuture<'static, ()>) {
        self.shared.post(|i| i.spawned.push(task));
    }
}

/// A pipe that could not be set up: its first read fails with why.
struct Unreadable(String);

impl AsyncRead for Unreadable {
    fn poll_read(self: Pin<&mut Self>, _: &mut Context<'_>, _: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Err(std::io::Error::other(self.0.clone())))
    }
}

/// A worker's stdout read on the JS loop: read directly until it would block, then watched
/// by a `uv_poll_t` whose callback wakes the reader and polls what it wakes in turn.
struct Pipe {
    fd: OwnedFd,
    thread: ThreadId,
    /// The `uv_poll_t`, made on first need; its `data` is a `Box<Watch>`.
    watch: *mut c_void,
    /// The last read took less than it asked for, so the pipe was empty: the next read waits
    /// for the watch instead of trying (the watch is level-triggered, so nothing is missed).
    emptied: bool,
}

/// What a pipe's poll callback shares with the pipe.
#[derive(Default)]
struct Watch {
    waker: RefCell<Option<Waker>>,
    active: Cell<bool>,
}

// SAFETY: the poll handle is only touched on `thread` (checked before every use); the fd is
// an ordinary owned file descriptor.
unsafe impl Send for Pipe {}

impl Pipe {
    fn on_its_thread(&self) -> bool {
        std::thread::current().id() == self.thread
    }

    /// Waits for the pipe to become readable.
    fn watch(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let no_watch = || Poll::Ready(Err(std::io::Error::other("cannot watch the worker's output")));
        if self.watch.is_null() {
            let Some(lp) = this_loop() else { return no_watch() };
            let h = uv::alloc(uv::POLL);
            // SAFETY: a fresh handle on this thread's loop; the fd stays open until the
            // handle is closed (Drop).
            if h.is_null() || unsafe { uv::uv_poll_init(lp.uv_loop, h, self.fd.as_raw_fd()) } != 0 {
                if !h.is_null() {
                    // SAFETY: never initialised, so libuv does not know it.
                    unsafe { uv::free(h, uv::POLL) };
                }
                return no_watch();
            }
            // SAFETY: `h` is a live handle.
            unsafe { uv::uv_unref(h) };
            unsafe { uv::set_data(h, Box::into_raw(Box::<Watch>::default()).cast()) };
            self.watch = h;
        }
        // SAFETY: `data` is the Watch set above, freed only after the handle's close.
        let w = unsafe { &*uv::data(self.watch).cast::<Watch>() };
        *w.waker.borrow_mut() = Some(cx.waker().clone());
        if !w.active.get() {
            // SAFETY: a live handle on this thread.
            if unsafe { uv::uv_poll_start(self.watch, uv::READABLE, on_readable) } != 0 {
                return no_watch();
            }
            w.active.set(true);
        }
        Poll::Pending
    }
}

impl AsyncRead for Pipe {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let me = self.get_mut();
        if !me.on_its_thread() {
            return Poll::Ready(Err(std::io::Error::other("a worker's output was read off the JS thread")));
        }
        if std::mem::take(&mut me.emptied) {
            return me.watch(cx);
        }
        loop {
            // Read into the buffer's spare room as it is: zeroing it first (`initialize_unfilled`)
            // would memset several KiB for every answer line of a few bytes.
            // SAFETY: only the bytes `read` reports written are marked initialised.
            let room = unsafe { buf.unfilled_mut() };
            let len = room.len();
            let n = unsafe { nix::libc::read(me.fd.as_raw_fd(), room.as_mut_ptr().cast(), len) };
            match usize::try_from(n) {
                Ok(n) => {
                    // SAFETY: `read` wrote these `n` bytes.
                    unsafe { buf.assume_init(n) };
                    me.emptied = n > 0 && n < len;
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(_) => match nix::errno::Errno::last() {
                    nix::errno::Errno::EINTR => continue,
                    nix::errno::Errno::EAGAIN => return me.watch(cx),
                    e => return Poll::Ready(Err(e.into())),
                },
            }
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        if self.watch.is_null() || !self.on_its_thread() {
            return;
        }
        // SAFETY: a live handle on this thread; stopped before the fd closes (fields drop
        // after this), freed by its close callback.
        unsafe {
            uv::uv_poll_stop(self.watch);
            uv::uv_close(self.watch, free_poll);
        }
    }
}

/// The pipe is readable (or failed): wake its reader and poll what that wakes.
unsafe extern "C" fn on_readable(h: *mut c_void, _status: std::ffi::c_int, _events: std::ffi::c_int) {
    let w = &*uv::data(h).cast::<Watch>();
    let waker = w.waker.borrow_mut().take();
    let Some(waker) = waker else {
        // Nobody is waiting: stop watching until a read would block again.
        uv::uv_poll_stop(h);
        w.active.set(false);
        return;
    };
    guarded(|| match this_loop() {
        Some(lp) => lp.in_callback(|| lp.drain(|| waker.wake())),
        None => waker.wake(),
    });
}

unsafe extern "C" fn free_poll(h: *mut c_void) {
    drop(Box::from_raw(uv::data(h).cast::<Watch>()));
    uv::free(h, uv::POLL);
}
