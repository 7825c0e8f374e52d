//! Small field types the dialects' file types share: each checks what the loader checks and
//! says the same in JSON Schema.

use serde_json::Value;

/// Declares a field type that reads one JSON value as `$read`, keeps it only when the check
/// (a `Result<(), String>` over the value) passes, and says the same in JSON Schema. The
/// check's message is the error the schema report shows; `loader |key| …` gives the loaders'
/// words for either failure (reading.rs), where they differ.
macro_rules! checked_scalar {
    ($(#[$attr:meta])* $vis:vis struct $name:ident: $read:ty as $schema_name:literal, |$v:ident| $check:expr, $schema:tt $(, loader $says:expr)? $(,)?) => {
        $(#[$attr])*
        // The value, for the loaders that read through the type (some types are only checked).
        $vis struct $name(#[allow(dead_code)] pub $read);

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[allow(unused_mut, unused_assignments)]
                let mut says: Option<fn(&str) -> String> = None;
                $(says = Some($says);)?
                let $v: $read = match serde::Deserialize::deserialize(d) {
                    Ok(v) => v,
                    Err(e) => return Err(crate::harness::schema::loader_says(e, says)),
                };
                let checked: Result<(), String> = $check;
                match checked {
                    Ok(()) => Ok($name($v)),
                    Err(m) => Err(crate::harness::schema::loader_says(serde::de::Error::custom(m), says)),
                }
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $schema_name.into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!($schema)
            }
        }
    };
}
pub(crate) use checked_scalar;

/// Gives a type the JSON Schema of another it is described as (`<T>`: over a type parameter):
/// a wrapper read differently, or a value kept differently, but the same in a file.
macro_rules! schema_as {
    ($ty:ty, $of:ty $(, <$g:ident>)?) => {
        impl$(<$g: schemars::JsonSchema>)? schemars::JsonSchema for $ty {
            fn inline_schema() -> bool {
                <$of as schemars::JsonSchema>::inline_schema()
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                <$of as schemars::JsonSchema>::schema_name()
            }
            fn schema_id() -> std::borrow::Cow<'static, str> {
                <$of as schemars::JsonSchema>::schema_id()
            }
            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <$of as schemars::JsonSchema>::json_schema(g)
            }
        }
    };
}
pub(crate) use schema_as;

/// Declares a field type read and described as another, in a loader's own words: `expected`
/// completes "{key} must be …" (where `Lenient` or `Must` reads it), `says` replaces the whole
/// message when the value is wrong.
macro_rules! called {
    ($(#[$attr:meta])* $vis:vis struct $name:ident($of:ty), expected $words:literal) => {
        $(#[$attr])*
        $vis struct $name(pub $of);

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$of as serde::Deserialize>::deserialize(d).map($name)
            }
        }

        crate::harness::schema::schema_as!($name, $of);

        impl crate::harness::schema::Expected for $name {
            const EXPECTED: &'static str = $words;
        }
    };
    ($(#[$attr:meta])* $vis:vis struct $name:ident($of:ty), says $says:expr) => {
        $(#[$attr])*
        // The value, for the loaders that read it (some types are only checked).
        $vis struct $name(#[allow(dead_code)] pub $of);

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$of as serde::Deserialize>::deserialize(d)
                    .map($name)
                    .map_err(|e| crate::harness::schema::loader_says(e, Some(|_| $says.to_owned())))
            }
        }

        crate::harness::schema::schema_as!($name, $of);
    };
}
pub(crate) use called;

/// `Ok` when `holds`, else `message`: the usual check of [`checked_scalar!`].
pub(crate) fn ok_if(holds: bool, message: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(message.to_owned())
    }
}

checked_scalar! {
    /// A string with something in it besides whitespace.
    #[derive(Debug, Clone)]
    pub(crate) struct NonBlank: String as "NonBlank",
    |s| ok_if(!s.trim().is_empty(), "must not be empty"),
    {"type": "string", "pattern": "\\S"},
    loader |key| format!("missing {key}")
}

checked_scalar! {
    /// A positive number (a timeout, a duration).
    #[derive(Debug, Clone)]
    pub(crate) struct Positive: f64 as "Positive",
    |n| ok_if(n > 0.0 && n.is_finite(), "must be a positive number"),
    {"type": "number", "exclusiveMinimum": 0}
}

impl crate::harness::schema::Expected for Positive {
    const EXPECTED: &'static str = "a positive number of seconds";
}

called! {
    /// A positive number of milliseconds: a [`Positive`] (one check, one schema) that a loader
    /// calls milliseconds.
    #[derive(Debug, Clone)]
    pub(crate) struct PositiveMs(Positive), expected "a positive number of milliseconds"
}

/// An object of strings (`env`, `headers`).
pub(crate) type StringMap = std::collections::BTreeMap<String, String>;

/// A [`StringMap`] that keeps the file's order (an `env` a loader reads).
#[derive(Debug, Clone, Default)]
pub(crate) struct OrderedStrings(pub Vec<(String, String)>);

impl<'de> serde::Deserialize<'de> for OrderedStrings {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedStrings;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<OrderedStrings, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = m.next_entry::<String, String>()? {
                    pairs.push(pair);
                }
                Ok(OrderedStrings(pairs))
            }
        }
        d.deserialize_map(V)
    }
}

schema_as!(OrderedStrings, StringMap);

impl crate::harness::schema::Expected for OrderedStrings {
    const EXPECTED: &'static str = "an object of strings";
}

checked_scalar! {
    /// Anything but an object (Droid's `hooks.json` must not wrap its events in `"hooks"`).
    #[derive(Debug, Clone)]
    pub(crate) struct NotAnObject: Value as "NotAnObject",
    |v| ok_if(!v.is_object(), "events under a \"hooks\" key are never run: move them to the root"),
    {"not": {"type": "object"}}
}

checked_scalar! {
    /// A string of at least one character.
    #[derive(Debug, Clone)]
    pub(crate) struct NonEmpty: String as "NonEmptyString",
    |s| ok_if(!s.is_empty(), "must not be empty"),
    {"type": "string", "minLength": 1},
    loader |key| format!("missing {key}")
}

/// Renders a path inside a value the way the loader names places (`[1].hooks[0].type`).
pub(crate) fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut s = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => s.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => s.push_str(&format!(".{key}")),
            Segment::Unknown => {}
        }
    }
    s
}

/// Reads a value as `T` inside another type's reading, naming the field in the message (for
/// entries whose shape depends on a field, such as `type`); a loader's reading (reading.rs) gets
/// the field type's own words, which name the field already.
pub(crate) fn read_in<T: serde::de::DeserializeOwned, E: serde::de::Error>(v: &Value) -> Result<T, E> {
    crate::harness::schema::read_as::<T>(v).map_err(|e| {
        let path = e.path().to_string();
        if crate::harness::schema::is_lenient() {
            E::custom(crate::harness::schema::complaint(&e.inner().to_string()))
        } else if path == "." {
            E::custom(e.inner())
        } else {
            E::custom(format!("{path}: {}", e.inner()))
        }
    })
}

checked_scalar! {
    /// A `type` that may be left out but, when given, must say `command` (`null` is not allowed).
    #[derive(Debug, Clone, Default)]
    pub(crate) struct CommandOnly: Value as "CommandType",
    |v| match &v {
        Value::String(s) if s == "command" => Ok(()),
        other => Err(format!("only type \"command\" hooks are run, not {other}")),
    },
    {"const": "command"},
    loader |_| "only type \"command\" hooks are run by hookrt".to_owned()
}
