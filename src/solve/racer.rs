//! The lane that races the native solver in the portfolio (`portfolio`): SAT, then the SMT solver, from
//! a thread of its own. What native decides in a few milliseconds (most questions) costs a lane a
//! translation; what native cannot decide quickly a lane may settle in the meantime — an acyclicity
//! Unsat SAT proves at once while native enumerates relations, a solution among 2^25 candidates native
//! labels one by one, an Unsat over unbounded integers native can only bound, a stream of solutions SAT
//! lists with blocking clauses faster than native's search tree yields them.
//!
//! The portfolio starts the lanes after native's probe (`portfolio`), and, when the question's shape
//! favours SAT (`shape`), after a shorter one and SAT's own probe: a question decided by a probe,
//! most of them, never starts a lane. The lane asks SAT and then z3; when some integer unknown
//! ranges over more than `WIDE_INTEGERS` values (or is unbounded), z3 gets a lane of its own beside
//! SAT's: SAT's bit vectors are wide there, or its bound is a cut, while z3's arithmetic does not
//! depend on the size of the numbers — but z3 alone first would keep a question SAT decides at once
//! (an unbounded integer beside a relation) waiting for z3's share. Where every unknown is an integer
//! or a boolean, z3's lane runs alone (`scalars_only`).
//!
//! A lane lists every solution it finds into a channel (bounded: `CHANNEL_BOUND`), which the portfolio drains once native
//! has stopped, and ends with its verdict. It stops the native search (`Context::with_cancel`) when it
//! has something native has not: all the solutions the caller wants (`Problem::wanted`, one for an
//! existence question) while native has reported none, a list running well ahead of native's stream
//! (`takes_over`), or an exhaustive verdict (the backend's own, with `LaneEnd::any_size` for deferred
//! sets). The portfolio then delivers the lane's list as it comes, skipping what native reported. Cancelled, SAT stops at its next poll of the flag
//! (`SatSolver::set_interrupt`), z3 within one poll of its process (`smt::process`), which is killed,
//! and a lane waiting for the portfolio to read its list as soon as it is cancelled. A lane's thread is inside the
//! question (`Nesting`): what its backends ask in turn is never raced again.

use super::nesting::Nesting;
use super::{Found, Problem, Stats, kodkod, smt};
use crate::eval::{Context, EvalError, share_of_time_left};
use crate::solve::interval;
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// A solution as a backend reports it: the problem's values and the witnesses of top-level existentials.
pub(super) type Solution = (Vec<Value>, Vec<(Name, Value)>);

/// Beside z3's lane, SAT's lane gets this fraction (1/n) of the time: three busy threads on two cores
/// slow native and z3 enough to lose questions each decides alone (CopelandVoting: native 1 s alone,
/// undecided in 2.5 s beside both lanes), while SAT's wins over wide integers are quick ones (an
/// unbounded integer beside a relation, decided in a millisecond).
const SAT_BESIDE_SMT: u32 = 8;

/// Solutions the lanes may list ahead of the portfolio's reading: past them they wait (native is still
/// streaming), so a list longer than this cannot be completed by a lane before native reads it. Counted
/// beside an unbounded channel (`Shared::send`), whose memory grows with what is listed: a channel
/// bounded so allocates all its slots when created, megabytes written for every race (1.5–6 ms).
const CHANNEL_BOUND: usize = 1 << 16;

/// How long a lane whose list is `CHANNEL_BOUND` ahead sleeps before it looks again.
const FULL_CHANNEL_WAIT: std::time::Duration = std::time::Duration::from_micros(200);

/// An integer unknown with more values than this (by the interval analysis) gives z3 a lane of its own.
const WIDE_INTEGERS: u32 = 1 << 16;

/// Solutions a lane lists before its list may take over a stream native began (`takes_over`).
const TAKEOVER_MIN: usize = 64;

