//! k-induction (`bsolve kinduction FILE [--max-k K]`): for k = 1, 2, ..., K
//!
//! * base case: no invariant violation on a path of k-1 operations from the INITIALISATION (BMC at
//!   length k-1; lengths below were checked at earlier k);
//! * step case: PROPERTIES & INV(x0) & T(x0,x1) & ... & INV(x(k-1)) & T(x(k-1),xk) & not INV(xk) has no
//!   solution.
//!
//! When both are complete Unsats for every length up to k, the invariant holds in every reachable state.
//! k = 1 is plain CBC: an inductive invariant.
//!
//! Simple-path constraints (on by default, `--no-simple-path` to drop them): the step case also asks
//! the k+1 states x0..xk to be pairwise distinct (Sheeran, Singh & Stålmarck, "Checking safety properties
//! using induction and a SAT-solver", 2000). This stays sound: a shortest path from an initial state to a
//! violation has no repeated state, all its states but the last satisfy the invariant, so its last k+1
//! states are a solution of the step case (and its length is at least k by the base case). It makes
//! k-induction complete for finite systems: without it, an invariant whose counterexamples to induction
//! lie on a loop of unreachable states (e.g. a lift at floor 0 facing down, opening and closing its
//! door) is not k-inductive for any k; with it, k beyond the longest simple path of unreachable
//! invariant states proves it. The constants are shared by all states of a path, so distinct states
//! differ in a variable; only the variables some operation between two states writes can differ
//! (the read/write sets), which keeps the disjunctions short.

