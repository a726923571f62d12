//! Rewriting the deferred-set elements inside a value: the one operation both a permutation of the
//! elements and their abstraction into colour markers need.

use crate::value::{Element, Value};
use std::sync::Arc;

/// `v` with each element `e` for which `f(e)` is `Some(x)` replaced by `x`; `None` when nothing changed
/// (parts without a replaced element are shared with `v`, not copied: a state's integers and strings
/// stay where they are). Sets are sorted again but never deduplicated: under a permutation no two
/// members become equal, and under markers equal members are kept so that the abstraction of a set
/// still counts its members (it is a key, never evaluated).
pub(super) fn relabel(v: &Value, f: &dyn Fn(&Element) -> Option<Value>) -> Option<Value> {
    match v {
        Value::Elem(e) => f(e),
        Value::Int(_) | Value::Bool(_) | Value::Str(_) => None,
        Value::Pair(ab) => {
            let a = relabel(&ab.0, f);
            let b = relabel(&ab.1, f);
            if a.is_none() && b.is_none() {
                return None;
            }
            Some(Value::pair(
                a.unwrap_or_else(|| ab.0.clone()),
                b.unwrap_or_else(|| ab.1.clone()),
            ))
        }
        Value::Set(items) => {
            let mut changed = false;
            let mut out: Vec<Value> = items
                .iter()
                .map(|x| match relabel(x, f) {
                    Some(y) => {
                        changed = true;
                        y
                    }
                    None => x.clone(),
                })
                .collect();
            if !changed {
                return None;
            }
            out.sort();
            Some(Value::Set(Arc::new(out)))
        }
        Value::Record(fields) => {
            let mut changed = false;
            let out: Vec<(Arc<str>, Value)> = fields
                .iter()
                .map(|(n, x)| match relabel(x, f) {
                    Some(y) => {
                        changed = true;
                        (n.clone(), y)
                    }
                    None => (n.clone(), x.clone()),
                })
                .collect();
            changed.then(|| Value::Record(Arc::new(out)))
        }
    }
}

/// `relabel` over a whole state.
pub(super) fn relabel_state(values: &[Value], f: &dyn Fn(&Element) -> Option<Value>) -> Vec<Value> {
    values
        .iter()
        .map(|v| relabel(v, f).unwrap_or_else(|| v.clone()))
        .collect()
}

/// Every element of a deferred set named in `v`, by set name and index, passed to `each`.
pub(super) fn each_element(v: &Value, each: &mut dyn FnMut(&Element)) {
    match v {
        Value::Elem(e) => each(e),
        Value::Int(_) | Value::Bool(_) | Value::Str(_) => {}
        Value::Pair(ab) => {
            each_element(&ab.0, each);
            each_element(&ab.1, each);
        }
        Value::Set(items) => items.iter().for_each(|x| each_element(x, each)),
        Value::Record(fields) => fields.iter().for_each(|(_, x)| each_element(x, each)),
    }
}
