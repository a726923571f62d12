//! `--backend auto` for users' questions: the native solver, raced by the lane (SAT then z3, or z3
//! then SAT over wide integers: `racer`) on outermost questions, and the backends that decide what
//! native cannot as later stages.
//!
//! The race: on an outermost question not reduced by symmetry, native first runs alone for `PROBE`
//! (a question it decides by then, most of them, never starts the lane: starting and stopping it costs
//! more than such a question), or for the `SHORT_PROBE` when the question has a relation native would
//! search member by member (`shape`), where SAT is the likely winner: SAT then gets a probe of its own
//! on this thread (`SAT_PROBE`), which decides most such questions without a second thread. Then
//! native resumes with the whole budget, skipping what the probes delivered, while the lane lists
//! every solution it finds from a thread of its own. The lane stops native when it has the solutions the caller wants before native
//! has one, when its list runs well ahead of native's stream, or with the whole verdict; its list is
//! then delivered, skipping what native reported. When native finishes first, the lane is stopped.
//! When both stop undecided, the later stages below (native again) finish with the time left. The rest
//! of this documentation is the sequential policy, which symmetry-reduced and nested questions keep.
//!
//! The policy, from what each backend is good at (measured on the predicate corpus, RESULTS.md):
//! 1. native — propagation over B values decides most predicates in well under a millisecond; it is
//!    exact on everything it finishes, but explores unbounded integers only within MININT..MAXINT
//!    (an incomplete Unsat) and gives up on unknowns too large to enumerate;
//! 2. kodkod — when the whole problem translates to SAT (finite relational problems, bounded integers),
//!    CaDiCaL decides large combinatorial searches that time out in native;
//! 3. z3 — proves Unsat over unbounded integers (`x > y & y > x`), which neither finite backend can, and
//!    handles large arithmetic.
//!
//! A question over deferred sets sized by DEFAULT_SETSIZE only is not decided by an exhaustive search
//! without solutions: that Unsat holds for the default size alone. When native (or kodkod) reports one,
//! the other finite backend (bounded by the same sizes) cannot add anything and z3 goes straight to the
//! translation with those sets as uninterpreted sorts (`smt::refute_any_size`, with all the time left),
//! whose `unsat` holds for every size (`Stats::any_size`); otherwise z3's stage searches the default
//! sizes for solutions and then tries the same proof (`smt::solve`). Kodkod then keeps only half of the
//! time left, as when its bounds cut unbounded integers.
//!
//! A later stage runs only when no earlier one decided the question and none reported a solution (so a
//! stream never repeats one) — except after native ran out of its share in the middle of a stream (a
//! puzzle with a few dozen solutions, all wanted by the model checker): kodkod, or native again, then
//! finishes the stream, skipping the solutions already reported (not under symmetry reduction over
//! deferred sets, where two stages may report different representatives of one orbit). With a deadline (`--timeout`), native gets a quarter of the budget and
//! kodkod three quarters of what is left (half when its bounds cut unbounded integers); z3 the rest. A problem that reaches kodkod translates
//! completely, so SAT decides it exactly; on a 1/25 sample of the predicate corpus (2.5 s each), native
//! decided all but one of its answers within a quarter of the budget, while SAT needed up to 1.6 s, more
//! than the sixth it had under the former split (a third for native, half the rest for kodkod). Without one,
//! native gets `NATIVE_FIRST_BUDGET` to find a first solution when kodkod or z3 accepts the problem, the
//! later stages `FALLBACK_BUDGET` each, so that `auto` never waits on an SMT solver forever, and native
//! then searches again without a limit. Symmetry-reduced questions over deferred sets
//! skip z3 (it lists every solution, not one per orbit). The model checker's per-state questions
//! (`sizes_matter` false) stay with native alone: starting a SAT or SMT search per state would cost
//! more than it finds. When native ran out of its share and no later stage decided (most often because
//! the problem does not translate), native searches again with whatever time is left.
//!

use super::nesting::Nesting;
use super::racer::{self, LaneEnd, LaneEvent, Racer};
use super::shape;
use super::{Found, Problem, Stats, kodkod, native, smt};
use crate::eval::{Context, EvalError, share_of_time_left};
use crate::syntax::ast::Name;
use crate::value::Value;
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Native's probe: a raced question (`racer`) native decides within it never starts the lane, whose
/// start and stop cost more than such a question; one it does not costs the lane this much of its
/// time and native a restart (skipping what it delivered).
const PROBE: Duration = Duration::from_millis(2);