/// Whether a lane that has listed `listed` solutions stops native, which has reported `native`, the
/// caller reading `wanted` at most: the lane has all the caller wants before native has any (an
/// existence question: the first solution), or its list runs at least twice as fast as native's
/// stream over `TAKEOVER_MIN` solutions — a search tree grows bushier as it goes (EulerOfficers: 12
/// nodes per solution for the first 2,000, 47 for the next), blocking clauses do not, and a model
/// checker reading its first thousand constant setups waited for native's slowing stream.
fn takes_over(listed: usize, native: usize, wanted: usize) -> bool {
    (native == 0 && listed >= wanted) || (listed >= TAKEOVER_MIN && listed >= 2 * native)
}

/// What a lane says, in order: solutions, then its end.
pub(super) enum LaneEvent {
    Solution(Solution),
    End(LaneEnd),
}

/// A lane's verdict after its solutions.
pub(super) struct LaneEnd {
    /// The deciding backend's verdict (exhaustive: `Ok(true)`), or why the last one gave up.
    pub result: Result<bool, EvalError>,
    /// Its Unsat holds for every size of the default-sized deferred sets.
    pub any_size: bool,
}

/// The backends a lane asks, in order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    /// SAT, then z3 unless SAT listed solutions or decided.
    SatThenSmt,
    /// Beside a z3 lane (wide integers).
    SatOnly,
    SmtOnly,
}

/// Runs the lane's backends, sending their solutions. `None`: none could take the question, or the
/// lane was cancelled. SAT before z3 gets three quarters of the lane's time (half when the deferred
/// sets' default sizes leave z3 a proof for every size to try after it); SAT beside z3's lane an
/// eighth (`SAT_BESIDE_SMT`), z3 in its own lane all of it.
fn lane(
    ctx: &Context,
    problem: &Problem<'_>,
    kind: Lane,
    until: Option<Instant>,
    cancelled: &AtomicBool,
    send: &mut dyn FnMut(Solution) -> bool,
) -> Option<LaneEnd> {
    let sized = ctx.depends_on_default_sizes(problem.vars, problem.pred);
    let steps: &[Step] = match kind {
        Lane::SatThenSmt => &[Step::Sat, Step::Smt],
        Lane::SatOnly => &[Step::Sat],
        Lane::SmtOnly => &[Step::Smt],
    };
    for (i, step) in steps.iter().enumerate() {
        if cancelled.load(Ordering::Relaxed) {
            return None;
        }
        let share = match (kind, i + 1 < steps.len(), sized) {
            (Lane::SatOnly, _, _) => share_of_time_left(until, 1, SAT_BESIDE_SMT),
            (_, true, true) => share_of_time_left(until, 1, 2),
            (_, true, false) => share_of_time_left(until, 3, 4),
            (_, false, _) => until,
        };
        let ended = ctx.with_stage_deadline(share, || match step {
            Step::Sat => ask_sat(ctx, problem, sized, send),
            Step::Smt => ask_smt(ctx, problem, send),
        });
        if let Some(end) = ended {
            return Some(end);
        }
    }
    None
}

/// One backend of a lane.
#[derive(Clone, Copy)]
enum Step {
    Sat,
    Smt,
}