use super::Model;
use super::bmc::{
    Advance, LengthResult, MAX_SEQUENCES, SequenceResult, Start, Steps, Target, Unrolling,
    check_target, check_target_with, unrollable,
};
use super::cbc::require_variables;
use super::explicit_search;
use super::mc::Step;
use super::progress::Event;
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::solve::Backend;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub enum KInductionOutcome {
    /// Base cases up to length k-1 and the step case for k are complete Unsats.
    Proved { k: usize },
    /// A replayed trace from the INITIALISATION to a state violating the invariant.
    Counterexample {
        trace: Vec<Step>,
        violated: Vec<Span>,
    },
    /// Not proved up to `max_k`; the reason of the last undecided question or "not k-inductive".
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct KInductionResult {
    pub outcome: KInductionOutcome,
    pub max_k: usize,
    /// The counterexample came from the breadth-first search of concrete states (`explicit_search`).
    pub explicit_search: bool,
    pub elapsed: Duration,
}

impl KInductionResult {
    /// The counterexample trace, empty without one.
    pub fn trace(&self) -> &[Step] {
        match &self.outcome {
            KInductionOutcome::Counterexample { trace, .. } => trace,
            KInductionOutcome::Proved { .. } | KInductionOutcome::Unknown(_) => &[],
        }
    }
}

/// How far the base case goes on, as bounded model checking, once the step case is given up: a violation
/// deeper than `max_k` is still found (the same depth as the usual `bsolve bmc FILE 20`).
pub const BASE_DEPTH: usize = 21;

/// The same when the base case asks the unrolled transition relation (one SAT query per length, see
/// `bmc::Unrolling`): deeper violations (Bakery1err2, 25 operations) cost a few more queries.
pub const UNROLLED_BASE_DEPTH: usize = 40;

/// k-induction with simple-path constraints (see the module documentation).
pub fn kinduction(model: &Model, max_k: usize) -> Result<KInductionResult, Diagnostic> {
    kinduction_with(model, max_k, true)
}

/// Both cases enumerate operation sequences breadth-first, as `bmc` does (see there why); the step case
/// only for sequences whose shorter suffix has a counterexample to induction (its query contains the
/// suffix's, shifted by one state, so an Unsat suffix makes it Unsat — with or without simple paths).
pub fn kinduction_with(
    model: &Model,
    max_k: usize,
    simple_path: bool,
) -> Result<KInductionResult, Diagnostic> {
    kinduction_with_events(model, max_k, simple_path, &mut |_| {})
}

/// `kinduction_with`, saying each case as it is asked and its verdict as soon as it is known.
pub fn kinduction_with_events(
    model: &Model,
    max_k: usize,
    simple_path: bool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<KInductionResult, Diagnostic> {
    require_variables(model)?;
    if max_k == 0 {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            "kinduction: --max-k must be at least 1",
        ));
    }
    let start = Instant::now();
    // With a time budget, the step case gets its first half, and one k at most an eighth: a step query
    // the solver cannot decide must not keep the base case from the violations it would find
    // (TimingExample's step case for k = 2 spent half of 60 s before the base case reached the
    // violation, 7 steps deep).
    let budget = model.context.deadline();
    let step_budget = budget.map(|d| start + d.saturating_duration_since(start) / 2);
    let round_budget = budget.map(|d| d.saturating_duration_since(start) / 8);
    let result = |outcome| KInductionResult {
        outcome,
        max_k,
        explicit_search: false,
        elapsed: start.elapsed(),
    };
    let mut base_complete = true;
    let mut base_reason = String::new();
    let mut step_reason = String::new();
    let mut base = Unrolling::new(max_k.max(UNROLLED_BASE_DEPTH), Target::InvariantViolation);
    // The longest length up to which the base case is a complete Unsat.
    let mut checked = 0;
    // Operation sequences of length k-1 whose step case was not a complete Unsat; None once the step
    // case is given up (k beyond max_k, or too many sequences).
    // With the unrolled relation they are not listed: `[[]]` stands for them.
    let mut failing: Option<Vec<Vec<usize>>> = Some(vec![vec![]]);
    let step_unrolled = unrollable(
        model,
        Start::Anywhere { simple_path },
        Target::InvariantViolation,
    );
    // No path of length k - 1 exists (the base case is over).
    let mut no_path = false;
    let mut k = 0;
    loop {
        k += 1;
        let depth = if base.unrolled() {
            UNROLLED_BASE_DEPTH
        } else {
            BASE_DEPTH
        };
        if k > max_k.max(depth) {
            break;
        }
        if !no_path {
            on_event(Event::Asking(&format!(
                "k = {k}, base case at length {}",
                k - 1
            )));
            let verdict = base.check(model)?;
            on_event(Event::Done(&format!(
                "base case at length {}: {}",
                k - 1,
                verdict.summary()
            )));
            match verdict {
                LengthResult::Counterexample(trace, violated) => {
                    return Ok(result(KInductionOutcome::Counterexample {
                        trace,
                        violated,
                    }));
                }
                LengthResult::None => {}
                LengthResult::Undecided(why) => {
                    base_complete = false;
                    base_reason = format!("base case at length {}: {why}", k - 1);
                }
            }
            // Where the relation does not translate exactly (the paths are asked one operation
            // sequence at a time), deep violations before the step cases take their time: over bits,
            // then among concrete states breadth-first with an eighth of the time left — a machine
            // without a finite encoding may reach its violation only through thousands of non-linear
            // sequences (B/Demo/countdown.mch: the step case for k = 1 and the base case at length 1
            // took 6 s, 18,000 concrete states reach the violation in 0.3 s; see `explicit_search`).
            if k == 1 && !base.exact(model) {
                if let Some((trace, violated)) = base.search_ahead(model) {
                    return Ok(result(KInductionOutcome::Counterexample {
                        trace,
                        violated,
                    }));
                }
                if let Some((trace, violated)) = explicit_search::violation_in_share(model) {
                    return Ok(KInductionResult {
                        explicit_search: true,
                        ..result(KInductionOutcome::Counterexample { trace, violated })
                    });
                }
            }
        }
        if model.context.check_deadline(model.machine().span).is_err() {
            break;
        }
        if base_complete {
            checked = k - 1;
        }
        if let Some(suffixes) = failing.take().filter(|_| k <= max_k) {
            on_event(Event::Asking(&format!("k = {k}, step case")));
            let round = round_budget.map(|r| Instant::now() + r);
            let step = model
                .context
                .with_deadline_until(step_budget.min(round), || {
                    if step_unrolled {
                        unrolled_step_case(model, simple_path, k, &mut step_reason)
                    } else {
                        step_case(model, &suffixes, simple_path, k, &mut step_reason)
                    }
                });
            let step = step?;
            on_event(Event::Done(&match &step {
                Ok(still) if still.is_empty() => format!("step case k = {k}: inductive"),
                Ok(_) => format!("step case k = {k}: {step_reason}"),
                Err(why) => format!("step case k = {k}: {why}"),
            }));
            match step {
                Ok(still) if still.is_empty() && base_complete => {
                    return Ok(result(KInductionOutcome::Proved { k }));
                }
                Ok(still) => failing = Some(still),
                Err(why) => step_reason = why,
            }
        }
        if !no_path {
            match base.advance(model)? {
                Advance::Paths => {}
                Advance::NoPath => {
                    no_path = true;
                    if base_reason.is_empty() {
                        base_reason = format!(" (no operation sequence of length {k} is feasible)");
                    }
                }
                Advance::GiveUp(why) => {
                    base_complete = false;
                    base_reason = format!("base case at length {k}: {why}");
                    break;
                }
            }
        }
        if no_path && (failing.is_none() || k >= max_k) {
            break;
        }
    }
    if failing.is_some() && step_reason.is_empty() {
        step_reason = format!("the invariant is not {max_k}-inductive");
    }
    let reason = if base_complete {
        format!("{step_reason}; no violation within {checked} operations{base_reason}")
    } else {
        format!("{step_reason}; {base_reason}")
    };
    Ok(result(KInductionOutcome::Unknown(reason)))
}

