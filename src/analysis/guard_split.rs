//! Guard splitting: an operation's guard as conjuncts, each with the machine variables it reads (the
//! "guard read matrix" of Meijer & van de Pol, "Guard-based partial-order reduction" and LTSmin's
//! split guards in the PINS interface; ProB's LTSmin link exports the same per-guard rows).
//!
//! The guard is what an operation requires before it assigns anything: the conjuncts of the
//! preconditions (PRE), of a SELECT with one branch and no ELSE, and of the ANY's WHERE, peeled from
//! the top of the body as far as these constructs nest. A conjunct that mentions a parameter or an ANY
//! variable is kept with `parameter_free: false`; only a parameter-free conjunct decides the guard
//! from the state alone: where it is false, the operation has no transition, whatever the other
//! variables hold.

use crate::ir::{Machine, Operation, Pred, SubstKind};
use crate::syntax::ast::Name;
use std::collections::BTreeSet;

/// One conjunct of an operation's guard.
#[derive(Clone, Debug)]
pub struct GuardConjunct<'m> {
    pub pred: &'m Pred,
    /// The machine variables it reads (a parameter named like a variable hides it).
    pub reads: BTreeSet<Name>,
    /// Whether it mentions no parameter and no ANY variable: a function of the state alone.
    pub parameter_free: bool,
}

/// The conjuncts of `op`'s guard, outermost first.
pub fn guard_conjuncts<'m>(m: &Machine, op: &'m Operation) -> Vec<GuardConjunct<'m>> {
    let mut locals: BTreeSet<Name> = (op.params.iter().chain(&op.outputs))
        .map(|p| p.name.clone())
        .collect();
    let mut out = Vec::new();
    let mut body = &op.body;
    loop {
        let (guard, next) = match &body.kind {
            SubstKind::Pre(p, b) => (p, b.as_ref()),
            SubstKind::Select(branches, None) if branches.len() == 1 => {
                (&branches[0].0, &branches[0].1)
            }
            SubstKind::Any(vars, p, b) => {
                locals.extend(vars.iter().map(|v| v.name.clone()));
                (p, b.as_ref())
            }
            _ => break,
        };
        for pred in guard.conjuncts() {
            let names = crate::ir::free_names::of_pred(pred);
            let is_var =
                |n: &&Name| !locals.contains(*n) && m.variables.iter().any(|v| v.name == **n);
            out.push(GuardConjunct {
                pred,
                reads: names.iter().filter(is_var).cloned().collect(),
                parameter_free: names.iter().all(|n| !locals.contains(n)),
            });
        }
        body = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Model;

    #[test]
    fn conjuncts_of_pre_select_and_any_with_their_reads() {
        let model = Model::from_text(
            "guards",
            "MACHINE G\nVARIABLES x, y, z\nINVARIANT x : 0..9 & y : 0..9 & z : 0..9\n\
             INITIALISATION x, y, z := 0, 0, 0\n\
             OPERATIONS op(p) = PRE p : 1..3 & x < 5 THEN SELECT y > z THEN \
             ANY q WHERE q : 0..x & q > y THEN z := q END END END\nEND",
        );
        let m = model.machine();
        let found = guard_conjuncts(m, &m.operations[0]);
        let rows: Vec<(Vec<&str>, bool)> = found
            .iter()
            .map(|g| (g.reads.iter().map(|n| &**n).collect(), g.parameter_free))
            .collect();
        assert_eq!(
            rows,
            vec![
                (vec![], false),
                (vec!["x"], true),
                (vec!["y", "z"], true),
                (vec!["x"], false),
                (vec!["y"], false),
            ]
        );
    }
}
