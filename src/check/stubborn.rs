//! Partial-order reduction for `mc --por`: in each state, expand only a stubborn set of the enabled
//! operations (Valmari, "Stubborn sets for reduced state space generation", 1991; LoLA's deadlock-
//! and safety-preserving sets), which is also an ample set (Peled, "All from one, one for all", CAV
//! 1993): conditions C0–C3 hold, so every deadlock and every state violating the invariant or an
//! assertion of the full graph has a counterpart the reduced graph reaches.
//!
//! The unit of reduction is an operation with all its parameter values (a transition group in PINS
//! terms); the dependency matrix is `before_after::exact_read_write`. Two operations are *dependent*
//! when one writes a variable the other reads or writes; independent ones commute and neither enables
//! nor disables the other. The stubborn set of a state is closed under
//! * for an enabled operation: every operation dependent on it (enabled or not: a disabled one might be
//!   enabled by operations outside the set and then interfere);
//! * for a disabled operation: a necessary enabling set — the writers of the variables of one of its
//!   guard conjuncts false here (while that conjunct stays false the operation has no transition), or,
//!   without such a conjunct, the writers of every variable it reads.
//!
//! It is started from each enabled operation in turn and the candidate with the fewest transitions is
//! kept (every enabled operation in it is a key transition, so it is non-empty when anything is
//! enabled: C0, deadlocks preserved). Invariant and assertions: an operation writing a variable they
//! (or SCOPE) read is *visible*, and a candidate with an enabled visible operation is rejected (C2).
//! The cycle proviso (C3) is the model checker's (`mc`): a state whose reduced successors include one
//! already found is expanded fully.
//!
//! Where the matrix is not exact for some operation (an operation call, a WHILE loop, a local hiding a
//! variable: `before_after::exact_read_write`) there is no reduction at all: such an operation would be
//! dependent on every other.

use crate::analysis::before_after::exact_read_write;
use crate::ir::{CompareOp, ExprConst, ExprKind, Machine, Pred, PredKind, Subst, SubstKind};
use crate::syntax::ast::Name;
use std::collections::BTreeSet;

/// The dependency matrix of a machine's operations, read for stubborn sets.
pub struct Stubborn {
    /// Per operation, the operations dependent on it (itself included).
    dependent: Vec<Vec<usize>>,
    /// Per operation, the operations writing a variable it reads: its necessary enabling set when no
    /// guard conjunct is known false.
    enablers: Vec<Vec<usize>>,
    /// Per operation, its guard conjuncts over variables and constants only, each with the operations
    /// writing a variable it reads.
    guards: Vec<Vec<(Pred, Vec<usize>)>>,
    /// Per operation, whether it writes a variable the checked invariant, assertions or SCOPE read.
    visible: Vec<bool>,
}

/// What `Stubborn::ample` needs to know about one state.
pub struct Enabled<'a> {
    /// Per operation, its number of transitions here (0: disabled).
    pub transitions: &'a [usize],
    /// Whether a guard conjunct is false here; an error or an ill-defined conjunct is not false.
    pub is_false: &'a mut dyn FnMut(&Pred) -> bool,
}

impl Stubborn {
    /// The matrix of `machine`, or why there is none (an operation whose read and write sets are not
    /// exact). `observed`: the predicates whose truth must be preserved (the invariant's conjuncts if
    /// checked, the assertions over variables if checked, SCOPE).
    pub fn new(machine: &Machine, observed: &[&Pred]) -> Result<Stubborn, String> {
        let mut rows = Vec::with_capacity(machine.operations.len());
        for op in &machine.operations {
            match exact_read_write(machine, op) {
                Some(rw) => rows.push(rw),
                None => {
                    return Err(format!(
                        "operation {} has an operation call, a WHILE loop or a local named like a \
                         variable: its read and write sets are not exact",
                        op.name
                    ));
                }
            }
        }
        let writers = |names: &BTreeSet<Name>| -> Vec<usize> {
            (rows.iter().enumerate())
                .filter(|(_, rw)| rw.writes.iter().any(|w| names.contains(w)))
                .map(|(k, _)| k)
                .collect()
        };
        let dependent = (rows.iter())
            .map(|a| {
                (rows.iter().enumerate())
                    .filter(|(_, b)| {
                        let touches = |x: &Name| b.reads.contains(x) || b.writes.contains(x);
                        a.writes.iter().any(touches)
                            || b.writes
                                .iter()
                                .any(|x| a.reads.contains(x) || a.writes.contains(x))
                    })
                    .map(|(k, _)| k)
                    .collect()
            })
            .collect();
        let enablers = rows.iter().map(|rw| writers(&rw.reads)).collect();
        let guards = (machine.operations.iter())
            .map(|op| {
                let mut bound: Vec<Name> = (op.params.iter().chain(&op.outputs))
                    .map(|p| p.name.clone())
                    .collect();
                let mut found = Vec::new();
                guard_conjuncts(&op.body, &mut bound, &mut found);
                found
                    .into_iter()
                    .map(|c| {
                        let reads = crate::ir::free_names::of_pred(&c);
                        let w = writers(&reads);
                        (c, w)
                    })
                    .collect()
            })
            .collect();
        let mut observed_reads = BTreeSet::new();
        for p in observed.iter().filter(|p| !always_true(p)) {
            observed_reads.extend(crate::ir::free_names::of_pred(p));
        }
        let visible = (rows.iter())
            .map(|rw| rw.writes.iter().any(|w| observed_reads.contains(w)))
            .collect();
        Ok(Stubborn {
            dependent,
            enablers,
            guards,
            visible,
        })
    }

