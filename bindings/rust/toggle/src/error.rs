//! Errors: the C status code, its name and the library's message.

use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_int;

use toggle_sys as sys;

/// What went wrong, one variant per libtoggle status code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// TOGGLE_EINVAL
    InvalidArgument,
    /// TOGGLE_ENOMEM (also: over the memory budget)
    OutOfMemory,
    /// TOGGLE_EUNSUPPORTED
    Unsupported,
    /// TOGGLE_EPARSE
    Parse,
    /// TOGGLE_ERANGE
    Range,
    /// TOGGLE_EBUFSIZE
    BufferSize,
    /// TOGGLE_EOVERFLOW
    Overflow,
    /// TOGGLE_ENOSOLUTION
    NoSolution,
    /// TOGGLE_EIO
    Io,
    /// TOGGLE_ELIMIT
    Limit,
    /// TOGGLE_EINTERNAL
    Internal,
    /// TOGGLE_ECANCELED: the progress callback ([`crate::System::set_progress`])
    /// asked to stop (1.1)
    Cancelled,
    /// A status this crate does not know (from a newer library).
    Other,
}

/// A failed libtoggle call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: c_int,
    message: String,
}

/// `Result<T, toggle::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn new(status: c_int, message: String) -> Error {
        Error { status, message }
    }

    pub(crate) fn invalid(message: String) -> Error {
        Error::new(sys::TOGGLE_EINVAL, message)
    }

    /// The negative status code (e.g. -4).
    pub fn status(&self) -> i32 {
        self.status
    }

    /// The status name ("TOGGLE_EPARSE").
    pub fn name(&self) -> &'static str {
        unsafe { CStr::from_ptr(sys::toggle_status_name(self.status)) }
            .to_str()
            .unwrap_or("TOGGLE_UNKNOWN")
    }

    /// The library's message ("line 2 has 1 entries, expected 2").
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The status as an enum.
    pub fn kind(&self) -> ErrorKind {
        match self.status {
            sys::TOGGLE_EINVAL => ErrorKind::InvalidArgument,
            sys::TOGGLE_ENOMEM => ErrorKind::OutOfMemory,
            sys::TOGGLE_EUNSUPPORTED => ErrorKind::Unsupported,
            sys::TOGGLE_EPARSE => ErrorKind::Parse,
            sys::TOGGLE_ERANGE => ErrorKind::Range,
            sys::TOGGLE_EBUFSIZE => ErrorKind::BufferSize,
            sys::TOGGLE_EOVERFLOW => ErrorKind::Overflow,
            sys::TOGGLE_ENOSOLUTION => ErrorKind::NoSolution,
            sys::TOGGLE_EIO => ErrorKind::Io,
            sys::TOGGLE_ELIMIT => ErrorKind::Limit,
            sys::TOGGLE_EINTERNAL => ErrorKind::Internal,
            sys::TOGGLE_ECANCELED => ErrorKind::Cancelled,
            _ => ErrorKind::Other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.name())
        } else {
            write!(f, "{}: {}", self.name(), self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Ok(status) for status >= 0, else the error with this thread's message
/// (read right away: it is valid only until the next libtoggle call).
pub(crate) fn check(status: c_int) -> Result<c_int> {
    if status >= 0 {
        return Ok(status);
    }
    let msg = unsafe { CStr::from_ptr(sys::toggle_last_error()) };
    Err(Error::new(status, msg.to_string_lossy().into_owned()))
}