/// Runs one backend, sending its solutions: its verdict, `any_size`, and whether it listed any.
fn listing(
    send: &mut dyn FnMut(Solution) -> bool,
    run: impl FnOnce(&mut Found<'_>, &mut Stats) -> Result<bool, EvalError>,
) -> (Result<bool, EvalError>, bool, bool) {
    let mut stats = Stats::default();
    let mut listed = false;
    let result = run(
        &mut |values: &[Value], witnesses: &[(Name, Value)]| {
            listed = true;
            // A dropped channel: the portfolio no longer wants the lane's solutions.
            Ok(send((values.to_vec(), witnesses.to_vec())))
        },
        &mut stats,
    );
    (result, stats.any_size, listed)
}

/// SAT's turn: the lane's end when SAT decided or listed solutions (the next backend would repeat
/// them), `None` when the next backend should try.
fn ask_sat(
    ctx: &Context,
    problem: &Problem<'_>,
    sized: bool,
    send: &mut dyn FnMut(Solution) -> bool,
) -> Option<LaneEnd> {
    // SAT translates the question itself (an error when it cannot): asking `check_translation` first
    // would translate it twice.
    let (result, _, listed) = listing(send, |found, stats| {
        kodkod::solve_sat(ctx, problem, found, stats)
    });
    if matches!(result, Ok(true)) && !listed {
        // Exhaustive for the default sizes of the deferred sets only: z3 tries every size.
        let any_size = sized
            && solver_available(ctx)
            && matches!(smt::refute_any_size(ctx, problem), Ok(true));
        return Some(LaneEnd { result, any_size });
    }
    (listed || matches!(result, Ok(true))).then_some(LaneEnd {
        result,
        any_size: false,
    })
}

/// z3's turn, as SAT's (`ask_sat`); `None` also when no solver is there or the question does not
/// translate.
fn ask_smt(
    ctx: &Context,
    problem: &Problem<'_>,
    send: &mut dyn FnMut(Solution) -> bool,
) -> Option<LaneEnd> {
    if !(solver_available(ctx) && smt::translates(ctx, problem)) {
        return None;
    }
    let (result, any_size, listed) =
        listing(send, |found, stats| smt::solve(ctx, problem, found, stats));
    (listed || matches!(result, Ok(true))).then_some(LaneEnd { result, any_size })
}

/// Whether z3 gets a lane of its own: a solver is there, and some integer unknown has more than
/// `WIDE_INTEGERS` values by the interval analysis of the question, or no bound.
fn wide_integers(ctx: &Context, problem: &Problem<'_>) -> bool {
    let integers: Vec<_> = problem
        .vars
        .iter()
        .filter(|v| v.ty == Type::Integer)
        .cloned()
        .collect();
    if integers.is_empty() || !solver_available(ctx) {
        return false;
    }
    let analysis = interval::analyse(ctx, &integers, &problem.pred.conjuncts(), problem.env);
    analysis.contradiction.is_none()
        && analysis
            .vars
            .iter()
            .any(|v| v.int.size().is_none_or(|n| n > BigInt::from(WIDE_INTEGERS)))
}

/// Whether every unknown is an integer or a boolean: over wide integers, z3's arithmetic then has
/// nothing SAT's bit vectors would do sooner, and SAT's lane would only take a core from native and z3
/// (BigGuardDeadlock: z3 alone 11 ms, beside SAT's lane and native on two cores four times that).
fn scalars_only(problem: &Problem<'_>) -> bool {
    problem
        .vars
        .iter()
        .all(|v| matches!(v.ty, Type::Integer | Type::Bool))
}

/// Whether an SMT solver can be started: the default one is looked for once per process; a command the
/// user named is assumed to work (its failure is reported by the stage that uses it).
fn solver_available(ctx: &Context) -> bool {
    ctx.settings().smt_solver.is_some() || smt::default_solver_available()
}

/// The threads the lanes run on, kept from one question to the next: a new thread per question cost
/// the lane its start and its allocator's first pages, a large part of a question SAT decides in a
/// millisecond. Two: SAT's lane and z3's (a lane's own questions are never raced: `Nesting`).
fn lane_pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("bsolve-lane-{i}"))
            .build()
            .expect("the lanes' threads start")
    })
}

/// Starts the lanes' threads in the background, and looks for the default SMT solver there (starting
/// it takes milliseconds), so that the first question raced waits for neither.
pub fn start_lanes() {
    std::thread::spawn(|| {
        lane_pool();
        smt::default_solver_available();
    });
}

/// Runs `run` on this thread with a scope whose spawned lanes run on the lanes' threads; returns when
/// every lane has ended.
pub(super) fn with_lanes<'scope, R>(run: impl FnOnce(&rayon::Scope<'scope>) -> R) -> R {
    lane_pool().in_place_scope(run)
}