    /// The operations to expand in a state: a stubborn set's enabled operations with fewer transitions
    /// than all enabled ones, or None when no such set exists (expand fully).
    pub fn ample(&self, state: Enabled) -> Option<Vec<bool>> {
        let Enabled {
            transitions,
            is_false,
        } = state;
        let total: usize = transitions.iter().sum();
        // Per operation, its necessary enabling set here, computed once per state.
        let mut necessary: Vec<Option<Vec<usize>>> = vec![None; transitions.len()];
        let mut best: Option<(usize, Vec<bool>)> = None;
        for seed in (0..transitions.len()).filter(|&k| transitions[k] > 0) {
            let Some(set) = self.closure(seed, transitions, &mut necessary, &mut *is_false) else {
                continue;
            };
            let size: usize = (0..set.len())
                .filter(|&k| set[k])
                .map(|k| transitions[k])
                .sum();
            if size < total && best.as_ref().is_none_or(|(b, _)| size < *b) {
                let one = size == transitions[seed];
                best = Some((size, set));
                if one {
                    // Nothing smaller contains an enabled operation.
                    break;
                }
            }
        }
        best.map(|(_, set)| {
            (0..set.len())
                .map(|k| set[k] && transitions[k] > 0)
                .collect()
        })
    }

    /// The stubborn set grown from `seed`, or None when it contains an enabled visible operation.
    fn closure(
        &self,
        seed: usize,
        transitions: &[usize],
        necessary: &mut [Option<Vec<usize>>],
        is_false: &mut dyn FnMut(&Pred) -> bool,
    ) -> Option<Vec<bool>> {
        let mut set = vec![false; transitions.len()];
        set[seed] = true;
        let mut work = vec![seed];
        while let Some(t) = work.pop() {
            let next: &[usize] = if transitions[t] > 0 {
                if self.visible[t] {
                    return None;
                }
                &self.dependent[t]
            } else {
                necessary[t].get_or_insert_with(|| self.necessary_enabling(t, is_false))
            };
            for &u in next {
                if !set[u] {
                    set[u] = true;
                    work.push(u);
                }
            }
        }
        Some(set)
    }

    /// A necessary enabling set of the disabled operation `t`: the writers of a false guard conjunct
    /// (the one with the fewest), else of everything `t` reads.
    fn necessary_enabling(&self, t: usize, is_false: &mut dyn FnMut(&Pred) -> bool) -> Vec<usize> {
        let mut best: Option<&Vec<usize>> = None;
        for (conjunct, writers) in &self.guards[t] {
            if best.is_none_or(|b| writers.len() < b.len()) && is_false(conjunct) {
                best = Some(writers);
            }
        }
        best.unwrap_or(&self.enablers[t]).clone()
    }
}

