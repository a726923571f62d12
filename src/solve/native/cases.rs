//! Case splits on a top-level disjunction: `P & (A or B)` is searched as `P & A`, then `P & B`, when a
//! case gives a variable the typing conjunct the rest lacks (`not(x : S & Q) => R`, the corpus's proof
//! obligations, types x only in the first case). Without it such a variable is decomposed over its type
//! (often thousands of guessed membership bits); within a case it gets the decomposition of its typing.

use crate::ir::{CompareOp, ExprKind, Pred, PredKind, TypedName};
use rustc_hash::FxHashSet;

/// The cases of the first top-level conjunct that is a disjunction (`A or B`, `A => B`) one of whose
/// cases types a variable of `vars` not typed by the other conjuncts: each case is the conjunction of
/// the other conjuncts with that case.
pub(crate) fn split(pred: &Pred, vars: &[TypedName]) -> Option<Vec<Pred>> {
    let conjuncts = pred.conjuncts();
    let names: FxHashSet<&str> = vars.iter().map(|v| &*v.name).collect();
    let typed = |c: &Pred| -> Option<String> {
        match &c.kind {
            PredKind::Compare(CompareOp::In | CompareOp::Subset, x, _) => match &x.kind {
                ExprKind::Var(n) if names.contains(&**n) => Some(n.to_string()),
                _ => None,
            },
            _ => None,
        }
    };
    let top_typed: FxHashSet<String> = conjuncts.iter().filter_map(|c| typed(c)).collect();
    for (k, c) in conjuncts.iter().enumerate() {
        let cases: Vec<Pred> = match &c.kind {
            PredKind::Or(ps) => ps.iter().map(without_double_negation).collect(),
            PredKind::Implies(a, b) => vec![negation(a), without_double_negation(b)],
            _ => continue,
        };
        // Already split: a case is a conjunct beside the disjunction (kept by a case of rank 0 below).
        if cases.iter().any(|case| conjuncts.contains(&case)) {
            continue;
        }
        let typed_in = |case: &Pred| -> FxHashSet<String> {
            case.conjuncts()
                .into_iter()
                .filter_map(&typed)
                .filter(|n| !top_typed.contains(n))
                .collect()
        };
        let newly_typed: FxHashSet<String> = cases.iter().flat_map(&typed_in).collect();
        if newly_typed.is_empty() {
            continue;
        }
        // Cheapest cases first: one that leaves those variables alone (any value does) before one
        // that types them, before one that constrains them untyped (decomposed over their types).
        let rank = |case: &Pred| -> u8 {
            let free = crate::ir::free_names::of_pred(case);
            let mentioned: Vec<&str> = newly_typed
                .iter()
                .map(|n| n.as_str())
                .filter(|n| free.contains(*n))
                .collect();
            let own = typed_in(case);
            if mentioned.is_empty() {
                0
            } else if mentioned.iter().all(|n| own.contains(*n)) {
                1
            } else {
                2
            }
        };
        let mut cases = cases;
        cases.sort_by_key(|c| rank(c));
        let others: Vec<Pred> = conjuncts
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, d)| (*d).clone())
            .collect();
        return Some(
            cases
                .into_iter()
                .map(|case| {
                    let mut parts = others.clone();
                    // A case that leaves those variables alone keeps the whole disjunction as well (it
                    // implies it): their typings inside it still guide the guess of their values.
                    if rank(&case) == 0 {
                        parts.push((*c).clone());
                    }
                    parts.push(case);
                    Pred::new(PredKind::And(parts), pred.span)
                })
                .collect(),
        );
    }
    None
}

/// `not(p)`, without a double negation.
fn negation(p: &Pred) -> Pred {
    match &p.kind {
        PredKind::Not(q) => without_double_negation(q),
        _ => Pred::new(PredKind::Not(Box::new(without_double_negation(p))), p.span),
    }
}

/// `p` with leading `not(not(...))` pairs removed (so that a case's typing conjuncts show).
fn without_double_negation(p: &Pred) -> Pred {
    match &p.kind {
        PredKind::Not(q) => match &q.kind {
            PredKind::Not(r) => without_double_negation(r),
            _ => p.clone(),
        },
        _ => p.clone(),
    }
}
