//! The evaluation context: the machine, the settings, and the values of its given sets and their elements.
//!
//! Deferred-set sizes are inferred by `set_sizes`; deferred elements are named `S1..Sn`.

use super::set_sizes::SizeFacts;
use super::{EvalError, Settings, Val, internal_error};
use crate::diag::{Diagnostic, Span};
use crate::ir;
use crate::syntax::ast::Name;
use crate::value::{Element, Int, Value};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub struct Context {
    machine: Arc<ir::Machine>,
    settings: Settings,
    /// Given-set names and enumerated/deferred element names, to their values.
    globals: FxHashMap<Name, Val>,
    given: FxHashMap<Name, Arc<Vec<Value>>>,
    /// Deferred sets whose size is only DEFAULT_SETSIZE (nothing in the machine or the options fixed it).
    defaulted: Vec<Name>,
    /// When searches must give up (`--timeout`), in nanoseconds after `epoch` (0: never); checked by
    /// every search loop, reset per question. Atomic so the check costs a load when no deadline is set.
    deadline: AtomicU64,
    /// The end of the command's default budget (no `--timeout` given), in the same unit (0: none): a
    /// hard stop that `check_deadline` and solvers polling a clock of their own honour, while shares
    /// of the time are computed from `deadline()` alone, as when the user set no limit.
    limit: AtomicU64,
    /// Set when the hard stop was brought forward because the process passed its memory limit
    /// (`check::budget::MemoryLimit::watch`): the stop then names memory, not time.
    out_of_memory: std::sync::atomic::AtomicBool,
    /// A question was to go to the SMT solver, whose process could not be started (`record_smt_missing`).
    smt_missing: std::sync::atomic::AtomicBool,
    epoch: Instant,
    /// Search nodes and re-check rejections of every solver call so far (reported with `-v`).
    solver_nodes: AtomicU64,
    solver_rejected: AtomicU64,
    /// Candidates a solver dropped because checking them took more than their share of the time
    /// (`native::search::propagate_guess`): a search that dropped any may have missed solutions.
    time_cuts: AtomicU64,
    /// The first well-definedness error a fruitless search met on a candidate (`Stats::ill_defined`).
    ill_defined: std::sync::Mutex<Option<Diagnostic>>,
    /// What the first fruitless search over a cut of an infinite type cut (`record_search_cut`).
    search_cut: std::sync::Mutex<Option<String>>,
    /// Per operation, what its successors are searched over (computed once: see `transitions`).
    pub(super) operation_plans: std::sync::OnceLock<Vec<super::transitions::OperationPlan>>,
    /// The constants kept symbolic (see `transitions::SymbolicConstant`), computed by the first constant
    /// setup. Also consulted by name lookups that miss in the environment, so that a recursive
    /// definition's closure, built before the constant had a value, finds it when applied.
    pub(super) symbolic_constants: std::sync::OnceLock<Vec<super::transitions::SymbolicConstant>>,
    /// The sets state variables hold symbolically (`held_sets`).
    held_sets: super::held_sets::HeldSets,
    /// Images already computed of the lambdas that symbolic constants hold (`memo_image`).
    pub(super) constant_images: super::memo::ConstantImages,
    /// Answers the questions where the interpreter must choose (`chooser`).
    chooser: Arc<dyn super::Chooser>,
}