/// Conjuncts of the guard of an operation body that mention none of the names in `bound` (parameters,
/// outputs, ANY and LET identifiers): each is necessary for the body to have an outcome. Descends into
/// PRE, a SELECT with one branch and no ELSE, ANY, LET, every part of a parallel substitution, and the
/// first part of a sequence (what follows reads the state as the first part left it).
fn guard_conjuncts(s: &Subst, bound: &mut Vec<Name>, out: &mut Vec<Pred>) {
    let conjuncts = |p: &Pred, bound: &[Name], out: &mut Vec<Pred>| {
        for c in p.conjuncts() {
            let names = crate::ir::free_names::of_pred(c);
            if !names.iter().any(|n| bound.contains(n)) {
                out.push(c.clone());
            }
        }
    };
    match &s.kind {
        SubstKind::Pre(p, body) => {
            conjuncts(p, bound, out);
            guard_conjuncts(body, bound, out);
        }
        SubstKind::Select(branches, None) if branches.len() == 1 => {
            conjuncts(&branches[0].0, bound, out);
            guard_conjuncts(&branches[0].1, bound, out);
        }
        SubstKind::Any(vars, p, body) => {
            bound.extend(vars.iter().map(|v| v.name.clone()));
            conjuncts(p, bound, out);
            guard_conjuncts(body, bound, out);
        }
        SubstKind::Let(binds, body) => {
            bound.extend(binds.iter().map(|(v, _)| v.name.clone()));
            guard_conjuncts(body, bound, out);
        }
        SubstKind::Parallel(parts) => {
            for p in parts {
                guard_conjuncts(p, bound, out);
            }
        }
        SubstKind::Sequence(parts) => {
            if let Some(first) = parts.first() {
                guard_conjuncts(first, bound, out);
            }
        }
        _ => {}
    }
}

/// Whether `p` holds of every value of its type: `x : INTEGER`, `x : BOOL`, `x : STRING` (typing
/// conjuncts, which make no operation visible).
fn always_true(p: &Pred) -> bool {
    matches!(&p.kind, PredKind::Compare(CompareOp::In, x, set)
    if matches!(x.kind, ExprKind::Var(_))
        && matches!(
            set.kind,
            ExprKind::Const(ExprConst::Integer | ExprConst::BoolSet | ExprConst::StringSet)
        ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Model;

    fn stubborn(text: &str) -> (Model, Result<Stubborn, String>) {
        let model = Model::from_text("por", text);
        let machine = model.machine();
        let observed = machine.invariant.conjuncts();
        let s = Stubborn::new(machine, &observed);
        (model, s)
    }

    const COUNTERS: &str = "MACHINE Counters\nVARIABLES a, b, done\n\
        INVARIANT a : INTEGER & b : INTEGER & done : BOOL\n\
        INITIALISATION a := 0 || b := 0 || done := FALSE\n\
        OPERATIONS inca = PRE a < 3 THEN a := a + 1 END;\n\
        incb = PRE b < 3 THEN b := b + 1 END;\n\
        finish = PRE a = 3 & b = 3 THEN done := TRUE END\nEND";

    #[test]
    fn an_independent_enabled_operation_is_expanded_alone() {
        let (_, s) = stubborn(COUNTERS);
        let s = s.expect("exact");
        // a = b = 0: both counters enabled, `finish` disabled by `a = 3` (false), enabled only by inca.
        let mut is_false = |_: &Pred| true;
        let ample = s.ample(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut is_false,
        });
        assert_eq!(ample, Some(vec![true, false, false]));
    }

    #[test]
    fn a_visible_operation_forces_full_expansion() {
        let text = COUNTERS.replace("a : INTEGER", "a : 0..3");
        let (_, s) = stubborn(&text);
        let s = s.expect("exact");
        // Only `b = 3` is known false: finish's enabling set is {incb}.
        let mut is_false = |c: &Pred| {
            crate::ir::free_names::of_pred(c)
                .iter()
                .any(|n| &**n == "b")
        };
        // inca is visible (the invariant reads a): only {incb} is a candidate.
        let ample = s.ample(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut is_false,
        });
        assert_eq!(ample, Some(vec![false, true, false]));
        // Only visible operations enabled: no reduction.
        let ample = s.ample(Enabled {
            transitions: &[1, 0, 0],
            is_false: &mut is_false,
        });
        assert_eq!(ample, None);
    }

    #[test]
    fn a_disabled_operation_without_a_known_false_conjunct_takes_every_writer_of_its_reads() {
        let (_, s) = stubborn(COUNTERS);
        let s = s.expect("exact");
        // No guard conjunct known false: finish's enablers are inca and incb, so both seeds lead to
        // the whole set.
        let mut never = |_: &Pred| false;
        let ample = s.ample(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut never,
        });
        assert_eq!(ample, None);
    }

    #[test]
    fn an_operation_call_or_loop_leaves_no_reduction() {
        let (_, s) = stubborn(
            "MACHINE Loop\nVARIABLES x\nINVARIANT x : 0..3\nINITIALISATION x := 0\n\
             OPERATIONS op = VAR i IN i := 0; WHILE i < 2 DO i := i + 1 INVARIANT i : 0..2 \
             VARIANT 2 - i END; x := i END\nEND",
        );
        assert!(s.is_err_and(|why| why.contains("op")));
    }
}
