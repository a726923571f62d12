//! Bounded model checking over bits: the SAT encoding of the one-step relation that IC3 over bits
//! uses (`TransitionSat`: PROPERTIES-defined constants as values, one shared encoding of both state
//! copies, quantifiers with possibly ill-defined instances translated strictly), unrolled at the CNF
//! level (`Unrolled`) and asked one length after the other in one incremental solver.
//!
//! It serves `bmc` and k-induction's base case on machines whose relation does not translate with
//! exact bounds (`bmc::unrollable`), where paths are otherwise asked one operation sequence at a time:
//! a branching machine with deep violations (CarlaTravelAgency: thousands of operation sequences of
//! length 4, each a hard value-level question) is one SAT query per length here.
//!
//! The bad states are the invariant violated (`bmc`, k-induction) or a deadlock satisfying the
//! invariant (`bmc --deadlock`: no operation's enabling predicate holds in the after-copy).
//!
//! It only looks for counterexamples. An Unsat is relative to the encoding — integers cut to windows,
//! steps the strict translation counts as ill-defined dropped, an after-state outside the before-
//! state's candidates not represented — so it proves nothing, and the caller goes on asking the
//! lengths it could not settle. A path it finds is replayed by the interpreter before it is reported.

use super::Model;
use super::mc::Step;
use super::transition_pieces::Transition;
use super::transition_system::{Target, confirm_states, selected};
use crate::diag::Span;
use crate::solve::kodkod::{Query, Unrolled};
use std::time::Instant;

/// A violation: the number of operations, the replayed trace and the violated invariant conjuncts.
pub(super) type Found = (usize, Vec<Step>, Vec<Span>);

/// The shortest path (within the encoding) of `from..=max` operations from the INITIALISATION to a
/// state of `target` (violating the invariant, or a deadlock satisfying it), searched until `until`;
/// `Err` says why none was found.
pub(super) fn search(
    model: &Model,
    target: Target,
    from: usize,
    max: usize,
    until: Option<Instant>,
) -> Result<Found, String> {
    model
        .context
        .with_deadline_until(until, || lengths(model, target, from, max))
}

fn lengths(model: &Model, target: Target, from: usize, max: usize) -> Result<Found, String> {
    let span = model.machine().span;
    let transition = Transition::with_target(model, target).map_err(|d| d.to_string())?;
    let ts = transition
        .translate(model, 0, true)
        .map_err(|d| format!("not over bits: {}", d.message))?;
    let mut path = Unrolled::new(ts);
    path.add_clause(vec![path.init()]);
    path.add_clause(vec![path.step(0)]);
    for length in 1..=max {
        while path.steps() < length {
            path.unroll();
            path.add_clause(vec![path.step(path.steps() - 1)]);
        }
        // The states before the last satisfy the invariant: a path through a violation is longer
        // than the shortest one, which is asked at its own length.
        path.add_clause(vec![path.invariant(length - 1)]);
        if length < from {
            continue;
        }
        let bad = path.bad_after(length - 1);
        match path.solve(&[bad], span).map_err(|d| d.to_string())? {
            Query::Unsat => continue,
            Query::Sat => {}
        }
        let states: Vec<_> = (0..=length).map(|i| path.state(i)).collect();
        let states: Vec<&[_]> = states.iter().map(Vec::as_slice).collect();
        let ops: Vec<_> = (0..length).map(|i| selected(&path.selector(i))).collect();
        return confirm_states(model, &path.constants(), &states, &ops, target)
            .map(|(trace, violated)| (length, trace, violated))
            .map_err(|why| format!("counterexample not confirmed by the interpreter: {why}"));
    }
    Err(format!(
        "no {} over bits within {max} operations{}",
        match target {
            Target::InvariantViolation => "violation",
            Target::Deadlock => "deadlock",
        },
        if path.cut() { " (integers cut)" } else { "" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two counters, one step of either at a time, the violation when both reach their targets: 7 + 5
    /// operations, reached only through paths the unrolling has to keep apart step by step.
    #[test]
    fn a_deep_violation_is_found_at_its_length_and_replayed() {
        let m = Model::from_text(
            "TwoCounters",
            "MACHINE TwoCounters
             VARIABLES x, y INVARIANT x : 0..9 & y : 0..9 & not(x = 7 & y = 5)
             INITIALISATION x, y := 0, 0
             OPERATIONS
               incx = SELECT x < 9 THEN x := x + 1 END;
               incy(d) = PRE d : 1..2 & y + d <= 9 THEN y := y + d END
             END",
        );
        let (length, trace, violated) =
            search(&m, Target::InvariantViolation, 2, 20, None).expect("found");
        // y reaches 5 in three steps at best (2 + 2 + 1).
        assert_eq!(length, 7 + 3);
        assert_eq!(trace.len(), length + 1, "INITIALISATION and the steps");
        assert_eq!(violated.len(), 1);
        // Below the shortest length nothing is found.
        let none = search(&m, Target::InvariantViolation, 2, 9, None).expect_err("too short");
        assert!(
            none.starts_with("no violation over bits within 9"),
            "{none}"
        );
    }

    /// The same counters stopping when both reach their targets: a deadlock 7 + 3 operations deep,
    /// each operation's enabling predicate (with incy's parameter) false in the last state.
    #[test]
    fn a_deep_deadlock_is_found_at_its_length_and_replayed() {
        let m = Model::from_text(
            "TwoCountersStop",
            "MACHINE TwoCountersStop
             VARIABLES x, y INVARIANT x : 0..9 & y : 0..9
             INITIALISATION x, y := 0, 0
             OPERATIONS
               incx = SELECT x < 9 & not(x = 7 & y = 5) THEN x := x + 1 END;
               incy(d) = PRE d : 1..2 & y + d <= 9 & not(x = 7 & y = 5) THEN y := y + d END
             END",
        );
        let (length, trace, violated) = search(&m, Target::Deadlock, 2, 20, None).expect("found");
        assert_eq!(length, 7 + 3);
        assert_eq!(trace.len(), length + 1);
        assert!(violated.is_empty());
        let none = search(&m, Target::Deadlock, 2, 9, None).expect_err("too short");
        assert!(none.starts_with("no deadlock over bits within 9"), "{none}");
    }
}
