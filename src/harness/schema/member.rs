//! The member of a dedicated hooks file that holds its events (`hooks`, or `events` in hookrt's
//! own files): it must be there unless the file says `disableAllHooks`, as the loaders require.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;
use std::marker::PhantomData;

/// The member's name.
pub(crate) trait MemberName: 'static {
    const NAME: &'static str;
}

/// `hooks`.
pub(crate) struct HooksKey;

impl MemberName for HooksKey {
    const NAME: &'static str = "hooks";
}

/// A dedicated file: member `N` holds `E`; without it (or with `null`), `disableAllHooks` must
/// be true or false.
pub(crate) struct Dedicated<N, E>(PhantomData<(N, E)>);

impl<'de, N: MemberName, E: Deserialize<'de>> Deserialize<'de> for Dedicated<N, E> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<N, E>(PhantomData<(N, E)>);
        impl<'de, N: MemberName, E: Deserialize<'de>> Visitor<'de> for V<N, E> {
            type Value = Dedicated<N, E>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "an object with a \"{}\" member", N::NAME)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let (mut events, mut switch) = (false, false);
                while let Some(key) = map.next_key::<String>()? {
                    if key == N::NAME {
                        events = map.next_value::<Option<E>>()?.is_some();
                    } else if key == "disableAllHooks" {
                        switch = map.next_value::<Value>()?.is_boolean();
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                if !events && !switch {
                    return Err(A::Error::custom(format!("config has no \"{}\" object", N::NAME)));
                }
                Ok(Dedicated(PhantomData))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

impl<N: MemberName, E: JsonSchema> JsonSchema for Dedicated<N, E> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Under_{}", E::schema_name(), N::NAME).into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let events = g.subschema_for::<E>();
        json_schema!({
            "type": "object",
            "anyOf": [
                {"properties": {(N::NAME): events}, "required": [N::NAME]},
                {
                    "properties": {(N::NAME): {"type": "null"}, "disableAllHooks": {"type": "boolean"}},
                    "required": ["disableAllHooks"],
                },
            ],
        })
    }
}
