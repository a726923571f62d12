//! The shape of a question, as the portfolio reads it to choose how to start (`portfolio`): native
//! alone for a short probe, or native and the SAT lane together from the start.
//!
//! Native searches a set or relation unknown member by member (one boolean per carrier element:
//! `native::model`), and BOOL unknowns value by value: a search over booleans without clause learning,
//! which a SAT solver does best — an acyclicity Unsat, a relation puzzle, a subset with a closure, a
//! CNF written as B are decided by SAT in a fraction of native's time (RESULTS.md, bench) — while
//! integer scalars, elements and total functions (one value per point) are what native's propagation
//! is built for (SEND+MORE, queens, colourings). So a question with such a free relation, or whose
//! unknowns are mostly booleans, starts both at once; any other starts with native's probe. The rule
//! is only about speed: both routes run the same backends and give the same answers.

use super::Problem;
use crate::ir::{CompareOp, Expr, ExprKind, PredKind, UnaryOp, free_names};
use crate::types::Type;
use rustc_hash::FxHashSet;

/// Whether the question favours SAT: some unknown is a free relation (`has_free_relation`), or more
/// than half of the unknowns are BOOL.
pub(super) fn favours_sat(problem: &Problem<'_>) -> bool {
    let booleans = problem.vars.iter().filter(|v| v.ty == Type::Bool).count();
    2 * booleans > problem.vars.len() || has_free_relation(problem)
}

/// Whether some unknown is a set or relation native would search member by member: set-typed, not
/// defined (`defined`), typed by a top-level conjunct (`r : A <-> B`, `s <: A`, `s : POW(A)`), and not
/// as a total function or a sequence. An unknown typed only under a connective (`not(P) => Q`) is not
/// one: native's case split decides such questions in a millisecond where SAT first translates the
/// whole implication (RESULTS.md, fifth round: 5766, native 1.3 ms, auto 12 ms).
fn has_free_relation(problem: &Problem<'_>) -> bool {
    let conjuncts = problem.pred.conjuncts();
    let defined = defined(problem, &conjuncts);
    // The unknowns top-level conjuncts type as sets or relations, and those they type as total
    // functions or sequences: one pass over the conjuncts, not one per unknown.
    let mut as_relation: FxHashSet<&str> = FxHashSet::default();
    let mut as_function: FxHashSet<&str> = FxHashSet::default();
    for c in &conjuncts {
        let (x, function) = match &c.kind {
            PredKind::Compare(CompareOp::In, x, set) => (x, is_function_or_sequence_set(set)),
            PredKind::Compare(CompareOp::Subset | CompareOp::StrictSubset, x, _) => (x, false),
            _ => continue,
        };
        if let ExprKind::Var(name) = &x.kind {
            if function {
                as_function.insert(name);
            } else {
                as_relation.insert(name);
            }
        }
    }
    problem
        .vars
        .iter()
        .filter(|v| matches!(v.ty, Type::Set(_)) && !defined.contains(&*v.name))
        .any(|v| as_relation.contains(&*v.name) && !as_function.contains(&*v.name))
}

/// The unknowns an equation defines from known values and other defined unknowns, transitively
/// (`relevant = dom(graph1) \/ ran(graph2)` after `graph1 = G1 \/ G1~`): native computes them before
/// it searches (`native::model`'s determined values), so they are not searched at all.
fn defined<'a>(problem: &Problem<'_>, conjuncts: &[&'a crate::ir::Pred]) -> FxHashSet<&'a str> {
    let unknowns: FxHashSet<&str> = problem.vars.iter().map(|v| &*v.name).collect();
    // The equations `x = E` (either way round) with x an unknown.
    let mut equations: Vec<(&str, &Expr)> = Vec::new();
    for c in conjuncts {
        if let PredKind::Compare(CompareOp::Eq, l, r) = &c.kind {
            for (x, e) in [(l, r), (r, l)] {
                if let ExprKind::Var(name) = &x.kind
                    && unknowns.contains(&**name)
                {
                    equations.push((name, e));
                }
            }
        }
    }
    let mut defined: FxHashSet<&str> = FxHashSet::default();
    loop {
        let before = defined.len();
        for &(x, e) in &equations {
            let open = |name: &crate::syntax::ast::Name| {
                unknowns.contains(&**name) && !defined.contains(&**name)
            };
            if !defined.contains(x) && !free_names::expr_mentions(e, &open) {
                defined.insert(x);
            }
        }
        if defined.len() == before {
            return defined;
        }
    }
}

/// `A --> B` and the other total functions, or a set of sequences.
fn is_function_or_sequence_set(set: &Expr) -> bool {
    match &set.kind {
        ExprKind::Binary(op, _, _) => op
            .arrow_properties()
            .is_some_and(|p| p.functional && p.total),
        ExprKind::Unary(op, _) => matches!(
            op,
            UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::favours_sat;
    use crate::eval::Env;
    use crate::solve::Problem;
    use crate::solve::smt::test_formula as formula;

    fn favours(text: &str) -> bool {
        let (_, vars, pred) = formula(text);
        let env = Env::new();
        favours_sat(&Problem::new(&vars, &pred, &env))
    }

    #[test]
    fn free_relations_and_booleans_favour_sat_scalars_and_functions_native() {
        assert!(favours("s <: 1..4 & card(s) = 2"));
        assert!(favours("r : 1..3 <-> 1..3 & closure1(r) /\\ id(1..3) = {}"));
        assert!(favours("f : 1..3 +-> 1..2"));
        assert!(favours("a : BOOL & b : BOOL & c : BOOL & x : 1..2"));
        assert!(!favours("x : 1..5 & y : 1..5 & x + y = 7"));
        assert!(!favours("f : 1..3 --> 1..2 & f(1) /= f(2)"));
        assert!(!favours("s : seq(1..3) & size(s) = 2"));
        // Defined by an equation over known values: computed, not searched.
        assert!(!favours("r = {1 |-> 2} & x : 1..3 & x : dom(r)"));
        // Defined through other defined unknowns (GraphIsomorphism's `relevant`), in any order.
        assert!(!favours(
            "s = dom(r) \\/ ran(r) & r = {1 |-> 2} & x : 1..3 & x : s"
        ));
        // A cycle of equations defines nothing.
        assert!(favours("s = t & t = s & s <: 1..3"));
        // Typed only under a connective: native's case split, not SAT's translation, goes first.
        assert!(!favours("not(r : 1..3 <-> 1..3 & card(r) = 2) => r = {}"));
        assert!(!favours("a : BOOL & x : 1..2 & y : 1..2"));
    }
}