impl Context {
    /// Fixes the given sets and builds the context; `chooser` answers where the interpreter must
    /// choose (the solver layer's `solve::Solver`).
    pub fn new(
        machine: ir::Machine,
        settings: Settings,
        chooser: Arc<dyn super::Chooser>,
    ) -> Result<Context, Diagnostic> {
        let mut globals = FxHashMap::default();
        let mut given = FxHashMap::default();
        let mut defaulted = Vec::new();
        let facts = SizeFacts::new(&machine);
        for gs in &machine.sets {
            let names: Vec<Name> = match &gs.elements {
                Some(elems) => elems.clone(),
                None => {
                    let n = match facts.fixed_size(&settings, &gs.name)? {
                        Some(n) => n,
                        // Still a size bsolve chose (answers relative to it are not proofs), but
                        // at least what the PROPERTIES ask for, as ProB does (`card(PLAYER) > 11`
                        // gives 12 players).
                        None => {
                            defaulted.push(gs.name.clone());
                            settings
                                .default_setsize
                                .max(facts.least_size(&gs.name).unwrap_or(0))
                        }
                    };
                    (1..=n)
                        .map(|i| Name::from(format!("{}{i}", gs.name)))
                        .collect()
                }
            };
            let mut elems = Vec::with_capacity(names.len());
            for (i, name) in names.iter().enumerate() {
                let e = Value::Elem(Arc::new(Element {
                    set: gs.name.clone(),
                    index: i as u32,
                    name: name.clone(),
                }));
                if gs.elements.is_some() {
                    globals.insert(name.clone(), Val::Value(e.clone()));
                }
                elems.push(e);
            }
            let elems = Arc::new(elems);
            globals.insert(gs.name.clone(), Val::Value(Value::Set(elems.clone())));
            given.insert(gs.name.clone(), elems);
        }
        Ok(Context {
            machine: Arc::new(machine),
            settings,
            globals,
            given,
            defaulted,
            deadline: AtomicU64::new(0),
            limit: AtomicU64::new(0),
            out_of_memory: std::sync::atomic::AtomicBool::new(false),
            smt_missing: std::sync::atomic::AtomicBool::new(false),
            epoch: Instant::now(),
            solver_nodes: AtomicU64::new(0),
            solver_rejected: AtomicU64::new(0),
            time_cuts: AtomicU64::new(0),
            ill_defined: std::sync::Mutex::new(None),
            search_cut: std::sync::Mutex::new(None),
            operation_plans: std::sync::OnceLock::new(),
            symbolic_constants: std::sync::OnceLock::new(),
            held_sets: super::held_sets::HeldSets::default(),
            constant_images: super::memo::ConstantImages::default(),
            chooser,
        })
    }

    pub(super) fn held_sets(&self) -> &super::held_sets::HeldSets {
        &self.held_sets
    }

    pub fn machine(&self) -> &ir::Machine {
        &self.machine
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What answers the questions where the interpreter must choose.
    pub fn chooser(&self) -> &dyn super::Chooser {
        &*self.chooser
    }

    /// The elements of a given set, in element order.
    pub fn given_set(&self, name: &str, span: Span) -> Result<Arc<Vec<Value>>, EvalError> {
        self.given
            .get(name)
            .cloned()
            .ok_or_else(|| internal_error(span, format!("unknown given set {name}")))
    }

    /// The deferred sets whose size is DEFAULT_SETSIZE only: an answer that depends on them is relative to
    /// that size (B allows any finite non-empty size).
    pub fn default_sized_sets(&self) -> &[Name] {
        &self.defaulted
    }

    /// An instant as the atomics store it: nanoseconds after `epoch`, at least 1 (0: none).
    fn ns_of(&self, at: Option<Instant>) -> u64 {
        at.map_or(0, |d| {
            (d.saturating_duration_since(self.epoch).as_nanos() as u64).max(1)
        })
    }

    /// The instant an atomic holds (`ns_of`).
    fn instant_at(&self, ns: u64) -> Option<Instant> {
        (ns != 0).then(|| self.epoch + std::time::Duration::from_nanos(ns))
    }

    /// Sets (or clears) the instant after which searches stop with a timeout.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.store(self.ns_of(deadline), Ordering::Relaxed);
    }

    /// Sets (or clears) the hard stop of a default budget (`limit`).
    pub fn set_limit(&self, limit: Option<Instant>) {
        self.limit.store(self.ns_of(limit), Ordering::Relaxed);
    }

    /// Stops every search now, naming the memory limit (see `out_of_memory`).
    pub fn stop_for_memory(&self) {
        self.out_of_memory.store(true, Ordering::Relaxed);
        self.limit.store(1, Ordering::Relaxed);
    }

    /// Whether `stop_for_memory` was called.
    pub fn stopped_for_memory(&self) -> bool {
        self.out_of_memory.load(Ordering::Relaxed)
    }

    /// `deadline()`, or the default budget's hard stop when that is earlier: for solvers that poll a
    /// clock of their own (SAT).
    pub fn hard_deadline(&self) -> Option<Instant> {
        earlier(
            self.deadline(),
            self.instant_at(self.limit.load(Ordering::Relaxed)),
        )
    }