/// Native's probe on a question whose shape favours SAT (`shape`): the lane's thread, asleep between
/// questions, takes a millisecond or two to wake on this machine, and the portfolio waits for it to
/// end even when native decided first; native decides the smallest such questions (`not(r - x = x) => x
/// <: ID`: 0.15 ms) before that.
const SHORT_PROBE: Duration = Duration::from_micros(200);

/// SAT's probe on a question whose shape favours SAT (`sat_probe`), after native's short one: long
/// enough for the SAT questions of a few milliseconds (CrewAllocation: 4 ms), which a shorter probe
/// cut and the race then asked again from the start.
const SAT_PROBE: Duration = Duration::from_millis(5);

/// Time a fallback stage gets when the question has no deadline.
const FALLBACK_BUDGET: Duration = Duration::from_secs(10);

/// Without a deadline, native's first turn when another backend could take the problem: native decides
/// nearly every question it decides at all within a fraction of this (RESULTS.md, predicate corpus), and
/// a problem beyond it (Stack.mch's algebraic laws: 24 minutes of native search) is often seconds of SAT.
const NATIVE_FIRST_BUDGET: Duration = Duration::from_secs(2);

/// What one stage did: its verdict (exhaustive or not) or error, and whether it reported solutions.
struct Outcome {
    result: Result<bool, EvalError>,
    reported: bool,
}

impl Outcome {
    /// An exhaustive search without solutions.
    fn unsat(&self) -> bool {
        !self.reported && matches!(self.result, Ok(true))
    }

    /// Stopped by its deadline.
    fn timed_out(&self) -> bool {
        matches!(&self.result, Err(e) if e.is_timeout())
    }

    /// Decided: exhaustive, or solutions were reported (a later stage would repeat them).
    fn decided(&self) -> bool {
        self.reported || matches!(self.result, Ok(true))
    }
}

