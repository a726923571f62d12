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
//! enabled: C0, deadlocks preserved). A candidate with an enabled *visible* operation is rejected
//! (C2); the cycle proviso (C3) is the model checker's (`mc`): of the candidates, the smallest whose
//! successors are all new is taken, and a state where there is none is expanded fully.
//!
//! Visibility, for the invariant's conjuncts and the assertions' (safety: a state where one is false must
//! stay reachable): an operation `t` is visible when some conjunct reads both a variable `t` writes and
//! one it does not. Why a conjunct reading only variables `t` writes does not make it visible: in the
//! ample-set argument, a violating state `s'` is reached from the expanded state `s` by operations
//! outside the stubborn set, which are independent of `t` and so never write what `t` reads or writes;
//! `t` is then moved in front, and `t(s')` must still violate. A conjunct reading none of `t`'s writes
//! has the same value in `s'` and `t(s')`; one reading only `t`'s writes has the same value in `s'` as
//! in `s` (those variables are unchanged on the way) and in `t(s')` as in `t(s)` (`t` computes them from
//! unchanged variables) — so if it is false in `s'` it is false in `s`, which the search has checked.
//! Only a conjunct mixing both kinds can be repaired by `t`. SCOPE decides which states are expanded at
//! all: every operation writing a variable it reads is visible.
//!
//! Where the matrix is not exact for some operation (an operation call, a WHILE loop, a local hiding a
//! variable: `before_after::exact_read_write`) there is no reduction at all: such an operation would be
//! dependent on every other.

use crate::analysis::before_after::exact_read_write;
use crate::ir::{Machine, Pred, Subst, SubstKind};
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
    /// Per operation, whether it can change whether a checked conjunct is violated (see the module
    /// comment) or writes a variable SCOPE reads.
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
    /// exact). `checked`: the predicates a reachable state must not violate (the invariant's conjuncts
    /// and the assertions over variables, where checked); `scope`: SCOPE.
    pub fn new(
        machine: &Machine,
        checked: &[&Pred],
        scope: Option<&Pred>,
    ) -> Result<Stubborn, String> {
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
        let variables = |p: &Pred| -> BTreeSet<Name> {
            let names = crate::ir::free_names::of_pred(p);
            (machine.variables.iter())
                .filter(|v| names.contains(&v.name))
                .map(|v| v.name.clone())
                .collect()
        };
        let conjuncts: Vec<BTreeSet<Name>> = (checked.iter())
            .flat_map(|p| p.conjuncts())
            .map(variables)
            .collect();
        let scope_reads = scope.map(variables).unwrap_or_default();
        let visible = (rows.iter())
            .map(|rw| {
                let mixes = |reads: &BTreeSet<Name>| {
                    reads.iter().any(|v| rw.writes.contains(v))
                        && reads.iter().any(|v| !rw.writes.contains(v))
                };
                conjuncts.iter().any(mixes) || rw.writes.iter().any(|w| scope_reads.contains(w))
            })
            .collect();
        Ok(Stubborn {
            dependent,
            enablers,
            guards,
            visible,
        })
    }

    /// The choices of operations to expand in a state, fewest transitions first: the enabled operations
    /// of stubborn sets, each with fewer transitions than all enabled ones (none: expand fully). The
    /// model checker takes the first that passes its cycle proviso.
    pub fn candidates(&self, state: Enabled) -> Vec<Vec<bool>> {
        let Enabled {
            transitions,
            is_false,
        } = state;
        let total: usize = transitions.iter().sum();
        // Per operation, its necessary enabling set here, computed once per state.
        let mut necessary: Vec<Option<Vec<usize>>> = vec![None; transitions.len()];
        let mut found: Vec<(usize, Vec<bool>)> = Vec::new();
        for seed in (0..transitions.len()).filter(|&k| transitions[k] > 0) {
            let Some(set) = self.closure(seed, transitions, &mut necessary, &mut *is_false) else {
                continue;
            };
            let enabled: Vec<bool> = (0..set.len())
                .map(|k| set[k] && transitions[k] > 0)
                .collect();
            let size: usize = (0..set.len())
                .filter(|&k| enabled[k])
                .map(|k| transitions[k])
                .sum();
            if size < total && found.iter().all(|(_, other)| *other != enabled) {
                found.push((size, enabled));
            }
        }
        found.sort_by_key(|(size, _)| *size);
        found.into_iter().map(|(_, set)| set).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Model;

    fn stubborn(text: &str) -> (Model, Result<Stubborn, String>) {
        let model = Model::from_text("por", text);
        let machine = model.machine();
        let checked = machine.invariant.conjuncts();
        let s = Stubborn::new(machine, &checked, None);
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
        let ample = s.candidates(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut is_false,
        });
        // Seeded from inca: {inca, finish}. Seeded from incb: {incb, finish} and finish's enabling set,
        // fixed once per state (`a = 3`, inca): all enabled operations, no candidate.
        assert_eq!(ample, [vec![true, false, false]]);
    }

    #[test]
    fn a_visible_operation_forces_full_expansion() {
        // `a <= 3 or done = TRUE` mixes a variable inca writes with one it does not: inca could repair
        // it. incb does not touch it.
        let text = COUNTERS.replace("a : INTEGER", "a : INTEGER & (a <= 3 or done = TRUE)");
        let (_, s) = stubborn(&text);
        let s = s.expect("exact");
        // Only `b = 3` is known false: finish's enabling set is {incb}.
        let mut is_false = |c: &Pred| {
            crate::ir::free_names::of_pred(c)
                .iter()
                .any(|n| &**n == "b")
        };
        // inca is visible (the mixed conjunct): only {incb} is a candidate.
        let ample = s.candidates(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut is_false,
        });
        assert_eq!(ample, [vec![false, true, false]]);
        // Only visible operations enabled: no reduction.
        let ample = s.candidates(Enabled {
            transitions: &[1, 0, 0],
            is_false: &mut is_false,
        });
        assert!(ample.is_empty());
    }

    #[test]
    fn a_conjunct_over_the_written_variables_only_makes_no_operation_visible() {
        // `a : 0..3` reads only what inca writes (and incb does not touch it).
        let text = COUNTERS.replace("a : INTEGER", "a : 0..3");
        let (_, s) = stubborn(&text);
        let s = s.expect("exact");
        assert!(!s.visible.iter().any(|v| *v), "{:?}", s.visible);
    }

    #[test]
    fn a_disabled_operation_without_a_known_false_conjunct_takes_every_writer_of_its_reads() {
        let (_, s) = stubborn(COUNTERS);
        let s = s.expect("exact");
        // No guard conjunct known false: finish's enablers are inca and incb, so both seeds lead to
        // the whole set.
        let mut never = |_: &Pred| false;
        let ample = s.candidates(Enabled {
            transitions: &[1, 1, 0],
            is_false: &mut never,
        });
        assert!(ample.is_empty());
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
