//! A counterexample trace of a TLA+ model as TLC prints it: numbered whole states, each headed by the
//! action that reached it (`<Initial predicate>` for the first, else the action with its `\E`-bound
//! values), then one `/\ x = value` line per variable in TLA+ syntax. TLC prints values whole, and so
//! does this.

use super::tla_shape::Reading;
use super::tla_syntax::tla_value;
use super::trace_states::{INITIALISATION, trace_states};
use crate::check::mc::Step;
use crate::ir::{Machine, TypedName};
use crate::types::Type;

/// The states of `trace` as TLC prints them, one text of lines each (to be separated by blank lines).
pub fn tlc_trace(m: &Machine, trace: &[Step]) -> Vec<String> {
    let reading = Reading::tla(m);
    let mut states = Vec::new();
    for (i, state) in trace_states(m, trace).iter().enumerate() {
        let mut out = String::new();
        let action = if state.label == INITIALISATION {
            "Initial predicate".to_string()
        } else if state.params.is_empty() {
            state.label.to_string()
        } else {
            let params = m
                .operations
                .iter()
                .find(|op| &*op.name == state.label)
                .map_or(&[][..], |op| &op.params[..]);
            let values = state
                .params
                .iter()
                .map(|(n, v)| tla_value(&reading, v, type_among(params, n)))
                .collect::<Vec<_>>();
            format!("{}({})", state.label, values.join(", "))
        };
        out.push_str(&format!("State {}: <{action}>\n", i + 1));
        for (name, v) in &state.values {
            let ty = type_among(&m.variables, name);
            out.push_str(&format!("/\\ {name} = {}\n", tla_value(&reading, v, ty)));
        }
        states.push(out);
    }
    states
}

/// The type of `name` among `names`.
fn type_among<'m>(names: &'m [TypedName], name: &str) -> Option<&'m Type> {
    names.iter().find(|t| &*t.name == name).map(|t| &t.ty)
}