/// Streams the solutions of `problem`; returns whether the search was exhaustive.
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    // Stages and lanes deliver from several places; once the caller has asked for no more, none of
    // them may reach it again (a lane's solution drained after native's stop was one setup past
    // MAX_INITIALISATIONS).
    let mut latch = StopLatch::default();
    let on_solution = &mut latch.guarding(on_solution);
    if !problem.sizes_matter {
        // The model checker's per-state questions: native alone, with the whole budget.
        return native::solve(ctx, problem, on_solution, stats);
    }
    let outer = ctx.deadline();
    let deferred_symmetry =
        problem.symmetry.reduces() && ctx.machine().sets.iter().any(|s| s.elements.is_none());
    // Native may stop in the middle of a stream (at the end of its share of the time, or stopped by the
    // lane); what it reported is kept so that a later stage can finish the stream without repeating a
    // solution. Under symmetry reduction over deferred sets the stages may pick other representatives of
    // an orbit, so the stream cannot be resumed there.
    let resumable = !deferred_symmetry;
    let mut seen = Reported::default();
    // Whether the whole problem translates to SAT (and exactly): asked here and by the kodkod stage.
    let sat_translation = std::cell::OnceCell::new();
    let translates_to_sat =
        || *sat_translation.get_or_init(|| kodkod::check_translation(ctx, problem).ok());
    let outermost = !Nesting::inside();
    // The lane (SAT, then z3) races native from a thread of its own on an outermost question (nested
    // ones are asked per search node) not reduced by symmetry (z3 lists every solution, and the stages'
    // representatives differ); it checks itself what translates. Native then has the whole budget.
    let race = outermost && !deferred_symmetry;
    // Without a deadline, native yields to the others after NATIVE_FIRST_BUDGET without a solution when
    // one of them can take the problem (outermost questions only: a nested one, asked inside a search,
    // would pay the translation test at every node); once it has a solution it finishes its stream.
    let yields = !race
        && outer.is_none()
        && outermost
        && (translates_to_sat().is_some() || smt::translates(ctx, problem));
    // Every question asked from here on, in any stage, is nested in this one.
    let _nested = Nesting::enter();
    // Native's probe first: a question it decides within it never starts the lane. A question whose
    // unknowns native would search as booleans (`shape`) has a short one, where SAT is the likely
    // winner.
    let together = race && shape::favours_sat(problem);
    let mut native = Native {
        ctx,
        problem,
        yields,
        keep: resumable,
        counted: Arc::new(AtomicUsize::new(0)),
        caller_stopped: false,
    };
    // What the lanes asked is not asked again by a later stage.
    let (mut sat_asked, mut smt_asked) = (false, false);
    let mut lane_delivered = false;
    let first = if !race {
        // The sequential policy's quarter.
        native.run(
            share_of_time_left(outer, 1, 4),
            None,
            &mut seen,
            on_solution,
            stats,
        )
    } else {
        // The probe's end is a deadline for the search's checks only: the shares of the time native
        // computes inside (a candidate's check capped at a share of the time left) stay those of the
        // whole budget, or the probe would cut candidates a full run keeps.
        let length = if together { SHORT_PROBE } else { PROBE };
        let probe = ctx.with_first_solution_deadline(Instant::now() + length, || {
            native.run(outer, None, &mut seen, on_solution, stats)
        });
        if native.decided(&probe) || past(outer) {
            probe
        } else {
            let sat = together.then(|| sat_probe(ctx, problem, outer, &mut seen, on_solution));
            match sat {
                // Decided by SAT's probe: the checks below (Unsat for every size) apply as to
                // native's outcome.
                Some(sat) if sat.caller_stopped || matches!(sat.outcome.result, Ok(true)) => {
                    Outcome {
                        result: sat.outcome.result,
                        reported: probe.reported || sat.outcome.reported,
                    }
                }
                sat => {
                    // Solutions the lane's SAT lists again are skipped (`seen`); what SAT's probe
                    // delivered stands for the answer as a lane's list does.
                    let raced = race_lane(&mut native, probe, outer, &mut seen, on_solution, stats);
                    sat_asked = raced.sat_asked;
                    smt_asked = raced.smt_asked;
                    lane_delivered =
                        raced.lane_delivered || sat.is_some_and(|s| s.outcome.reported);
                    if let Some(answer) = raced.answer {
                        return answer;
                    }
                    raced.first
                }
            }
        }
    };
    let sized = ctx.depends_on_default_sizes(problem.vars, problem.pred);
    if sized && first.unsat() {
        refute_any_size(ctx, problem, outer, stats);
        return first.result;
    }
    let partial = resumable && first.reported && first.timed_out();
    if (first.decided() && !partial) || past(outer) {
        return first.result;
    }
    let mut later = Vec::new();
    if let Some(exact) = translates_to_sat().filter(|_| !sat_asked) {
        // Over a cut of the integers, or of the deferred sets, SAT proves nothing absent: z3 keeps
        // half of the time left.
        let share = if exact && !sized { (3, 4) } else { (1, 2) };
        let sat = stage(
            ctx,
            fallback(outer, share.0, share.1),
            on_solution,
            |found| {
                kodkod::solve_sat(
                    ctx,
                    problem,
                    &mut seen.skipping(found),
                    &mut Stats::default(),
                )
            },
        );
        // After a partial stream of native, an exhaustive SAT search reporting nothing new is no
        // Unsat.
        if sized && !first.reported && sat.unsat() {
            refute_any_size(ctx, problem, outer, stats);
            return sat.result;
        }
        later.push(sat);
    }
    // z3 lists solutions one at a time, slowly: a stream native began is finished by native.
    if !smt_asked
        && !later.iter().any(Outcome::decided)
        && !deferred_symmetry
        && !partial
        && !past(outer)
    {
        let mut z3_stats = Stats::default();
        later.push(stage(ctx, fallback(outer, 1, 1), on_solution, |found| {
            smt::solve(ctx, problem, &mut seen.skipping(found), &mut z3_stats)
        }));
        stats.any_size = z3_stats.any_size;
    }
    if let Some(decided) = later.into_iter().find(Outcome::decided) {
        return decided.result;
    }
    if first.timed_out() && !past(outer) {
        // Native ran out of its share (or was stopped by a lane that then gave up) and the others
        // could not decide (or not translate) the problem: native searches again with all the time
        // left rather than leave it unused (without a deadline: until it is done, as the user asked
        // for no limit), skipping the solutions already reported.
        let again = stage(ctx, outer, on_solution, |found| {
            native::solve(ctx, problem, &mut seen.skipping(found), stats)
        });
        if again.decided() {
            return again.result;
        }
    }
    // Nothing decided: native's own answer (its incomplete Unsat, or why it gave up) is the most
    // informative — unless the lane's solutions stand for it: solutions, the search not exhaustive.
    if lane_delivered {
        return Ok(false);
    }
    first.result
}

/// Native's runs within one question: the probe, then the run beside the lane (or the sequential
/// policy's first stage), delivering each solution once.
struct Native<'a, 'p> {
    ctx: &'a Context,
    problem: &'a Problem<'p>,
    /// Without a deadline, native's first run yields after `NATIVE_FIRST_BUDGET` without a solution.
    yields: bool,
    /// Whether the solutions delivered are remembered for a later run or stage to skip.
    keep: bool,
    /// The solutions native has delivered (the lane's `takes_over` reads it).
    counted: Arc<AtomicUsize>,
    /// The caller asked for no more solutions.
    caller_stopped: bool,
}

