//! The second lane of the portfolio (`portfolio`): SAT, then the SMT solver, racing the native solver
//! from a thread of its own. What native decides in a few milliseconds (most questions) never starts
//! them; what it cannot decide quickly they may settle in the meantime — an acyclicity Unsat SAT proves
//! at once while native enumerates relations, a solution among 2^25 candidates native labels one by
//! one, an Unsat over unbounded integers native can only bound.
//!
//! The lane waits `HEAD_START`, and gives up at once when cancelled then. Once started, it stops the
//! native search (`Context::with_cancel`) as soon as it has decided: a first solution, which the
//! portfolio hands to the caller's re-check on the caller's thread, or an exhaustive verdict (the
//! backend's own, with `Stats::any_size` for deferred sets). Cancelled, SAT stops at its next poll of
//! the flag (`SatSolver::set_interrupt`), z3 within one poll of its process (`smt::process`), which is
//! killed. The lane's thread is inside the question (`Nesting`): what its backends ask in turn is
//! never raced again.

use super::nesting::Nesting;
use super::{Found, Problem, Stats, kodkod, smt};
use crate::eval::{Context, EvalError};
use crate::syntax::ast::Name;
use crate::value::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// How long native runs alone before the lane starts: native decides nearly every question it decides
/// at all well within it (RESULTS.md, predicate corpus), and a translation or starting z3 costs
/// milliseconds of a core.
pub(super) const HEAD_START: Duration = Duration::from_millis(10);

thread_local! {
    /// HEAD_START for the lanes started from this thread (a test sets 0, so that every question is
    /// raced and every interleaving of the two lanes can occur).
    pub(super) static HEAD_START_HERE: std::cell::Cell<Duration> =
        const { std::cell::Cell::new(HEAD_START) };
}

/// A solution as a backend reports it: the problem's values and the witnesses of top-level existentials.
pub(super) type Solution = (Vec<Value>, Vec<(Name, Value)>);

/// What the lane found.
pub(super) struct RaceResult {
    /// The deciding backend's verdict (exhaustive: `Ok(true)`), or why the last one gave up.
    pub result: Result<bool, EvalError>,
    /// Its first solution: the problem's values and the witnesses of top-level existentials.
    pub found: Option<Solution>,
    /// Its Unsat holds for every size of the default-sized deferred sets.
    pub any_size: bool,
}

impl RaceResult {
    /// A solution, or an exhaustive verdict.
    pub fn decided(&self) -> bool {
        self.found.is_some() || matches!(self.result, Ok(true))
    }
}

/// SAT when the question translates to it (three quarters of the lane's time, half when the deferred
/// sets' default sizes leave z3 a proof for every size to try), then z3 when it translates and a
/// solver is there. `None`: neither could take the question, or the lane was cancelled.
fn lane(
    ctx: &Context,
    problem: &Problem<'_>,
    until: Option<Instant>,
    cancelled: &AtomicBool,
) -> Option<RaceResult> {
    let first_of = |run: &mut dyn FnMut(&mut Found<'_>, &mut Stats) -> Result<bool, EvalError>| {
        let mut found = None;
        let mut stats = Stats::default();
        let result = run(
            &mut |values: &[Value], witnesses: &[(Name, Value)]| {
                found = Some((values.to_vec(), witnesses.to_vec()));
                Ok(false)
            },
            &mut stats,
        );
        RaceResult {
            result,
            found,
            any_size: stats.any_size,
        }
    };
    // SAT translates the question itself (an error when it cannot): asking `check_translation` first
    // would translate it twice.
    let sized = ctx.depends_on_default_sizes(problem.vars, problem.pred);
    let parts = if sized { (1, 2) } else { (3, 4) };
    let now = Instant::now();
    let share = until.map(|d| now + d.saturating_duration_since(now) * parts.0 / parts.1);
    let sat = ctx.with_stage_deadline(share, || {
        first_of(&mut |found, stats| kodkod::solve_sat(ctx, problem, found, stats))
    });
    if sat.found.is_some() {
        return Some(sat);
    }
    if matches!(sat.result, Ok(true)) {
        // Exhaustive for the default sizes of the deferred sets only: z3 tries every size.
        let any_size = sized
            && solver_available(ctx)
            && matches!(smt::refute_any_size(ctx, problem), Ok(true));
        return Some(RaceResult { any_size, ..sat });
    }
    if cancelled.load(Ordering::Relaxed)
        || !(solver_available(ctx) && smt::translates(ctx, problem))
    {
        return None;
    }
    Some(first_of(&mut |found, stats| {
        smt::solve(ctx, problem, found, stats)
    }))
}

/// Whether an SMT solver can be started: the default one is looked for once per process; a command the
/// user named is assumed to work (its failure is reported by the stage that uses it).
fn solver_available(ctx: &Context) -> bool {
    ctx.settings().smt_solver.is_some() || smt::default_solver_available()
}

pub(super) struct Racer<'scope> {
    handle: ScopedJoinHandle<'scope, Option<RaceResult>>,
    cancel: Arc<AtomicBool>,
}

impl<'scope> Racer<'scope> {
    /// Starts the racer on `scope` for `problem`, until `until`; `native` is the flag that stops the
    /// native search once the racer has decided.
    pub fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        ctx: &'env Context,
        problem: &'env Problem<'env>,
        until: Option<Instant>,
        native: Arc<AtomicBool>,
    ) -> Racer<'scope> {
        let cancel = Arc::new(AtomicBool::new(false));
        let own = cancel.clone();
        let head_start = HEAD_START_HERE.get();
        let handle = scope.spawn(move || {
            let start = Instant::now();
            loop {
                if own.load(Ordering::Relaxed) {
                    return None;
                }
                let waited = start.elapsed();
                if waited >= head_start {
                    break;
                }
                std::thread::park_timeout(head_start - waited);
            }
            let _nested = Nesting::enter();
            let race = ctx.with_cancel(own.clone(), || {
                ctx.with_stage_deadline(until, || lane(ctx, problem, until, &own))
            })?;
            // A lane cancelled while its solver finished has lost: native owns the question.
            if race.decided() && !own.load(Ordering::Relaxed) {
                native.store(true, Ordering::Relaxed);
            }
            Some(race)
        });
        Racer { handle, cancel }
    }

    /// Stops the racer (its result is then of no use).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.handle.thread().unpark();
    }

    /// Waits for the racer's result (`None`: cancelled before it started, or it panicked).
    pub fn join(self) -> Option<RaceResult> {
        self.handle.join().ok().flatten()
    }
}
