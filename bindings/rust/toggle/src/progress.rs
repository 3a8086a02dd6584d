//! Progress and cancel (toggle_system_set_progress, 1.1): a Rust closure
//! behind the C callback, kept alive by every handle that may call it.

use std::any::Any;
use std::os::raw::{c_int, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use toggle_sys as sys;

/// The closure of [`crate::System::set_progress`] and a panic it raised.
///
/// The C library copies the callback and its payload (a pointer to this)
/// into every solution, search, iterator and generator made from the system,
/// so each of their Rust handles holds an `Arc` of it: the payload outlives
/// every handle that may call it, even after the system is dropped or given
/// another callback.
pub(crate) struct Progress {
    callback: Mutex<Box<dyn FnMut(f64) -> bool + Send>>,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// A handle's share of its system's progress closure (None: no callback).
pub(crate) type Shared = Option<Arc<Progress>>;

impl Progress {
    pub(crate) fn new<F: FnMut(f64) -> bool + Send + 'static>(f: F) -> Arc<Progress> {
        Arc::new(Progress { callback: Mutex::new(Box::new(f)), panic: Mutex::new(None) })
    }

    /// The payload handed to C: the address of the shared state.
    pub(crate) fn payload(this: &Arc<Progress>) -> *mut c_void {
        Arc::as_ptr(this) as *mut c_void
    }
}

/// The C callback. A panic of the closure never unwinds into C: it is caught,
/// kept, the call is cancelled, and [`resume`] raises it again in Rust once
/// the C function has returned.
pub(crate) unsafe extern "C" fn trampoline(payload: *mut c_void, fraction: f64) -> c_int {
    if payload.is_null() {
        return 0;
    }
    let p = &*(payload as *const Progress);
    let go_on = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut f = p.callback.lock().unwrap_or_else(|e| e.into_inner());
        (*f)(fraction)
    }));
    match go_on {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            let mut slot = p.panic.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = Some(e);
            }
            1
        }
    }
}

/// After a C call that may have reported progress: if the closure panicked
/// (the call then returned TOGGLE_ECANCELED), continue that panic here.
pub(crate) fn resume(progress: &Shared, status: c_int) -> c_int {
    if status == sys::TOGGLE_ECANCELED {
        if let Some(p) = progress {
            let taken = p.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(e) = taken {
                panic::resume_unwind(e);
            }
        }
    }
    status
}