impl Native<'_, '_> {
    /// Runs native until `until` (under `cancel`, the lane's stop), skipping the solutions `seen`
    /// holds.
    fn run(
        &mut self,
        until: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
        seen: &mut Reported,
        on_solution: &mut Found<'_>,
        stats: &mut Stats,
    ) -> Outcome {
        let (ctx, problem, yields) = (self.ctx, self.problem, self.yields);
        let counted = self.counted.clone();
        let mut caller_stopped = false;
        let outcome = stage(ctx, until, on_solution, |found| {
            let mut lifting = |values: &[Value], witnesses: &[(Name, Value)]| {
                if yields {
                    ctx.first_solution_reported();
                }
                counted.fetch_add(1, Ordering::Relaxed);
                let go_on = found(values, witnesses);
                caller_stopped = matches!(go_on, Ok(false));
                go_on
            };
            let mut recording = seen.recording(self.keep, &mut lifting);
            let mut search = || {
                if yields {
                    ctx.with_first_solution_deadline(Instant::now() + NATIVE_FIRST_BUDGET, || {
                        native::solve(ctx, problem, &mut recording, stats)
                    })
                } else {
                    native::solve(ctx, problem, &mut recording, stats)
                }
            };
            match cancel {
                Some(cancel) => ctx.with_cancel(cancel, search),
                None => search(),
            }
        });
        self.caller_stopped |= caller_stopped;
        outcome
    }

    /// Whether a run of native settled the question: a verdict, a list it ended, the caller's stop.
    fn decided(&self, outcome: &Outcome) -> bool {
        self.caller_stopped
            || matches!(outcome.result, Ok(true))
            || (outcome.reported && !outcome.timed_out())
    }
}

/// What SAT's probe did.
struct SatProbe {
    outcome: Outcome,
    /// The caller asked for no more solutions.
    caller_stopped: bool,
}

/// SAT's probe, on this thread, for `SAT_PROBE`, on a question whose shape favours SAT after native's
/// short probe did not decide it: most such questions SAT decides within a millisecond or two, where
/// racing it from the lane's thread beside native costs as much again (native, busy on the other
/// core, polls the lane's stop between two propagations, and a loaded machine deschedules one of
/// the two). A question that does not translate completely is left to the race at once. Solutions
/// native's probe delivered are skipped, and those SAT delivers are remembered for the race to skip.
fn sat_probe(
    ctx: &Context,
    problem: &Problem<'_>,
    outer: Option<Instant>,
    seen: &mut Reported,
    on_solution: &mut Found<'_>,
) -> SatProbe {
    let probe_end = Instant::now() + SAT_PROBE;
    let until = Some(outer.map_or(probe_end, |o| o.min(probe_end)));
    let mut caller_stopped = false;
    let outcome = stage(ctx, until, on_solution, |found| {
        let mut noting = |values: &[Value], witnesses: &[(Name, Value)]| {
            let go_on = found(values, witnesses);
            caller_stopped |= matches!(go_on, Ok(false));
            go_on
        };
        kodkod::solve_sat_alone(
            ctx,
            problem,
            &mut seen.recording(true, &mut noting),
            &mut Stats::default(),
        )
    });
    SatProbe {
        outcome,
        caller_stopped,
    }
}

/// What racing the lane left.
struct Raced {
    /// The final answer, when the race gave one.
    answer: Option<Result<bool, EvalError>>,
    /// Native's outcome over the probe and the race.
    first: Outcome,
    /// SAT's and z3's lanes were read (those backends are not asked again).
    sat_asked: bool,
    smt_asked: bool,
    /// Some solution of the lane reached the caller.
    lane_delivered: bool,
}

