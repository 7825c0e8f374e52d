//! `hookrt schema`: the JSON Schema of each dialect's hook file (crate::harness::schema).

use crate::cli::Io;
use crate::harness::schema::schema_of;
use crate::vocab::Dialect;

use std::path::PathBuf;

pub(crate) fn schema(dialect: Option<String>, out: Option<PathBuf>, io: Io<'_>) -> i32 {
    let dialects: Vec<Dialect> = match dialect.as_deref() {
        None => Dialect::ALL.into_iter().filter(|d| schema_of(*d).is_some()).collect(),
        Some(name) => match Dialect::parse(name) {
            Some(d) if schema_of(d).is_some() => vec![d],
            Some(d) => {
                // Cline's hooks are executables: there is no file to describe.
                let _ =
                    writeln!(io.err, "hookrt: {} has no hook file to describe (its hooks are executables)", d.as_str());
                return 1;
            }
            None => {
                let _ = writeln!(io.err, "hookrt: unknown dialect {name:?}");
                return 1;
            }
        },
    };
    let schemas: Vec<(Dialect, serde_json::Value)> =
        dialects.into_iter().filter_map(|d| schema_of(d).map(|s| (d, s))).collect();
    if let Some(dir) = out {
        for (d, s) in &schemas {
            let path = dir.join(format!("{}.schema.json", d.as_str()));
            let text = serde_json::to_string_pretty(s).unwrap_or_default() + "\n";
            if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
                let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", path.display());
                return 1;
            }
            let _ = writeln!(io.out, "{}", path.display());
        }
        return 0;
    }
    let value = match schemas.as_slice() {
        [(_, one)] if dialect.is_some() => one.clone(),
        all => serde_json::Value::Object(all.iter().map(|(d, s)| (d.as_str().to_owned(), s.clone())).collect()),
    };
    let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    0
}