    /// Runs `run` with the shared deadline moved to `until` when that is earlier (every thread, every
    /// share computed from `deadline()` and every SAT call sees it), then restores the deadline: a
    /// check giving one of its questions a share of the time.
    pub fn with_deadline_until<R>(&self, until: Option<Instant>, run: impl FnOnce() -> R) -> R {
        let saved = self.deadline.load(Ordering::Relaxed);
        self.set_deadline(earlier(self.instant_at(saved), until));
        let result = run();
        self.deadline.store(saved, Ordering::Relaxed);
        result
    }

    /// The instant after which searches stop, if any (for solvers that poll a clock of their own): the
    /// context's deadline, or the current thread's stage deadline when that is earlier.
    pub fn deadline(&self) -> Option<Instant> {
        earlier(
            self.instant_at(self.deadline.load(Ordering::Relaxed)),
            STAGE_DEADLINE.get(),
        )
    }

    /// Runs `run` with a tighter deadline for this thread only (a portfolio stage's share of the
    /// budget). The context's own deadline is shared by the model checker's worker threads, so a stage
    /// must not move it: one thread restoring "its" outer deadline after another had shortened it would
    /// leave everyone with the shorter one.
    pub fn with_stage_deadline<R>(&self, until: Option<Instant>, run: impl FnOnce() -> R) -> R {
        let saved = STAGE_DEADLINE.replace(until);
        let _restore = Restore::new(move || STAGE_DEADLINE.set(saved));
        run()
    }

    /// This thread's stage deadline (`with_stage_deadline`), if any.
    pub fn stage_deadline(&self) -> Option<Instant> {
        STAGE_DEADLINE.get()
    }

    /// Moves this thread's stage deadline to `until` when that is earlier, for the rest of the enclosing
    /// `with_stage_deadline` (which restores the deadline before it): a portfolio stage handing its
    /// stream over to another backend.
    pub fn tighten_stage_deadline(&self, until: Instant) {
        STAGE_DEADLINE.set(Some(STAGE_DEADLINE.get().map_or(until, |d| d.min(until))));
    }

    /// Runs `run` with a deadline for this thread that holds only until `first_solution_reported` (the
    /// portfolio's first turn for native when the user set no time limit, and native's probe before
    /// the lane, which nothing lifts). Only `check_deadline` reads it:
    /// shares of the time computed from `deadline()` inside the search must not shrink to it, since the
    /// search runs on without a limit once it has a solution.
    pub fn with_first_solution_deadline<R>(&self, until: Instant, run: impl FnOnce() -> R) -> R {
        let until = UNTIL_FIRST_SOLUTION.get().map_or(until, |d| d.min(until));
        let saved = UNTIL_FIRST_SOLUTION.replace(Some(until));
        let _restore = Restore::new(move || UNTIL_FIRST_SOLUTION.set(saved));
        run()
    }

    /// Runs `run` on this thread with `cancel`: once another thread sets it, every search of this thread
    /// stops as at its deadline (a portfolio's racing backends stop the losers so).
    pub fn with_cancel<R>(
        &self,
        cancel: Arc<std::sync::atomic::AtomicBool>,
        run: impl FnOnce() -> R,
    ) -> R {
        let saved = CANCEL.replace(Some(cancel));
        let _restore = Restore::new(move || CANCEL.set(saved));
        run()
    }

    /// Runs `run` on this thread under the limits of a search's caller: the stage deadline `stage` (the
    /// caller's), no cancellation flag and no first-solution deadline. The delivery of a solution a
    /// search has found (the caller's re-check by the interpreter) is the caller's work: cut by the
    /// search's own share, probe or cancellation, it would report a cut the caller never made.
    pub fn as_caller<R>(&self, stage: Option<Instant>, run: impl FnOnce() -> R) -> R {
        let saved = (
            STAGE_DEADLINE.replace(stage),
            CANCEL.take(),
            UNTIL_FIRST_SOLUTION.take(),
        );
        let _restore = Restore::new(move || {
            STAGE_DEADLINE.set(saved.0);
            CANCEL.set(saved.1);
            UNTIL_FIRST_SOLUTION.set(saved.2);
        });
        run()
    }

    /// This thread's cancellation flag (`with_cancel`), for solvers that poll a flag of their own (SAT).
    pub fn cancel_flag(&self) -> Option<Arc<std::sync::atomic::AtomicBool>> {
        CANCEL.with_borrow(|c| c.clone())
    }