/// Races the lane (`racer`) against native with all the time left. After a probe its deadline
/// stopped, native resumes beside the lane (skipping what it delivered); after a probe that ended
/// otherwise (an incomplete search, a question it cannot take) the lane alone may still decide.
/// Native stopped: when it decided, the lane is stopped — unless the lane stopped it, or it gave up
/// with time left: then the lane's list and verdict are read.
fn race_lane(
    native: &mut Native<'_, '_>,
    probe: Outcome,
    outer: Option<Instant>,
    seen: &mut Reported,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Raced {
    let (ctx, problem) = (native.ctx, native.problem);
    let stop_native = Arc::new(AtomicBool::new(false));
    // Without a deadline, the lane gets what the two later stages would get one after the other.
    let until = outer.or_else(|| Some(Instant::now() + 2 * FALLBACK_BUDGET));
    racer::with_lanes(|scope| {
        let racer = Racer::start(
            scope,
            ctx,
            problem,
            until,
            stop_native.clone(),
            native.counted.clone(),
        );
        let first = if probe.timed_out() {
            let run = native.run(outer, Some(stop_native.clone()), seen, on_solution, stats);
            Outcome {
                result: run.result,
                reported: run.reported || probe.reported,
            }
        } else {
            probe
        };
        // The caller's stop ends the question whoever stopped native.
        if native.caller_stopped
            || (!stop_native.load(Ordering::Relaxed) && (native.decided(&first) || past(outer)))
        {
            racer.stop();
            return Raced {
                answer: None,
                first,
                sat_asked: false,
                smt_asked: false,
                lane_delivered: false,
            };
        }
        let sat_asked = racer.asks_sat();
        let drained = drain(racer, seen, on_solution);
        let (answer, first) = match drained.end {
            Drained::Stopped(result) => (Some(result), first),
            Drained::Decided(end) => {
                stats.any_size = end.any_size;
                (Some(end.result), first)
            }
            // A partial stream for the later stages to finish, skipping what was reported.
            Drained::Undecided if drained.delivered || first.reported => (
                None,
                Outcome {
                    result: Err(crate::eval::timeout_error(ctx.machine().span)),
                    reported: true,
                },
            ),
            Drained::Undecided => (None, first),
        };
        Raced {
            answer,
            first,
            sat_asked,
            smt_asked: true,
            lane_delivered: drained.delivered,
        }
    })
}

/// How reading the lane ended.
enum Drained {
    /// The caller asked for no more solutions (`Ok(false)`), or delivering one failed.
    Stopped(Result<bool, EvalError>),
    /// The lane's exhaustive verdict: every solution it listed has been delivered.
    Decided(LaneEnd),
    /// The lane gave up (its budget, an untranslatable question, cancelled before it began).
    Undecided,
}

struct DrainResult {
    end: Drained,
    /// Some solution of the lane reached the caller.
    delivered: bool,
}

/// Reads the lanes' solutions as they list them, delivering those not reported before, until a lane's
/// exhaustive verdict, the end of every lane, or the caller's stop. Each goes through the caller's re-check, on this thread, as every stage's.
fn drain(racer: Racer, seen: &mut Reported, on_solution: &mut Found<'_>) -> DrainResult {
    let mut delivered = false;
    let end = loop {
        match racer.next() {
            Some(LaneEvent::Solution((values, witnesses))) => {
                if seen.values.contains(&values) {
                    continue;
                }
                match seen.recording(true, on_solution)(&values, &witnesses) {
                    Ok(true) => delivered = true,
                    Ok(false) => {
                        delivered = true;
                        break Drained::Stopped(Ok(false));
                    }
                    Err(e) => break Drained::Stopped(Err(e)),
                }
            }
            Some(LaneEvent::End(end)) if matches!(end.result, Ok(true)) => {
                break Drained::Decided(end);
            }
            // Another lane may still decide.
            Some(LaneEvent::End(_)) => {}
            None => break Drained::Undecided,
        }
    };
    racer.stop();
    DrainResult { end, delivered }
}

/// After an Unsat for the default sizes of the deferred sets: z3's proof for every size, with the time
/// left; `stats.any_size` tells whether it succeeded.
fn refute_any_size(
    ctx: &Context,
    problem: &Problem<'_>,
    outer: Option<Instant>,
    stats: &mut Stats,
) {
    if past(outer) {
        return;
    }
    let proved =
        ctx.with_stage_deadline(fallback(outer, 1, 1), || smt::refute_any_size(ctx, problem));
    stats.any_size = matches!(proved, Ok(true));
}

/// Remembers the caller's stop (`Ok(false)`) and answers every later solution with it, unseen.
#[derive(Default)]
struct StopLatch {
    stopped: bool,
}

impl StopLatch {
    fn guarding<'a>(
        &'a mut self,
        inner: &'a mut Found<'_>,
    ) -> impl FnMut(&[Value], &[(Name, Value)]) -> Result<bool, EvalError> + 'a {
        move |values: &[Value], witnesses: &[(Name, Value)]| {
            if self.stopped {
                return Ok(false);
            }
            let go_on = inner(values, witnesses);
            self.stopped = matches!(go_on, Ok(false));
            go_on
        }
    }
}

