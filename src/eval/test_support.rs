//! Helpers of the interpreter's unit tests that evaluate B text through the whole pipeline (parser, type
//! checker, interpreter) in the context of an empty machine, as `bsolve eval` does.

use crate::check::evaluate::{EvalOutcome, evaluate};
use crate::check::{Model, Options};

/// A closed predicate's truth value (an error for anything else, with its message).
pub(crate) fn truth(model: &Model, text: &str) -> Result<bool, String> {
    match evaluate(model, text).map_err(|d| d.to_string())?.outcome {
        EvalOutcome::Truth(b) => Ok(b),
        _ => Err(format!("{text}: not a truth value")),
    }
}

/// A machine without clauses, loaded from a temporary file named after `name`.
pub(crate) fn empty_machine(name: &str) -> Model {
    let path = std::env::temp_dir().join(format!("bsolve-sym-{}-{name}.mch", std::process::id()));
    std::fs::write(&path, "MACHINE Sets\nEND").expect("write temp machine");
    Model::load(&path, &Options::default()).expect("loads")
}

/// The value of an expression, printed.
pub(crate) fn value_of(model: &Model, text: &str) -> Result<String, String> {
    match evaluate(model, text).map_err(|d| d.to_string())?.outcome {
        EvalOutcome::Value(v, _) => Ok(v.to_string()),
        EvalOutcome::Undefined(d) => Err(d.to_string()),
        _ => Err(format!("{text}: not a value")),
    }
}
