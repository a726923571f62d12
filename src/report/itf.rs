//! Counterexample traces in Apalache's Informal Trace Format (ITF, Apalache ADR-015,
//! https://apalache-mc.org/docs/adr/015adr-trace.html): `{"#meta", "vars", "states"}`, each state an
//! object of its variables' values.
//!
//! Values as ADR-015 writes them: booleans and strings as JSON's; every integer as
//! `{"#bigint": "123"}` (the 2023-09-14 revision of the ADR forbids plain JSON numbers); sequences as
//! arrays; tuples (B pairs) as `{"#tup": [...]}`; sets as `{"#set": [...]}`; functions as
//! `{"#map": [[k, v], ...]}`; records as objects. An element of a given set (a B enumerated or deferred
//! set, a TLA+ model value) is a value of an uninterpreted type, which Apalache writes as the string
//! `"name_OF_TYPE"` (the ADR's MissionariesAndCannibals example: `"c1_OF_PERSON"`). A TLA+ model reads
//! values back as `tla_shape` decides (a function is a `#map`); a B relation is a set of tuples.

use super::tla_shape::{Compound, Reading};
use super::trace_states::trace_states;
use crate::check::Model;
use crate::check::mc::Step;
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::types::Type;
use crate::value::Value;
use serde_json::{Map, Value as Json, json};
use std::path::Path;

const FORMAT_DESCRIPTION: &str = "https://apalache-mc.org/docs/adr/015adr-trace.html";

/// `v` (of type `ty` where known) as an ITF value.
pub fn itf_value(reading: &Reading, v: &Value, ty: Option<&Type>) -> Json {
    let Some(compound) = reading.compound(v, ty) else {
        return match v {
            Value::Int(i) => json!({"#bigint": i.to_string()}),
            Value::Bool(b) => Json::Bool(*b),
            Value::Str(s) => Json::String(s.to_string()),
            Value::Elem(e) => Json::String(format!("{}_OF_{}", e.name, e.set)),
            Value::Pair(_) | Value::Set(_) | Value::Record(_) => {
                unreachable!("compound values are read by tla_shape")
            }
        };
    };
    match compound {
        Compound::Tuple(parts) => {
            let items: Vec<Json> = parts
                .iter()
                .map(|(x, t)| itf_value(reading, x, *t))
                .collect();
            json!({"#tup": items})
        }
        Compound::Sequence(items, t) => items.iter().map(|x| itf_value(reading, x, t)).collect(),
        Compound::Function(pairs, key_ty, val_ty) => {
            let pairs: Vec<Json> = pairs
                .iter()
                .map(|(k, x)| json!([itf_value(reading, k, key_ty), itf_value(reading, x, val_ty)]))
                .collect();
            json!({"#map": pairs})
        }
        Compound::Set(items, t) => {
            let items: Vec<Json> = items.iter().map(|x| itf_value(reading, x, t)).collect();
            json!({"#set": items})
        }
        Compound::Record(fields) => Json::Object(
            fields
                .iter()
                .map(|(name, x, t)| (name.to_string(), itf_value(reading, x, *t)))
                .collect(),
        ),
    }
}

/// The ITF trace of `trace`: its states from the initial one, each with every variable; `description`
/// says what the trace shows (e.g. the command and verdict).
pub fn itf_trace(model: &Model, trace: &[Step], description: &str) -> Json {
    let m = model.machine();
    let reading = if model.tla.is_some() {
        Reading::tla(m)
    } else {
        Reading::b()
    };
    let states: Vec<Json> = trace_states(m, trace)
        .iter()
        .enumerate()
        .map(|(index, state)| {
            let mut object = Map::new();
            object.insert(
                "#meta".to_string(),
                json!({"index": index, "action": state.label}),
            );
            for (name, v) in &state.values {
                let ty = m.variables.iter().find(|t| t.name == *name).map(|t| &t.ty);
                object.insert(name.to_string(), itf_value(&reading, v, ty));
            }
            Json::Object(object)
        })
        .collect();
    let vars: Vec<String> = m.variables.iter().map(|v| v.name.to_string()).collect();
    json!({
        "#meta": {
            "format": "ITF",
            "format-description": FORMAT_DESCRIPTION,
            "source": model.path.display().to_string(),
            "description": description,
        },
        "vars": vars,
        "states": states,
    })
}

/// Writes the ITF trace of `trace` to `path`; a file that cannot be written is bad input.
pub fn write_itf(
    path: &Path,
    model: &Model,
    trace: &[Step],
    description: &str,
) -> Result<(), Diagnostic> {
    let text = serde_json::to_string_pretty(&itf_trace(model, trace, description))
        .expect("a JSON value always serialises");
    std::fs::write(path, text + "\n").map_err(|e| {
        Diagnostic::new(
            DiagKind::File,
            Span::default(),
            format!("cannot write the ITF trace to {}: {e}", path.display()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Element;
    use std::sync::Arc;

    #[test]
    fn encodes_each_kind_of_value() {
        let b = Reading::b();
        let tla = Reading::with_function_types(vec![Type::relation(Type::String, Type::Integer)]);
        assert_eq!(
            itf_value(&b, &Value::int(-7), Some(&Type::Integer)),
            json!({"#bigint": "-7"})
        );
        assert_eq!(itf_value(&b, &Value::Bool(true), None), json!(true));
        assert_eq!(itf_value(&b, &Value::Str("x".into()), None), json!("x"));
        let elem = Value::Elem(Arc::new(Element {
            set: "PERSON".into(),
            index: 0,
            name: "c1".into(),
        }));
        assert_eq!(itf_value(&b, &elem, None), json!("c1_OF_PERSON"));
        let pair = Value::pair(Value::int(1), Value::Bool(false));
        let pair_ty = Type::pair(Type::Integer, Type::Bool);
        assert_eq!(
            itf_value(&b, &pair, Some(&pair_ty)),
            json!({"#tup": [{"#bigint": "1"}, false]})
        );
        let set = Value::set_from_vec(vec![Value::int(2)]);
        assert_eq!(
            itf_value(&b, &set, Some(&Type::set(Type::Integer))),
            json!({"#set": [{"#bigint": "2"}]})
        );
        let seq = Value::sequence(vec![Value::Bool(true), Value::Bool(false)]);
        assert_eq!(
            itf_value(&b, &seq, Some(&Type::seq(Type::Bool))),
            json!([true, false])
        );
        let rec = Value::Record(Arc::new(vec![("a".into(), Value::int(1))]));
        assert_eq!(itf_value(&b, &rec, None), json!({"a": {"#bigint": "1"}}));
        // A B function is a set of pairs; a TLA+ function a map.
        let f_ty = Type::relation(Type::String, Type::Integer);
        let f = Value::set_from_vec(vec![Value::pair(Value::Str("k".into()), Value::int(3))]);
        assert_eq!(
            itf_value(&b, &f, Some(&f_ty)),
            json!({"#set": [{"#tup": ["k", {"#bigint": "3"}]}]})
        );
        assert_eq!(
            itf_value(&tla, &f, Some(&f_ty)),
            json!({"#map": [["k", {"#bigint": "3"}]]})
        );
    }
}