/// The solutions a stage reported, so that a later stage resuming its stream skips them.
#[derive(Default)]
struct Reported {
    values: FxHashSet<Vec<Value>>,
}

impl Reported {
    /// Forwards to `inner` the solutions not reported before, remembering each it accepted when
    /// `keep`. A solution whose delivery failed (the stage's deadline passing while the interpreter
    /// re-checks it) is not remembered: the stage resuming the stream must report it again, or it
    /// would be lost.
    fn recording<'a>(
        &'a mut self,
        keep: bool,
        inner: &'a mut Found<'_>,
    ) -> impl FnMut(&[Value], &[(Name, Value)]) -> Result<bool, EvalError> + 'a {
        move |values: &[Value], witnesses: &[(Name, Value)]| {
            if self.values.contains(values) {
                return Ok(true);
            }
            let delivered = inner(values, witnesses);
            if keep && delivered.is_ok() {
                self.values.insert(values.to_vec());
            }
            delivered
        }
    }

    /// Forwards to `inner` the solutions not reported before.
    fn skipping<'a>(
        &'a self,
        inner: &'a mut Found<'_>,
    ) -> impl FnMut(&[Value], &[(Name, Value)]) -> Result<bool, EvalError> + 'a {
        move |values: &[Value], witnesses: &[(Name, Value)]| {
            if self.values.contains(values) {
                return Ok(true);
            }
            inner(values, witnesses)
        }
    }
}

