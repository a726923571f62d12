//! Shared formatting of values, assignments and traces.

use crate::check::mc::Step;
use crate::check::setup::Assignment;

/// `x = 1, y = {2,3}`.
pub fn assignment(a: &Assignment) -> String {
    a.iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An assignment as a JSON object of B-syntax strings.
pub fn assignment_json(a: &Assignment) -> serde_json::Value {
    serde_json::Value::Object(
        a.iter()
            .map(|(n, v)| (n.to_string(), serde_json::Value::String(v.to_string())))
            .collect(),
    )
}

/// One trace step as ProB prints it: `op(params)` then the changed variables.
pub fn step(s: &Step) -> String {
    let mut line = s.label.clone();
    if !s.params.is_empty() {
        let params: Vec<String> = s.params.iter().map(|(_, v)| v.to_string()).collect();
        line.push_str(&format!("({})", params.join(",")));
    }
    if !s.outputs.is_empty() {
        line.push_str(&format!(" --> {}", assignment(&s.outputs)));
    }
    if !s.changed.is_empty() {
        line.push_str(&format!("   [{}]", assignment(&s.changed)));
    }
    line
}

pub fn step_json(s: &Step) -> serde_json::Value {
    serde_json::json!({
        "operation": s.label,
        "parameters": assignment_json(&s.params),
        "outputs": assignment_json(&s.outputs),
        "changed": assignment_json(&s.changed),
    })
}
