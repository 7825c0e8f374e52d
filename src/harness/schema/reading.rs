//! A hook file's type read the loader's way. `hookrt validate` (and an editor with the JSON
//! Schema) refuses a file for any value of the wrong shape; a loader only drops the entry whose
//! required fields are wrong, reads an optional field of the wrong shape as absent, and says so
//! each time in a diagnostic. Both readings go through the same type, so what is checked is
//! written once; the loader's wording ("timeout must be a positive number of seconds") comes
//! from the field types ([`Expected`], `checked_scalar!`'s loader message).
//!
//! The reading mode and the key being read live in a thread-local set for the duration of
//! [`entry`]: serde hands a field's deserializer no name, and the field types need it for the
//! loader's messages.

use crate::config::entry::{Entry, LoadSink};
use crate::config::Substitutions;
use crate::harness::schema::OrderedStrings;
use crate::vocab::Severity;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::cell::RefCell;
use std::marker::PhantomData;

thread_local! {
    static READING: RefCell<Option<Reading>> = const { RefCell::new(None) };
}

/// A loader's reading in progress.
#[derive(Default)]
struct Reading {
    /// The last object key read: the field whose value is being read.
    key: String,
    /// The optional fields read as absent, in the loader's words.
    refused: Vec<String>,
}

/// Puts the previous reading (none, outside [`entry`]) back, even if a read unwinds.
struct Restore(Option<Reading>);

impl Drop for Restore {
    fn drop(&mut self) {
        let outer = self.0.take();
        READING.with(|r| *r.borrow_mut() = outer);
    }
}

/// Whether the value being read is read the loader's way.
pub(crate) fn is_lenient() -> bool {
    READING.with(|r| r.borrow().is_some())
}

/// Notes the key whose value is read next (the strict reader calls it for every key).
pub(super) fn key_read(key: &str) {
    READING.with(|r| {
        if let Some(reading) = r.borrow_mut().as_mut() {
            key.clone_into(&mut reading.key);
        }
    });
}

fn current_key() -> String {
    READING.with(|r| r.borrow().as_ref().map(|r| r.key.clone()).unwrap_or_default())
}

fn refuse(message: String) {
    READING.with(|r| {
        if let Some(reading) = r.borrow_mut().as_mut() {
            reading.refused.push(message);
        }
    });
}

/// A field type's error, in the loader's words (`says(key)`) when a loader reads it, else as it
/// is (what `hookrt validate` shows).
pub(crate) fn loader_says<E: serde::de::Error>(e: E, says: Option<fn(&str) -> String>) -> E {
    match says {
        // A field left out is read from nothing (serde's `missing_field`): no key was read for
        // it, and [`entry`] words that error itself.
        Some(says) if is_lenient() && missing_field(&e.to_string()).is_none() => E::custom(says(&current_key())),
        _ => e,
    }
}

/// The field serde's "missing field `command`" names.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `").and_then(|k| k.strip_suffix('`'))
}

/// Reads a value through its file type `T` the loader's way: `T`, or why it cannot be used;
/// beside it the optional fields read as absent, in the loader's words.
pub(crate) fn leniently<T: DeserializeOwned>(v: &Value) -> (Result<T, String>, Vec<String>) {
    let outer = READING.with(|r| r.borrow_mut().replace(Reading::default()));
    let restore = Restore(outer);
    let read = crate::harness::schema::read_as::<T>(v);
    let reading = READING.with(|r| r.borrow_mut().take()).unwrap_or_default();
    drop(restore);
    (read.map_err(|e| complaint(&e.inner().to_string())), reading.refused)
}

/// Reads one hook entry through its file type `T`: `None` (with the reason reported) when the
/// entry cannot be used; each optional field read as absent is reported too.
pub(crate) fn entry<T: DeserializeOwned>(e: &Entry, sink: &mut LoadSink) -> Option<T> {
    match leniently::<T>(e.value) {
        (Ok(value), refused) => {
            for m in refused {
                e.diag(sink, Severity::Error, &m);
            }
            Some(value)
        }
        (Err(why), _) => {
            e.diag(sink, Severity::Error, &why);
            None
        }
    }
}

/// serde's own "missing field `command`" in the loaders' words ("missing command"); the field
/// types already speak them.
pub(crate) fn complaint(message: &str) -> String {
    match missing_field(message) {
        Some(key) => format!("missing {key}"),
        None => message.to_owned(),
    }
}

/// What a loader says an optional field must be ("timeout must be {EXPECTED}").
pub(crate) trait Expected {
    const EXPECTED: &'static str;
}

impl Expected for String {
    const EXPECTED: &'static str = "a string";
}

impl Expected for bool {
    const EXPECTED: &'static str = "true or false";
}