/// Runs one stage until `until` (a deadline for this thread only), noting whether it reported a
/// solution. Each solution is delivered (the caller's re-check by the interpreter) under the caller's
/// own limits (`Context::as_caller`), outside the stage's share, native's probe and a lane's
/// cancellation: a re-check cut by the stage's end would count as a cut of the whole answer.
fn stage(
    ctx: &Context,
    until: Option<Instant>,
    on_solution: &mut Found<'_>,
    run: impl FnOnce(&mut Found<'_>) -> Result<bool, EvalError>,
) -> Outcome {
    let mut reported = false;
    let enclosing = ctx.stage_deadline();
    let result = ctx.with_stage_deadline(until, || {
        run(&mut |values: &[Value], witnesses: &[(Name, Value)]| {
            reported = true;
            ctx.as_caller(enclosing, || on_solution(values, witnesses))
        })
    });
    Outcome { result, reported }
}

/// A later stage's deadline: its fraction of the time left, or `FALLBACK_BUDGET` without a deadline.
fn fallback(outer: Option<Instant>, share: u32, parts: u32) -> Option<Instant> {
    share_of_time_left(outer, share, parts).or_else(|| Some(Instant::now() + FALLBACK_BUDGET))
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

#[cfg(test)]
mod tests {
    use crate::eval::Env;
    use crate::solve::smt::test_formula as formula;
    use crate::solve::{Answer, Backend, Problem, first, stream};

    fn auto(text: &str) -> Answer {
        let (ctx, vars, pred) = formula(text);
        let env = Env::new();
        ctx.set_deadline(Some(
            std::time::Instant::now() + std::time::Duration::from_secs(10),
        ));
        first(&ctx, &Problem::new(&vars, &pred, &env), Backend::Auto)
    }

    #[test]
    fn an_unsat_for_every_size_of_a_deferred_set_is_complete() {
        let smt_available = crate::solve::smt::available_for_test(
            "an_unsat_for_every_size_of_a_deferred_set_is_complete",
        );
        for text in [
            "x : S & not(x : S)",
            "f : S >-> {1} & a : S & b : S & a /= b",
            "!x.(x : S => x = a) & b : S & b /= a",
        ] {
            if smt_available {
                assert_eq!(auto(text), Answer::Unsat { complete: true }, "{text}");
            } else {
                // Without z3 only the default size is searched: never a complete Unsat.
                assert_eq!(auto(text), Answer::Unsat { complete: false }, "{text}");
            }
        }
    }

    /// Every outermost question is raced, and whichever lane wins, in whatever interleaving (native's
    /// stream completed from the lane's list, the lane's first solution stopping native, native
    /// finishing first), the answers are the oracle's: the same solutions, none repeated, and the same
    /// completeness.
    #[test]
    fn racing_lanes_give_the_oracles_answers() {
        use crate::solve::solve_all;
        for text in [
            "x : 1..6 & y : 1..6 & x + y = 7",
            "x : 1..8 & x mod 3 = 1",
            "r : 1..3 <-> 1..3 & card(r) = 2 & closure1(r) /\\ id(1..3) = {}",
            "x : 1..5 & x > 9",
            "s <: 1..4 & card(s) = 2",
            "f : 1..3 --> 1..2 & f(1) /= f(2)",
            // Native enumerates relations for ~0.1 s, SAT refutes it at once: the lane wins.
            "r : 1..4 <-> 1..4 & card(r) = 7 & closure1(r) /\\ id(1..4) = {}",
            // 70 solutions: past TAKEOVER_MIN, so that SAT's list may take over native's stream.
            "s <: 1..8 & card(s) = 4",
            // The natural loops of a graph (models/Loop.mch): native begins the stream and SAT, listing
            // all of it sooner, often completes it.
            "L <: 1..7 & e : L & g = {1|->2, 2|->3, 3|->3, 3|->4, 4|->2, 4|->5, 5|->6, 6|->6, 6|->7} & \
             g~[L - {e}] <: L & !l.(l : L => e : closure1(L <| g |> L)[{l}])",
            // 768 solutions and no relation: native's probe ends in the middle of the stream, which
            // native resumes beside the lane, skipping what the probe delivered.
            "f : 1..5 --> 1..4 & f(1) /= f(2)",
            // 3,432 subsets: SAT's probe ends in the middle of its list, which the race completes,
            // skipping what both probes delivered.
            "s <: 1..14 & card(s) = 7",
            // A free relation SAT cannot take alone (the product): its probe gives way to the race at once.
            "s <: 1..6 & card(s) = 2 & PI(x).(x : s | x) = 12",
            // Wide integers and no set: z3's lane races native alone (with z3 installed).
            "x : 0..100000 & x * x = 99980001",
            "x : 0..100000 & x * x = 99980002",
        ] {
            let (ctx, vars, pred) = formula(text);
            let env = Env::new();
            let problem = Problem::new(&vars, &pred, &env);
            let oracle = solve_all(&ctx, &problem, Backend::Brute, usize::MAX).expect("brute");
            let mut expected = oracle.solutions.clone();
            expected.sort();
            for round in 0..12 {
                ctx.set_deadline(Some(
                    std::time::Instant::now() + std::time::Duration::from_secs(20),
                ));
                let raced = solve_all(&ctx, &problem, Backend::Auto, usize::MAX).expect("auto");
                let mut got = raced.solutions.clone();
                got.sort();
                assert_eq!(got, expected, "{text}, round {round}");
                assert_eq!(raced.complete, oracle.complete, "{text}, round {round}");
                let first = solve_all(&ctx, &problem, Backend::Auto, 1).expect("auto first");
                assert_eq!(first.solutions.len(), expected.len().min(1), "{text}");
                assert!(
                    first.solutions.iter().all(|s| expected.contains(s)),
                    "{text}, round {round}"
                );
            }
        }
    }

    /// SAT's probe lists what it finds once, skipping and remembering through `Reported`, and
    /// leaves a question SAT cannot take whole to the race without listing anything.
    #[test]
    fn sats_probe_lists_each_solution_once_and_leaves_what_it_cannot_take() {
        use super::{Reported, sat_probe};
        use crate::value::Value;
        let probe = |text: &str, already: &[Vec<Value>]| {
            let (ctx, vars, pred) = formula(text);
            let env = Env::new();
            let problem = Problem::new(&vars, &pred, &env);
            let mut seen = Reported::default();
            seen.values.extend(already.iter().cloned());
            let mut listed = Vec::new();
            let outcome = sat_probe(&ctx, &problem, None, &mut seen, &mut |values, _| {
                listed.push(values.to_vec());
                Ok(true)
            });
            (outcome, listed, seen)
        };
        let subset = |xs: &[i64]| {
            vec![Value::set_from_vec(
                xs.iter().map(|&x| Value::int(x)).collect(),
            )]
        };
        let (sat, listed, seen) = probe("s <: 1..4 & card(s) = 2", &[subset(&[1, 2])]);
        assert!(matches!(sat.outcome.result, Ok(true)) && !sat.caller_stopped);
        assert_eq!(listed.len(), 5, "six subsets, one delivered before");
        assert!(!listed.contains(&subset(&[1, 2])));
        assert_eq!(seen.values.len(), 6);
        let (sat, listed, _) = probe("s <: 1..4 & card(s) = 5", &[]);
        assert!(sat.outcome.unsat() && listed.is_empty());
        let (sat, listed, _) = probe("s <: 1..6 & card(s) = 2 & PI(x).(x : s | x) = 12", &[]);
        assert!(!sat.outcome.decided() && listed.is_empty());
    }

    #[test]
    fn an_unsat_for_the_default_size_only_stays_incomplete() {
        // DEFAULT_SETSIZE is 2: no solution here, but some with three elements.
        for text in [
            "a : S & b : S & c : S & a /= b & b /= c & a /= c",
            "card(S) = 3",
            "x <: S & card(x) = 3",
            "f : 1..3 >-> S",
            // True with one element.
            "!(x, y).(x : S & y : S => x = y)",
        ] {
            assert_eq!(auto(text), Answer::Unsat { complete: false }, "{text}");
        }
    }

    #[test]
    fn a_solution_is_delivered_under_the_callers_deadline_not_the_stages() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let (ctx, _, _) = formula("x : 1..3");
        let span = ctx.machine().span;
        let mut delivered = 0;
        // The stage's share is over and a lane has cancelled it when its search reports a solution:
        // the caller's re-check still runs, under the caller's own (absent) deadline.
        let outcome = ctx.with_cancel(Arc::new(AtomicBool::new(true)), || {
            super::stage(
                &ctx,
                Some(std::time::Instant::now()),
                &mut |_, _| {
                    ctx.check_deadline(span)?;
                    delivered += 1;
                    Ok(true)
                },
                |found| {
                    assert!(
                        ctx.check_deadline(span).is_err(),
                        "the stage itself is over"
                    );
                    found(&[], &[])
                },
            )
        });
        assert!(matches!(outcome.result, Ok(true)) && outcome.reported);
        assert_eq!(delivered, 1);
    }

    #[test]
    fn no_solution_reaches_a_caller_that_asked_to_stop() {
        use super::StopLatch;
        use crate::value::Value;
        let mut calls = 0;
        let mut caller = |_: &[Value], _: &[_]| {
            calls += 1;
            Ok(calls < 2)
        };
        let mut latch = StopLatch::default();
        let answers: Vec<_> = {
            let mut guarded = latch.guarding(&mut caller);
            // A second stage or a lane delivering after the stop is answered by the latch.
            (0..4).map(|i| guarded(&[Value::int(i)], &[])).collect()
        };
        assert_eq!(answers, vec![Ok(true), Ok(false), Ok(false), Ok(false)]);
        assert_eq!(calls, 2);
    }

    #[test]
    fn a_resumed_stream_skips_the_solutions_already_reported() {
        use super::Reported;
        use crate::value::Value;
        let mut seen = Reported::default();
        let mut forwarded = Vec::new();
        {
            let mut sink = |values: &[Value], _: &[_]| {
                forwarded.push(values.to_vec());
                Ok(true)
            };
            let mut first = seen.recording(true, &mut sink);
            for i in [1, 2] {
                assert_eq!(first(&[Value::int(i)], &[]), Ok(true));
            }
        }
        {
            let mut sink = |values: &[Value], _: &[_]| {
                forwarded.push(values.to_vec());
                Ok(true)
            };
            let mut later = seen.skipping(&mut sink);
            for i in [2, 1, 3] {
                assert_eq!(later(&[Value::int(i)], &[]), Ok(true));
            }
        }
        let ints: Vec<_> = [1, 2, 3].map(|i| vec![Value::int(i)]).into();
        assert_eq!(forwarded, ints);
    }

    #[test]
    fn a_solution_whose_delivery_failed_is_reported_again_by_the_resuming_stage() {
        use super::Reported;
        use crate::value::Value;
        let mut seen = Reported::default();
        {
            // The deadline passes while the first stage's solution is being re-checked.
            let mut failing =
                |_: &[Value], _: &[_]| Err(crate::eval::timeout_error(Default::default()));
            let mut first = seen.recording(true, &mut failing);
            assert!(first(&[Value::int(1)], &[]).is_err());
        }
        let mut forwarded = Vec::new();
        {
            let mut sink = |values: &[Value], _: &[_]| {
                forwarded.push(values.to_vec());
                Ok(true)
            };
            let mut later = seen.skipping(&mut sink);
            assert_eq!(later(&[Value::int(1)], &[]), Ok(true));
        }
        assert_eq!(forwarded, vec![vec![Value::int(1)]]);
    }

    #[test]
    fn per_state_questions_stay_with_native() {
        let (ctx, vars, pred) = formula("x : S & not(x : S)");
        let env = Env::new();
        let mut problem = Problem::new(&vars, &pred, &env);
        problem.sizes_matter = false;
        let (complete, stats) =
            stream(&ctx, &problem, Backend::Auto, &mut |_| true).expect("decided");
        assert!(complete);
        assert!(!stats.any_size);
    }
}
