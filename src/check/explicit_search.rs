//! A breadth-first search of the reachable states for an invariant violation, with the explicit model
//! checker (`mc`: the interpreter's successors, parameters enumerated by the solver), which
//! k-induction's base case and IC3 over values ask beside their symbolic questions.
//!
//! Why: on a machine whose state has no finite encoding the symbolic searches can be stuck on a violation
//! that a few thousand concrete states reach. B/Demo/countdown.mch keeps a set of naturals and combines
//! two of them with `*`, `+` or `-`: over bits a set of integers is one atom per candidate value and no
//! bound covers the products; as values, every operation sequence is a non-linear question, and 4^6
//! sequences lead to the violation's depth. Breadth-first, 18,000 states reach it in a third of a second.
//!
//! It only looks for counterexamples (a complete exploration is not an inductive invariant, and k-
//! induction's verdicts stay those of its base and step cases), within a time share and a state limit
//! the caller chooses. The trace is replayed independently of the model checker: the INITIALISATION
//! re-executed, each operation executed with the trace's parameters from the state before, the
//! invariant re-evaluated in the last state.

use super::Model;
use super::cbc::{initial_steps, replay_operation, violated_conjuncts};
use super::mc::{McOptions, SearchOrder, Step, Verdict, model_check};
use crate::diag::Span;
use crate::value::Value;
use std::time::{Duration, Instant};

/// States at most: with the time share, this keeps memory bounded on machines explored quickly.
const MAX_STATES: usize = 1_000_000;

/// How long the search runs when the command has no time budget.
const DEFAULT_SHARE: Duration = Duration::from_secs(2);

/// The part of what is left of the command's budget the search may take (an eighth: it is asked beside
/// the symbolic questions, which keep the rest).
const SHARE: u32 = 8;

/// The end of the search started now: `1 / SHARE` of what is left of the command's budget, or
/// `DEFAULT_SHARE` without one.
fn share_of_budget(model: &Model) -> Instant {
    let now = Instant::now();
    match model.context.deadline() {
        Some(d) => now + d.saturating_duration_since(now) / SHARE,
        None => now + DEFAULT_SHARE,
    }
}

/// `violation` within the search's share of the budget (k-induction's base case and IC3 ask it).
pub(super) fn violation_in_share(model: &Model) -> Option<(Vec<Step>, Vec<Span>)> {
    violation(model, share_of_budget(model))
}

/// A replayed violation reached breadth-first before `until` (a shortest one when the levels before it
/// were explored completely), or `None`.
pub(super) fn violation(model: &Model, until: Instant) -> Option<(Vec<Step>, Vec<Span>)> {
    let options = McOptions {
        max_states: Some(MAX_STATES),
        timeout: Some(until.saturating_duration_since(Instant::now())),
        check_deadlock: false,
        check_assertions: false,
        order: SearchOrder::BreadthFirst,
        ..McOptions::default()
    };
    let result = model_check(model, &options).ok()?;
    match result.verdict {
        Verdict::InvariantViolation(_) => replayed(model, &result.trace),
        _ => None,
    }
}

/// Re-executes the model checker's trace and re-evaluates the invariant in its last state: the trace
/// rebuilt from the replay, with the violated conjuncts, or `None` if anything does not match.
fn replayed(model: &Model, trace: &[Step]) -> Option<(Vec<Step>, Vec<Span>)> {
    let (replay, constants, state) = replay(model, trace)?;
    let violated = violated_conjuncts(model, &constants, &state).ok()?;
    (!violated.is_empty()).then_some((replay, violated))
}

/// Re-executes a trace of the model checker's form (SETUP_CONSTANTS when the machine has constants,
/// INITIALISATION, operations): the INITIALISATION re-executed, each operation executed with the
/// trace's parameters from the state before and required to reach the state after. The trace rebuilt
/// from the replay (outputs as the replay computed them), the constants and the last state, or `None`
/// if any step does not replay.
pub(super) fn replay(model: &Model, trace: &[Step]) -> Option<(Vec<Step>, Vec<Value>, Vec<Value>)> {
    let m = model.machine();
    let mut steps = trace.iter().peekable();
    let constants: Vec<Value> = match steps.peek() {
        Some(s) if s.label == "SETUP_CONSTANTS" => {
            let values = s.changed.iter().map(|(_, v)| v.clone()).collect();
            steps.next();
            values
        }
        _ => vec![],
    };
    let init = steps.next().filter(|s| s.label == "INITIALISATION")?;
    let mut state: Vec<Value> = init.changed.iter().map(|(_, v)| v.clone()).collect();
    if state.len() != m.variables.len() {
        return None;
    }
    let mut replay = initial_steps(model, &constants, &state).ok()?;
    for step in steps {
        let op = m.operations.iter().find(|o| *o.name == *step.label)?;
        let params: Vec<Value> = step.params.iter().map(|(_, v)| v.clone()).collect();
        let mut after = state.clone();
        for (name, value) in &step.changed {
            let i = m.variables.iter().position(|v| v.name == *name)?;
            after[i] = value.clone();
        }
        let outputs = replay_operation(model, op, &constants, &state, &params, &after).ok()?;
        replay.push(Step {
            label: step.label.clone(),
            params: step.params.clone(),
            outputs,
            changed: step.changed.clone(),
        });
        state = after;
    }
    Some((replay, constants, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Products of a set's elements: no finite encoding, a violation four operations deep.
    const PRODUCTS: &str = "MACHINE Products
        VARIABLES nums
        INVARIANT nums : POW(NATURAL) & 90 /: nums
        INITIALISATION nums := {2, 3, 5}
        OPERATIONS
          mul(a, b) = PRE a : nums & b : nums & a < b THEN nums := (nums - {a, b}) \\/ {a * b} END;
          dup(a) = PRE a : nums & a < 10 THEN nums := nums \\/ {a + 1} END
        END";

    #[test]
    fn a_shortest_violation_is_found_breadth_first_and_replayed() {
        let model = Model::from_text("Products", PRODUCTS);
        let until = Instant::now() + Duration::from_secs(30);
        let (trace, violated) = violation(&model, until).expect("a violation");
        // 90 = 6 * 15 needs a second 3 or a 6: dup(5), mul(3, 5), mul(6, 15) (nothing shorter: after
        // two operations the largest element is 30).
        let labels: Vec<&str> = trace.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["INITIALISATION", "dup", "mul", "mul"]);
        assert_eq!(violated.len(), 1);
    }

    #[test]
    fn nothing_is_reported_when_the_invariant_holds() {
        let safe = PRODUCTS.replace("90 /: nums", "1 /: nums");
        let model = Model::from_text("Products", &safe);
        assert!(violation(&model, Instant::now() + Duration::from_millis(300)).is_none());
    }

    #[test]
    fn a_trace_that_does_not_replay_is_refused() {
        let model = Model::from_text("Products", PRODUCTS);
        let until = Instant::now() + Duration::from_secs(30);
        let (trace, _) = violation(&model, until).expect("a violation");
        assert!(replayed(&model, &trace).is_some());
        // dup(50): 50 is not in nums, the precondition fails.
        let mut wrong = trace.clone();
        wrong[1].params[0].1 = Value::Int(50.into());
        assert!(replayed(&model, &wrong).is_none());
    }
}
