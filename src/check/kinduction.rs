//! k-induction (`bsolve kinduction FILE [--max-k K]`): for k = 1, 2, ..., K
//!
//! * base case: no invariant violation on a path of k-1 operations from the INITIALISATION (BMC at
//!   length k-1; lengths below were checked at earlier k);
//! * step case: PROPERTIES & INV(x0) & T(x0,x1) & ... & INV(x(k-1)) & T(x(k-1),xk) & not INV(xk) has no
//!   solution.
//!
//! When both are complete Unsats for every length up to k, the invariant holds in every reachable state.
//! k = 1 is plain CBC: an inductive invariant. Simple-path constraints (pairwise distinct states) are not
//! added: an invariant whose counterexamples-to-induction lie on loops of unreachable states is not
//! proved by any k (the answer is then UNKNOWN, never wrong).

use super::Model;
use super::bmc::{LengthResult, Path, Target, check_length};
use super::cbc::{INCOMPLETE, Search, not, require_variables, search};
use super::mc::Step;
use crate::analysis::before_after::{and, pred_in_copy};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::Env;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub enum KInductionOutcome {
    /// Base cases up to length k-1 and the step case for k are complete Unsats.
    Proved { k: usize },
    /// A replayed trace from the INITIALISATION to a state violating the invariant.
    Counterexample { trace: Vec<Step>, violated: Vec<Span> },
    /// Not proved up to `max_k`; the reason of the last undecided question or "not k-inductive".
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct KInductionResult {
    pub outcome: KInductionOutcome,
    pub max_k: usize,
    pub elapsed: Duration,
}

pub fn kinduction(model: &Model, max_k: usize) -> Result<KInductionResult, Diagnostic> {
    require_variables(model)?;
    if max_k == 0 {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            "kinduction: --max-k must be at least 1",
        ));
    }
    let start = Instant::now();
    let m = model.machine();
    let mut base_complete = true;
    let mut last_reason = String::new();
    let result = |outcome| KInductionResult {
        outcome,
        max_k,
        elapsed: start.elapsed(),
    };
    for k in 1..=max_k {
        match check_length(model, Target::InvariantViolation, k - 1)? {
            LengthResult::Counterexample(trace, violated) => {
                return Ok(result(KInductionOutcome::Counterexample { trace, violated }));
            }
            LengthResult::None => {}
            LengthResult::Undecided(why) => {
                base_complete = false;
                last_reason = format!("base case at length {}: {why}", k - 1);
            }
        }
        let mut path = Path::new(m, k, false)?;
        path.parts.push(not(pred_in_copy(m, &m.invariant, k)));
        let pred = and(std::mem::take(&mut path.parts), m.span);
        match search(model, &path.vars, &pred, &Env::new()) {
            Search::Empty { complete: true } if base_complete => {
                return Ok(result(KInductionOutcome::Proved { k }));
            }
            Search::Empty { complete: true } => {}
            Search::Empty { complete: false } => {
                last_reason = format!("step case for k = {k}: {INCOMPLETE}");
            }
            Search::Unknown(why) => last_reason = format!("step case for k = {k}: {why}"),
            Search::Found(_) => {
                last_reason = format!("the invariant is not {k}-inductive");
            }
        }
    }
    Ok(result(KInductionOutcome::Unknown(last_reason)))
}
