//! The value of a variable the INITIALISATION does not assign.
//!
//! ProB keeps exploring a machine whose INITIALISATION leaves a variable without a value: the state
//! holds the variable as undefined, and what reads it (a guard, the invariant, an assignment) is
//! reported as an error in that state while the rest of the state space is explored. bsolve does the
//! same: the state holds this placeholder, and reading it is a well-definedness error of the formula
//! or transition that reads it (`eval`'s identifier lookup), which the model checker reports as it
//! reports other ill-defined operations and invariants.

use super::{EvalError, Val, wd_error};
use crate::diag::Span;
use crate::value::{Element, Value};
use std::sync::Arc;

/// The `Element::set` of the placeholder: no B identifier can be spelled this way.
const UNASSIGNED: &str = "<unassigned>";

/// The value a state holds for a variable the INITIALISATION does not assign; prints as `undefined`.
pub(crate) fn placeholder() -> Value {
    Value::Elem(Arc::new(Element {
        set: UNASSIGNED.into(),
        index: 0,
        name: "undefined".into(),
    }))
}

/// Whether `v` is the placeholder of an unassigned variable.
pub(crate) fn is_placeholder(v: &Val) -> bool {
    matches!(v, Val::Value(Value::Elem(e)) if &*e.set == UNASSIGNED)
}

/// The error of reading variable `name` while it has no value.
pub(crate) fn read_error(span: Span, name: &str) -> EvalError {
    wd_error(
        span,
        format!("{name} is read but has no value (the INITIALISATION does not assign it)"),
    )
}
