//! Strings from JS, read in one pass. napi-rs reads a `String` argument twice (its UTF-8
//! length, then its bytes, into a zero-filled buffer); a dispatch reads four or five, its
//! payload among them, on every call.

use napi::bindgen_prelude::{FromNapiValue, TypeName, ValueType};
use napi::{sys, Error, Result, Status};
use std::ptr;

/// A JS string's text.
pub(super) struct Text(pub String);

fn check(status: sys::napi_status, what: &str) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), format!("{what} must be a string")))
    }
}

impl FromNapiValue for Text {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        // A string's length in UTF-16 units is known without reading it, and its UTF-8 takes
        // at most three bytes for each (a pair takes four for two; an unpaired surrogate is
        // written as U+FFFD, three): a buffer of three per unit holds all of it.
        let mut units = 0usize;
        check(unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut units) }, "the value")?;
        let cap = units.saturating_mul(3).saturating_add(1);
        let mut buf: Vec<u8> = Vec::with_capacity(cap);
        let mut written = 0usize;
        check(
            unsafe { sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), cap, &mut written) },
            "the value",
        )?;
        // SAFETY: V8 wrote `written` bytes (at most `cap - 1`, before its terminating NUL) of
        // UTF-8, replacing what is not valid, as napi-rs's own `String` conversion relies on.
        unsafe { buf.set_len(written.min(cap - 1)) };
        Ok(Text(unsafe { String::from_utf8_unchecked(buf) }))
    }
}

impl TypeName for Text {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

/// A JS string of `text`. Most of what a dispatch returns is ASCII (JSON escapes the rest of
/// a payload only where it must): that is copied as it is, where napi-rs's `String` is
/// decoded as UTF-8 byte by byte.
pub(super) fn to_js(env: sys::napi_env, text: &str) -> Result<sys::napi_value> {
    let mut value = ptr::null_mut();
    let status = if text.is_ascii() {
        unsafe { sys::napi_create_string_latin1(env, text.as_ptr().cast(), text.len() as isize, &mut value) }
    } else {
        unsafe { sys::napi_create_string_utf8(env, text.as_ptr().cast(), text.len() as isize, &mut value) }
    };
    if status == sys::Status::napi_ok {
        Ok(value)
    } else {
        Err(Error::new(Status::from(status), "a string could not be made".to_owned()))
    }
}
