//! The JSON shapes the JavaScript API and `listen` exchange with hosts, as JSON Schemas
//! generated from the Rust types that produce or read them, keyed by the names `wrapper.d.ts`
//! gives them. A test holds the TypeScript declarations against these, so a field added on one
//! side fails until the other has it.

use serde_json::{Map, Value};

fn schema<T: schemars::JsonSchema>(serialize: bool) -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    if serialize {
        settings = settings.for_serialize();
    }
    settings.into_generator().into_root_schema_for::<T>().to_value()
}

/// Every wire shape: what hookrt writes (serialized) and the options it reads.
pub fn schemas() -> Map<String, Value> {
    use crate::runtime::background::Finished;
    use crate::runtime::execute::Progress;
    use crate::runtime::options::RuntimeOptions;
    let out: [(&str, Value); 11] = [
        ("RuntimeOptions", schema::<RuntimeOptions>(false)),
        ("Diagnostic", schema::<crate::vocab::Diagnostic>(true)),
        ("Source", schema::<crate::load::Source>(true)),
        ("EventFields", schema::<crate::vocab::EventFields>(true)),
        ("Outcome", schema::<crate::contract::Outcome>(true)),
        ("HookRef", schema::<crate::config::hook::HookRef<'static>>(true)),
        ("RunOutcome", schema::<crate::vocab::RunOutcome>(true)),
        ("Run", schema::<crate::runtime::Run>(true)),
        ("DispatchResult", schema::<crate::runtime::DispatchResult>(true)),
        ("ProgressEvent", schema::<Progress>(true)),
        ("AsyncFinished", schema::<Finished>(true)),
    ];
    out.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}