impl Expected for Vec<String> {
    const EXPECTED: &'static str = "an array of strings";
}

/// A field a loader cannot do without in the right shape: when it is wrong the entry is dropped
/// with "{key} must be {EXPECTED}" (`hookrt validate` says what serde says). Its JSON Schema is
/// `T`'s.
#[derive(Debug, Clone)]
pub(crate) struct Must<T>(pub T);

impl<'de, T: Deserialize<'de> + Expected> Deserialize<'de> for Must<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Must).map_err(|e| loader_says(e, Some(|key| format!("{key} must be {}", T::EXPECTED))))
    }
}

crate::harness::schema::schema_as!(Must<T>, T, <T>);

/// An optional field a loader reads as absent when it has the wrong shape (reporting "{key}
/// must be {EXPECTED}"), where `hookrt validate` refuses the file. Wrapped in `Option` as any
/// optional field (`null` is absent to both); its JSON Schema is `T`'s.
#[derive(Debug, Clone)]
pub(crate) struct Lenient<T>(Option<T>);

impl<T> Lenient<T> {
    /// The value, unless the loader refused it.
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.as_ref()
    }
}

/// The value of an optional lenient field: absent, `null` or refused are all `None`.
pub(crate) fn given<T>(field: &Option<Lenient<T>>) -> Option<&T> {
    field.as_ref().and_then(Lenient::get)
}

impl<'de, T: DeserializeOwned + Expected> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !is_lenient() {
            return T::deserialize(d).map(|t| Lenient(Some(t)));
        }
        let key = current_key();
        let v = Value::deserialize(d)?;
        match crate::harness::schema::read_as::<T>(&v) {
            Ok(t) => Ok(Lenient(Some(t))),
            Err(_) => {
                refuse(format!("{key} must be {}", T::EXPECTED));
                Ok(Lenient(None))
            }
        }
    }
}

crate::harness::schema::schema_as!(Lenient<T>, T, <T>);

/// An entry's `env` as its hook gets it: in the file's order, with the file's substitutions.
pub(crate) fn env_of(env: &Option<Lenient<OrderedStrings>>, subst: &Substitutions) -> Vec<(String, String)> {
    given(env).map(|m| m.0.iter().map(|(k, v)| (k.clone(), subst.apply(v))).collect()).unwrap_or_default()
}

/// The hook entries of a matcher group. `hookrt validate` reads each as `T` (any wrong entry
/// refuses the file); a loader keeps them as they are and reads each through `T` itself, so one
/// wrong entry drops that entry, not its group. Its JSON Schema is `Vec<T>`'s.
pub(crate) struct Entries<T> {
    values: Vec<Value>,
    len: usize,
    of: PhantomData<T>,
}

impl<T> Entries<T> {
    /// The entries as the file has them (empty outside a loader's reading).
    pub(crate) fn values(&self) -> &[Value] {
        &self.values
    }

    /// Whether there are none (in either reading).
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T> Expected for Entries<T> {
    const EXPECTED: &'static str = "an array";
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if is_lenient() {
            let values = Vec::<Value>::deserialize(d)?;
            return Ok(Entries { len: values.len(), values, of: PhantomData });
        }
        let read = Vec::<T>::deserialize(d)?;
        Ok(Entries { values: Vec::new(), len: read.len(), of: PhantomData })
    }
}

crate::harness::schema::schema_as!(Entries<T>, Vec<T>, <T>);

/// Refuses a value a loader would read as absent, with `message` (for field types whose
/// absence is not `None`, such as Cursor's `loop_limit`). `Ok(None)` when a loader reads.
pub(crate) fn refused<T, E: serde::de::Error>(message: &str, strict: E) -> Result<Option<T>, E> {
    if is_lenient() {
        refuse(message.to_owned());
        Ok(None)
    } else {
        Err(strict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serdes_missing_field_becomes_the_loaders_missing() {
        // serde's wording for a missing field (serde::de::Error::missing_field), held here.
        let e = <serde_json::Error as serde::de::Error>::missing_field("command");
        assert_eq!(complaint(&e.to_string()), "missing command");
        assert_eq!(
            complaint("timeout must be a positive number of seconds"),
            "timeout must be a positive number of seconds"
        );
    }

    #[test]
    fn outside_a_loaders_reading_a_lenient_field_is_strict() {
        #[derive(Deserialize)]
        struct T {
            flag: Option<Lenient<bool>>,
        }
        assert!(crate::harness::schema::read_as::<T>(&serde_json::json!({"flag": "yes"})).is_err());
        let t = crate::harness::schema::read_as::<T>(&serde_json::json!({"flag": true})).ok();
        assert_eq!(t.and_then(|t| given(&t.flag).copied()), Some(true));
        assert!(!is_lenient());
    }
}