    /// Lifts the deadline of `with_first_solution_deadline`: the search has a solution.
    pub fn first_solution_reported(&self) {
        UNTIL_FIRST_SOLUTION.set(None);
    }

    /// The integers a search lists for an unbounded integer: MININT..MAXINT (ProB's cut), widened on
    /// this thread by `with_widened_int_cut`. Only enumeration reads it; `INT`, `NAT` and MAXINT itself keep
    /// their meaning.
    pub fn int_cut(&self) -> (Int, Int) {
        let (min, max) = (
            Int::from(&self.settings.minint),
            Int::from(&self.settings.maxint),
        );
        let factor = INT_CUT_WIDENING.get();
        if factor == 0 {
            return (min, max);
        }
        let extra = max.sub(&min).succ().mul(&Int::from(factor as i64));
        (min.sub(&extra), max.add(&extra))
    }

    /// Whether this thread's integer cut is widened (`with_widened_int_cut`).
    pub(crate) fn int_cut_widened(&self) -> bool {
        INT_CUT_WIDENING.get() != 0
    }

    /// Runs `run` with the integer cut widened by `factor` times its width on each side (0: ProB's cut), on
    /// this thread only. A search that found nothing within MININT..MAXINT proved nothing, so a user's
    /// question may look further (`ii : 1..maxidx & ii /: NAT` needs maxidx > MAXINT); every value it
    /// finds is still checked by the interpreter, and an empty result stays incomplete.
    pub fn with_widened_int_cut<R>(&self, factor: u32, run: impl FnOnce() -> R) -> R {
        let saved = INT_CUT_WIDENING.replace(factor);
        let _restore = Restore::new(move || INT_CUT_WIDENING.set(saved));
        run()
    }

    /// A `Limit` error once the deadline has passed: every search loop calls this per node, so a timeout
    /// is honoured within one node's work.
    pub fn check_deadline(&self, span: Span) -> Result<(), EvalError> {
        let ns = match (
            self.deadline.load(Ordering::Relaxed),
            self.limit.load(Ordering::Relaxed),
        ) {
            (0, l) => l,
            (d, 0) => d,
            (d, l) => d.min(l),
        };
        if CANCEL.with_borrow(|c| c.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))) {
            return Err(super::timeout_error(span));
        }
        let stage = STAGE_DEADLINE.get();
        let first = UNTIL_FIRST_SOLUTION.get();
        if ns == 0 && stage.is_none() && first.is_none() {
            return Ok(());
        }
        // One clock read per node: this is on every search loop's path.
        let now = Instant::now();
        let shared_passed = ns != 0 && now.duration_since(self.epoch).as_nanos() as u64 >= ns;
        let stage_passed = stage.is_some_and(|d| now >= d) || first.is_some_and(|d| now >= d);
        if shared_passed && self.stopped_for_memory() {
            Err(super::limit_error(span, MEMORY_MESSAGE))
        } else if shared_passed || stage_passed {
            Err(super::timeout_error(span))
        } else {
            Ok(())
        }
    }

    /// Adds one solver call's statistics to the totals.
    pub fn record_solver_stats(&self, nodes: u64, rejected: usize) {
        self.solver_nodes.fetch_add(nodes, Ordering::Relaxed);
        self.solver_rejected
            .fetch_add(rejected as u64, Ordering::Relaxed);
    }

    /// Notes a candidate dropped because checking it ran out of its share of the time.
    pub fn record_time_cut(&self) {
        self.time_cuts.fetch_add(1, Ordering::Relaxed);
    }

    /// How many candidates all searches so far dropped for time (`record_time_cut`).
    pub fn time_cuts(&self) -> u64 {
        self.time_cuts.load(Ordering::Relaxed)
    }

    /// Notes a well-definedness error that a search which found nothing met on a candidate.
    pub fn record_ill_defined(&self, d: &Diagnostic) {
        if let Ok(mut first) = self.ill_defined.lock() {
            first.get_or_insert_with(|| d.clone());
        }
    }

    /// Notes that a search found nothing within a cut of an infinite type; `what` says what was cut
    /// (`x was searched only within -1..3 ...`). The first one is kept.
    pub fn record_search_cut(&self, what: &str) {
        if let Ok(mut first) = self.search_cut.lock() {
            first.get_or_insert_with(|| what.to_string());
        }
    }

    /// Why a search that found nothing proves nothing, when it met ill-defined candidates: for the
    /// UNKNOWN line of the commands. Taken: the next question starts without one.
    pub fn take_ill_defined_note(&self) -> Option<String> {
        let first = self.ill_defined.lock().ok()?.take()?;
        Some(format!(
            "candidates on which the predicate is ill-defined count as no solution, e.g. {}: {}",
            first.span, first.message
        ))
    }

    /// What a search that found nothing within a cut cut (`record_search_cut`), for the UNKNOWN line of
    /// an incomplete answer (another backend may still have answered completely: only an UNKNOWN shows
    /// it). Taken: the next question starts without one.
    pub fn take_cut_note(&self) -> Option<String> {
        self.search_cut.lock().ok()?.take()
    }

    /// Notes that the SMT solver could not be started for a question that was to go to it.
    pub(crate) fn record_smt_missing(&self) {
        self.smt_missing.store(true, Ordering::Relaxed);
    }

    /// The notes of an UNKNOWN answer: ill-defined candidates, the cut searched, the SMT solver missing.
    pub fn take_unknown_note(&self) -> Option<String> {
        let smt = self.smt_missing.swap(false, Ordering::Relaxed).then(|| {
            "the SMT solver, which may decide this, could not be started (z3 is optional: \
             `apt install z3`, or --smt-solver CMD)"
                .to_string()
        });
        let notes: Vec<String> = [self.take_ill_defined_note(), self.take_cut_note(), smt]
            .into_iter()
            .flatten()
            .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// Search nodes visited and solutions rejected by the interpreter's re-check, over all solver calls.
    pub fn solver_stats(&self) -> (u64, u64) {
        (
            self.solver_nodes.load(Ordering::Relaxed),
            self.solver_rejected.load(Ordering::Relaxed),
        )
    }

    /// Whether `name` is a given set or an enumerated element.
    pub fn is_global(&self, name: &str) -> bool {
        self.globals.contains_key(name)
    }

    /// A given set or element, or a constant kept symbolic, by name.
    pub(crate) fn global(&self, name: &str) -> Option<&Val> {
        self.globals.get(name).or_else(|| {
            self.symbolic_constants
                .get()?
                .iter()
                .find(|c| *c.name == *name)
                .map(|c| &c.value)
        })
    }
}

