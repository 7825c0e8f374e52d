//! Reading one field of a small JSON object, the way the dispatch path does a dozen times per
//! hook run.

use serde_json::{Map, Value};

/// `m[key]`. A host payload or a hook's stdin has a handful of fields: comparing their names
/// is cheaper than hashing the key (serde_json's map hashes with SipHash). Larger maps are
/// looked up by hash.
pub(crate) fn field<'m>(m: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if m.len() <= 12 {
        m.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        m.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_what_get_finds_in_small_and_large_maps() {
        let small = json!({"a": 1, "b": null, "c": "x"});
        let small = small.as_object().unwrap();
        let large: Map<String, Value> = (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
        for (m, keys) in [(small, vec!["a", "b", "c", "d", ""]), (&large, vec!["k0", "k39", "k40", "a"])] {
            for k in keys {
                assert_eq!(field(m, k), m.get(k), "{k}");
            }
        }
    }
}