/// The step case for k as one SAT query over the transition relation unrolled k times (when its one-step
/// form translates with exact bounds: `bmc::unrollable`): `[]` when it is a complete Unsat, else `[[]]`
/// (`reason` says why).
fn unrolled_step_case(
    model: &Model,
    simple_path: bool,
    k: usize,
    reason: &mut String,
) -> Result<Result<Vec<Vec<usize>>, String>, Diagnostic> {
    if model.context.check_deadline(model.machine().span).is_err() {
        return Ok(Err(format!(
            "step case for k = {k}: given up (its share of the time budget is spent)"
        )));
    }
    let start = Start::Anywhere { simple_path };
    let target = Target::InvariantViolation;
    match check_target_with(model, Steps::Any(k), start, target, Backend::Kodkod)? {
        SequenceResult::None => return Ok(Ok(vec![])),
        SequenceResult::Solution | SequenceResult::Counterexample(..) => {
            *reason = format!("the invariant is not {k}-inductive");
        }
        SequenceResult::Undecided(why) => *reason = format!("step case for k = {k}: {why}"),
    }
    Ok(Ok(vec![vec![]]))
}

/// The step case for k: the sequences of length k (an operation before a failing suffix) whose query is
/// not a complete Unsat (`reason` says why the last one is not); `Err` with the reason when the step case
/// is given up.
fn step_case(
    model: &Model,
    suffixes: &[Vec<usize>],
    simple_path: bool,
    k: usize,
    reason: &mut String,
) -> Result<Result<Vec<Vec<usize>>, String>, Diagnostic> {
    let mut still_failing = Vec::new();
    for suffix in suffixes {
        if model.context.check_deadline(model.machine().span).is_err() {
            return Ok(Err(format!(
                "step case for k = {k}: given up (its share of the time budget is spent)"
            )));
        }
        for op in 0..model.machine().operations.len() {
            let mut seq = vec![op];
            seq.extend_from_slice(suffix);
            let start = Start::Anywhere { simple_path };
            match check_target(model, Steps::Ops(&seq), start, Target::InvariantViolation)? {
                SequenceResult::None => continue,
                SequenceResult::Solution | SequenceResult::Counterexample(..) => {
                    *reason = format!("the invariant is not {k}-inductive");
                }
                SequenceResult::Undecided(why) => *reason = format!("step case for k = {k}: {why}"),
            }
            still_failing.push(seq);
            if still_failing.len() > MAX_SEQUENCES {
                return Ok(Err(format!(
                    "step case for k = {k}: more than {MAX_SEQUENCES} operation sequences without a complete Unsat"
                )));
            }
        }
    }
    Ok(Ok(still_failing))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x = 2 is unreachable and loops on itself through `stay`; from it `leave` violates the invariant.
    /// Only the simple-path constraint rules out the loop: x = 2, 2, ..., 2, 3.
    const UNREACHABLE_LOOP: &str = "MACHINE UnreachableLoop
        VARIABLES x INVARIANT x : 0..2
        INITIALISATION x := 0
        OPERATIONS
          step = SELECT x = 0 THEN x := 1 END;
          stay = SELECT x = 2 THEN x := 2 END;
          leave = SELECT x = 2 THEN x := 3 END
        END";

    #[test]
    fn simple_paths_prove_an_invariant_with_an_unreachable_loop() {
        let m = Model::from_text("UnreachableLoop", UNREACHABLE_LOOP);
        let proved = kinduction_with(&m, 4, true).expect("runs");
        assert!(
            matches!(proved.outcome, KInductionOutcome::Proved { k: 2 }),
            "{:?}",
            proved.outcome
        );
        let without = kinduction_with(&m, 4, false).expect("runs");
        match without.outcome {
            KInductionOutcome::Unknown(why) => {
                assert!(why.starts_with("the invariant is not 4-inductive"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
}