/// Restores a thread-local value when dropped, also when the code it guards unwinds: the lanes' threads
/// are kept from one question to the next and a lane's panic is caught, so a value left behind would
/// cancel or cut every later question on that thread.
struct Restore<F: FnOnce()>(Option<F>);

impl<F: FnOnce()> Restore<F> {
    fn new(restore: F) -> Self {
        Restore(Some(restore))
    }
}

impl<F: FnOnce()> Drop for Restore<F> {
    fn drop(&mut self) {
        if let Some(restore) = self.0.take() {
            restore();
        }
    }
}

thread_local! {
    /// The current thread's stage deadline (`Context::with_stage_deadline`).
    static STAGE_DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
    /// The current thread's deadline until a first solution (`Context::with_first_solution_deadline`).
    static UNTIL_FIRST_SOLUTION: std::cell::Cell<Option<Instant>> =
        const { std::cell::Cell::new(None) };
    /// The current thread's cancellation flag (`Context::with_cancel`).
    static CANCEL: std::cell::RefCell<Option<Arc<std::sync::atomic::AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
    /// The current thread's widening of the integer cut (`Context::with_widened_int_cut`).
    static INT_CUT_WIDENING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The instant `share`/`parts` of the way from now to `deadline` (`None`: no limit, none to share): a
/// stage's share of the time left.
pub fn share_of_time_left(deadline: Option<Instant>, share: u32, parts: u32) -> Option<Instant> {
    let now = Instant::now();
    deadline.map(|d| now + d.saturating_duration_since(now) * share / parts)
}

/// The earlier of two optional instants (`None`: no limit).
fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The message of the `Limit` error a passed deadline gives (see `EvalError::is_timeout`).
pub(crate) const TIMEOUT_MESSAGE: &str = "timeout: the time budget is spent";

/// The message of the `Limit` error once the process passed its memory limit (`--max-memory`); a
/// timeout for every purpose but the words (`EvalError::is_timeout`).
pub(crate) const MEMORY_MESSAGE: &str =
    "memory limit reached: the process passed --max-memory (default: 3/4 of physical memory)";