/// What the lanes share with the portfolio.
#[derive(Clone)]
struct Shared {
    cancel: Arc<AtomicBool>,
    /// Set by the lane: stops the native search.
    stop_native: Arc<AtomicBool>,
    /// The solutions native has reported so far (kept by the portfolio).
    native_reported: Arc<AtomicUsize>,
    events: Sender<LaneEvent>,
    /// Solutions sent and not yet read by the portfolio.
    unread: Arc<AtomicUsize>,
    /// Held while a lane runs: `Racer::stop` waits until every clone is dropped.
    _alive: SyncSender<()>,
    until: Option<Instant>,
}

impl Shared {
    /// Sends a solution once fewer than `CHANNEL_BOUND` are unread; `false` when the portfolio no
    /// longer reads (the race is over).
    fn send(&self, solution: Solution) -> bool {
        while self.unread.load(Ordering::Acquire) >= CHANNEL_BOUND {
            if self.cancel.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(FULL_CHANNEL_WAIT);
        }
        self.unread.fetch_add(1, Ordering::AcqRel);
        self.events.send(LaneEvent::Solution(solution)).is_ok()
    }
}

/// Runs a lane on the lanes' threads.
fn spawn_lane<'scope>(
    scope: &rayon::Scope<'scope>,
    ctx: &'scope Context,
    problem: &'scope Problem<'scope>,
    kind: Lane,
    shared: Shared,
) {
    scope.spawn(move |_| {
        if shared.cancel.load(Ordering::Relaxed) {
            return;
        }
        let _nested = Nesting::enter();
        let mut listed = 0usize;
        let mut send = |solution: Solution| {
            listed += 1;
            if takes_over(
                listed,
                shared.native_reported.load(Ordering::Relaxed),
                problem.wanted,
            ) {
                shared.stop_native.store(true, Ordering::Relaxed);
            }
            shared.send(solution)
        };
        let until = shared.until;
        // A panic of the lane is reported on stderr by the hook and ends the lane: native's answer
        // stands.
        let end = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ctx.with_cancel(shared.cancel.clone(), || {
                ctx.with_stage_deadline(until, || {
                    lane(ctx, problem, kind, until, &shared.cancel, &mut send)
                })
            })
        }));
        let Ok(Some(end)) = end else {
            return;
        };
        // A lane cancelled while its solver finished has lost: native owns the question.
        if matches!(end.result, Ok(true)) && !shared.cancel.load(Ordering::Relaxed) {
            shared.stop_native.store(true, Ordering::Relaxed);
        }
        let _ = shared.events.send(LaneEvent::End(end));
    });
}

pub(super) struct Racer {
    /// Some lane asks SAT.
    asks_sat: bool,
    cancel: Arc<AtomicBool>,
    /// Dropped on cancellation: a lane's next send then fails.
    events: Option<Receiver<LaneEvent>>,
    unread: Arc<AtomicUsize>,
    /// Disconnected when the lane has ended.
    ended: Receiver<()>,
}

