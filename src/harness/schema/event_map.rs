//! Types that take their vocabulary from a dialect's harness instead of repeating it: the
//! object of event names (each known name a list of `T`, any other key left alone, as the
//! loaders warn about unknown events and read the rest), and a matcher compiled with the
//! dialect's rule.

use crate::vocab::Dialect;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::marker::PhantomData;

/// Names the dialect a file type belongs to.
pub(crate) trait OfDialect: 'static {
    const DIALECT: Dialect;
}

/// Declares a marker type for a dialect.
macro_rules! dialect_marker {
    ($name:ident, $dialect:expr) => {
        pub(crate) struct $name;
        impl crate::harness::schema::OfDialect for $name {
            const DIALECT: crate::vocab::Dialect = $dialect;
        }
    };
}
pub(crate) use dialect_marker;

fn names<D: OfDialect>() -> impl Iterator<Item = &'static str> {
    crate::harness::of(D::DIALECT).events().iter().map(|e| e.name)
}

/// `{Event: [T, …], …}` with the dialect's event names.
pub(crate) struct EventMap<D, T>(PhantomData<(D, T)>);

impl<'de, D: OfDialect, T: Deserialize<'de>> Deserialize<'de> for EventMap<D, T> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        struct V<D, T>(PhantomData<(D, T)>);
        impl<'de, D: OfDialect, T: Deserialize<'de>> Visitor<'de> for V<D, T> {
            type Value = EventMap<D, T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of event names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while let Some(key) = map.next_key::<String>()? {
                    if names::<D>().any(|n| n == key) {
                        map.next_value::<Vec<T>>()?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(EventMap(PhantomData))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

impl<D: OfDialect, T: JsonSchema> JsonSchema for EventMap<D, T> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Events", T::schema_name()).into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let items = g.subschema_for::<T>().to_value();
        let properties: Map<String, Value> =
            names::<D>().map(|n| (n.to_owned(), serde_json::json!({"type": "array", "items": items}))).collect();
        json_schema!({"type": "object", "properties": properties})
    }
}

/// A `matcher` string that compiles with the dialect's rule. A loader compiles it itself, with
/// what the event allows (a matcher where the event has no subject is dropped with a warning),
/// so its reading only checks that it is a string.
pub(crate) struct DialectMatcher<D>(pub String, PhantomData<D>);

impl<'de, D: OfDialect> Deserialize<'de> for DialectMatcher<D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let crate::harness::schema::Must(s) = crate::harness::schema::Must::<String>::deserialize(d)?;
        if crate::harness::schema::is_lenient() {
            return Ok(DialectMatcher(s, PhantomData));
        }
        let style = crate::harness::of(D::DIALECT).matcher_style();
        match crate::config::matcher::Matcher::compile(&s, style) {
            Ok(_) => Ok(DialectMatcher(s, PhantomData)),
            Err(e) => Err(De::Error::custom(e)),
        }
    }
}

impl<D: OfDialect> JsonSchema for DialectMatcher<D> {
    fn schema_name() -> Cow<'static, str> {
        "Matcher".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "description": "Tool names (A|B) or a regular expression"})
    }
}

/// A file whose shape depends on its root: `W` says which (`A` when it holds, else `B`).
pub(crate) struct Either<W, A, B>(PhantomData<(W, A, B)>);

/// The condition of an [`Either`], as a test on the root and as a JSON Schema.
pub(crate) trait When: 'static {
    fn holds(root: &Value) -> bool;
    fn schema() -> Value;
}

impl<W: When, A: JsonSchema, B: JsonSchema> JsonSchema for Either<W, A, B> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Or{}", A::schema_name(), B::schema_name()).into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "if": W::schema(),
            "then": g.subschema_for::<A>(),
            "else": g.subschema_for::<B>(),
        })
    }
}

impl<W: When, A: serde::de::DeserializeOwned, B: serde::de::DeserializeOwned> Either<W, A, B> {
    /// Checks the root with `A` or `B`.
    pub(crate) fn check(root: &Value) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
        // Every loader refuses a root that is not an object, whichever way it reads the rest.
        crate::harness::schema::read_as::<Map<String, Value>>(root)?;
        if W::holds(root) {
            crate::harness::schema::read_as::<A>(root).map(|_| ())
        } else {
            crate::harness::schema::read_as::<B>(root).map(|_| ())
        }
    }
}
