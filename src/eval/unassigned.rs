//! The value of a variable before anything assigns it.
//!
//! ProB keeps exploring a machine whose INITIALISATION leaves a variable without a value: the state
//! holds the variable as undefined, and what reads it (a guard, the invariant, an assignment) is
//! reported as an error in that state while the rest of the state space is explored. bsolve does the
//! same: the state holds a placeholder, and reading it is a well-definedness error of the formula or
//! transition that reads it (`eval`'s identifier lookup), which the model checker reports as it reports
//! other ill-defined operations and invariants. An operation's output or a VAR local read before its
//! assignment holds the same kind of placeholder while the substitution runs.

use super::{EvalError, Val, wd_error};
use crate::diag::Span;
use crate::value::{Element, Value};
use std::sync::Arc;

/// The `Element::set` of the placeholders: no B identifier can be spelled this way.
const UNASSIGNED: &str = "<unassigned>";
/// `Element::index` of a state variable's placeholder.
const STATE_VARIABLE: u32 = 0;
/// `Element::index` of an output's or VAR local's placeholder.
const LOCAL: u32 = 1;

fn make(index: u32) -> Value {
    Value::Elem(Arc::new(Element {
        set: UNASSIGNED.into(),
        index,
        name: "undefined".into(),
    }))
}

/// The value a state holds for a variable the INITIALISATION does not assign; prints as `undefined`.
pub(crate) fn placeholder() -> Value {
    make(STATE_VARIABLE)
}

/// The value an operation's output or a VAR local holds until the substitution assigns it.
pub(crate) fn local() -> Value {
    make(LOCAL)
}

/// The error of reading `name` when its value `v` is a placeholder; None for any other value.
pub(crate) fn read_error(v: &Val, span: Span, name: &str) -> Option<EvalError> {
    let Val::Value(Value::Elem(e)) = v else {
        return None;
    };
    if &*e.set != UNASSIGNED {
        return None;
    }
    Some(wd_error(
        span,
        if e.index == STATE_VARIABLE {
            format!("{name} is read but has no value (the INITIALISATION does not assign it)")
        } else {
            format!("{name} is read before it is assigned a value")
        },
    ))
}
