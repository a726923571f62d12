//! Shared formatting of values, assignments and traces, in B syntax the parser reads back. Values are
//! printed with their types, so that sequences show as `[a,b]` rather than as sets of pairs.

use super::tla_trace::tlc_trace;
use crate::check::Model;
use crate::check::mc::Step;
use crate::check::setup::Assignment;
use crate::ir::{Machine, TypedName};
use crate::types::Type;
use crate::value::Value;
use crate::value::display::display_with_type;

/// The longest value a trace step prints whole in text.
const TRACE_VALUE_CHARS: usize = 300;

/// `text` (the printed `v`), cut after `TRACE_VALUE_CHARS` characters with the size of the set it
/// shows.
fn abbreviated(text: String, v: &Value) -> String {
    if text.chars().count() <= TRACE_VALUE_CHARS {
        return text;
    }
    let kept: String = text.chars().take(TRACE_VALUE_CHARS).collect();
    match v.as_set() {
        Some(items) => format!(
            "{kept}... ({} elements; --json prints it whole)",
            items.len()
        ),
        None => format!("{kept}... (--json prints it whole)"),
    }
}

/// Prints a counterexample trace under a header `trace (N steps{note}):`: TLC's whole states in TLA+
/// syntax for a model read from TLA+ (N counts states), else ProB's numbered steps in B syntax.
pub fn print_trace(model: &Model, printer: &Printer, note: &str, trace: &[Step]) {
    if model.tla.is_some() {
        let states = tlc_trace(model.machine(), trace);
        println!("trace ({} states{note}):", states.len());
        print!("{}", states.join("\n"));
        return;
    }
    println!("trace ({} steps{note}):", trace.len());
    for (i, s) in trace.iter().enumerate() {
        println!("  {i}: {}", printer.step(s));
    }
}

/// Prints the values of a machine's identifiers (and of extra typed names, e.g. a formula's free ones).
pub struct Printer<'m> {
    machine: &'m Machine,
    extra: &'m [TypedName],
    /// The types of the machine's variables, constants and parameters by name, built on first use: an
    /// assignment of hundreds of constants would otherwise scan them all for every name it prints.
    machine_types: std::cell::OnceCell<rustc_hash::FxHashMap<&'m str, &'m Type>>,
}

impl<'m> Printer<'m> {
    pub fn new(machine: &'m Machine, extra: &'m [TypedName]) -> Printer<'m> {
        Printer {
            machine,
            extra,
            machine_types: std::cell::OnceCell::new(),
        }
    }

    /// `x = 1, s = [2,3]`; `operation` names the operation whose parameters and outputs may appear.
    pub fn assignment(&self, a: &Assignment, operation: Option<&str>) -> String {
        a.iter()
            .map(|(n, v)| format!("{n} = {}", self.value(n, v, operation)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// An assignment as a JSON object of B-syntax strings.
    pub fn assignment_json(&self, a: &Assignment, operation: Option<&str>) -> serde_json::Value {
        serde_json::Value::Object(
            a.iter()
                .map(|(n, v)| {
                    (
                        n.to_string(),
                        serde_json::Value::String(self.value(n, v, operation)),
                    )
                })
                .collect(),
        )
    }

    /// One trace step as ProB prints it: `op(params)`, outputs, then the changed variables. A value
    /// longer than `TRACE_VALUE_CHARS` is cut (a loop's array of 20,000 elements would fill screens at
    /// every step); `--json` prints every value whole.
    pub fn step(&self, s: &Step) -> String {
        let op = Some(s.label.as_str());
        let short = |n: &str, v: &Value| abbreviated(self.value(n, v, op), v);
        let mut line = s.label.clone();
        if !s.params.is_empty() {
            let params: Vec<String> = s.params.iter().map(|(n, v)| short(n, v)).collect();
            line.push_str(&format!("({})", params.join(",")));
        }
        let assignment = |a: &Assignment| {
            a.iter()
                .map(|(n, v)| format!("{n} = {}", short(n, v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !s.outputs.is_empty() {
            line.push_str(&format!(" --> {}", assignment(&s.outputs)));
        }
        if !s.changed.is_empty() {
            line.push_str(&format!("   [{}]", assignment(&s.changed)));
        }
        line
    }

    pub fn step_json(&self, s: &Step) -> serde_json::Value {
        let op = Some(s.label.as_str());
        serde_json::json!({
            "operation": s.label,
            "parameters": self.assignment_json(&s.params, op),
            "outputs": self.assignment_json(&s.outputs, op),
            "changed": self.assignment_json(&s.changed, op),
        })
    }

    fn value(&self, name: &str, v: &Value, operation: Option<&str>) -> String {
        match self.type_of(name, operation) {
            Some(ty) => display_with_type(v, ty),
            None => v.to_string(),
        }
    }

    /// The type of an identifier: a formula's own names first, then the operation's parameters and
    /// outputs, then the machine's variables, constants and parameters.
    fn type_of(&self, name: &str, operation: Option<&str>) -> Option<&'m Type> {
        let m = self.machine;
        let op_names = m
            .operations
            .iter()
            .filter(|op| Some(&*op.name) == operation)
            .flat_map(|op| op.params.iter().chain(&op.outputs));
        if let Some(t) = self.extra.iter().chain(op_names).find(|t| &*t.name == name) {
            return Some(&t.ty);
        }
        let machine_types = self.machine_types.get_or_init(|| {
            let mut types = rustc_hash::FxHashMap::default();
            // The first of a name wins, as in the order the names are searched.
            for t in m.variables.iter().chain(&m.constants).chain(&m.params) {
                types.entry(&*t.name).or_insert(&t.ty);
            }
            types
        });
        machine_types.get(name).copied()
    }
}