impl Racer {
    /// Starts the lane on `scope` for `problem`, until `until`. The lane sets `stop_native` when it has
    /// decided, or when its list takes over native's stream (`takes_over`; `native_reported` counts
    /// native's solutions).
    pub fn start<'scope>(
        scope: &rayon::Scope<'scope>,
        ctx: &'scope Context,
        problem: &'scope Problem<'scope>,
        until: Option<Instant>,
        stop_native: Arc<AtomicBool>,
        native_reported: Arc<AtomicUsize>,
    ) -> Racer {
        let cancel = Arc::new(AtomicBool::new(false));
        let (events, receiver) = channel();
        let unread = Arc::new(AtomicUsize::new(0));
        let (alive, ended) = sync_channel::<()>(0);
        let shared = Shared {
            cancel: cancel.clone(),
            stop_native,
            native_reported,
            events,
            unread: unread.clone(),
            _alive: alive,
            until,
        };
        // The lanes are started from here: a lane spawned from a lane's thread waited milliseconds for
        // the other thread to take it.
        let lanes: &[Lane] = match (wide_integers(ctx, problem), scalars_only(problem)) {
            (true, true) => &[Lane::SmtOnly],
            (true, false) => &[Lane::SmtOnly, Lane::SatOnly],
            (false, _) => &[Lane::SatThenSmt],
        };
        for &kind in lanes {
            spawn_lane(scope, ctx, problem, kind, shared.clone());
        }
        Racer {
            asks_sat: lanes.iter().any(|&l| l != Lane::SmtOnly),
            cancel,
            events: Some(receiver),
            unread,
            ended,
        }
    }

    /// The lane's next event, waiting for it; `None` once the lane has ended (with its `End`, or
    /// without one: given up, cancelled before it started, or panicked).
    pub fn next(&self) -> Option<LaneEvent> {
        let event = self.events.as_ref()?.recv().ok()?;
        if matches!(event, LaneEvent::Solution(_)) {
            self.unread.fetch_sub(1, Ordering::AcqRel);
        }
        Some(event)
    }

    /// Whether some lane asks SAT (z3 is asked by every race).
    pub fn asks_sat(&self) -> bool {
        self.asks_sat
    }

    /// Stops the lane (its results are then of no use) and waits for it to end.
    pub fn stop(mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.events = None;
        let _ = self.ended.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::{TAKEOVER_MIN, scalars_only, takes_over};
    use crate::eval::Env;
    use crate::solve::Problem;
    use crate::solve::smt::test_formula as formula;

    #[test]
    fn only_integer_and_boolean_unknowns_are_scalars() {
        let scalars = |text: &str| {
            let (_, vars, pred) = formula(text);
            let env = Env::new();
            scalars_only(&Problem::new(&vars, &pred, &env))
        };
        assert!(scalars("x : 0..100000 & b : BOOL & (b = TRUE => x > 5)"));
        assert!(!scalars("x : 0..100000 & s <: 1..3 & x : s"));
        assert!(!scalars(
            "x : 0..100000 & p : (1..2) * (1..2) & prj1(INTEGER, INTEGER)(p) = x"
        ));
    }

    /// A lane's list waits for the portfolio's reading past `CHANNEL_BOUND` unread solutions, and gives
    /// up there once cancelled; below it, every solution is sent.
    #[test]
    fn a_lane_far_ahead_of_the_reading_waits_and_stops_when_cancelled() {
        use super::{CHANNEL_BOUND, LaneEvent, Shared};
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let (events, receiver) = std::sync::mpsc::channel();
        let (alive, _ended) = std::sync::mpsc::sync_channel(0);
        let shared = Shared {
            cancel: Arc::new(AtomicBool::new(false)),
            stop_native: Arc::new(AtomicBool::new(false)),
            native_reported: Arc::new(AtomicUsize::new(0)),
            events,
            unread: Arc::new(AtomicUsize::new(CHANNEL_BOUND - 1)),
            _alive: alive,
            until: None,
        };
        assert!(shared.send((Vec::new(), Vec::new())));
        assert!(matches!(receiver.try_recv(), Ok(LaneEvent::Solution(_))));
        assert_eq!(shared.unread.load(Ordering::Relaxed), CHANNEL_BOUND);
        // Full: the next send waits until the race is cancelled, and sends nothing.
        let cancel = shared.cancel.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            cancel.store(true, Ordering::Relaxed);
        });
        assert!(!shared.send((Vec::new(), Vec::new())));
        canceller.join().expect("cancels");
        assert!(receiver.try_recv().is_err());
    }

    #[test]
    fn a_lane_takes_over_with_what_the_caller_wants_or_a_list_twice_as_long() {
        // An existence question: the lane's first solution, while native has none.
        assert!(takes_over(1, 0, 1));
        assert!(!takes_over(1, 1, 1));
        // A stream: never on a short list, then only at twice native's count.
        assert!(!takes_over(TAKEOVER_MIN - 1, 0, usize::MAX));
        assert!(takes_over(TAKEOVER_MIN, 0, usize::MAX));
        assert!(!takes_over(2 * TAKEOVER_MIN - 1, TAKEOVER_MIN, usize::MAX));
        assert!(takes_over(2 * TAKEOVER_MIN, TAKEOVER_MIN, usize::MAX));
    }
}
