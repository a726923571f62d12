//! The independent oracle: every assignment of the free variables over tiny types (integers within
//! MININT..MAXINT, BOOL, the given sets, sets and pairs of those), each checked by evaluating the closed
//! predicate. It shares no code with the interpreter's bounded enumeration (`--backend brute`) or any
//! solver: only the evaluation of a predicate whose variables all have values.

use bsolve::check::Model;
use bsolve::eval::{Env, EvalError};
use bsolve::ir::{Pred, TypedName};
use bsolve::types::Type;
use bsolve::value::Value;
use std::collections::BTreeSet;

/// The most candidate assignments the oracle lists.
const MAX_CANDIDATES: usize = 4_096;

/// The solutions within the tiny domain, or None when a type is not tiny or an evaluation gave up
/// (a limit or the time budget: not a verdict on the candidate).
pub fn solutions(model: &Model, vars: &[TypedName], pred: &Pred) -> Option<BTreeSet<Vec<Value>>> {
    let domains: Vec<Vec<Value>> = vars
        .iter()
        .map(|v| values(model, &v.ty))
        .collect::<Option<_>>()?;
    let candidates = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))?;
    if candidates > MAX_CANDIDATES {
        return None;
    }
    let mut found = BTreeSet::new();
    for index in 0..candidates {
        let mut rest = index;
        let mut env = Env::new();
        let mut point = Vec::with_capacity(vars.len());
        for (v, d) in vars.iter().zip(&domains) {
            let x = d[rest % d.len()].clone();
            rest /= d.len();
            env.bind(v.name.clone(), x.clone());
            point.push(x);
        }
        match model.context.eval_pred(pred, &env) {
            Ok(true) => {
                found.insert(point);
            }
            Ok(false) => {}
            // An ill-defined candidate is no solution (the solvers' reading).
            Err(EvalError::WellDefinedness(_)) => {}
            Err(_) => return None,
        }
    }
    Some(found)
}

/// Whether `v` lies in the tiny domain of its type.
pub fn inside(model: &Model, ty: &Type, v: &Value) -> bool {
    values(model, ty).is_some_and(|d| d.contains(v))
}

/// Every value of a tiny type (sorted, as sets are), None when it is not tiny.
fn values(model: &Model, ty: &Type) -> Option<Vec<Value>> {
    let settings = model.context.settings();
    match ty {
        Type::Integer => {
            use num_traits::ToPrimitive;
            let (lo, hi) = (settings.minint.to_i64()?, settings.maxint.to_i64()?);
            (hi - lo < MAX_CANDIDATES as i64).then(|| (lo..=hi).map(Value::int).collect())
        }
        Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
        Type::Given(name) => model
            .context
            .given_set(name, Default::default())
            .ok()
            .map(|s| s.to_vec()),
        Type::Pair(a, b) => {
            let (xs, ys) = (values(model, a)?, values(model, b)?);
            if xs.len() * ys.len() > MAX_CANDIDATES {
                return None;
            }
            Some(
                xs.iter()
                    .flat_map(|x| ys.iter().map(move |y| Value::pair(x.clone(), y.clone())))
                    .collect(),
            )
        }
        Type::Set(t) => {
            let items = values(model, t)?;
            if items.len() > 10 {
                return None;
            }
            let mut sets: Vec<Value> = (0u32..1 << items.len())
                .map(|mask| {
                    Value::set_from_sorted(
                        items
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask & (1 << i) != 0)
                            .map(|(_, x)| x.clone())
                            .collect(),
                    )
                })
                .collect();
            sets.sort();
            Some(sets)
        }
        Type::String | Type::TlaValue | Type::Struct(_) | Type::Var(_) => None,
    }
}
