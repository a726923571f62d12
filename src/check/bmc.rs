//! Bounded model checking (`bsolve bmc FILE DEPTH [--deadlock]`): the transition system unrolled from the
//! INITIALISATION, constants solved symbolically with everything else (never enumerated). As ProB's `-bmc`
//! (CBC test generation with target `not INVARIANT`), the unrolling follows *operation sequences*
//! breadth-first: for each sequence op1..opk whose path is feasible,
//!
//! PROPERTIES & Init(x0) & INV(x0) & BA(op1)(x0,p0,x1) & INV(x1) & ... & BA(opk)(x(k-1),p(k-1),xk) & not INV(xk)
//!
//! or, with `--deadlock`, the same path without the invariant ending in a state where no operation is
//! enabled: a deadlock as `mc` counts one, whether or not the invariant holds on the way or there. A
//! sequence is extended only when its path
//! is satisfiable (or undecided), so infeasible prefixes prune the tree. One sequence per question, rather
//! than the disjunction of all operations at every step, keeps each question a conjunction the solver
//! propagates through (a disjunction of existentials makes the native solver enumerate the state).
//! Lengths are tried in increasing order, so the first counterexample is a shortest one; the invariant is
//! assumed on the states before the last, which only prunes (a shorter violation would have been found at
//! its own length). Every counterexample is replayed by the interpreter before it is reported.
//!
//! Deeper lengths of a machine whose transition relation translates to SAT with exact bounds are asked as
//! that relation unrolled, one SAT query per length (`Unrolling`): there the disjunction over operations
//! costs SAT nothing, and a branching machine's sequences would be thousands.

use super::Model;
use super::bmc_bits;
use super::cbc::{INCOMPLETE, Search, constant_vars, properties, require_variables, search_with};
use super::learned_route::LearnedRoute;
use super::mc::Step;
use super::progress::Event;
pub use super::transition_system::Target;
use super::transition_system::{any_operation, confirm_states, selected, target_at};
use crate::analysis::before_after::{
    self, and, copy_name, exists, or, pred_in_copy, read_write, state_copy,
};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::Env;
use crate::ir::{CompareOp, Expr, ExprKind, Machine, Pred, PredKind, TypedName};
use crate::solve::{Backend, Problem, kodkod};
use crate::value::Value;
use std::time::{Duration, Instant};

/// Where a path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// In an initial state (BMC, the base case of k-induction).
    Initialisation,
    /// In any state (the step case of k-induction); with `simple_path`, the states of the path are
    /// pairwise distinct.
    Anywhere { simple_path: bool },
}

#[derive(Clone, Debug)]
pub enum BmcOutcome {
    /// A replayed trace of `length` operations ending in a state violating the invariant (the
    /// conjuncts listed) or in a deadlock (no conjunct listed).
    Counterexample {
        length: usize,
        trace: Vec<Step>,
        violated: Vec<Span>,
        /// Every shorter length was a complete Unsat (else a shorter counterexample may exist).
        shortest: bool,
    },
    /// No counterexample up to the depth; `undecided` lists the lengths whose search was not a
    /// complete Unsat, with the reason (empty: absence proved up to the depth).
    NoCounterexample { undecided: Vec<(usize, String)> },
}

#[derive(Clone, Debug)]
pub struct BmcResult {
    pub outcome: BmcOutcome,
    pub depth: usize,
    /// The length from which paths were asked as the unrolled transition relation (SAT), not one
    /// operation sequence at a time.
    pub unrolled_from: Option<usize>,
    pub elapsed: Duration,
}

impl BmcResult {
    /// The counterexample trace, empty without one.
    pub fn trace(&self) -> &[Step] {
        match &self.outcome {
            BmcOutcome::Counterexample { trace, .. } => trace,
            BmcOutcome::NoCounterexample { .. } => &[],
        }
    }
}

/// The most feasible operation sequences kept per length: beyond, the search says UNKNOWN.
pub const MAX_SEQUENCES: usize = 4000;

/// The operations taken by a path's steps.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Steps<'a> {
    /// One given operation per step (its parameters are unknowns of the path).
    Ops(&'a [usize]),
    /// Any operation at each of this many steps: the transition relation unrolled, every step a
    /// disjunction over the operations with their parameters existentially quantified.
    Any(usize),
}

impl Steps<'_> {
    fn len(self) -> usize {
        match self {
            Steps::Ops(seq) => seq.len(),
            Steps::Any(n) => n,
        }
    }

    /// The operation of step `i`, when fixed.
    fn op(self, i: usize) -> Option<usize> {
        match self {
            Steps::Ops(seq) => Some(seq[i]),
            Steps::Any(_) => None,
        }
    }
}

/// The path of one operation sequence (or of the unrolled transition relation): its variables
/// (constants, states 0..=k, the parameters of each fixed step) and its predicate, the invariant
/// assumed on states 0..k-1 when the target is a violation of it (a shorter path ends in an earlier
/// violation). Paths to a deadlock assume nothing: mc finds deadlocks beyond a violated invariant too.
struct Path {
    vars: Vec<TypedName>,
    parts: Vec<Pred>,
    constants: usize,
    /// Per step of `Steps::Any`: the index in `vars` of the step's operation selector.
    selectors: Vec<usize>,
}

impl Path {
    fn new(m: &Machine, steps: Steps, start: Start, target: Target) -> Result<Path, Diagnostic> {
        let consts = constant_vars(m);
        let constants = consts.len();
        let mut selectors = Vec::new();
        let mut vars = consts;
        let mut parts = vec![properties(m)];
        match start {
            Start::Initialisation => parts.push(before_after::initialisation(m, 0)?),
            Start::Anywhere { simple_path: true } => parts.extend(pairwise_distinct(m, steps)),
            Start::Anywhere { simple_path: false } => {}
        }
        for i in 0..=steps.len() {
            vars.extend(state_copy(m, i));
        }
        for i in 0..steps.len() {
            if target == Target::InvariantViolation {
                parts.push(pred_in_copy(m, &m.invariant, i));
            }
            match steps.op(i) {
                Some(op) => {
                    let t = before_after::operation(m, &m.operations[op], i, i + 1)?;
                    vars.extend(t.params);
                    parts.push(exists(t.outputs, t.pred, m.operations[op].span));
                }
                None => {
                    let (step, selector) = any_operation(m, i, i + 1)?;
                    selectors.push(vars.len());
                    vars.push(selector);
                    parts.push(step);
                }
            }
        }
        Ok(Path {
            vars,
            parts,
            constants,
            selectors,
        })
    }

    /// The operation a `Steps::Any` step took in a solution, from its selector.
    fn operation(&self, values: &[Value], i: usize) -> Option<usize> {
        let v = values.get(*self.selectors.get(i)?)?;
        selected(v)
    }

    fn state<'v>(&self, m: &Machine, values: &'v [Value], i: usize) -> &'v [Value] {
        let n = m.variables.len();
        &values[self.constants + i * n..self.constants + (i + 1) * n]
    }

    fn with_target(&self, m: &Machine, last: Option<Pred>) -> Pred {
        let mut parts = self.parts.clone();
        parts.extend(last);
        and(parts, m.span)
    }

    fn search(self, model: &Model, last: Option<Pred>, backend: Backend) -> (Self, Search) {
        let pred = self.with_target(model.machine(), last);
        let found = search_with(model, backend, &self.vars, &pred, &Env::new());
        (self, found)
    }
}

/// States 0..=k of the path of `seq` pairwise distinct: for i < j, some variable differs between copies i
/// and j. Only the variables an operation between them writes can differ (the others are equal by the
/// frame conditions); when there is none, the states are equal and the conjunct is FALSE.
fn pairwise_distinct(m: &Machine, steps: Steps) -> Vec<Pred> {
    let writes_of = |op: &crate::ir::Operation| read_write(m, op).writes;
    let writes: Vec<_> = (0..steps.len())
        .map(|i| match steps.op(i) {
            Some(op) => writes_of(&m.operations[op]),
            None => m.operations.iter().flat_map(writes_of).collect(),
        })
        .collect();
    let mut parts = Vec::new();
    for i in 0..steps.len() {
        let mut written = std::collections::BTreeSet::new();
        for j in i + 1..=steps.len() {
            written.extend(writes[j - 1].iter().cloned());
            let differ = m
                .variables
                .iter()
                .filter(|v| written.contains(&v.name))
                .map(|v| {
                    let copy =
                        |k| Expr::new(ExprKind::Var(copy_name(&v.name, k)), v.ty.clone(), v.span);
                    Pred::new(
                        PredKind::Compare(CompareOp::NotEq, Box::new(copy(i)), Box::new(copy(j))),
                        v.span,
                    )
                })
                .collect();
            parts.push(or(differ, m.span));
        }
    }
    parts
}

/// What the target check of one sequence gave.
pub(crate) enum SequenceResult {
    /// A replayed trace and the violated invariant conjuncts (none for a deadlock).
    Counterexample(Vec<Step>, Vec<Span>),
    /// A solution (not replayed: the step case of k-induction starts anywhere).
    Solution,
    None,
    Undecided(String),
}

/// Whether the path of `steps` ends in the target.
pub(crate) fn check_target(
    model: &Model,
    steps: Steps,
    start: Start,
    target: Target,
) -> Result<SequenceResult, Diagnostic> {
    check_target_with(
        model,
        steps,
        start,
        target,
        model.context.settings().backend,
    )
}

/// `check_target` with the given backend.
pub(crate) fn check_target_with(
    model: &Model,
    steps: Steps,
    start: Start,
    target: Target,
    backend: Backend,
) -> Result<SequenceResult, Diagnostic> {
    let m = model.machine();
    let k = steps.len();
    let last = Some(target_at(m, target, k)?);
    let (path, found) = Path::new(m, steps, start, target)?.search(model, last, backend);
    Ok(match found {
        Search::Found(_) if start != Start::Initialisation => SequenceResult::Solution,
        Search::Found(values) => match confirm(model, &path, &values, steps, target) {
            Ok((trace, violated)) => SequenceResult::Counterexample(trace, violated),
            Err(why) => SequenceResult::Undecided(format!(
                "counterexample not confirmed by the interpreter: {why}"
            )),
        },
        Search::Empty { complete: true } => SequenceResult::None,
        Search::Empty { complete: false } => SequenceResult::Undecided(INCOMPLETE.into()),
        Search::Unknown(r) => SequenceResult::Undecided(r),
    })
}

/// Replays the solution's trace and checks its last state is what was asked.
fn confirm(
    model: &Model,
    path: &Path,
    values: &[Value],
    steps: Steps,
    target: Target,
) -> Result<(Vec<Step>, Vec<Span>), String> {
    let m = model.machine();
    let states: Vec<&[Value]> = (0..=steps.len())
        .map(|i| path.state(m, values, i))
        .collect();
    let ops: Vec<Option<usize>> = (0..steps.len())
        .map(|i| steps.op(i).or_else(|| path.operation(values, i)))
        .collect();
    confirm_states(model, &values[..path.constants], &states, &ops, target)
}

/// The one-operation extensions of `frontier` whose paths from the INITIALISATION (for `target`, as
/// `Path::new` builds them) are satisfiable or undecided; `Err` with a reason when there are more than
/// `MAX_SEQUENCES`.
fn extend(
    model: &Model,
    frontier: &[Vec<usize>],
    target: Target,
    route: &mut LearnedRoute,
) -> Result<Result<Vec<Vec<usize>>, String>, Diagnostic> {
    let m = model.machine();
    let mut next = Vec::new();
    for seq in frontier {
        if let Err(e) = model.context.check_deadline(m.span) {
            return Ok(Err(e.to_string()));
        }
        for op in 0..m.operations.len() {
            let mut s = seq.clone();
            s.push(op);
            let path = Path::new(m, Steps::Ops(&s), Start::Initialisation, target)?;
            let pred = path.with_target(m, None);
            let found = route.ask(
                &model.context,
                |backend| search_with(model, backend, &path.vars, &pred, &Env::new()),
                |found| matches!(found, Search::Found(_) | Search::Empty { complete: true }),
            );
            if !matches!(found, Search::Empty { complete: true }) {
                next.push(s);
                if next.len() > MAX_SEQUENCES {
                    return Ok(Err(format!(
                        "more than {MAX_SEQUENCES} feasible operation sequences of length {}",
                        seq.len() + 1
                    )));
                }
            }
        }
    }
    Ok(Ok(next))
}

/// Paths of up to this many operations are asked one operation sequence at a time while the feasible
/// sequences are at most `UNROLL_BEYOND`: most violations are that shallow, and a question about one
/// sequence costs less than translating the whole relation to SAT (VerySimpleCounterWrong: 2 ms against
/// 250 ms for the relation over 26-bit integers).
const SEQUENCE_LENGTHS: usize = 2;

/// See `SEQUENCE_LENGTHS`.
const UNROLL_BEYOND: usize = 32;

/// The length from which paths are searched over bits (`Unrolling::search_bits`): the shorter ones
/// cost little one operation sequence at a time.
const BITS_FROM: usize = 2;

/// What the check of every path of one length gave.
pub(crate) enum LengthResult {
    /// A replayed trace and the violated invariant conjuncts (none for a deadlock).
    Counterexample(Vec<Step>, Vec<Span>),
    /// No path of this length ends in the target: complete Unsats.
    None,
    /// Some path's question was not decided (the reason of one of them).
    Undecided(String),
}

impl LengthResult {
    /// The verdict in a few words, for progress lines.
    pub(crate) fn summary(&self) -> String {
        match self {
            LengthResult::Counterexample(..) => "counterexample".to_string(),
            LengthResult::None => "none (complete)".to_string(),
            LengthResult::Undecided(why) => format!("undecided: {why}"),
        }
    }
}

/// What extending the paths by one operation gave.
pub(crate) enum Advance {
    /// Paths of the next length may exist.
    Paths,
    /// No path of the next length exists (complete Unsats for every extension).
    NoPath,
    /// The next length cannot be searched (the reason).
    GiveUp(String),
}

/// The paths from the INITIALISATION of increasing length: BMC and the base case of k-induction.
///
/// When the transition relation unrolled over one step translates to SAT with exact bounds (every
/// integer's range bounded by the interval analysis, no cut of an infinite type, so that SAT's Unsat is
/// complete), each length beyond the first `SEQUENCE_LENGTHS` is one SAT query over the relation unrolled — the classical bounded
/// model checking of Biere, Cimatti, Clarke & Zhu (1999): a branching machine (Bakery, 20 steps deep:
/// thousands of feasible operation sequences) is one query per length. Otherwise paths are asked one
/// operation sequence at a time (the module documentation says why), the feasible sequences of a length
/// extended to the next. Length 0 (the initial states) is always asked as the empty sequence.
pub(crate) struct Unrolling {
    /// The length whose paths `check` asks.
    length: usize,
    /// The feasible operation sequences of that length; `None` once the relation is unrolled.
    sequences: Option<Vec<Vec<usize>>>,
    /// The first length asked as the unrolled relation.
    unrolled_from: Option<usize>,
    /// Whether the relation translates exactly (`unrollable`), once asked.
    unrollable: Option<bool>,
    /// What the paths should end in.
    target: Target,
    /// The longest paths asked for.
    max_length: usize,
    /// Whether the search over bits (`search_bits`) was made.
    bits_searched: bool,
    /// What it found, for `check` to report.
    found: Option<bmc_bits::Found>,
    /// The backend of the per-sequence questions under `auto` (`LearnedRoute`).
    route: LearnedRoute,
}

impl Unrolling {
    /// Paths of up to `max_length` operations ending in `target`.
    pub(crate) fn new(max_length: usize, target: Target) -> Self {
        Unrolling {
            length: 0,
            sequences: Some(vec![vec![]]),
            unrolled_from: None,
            unrollable: None,
            target,
            max_length,
            bits_searched: false,
            found: None,
            route: LearnedRoute::default(),
        }
    }

    pub(crate) fn length(&self) -> usize {
        self.length
    }

    /// Whether the paths are asked as the unrolled transition relation.
    pub(crate) fn unrolled(&self) -> bool {
        self.sequences.is_none()
    }

    /// Whether the transition relation from the INITIALISATION translates exactly (`unrollable`,
    /// asked once): the paths are then asked as the unrolled relation once they are many.
    pub(crate) fn exact(&mut self, model: &Model) -> bool {
        exact(&mut self.unrollable, model, self.target)
    }

    /// The first length asked as the unrolled transition relation.
    pub(crate) fn unrolled_from(&self) -> Option<usize> {
        self.unrolled_from
    }

    /// Checks every path of the current length for the target (after a violation found over bits,
    /// that violation: `length()` is then its length).
    pub(crate) fn check(&mut self, model: &Model) -> Result<LengthResult, Diagnostic> {
        let span = model.machine().span;
        let target = self.target;
        if let Some((length, trace, violated)) = self.found.take() {
            self.length = length;
            return Ok(LengthResult::Counterexample(trace, violated));
        }
        let Some(sequences) = &self.sequences else {
            if let Err(e) = model.context.check_deadline(span) {
                return Ok(LengthResult::Undecided(e.to_string()));
            }
            let steps = Steps::Any(self.length);
            return Ok(
                match check_target_with(
                    model,
                    steps,
                    Start::Initialisation,
                    target,
                    Backend::Kodkod,
                )? {
                    SequenceResult::Counterexample(trace, violated) => {
                        LengthResult::Counterexample(trace, violated)
                    }
                    SequenceResult::None | SequenceResult::Solution => LengthResult::None,
                    SequenceResult::Undecided(why) => LengthResult::Undecided(why),
                },
            );
        };
        let mut result = LengthResult::None;
        for seq in sequences {
            if let Err(e) = model.context.check_deadline(span) {
                return Ok(LengthResult::Undecided(e.to_string()));
            }
            let answer = self.route.ask(
                &model.context,
                |backend| {
                    check_target_with(
                        model,
                        Steps::Ops(seq),
                        Start::Initialisation,
                        target,
                        backend,
                    )
                },
                |answer| !matches!(answer, Ok(SequenceResult::Undecided(_))),
            );
            match answer? {
                SequenceResult::Counterexample(trace, violated) => {
                    return Ok(LengthResult::Counterexample(trace, violated));
                }
                SequenceResult::None | SequenceResult::Solution => {}
                SequenceResult::Undecided(why) => {
                    if matches!(result, LengthResult::None) {
                        result = LengthResult::Undecided(why);
                    }
                }
            }
        }
        Ok(result)
    }

    /// Once, before the paths reach length `BITS_FROM` while they are asked one operation sequence at
    /// a time and the relation has no exact translation: a search for a violation over bits
    /// (`bmc_bits`) of all lengths from `BITS_FROM` up to the longest, with half the time left. A deep
    /// violation on a branching machine is found there in a few SAT queries (finding the feasible
    /// sequences of the next length alone can take longer); what it does not find, the sequences
    /// still settle. `advance` asks it on the way to length `BITS_FROM`, k-induction earlier
    /// (`search_ahead`).
    fn search_bits(&mut self, model: &Model) -> Option<bmc_bits::Found> {
        if self.bits_searched
            || self.length >= BITS_FROM
            || self.sequences.is_none()
            || self.max_length < BITS_FROM
        {
            return None;
        }
        self.bits_searched = true;
        if self.exact(model) {
            return None;
        }
        let until = crate::eval::share_of_time_left(model.context.deadline(), 1, 2);
        bmc_bits::search(model, self.target, BITS_FROM, self.max_length, until).ok()
    }

    /// The search over bits (`search_bits`) now, whatever the current length: k-induction asks it
    /// before its step cases spend their share of the time. A violation found is not the shortest
    /// one necessarily.
    pub(crate) fn search_ahead(&mut self, model: &Model) -> Option<(Vec<Step>, Vec<Span>)> {
        self.search_bits(model)
            .map(|(_, trace, violated)| (trace, violated))
    }

    /// Moves on to the paths one operation longer.
    pub(crate) fn advance(&mut self, model: &Model) -> Result<Advance, Diagnostic> {
        if self.length + 1 == BITS_FROM
            && let Some(found) = self.search_bits(model)
        {
            self.found = Some(found);
            self.length += 1;
            return Ok(Advance::Paths);
        }
        let Some(sequences) = &self.sequences else {
            self.length += 1;
            return Ok(Advance::Paths);
        };
        let next = if self.length < SEQUENCE_LENGTHS {
            Some(extend(model, sequences, self.target, &mut self.route)?)
        } else {
            None
        };
        let few = matches!(&next, Some(Ok(n)) if n.len() <= UNROLL_BEYOND);
        // The relation is unrolled from the next length on when it translates exactly over one step
        // and over that length too.
        if !few
            && exact(&mut self.unrollable, model, self.target)
            && unrollable_over(model, Start::Initialisation, self.target, self.length + 1)
        {
            self.sequences = None;
            self.unrolled_from = Some(self.length + 1);
        } else {
            let next = match next {
                Some(next) => next,
                None => extend(model, sequences, self.target, &mut self.route)?,
            };
            match next {
                Ok(next) if next.is_empty() => return Ok(Advance::NoPath),
                Ok(next) => self.sequences = Some(next),
                Err(why) => return Ok(Advance::GiveUp(why)),
            }
        }
        self.length += 1;
        Ok(Advance::Paths)
    }
}

/// Whether the one-step unrolled relation from `start` translates to SAT with exact bounds, with a
/// backend that may hand it to SAT (`auto` or `kodkod`).
pub(crate) fn unrollable(model: &Model, start: Start, target: Target) -> bool {
    unrollable_over(model, start, target, 1)
}

/// `unrollable` over `steps` steps: bounds exact for one step may cut a longer path (a counter that
/// only the invariant bounds passes MAXINT after enough increments when the path to a deadlock does not
/// assume the invariant).
fn unrollable_over(model: &Model, start: Start, target: Target, steps: usize) -> bool {
    let m = model.machine();
    if !matches!(
        model.context.settings().backend,
        Backend::Auto | Backend::Kodkod
    ) || m.operations.is_empty()
    {
        return false;
    }
    let Ok(path) = Path::new(m, Steps::Any(steps), start, target) else {
        return false;
    };
    let Ok(target) = target_at(m, target, steps) else {
        return false;
    };
    let pred = path.with_target(m, Some(target));
    let env = Env::new();
    let problem = Problem::new(&path.vars, &pred, &env);
    matches!(
        kodkod::check_translation(&model.context, &problem),
        Ok(true)
    )
}

/// `unrollable` from the INITIALISATION, asked once and kept in `cache` (a field of `Unrolling`, so
/// that it can be asked while the paths are borrowed).
fn exact(cache: &mut Option<bool>, model: &Model, target: Target) -> bool {
    *cache.get_or_insert_with(|| unrollable(model, Start::Initialisation, target))
}

/// `bsolve bmc FILE DEPTH`: paths of 0..=depth operations.
pub fn bmc(model: &Model, depth: usize, target: Target) -> Result<BmcResult, Diagnostic> {
    bmc_with_events(model, depth, target, &mut |_| {})
}

/// `bmc`, saying each length as it is asked and its verdict as soon as it is known.
pub fn bmc_with_events(
    model: &Model,
    depth: usize,
    target: Target,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<BmcResult, Diagnostic> {
    require_variables(model)?;
    if depth == 0 {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            "bmc: DEPTH must be a positive number of operations",
        ));
    }
    let start = Instant::now();
    let mut undecided: Vec<(usize, String)> = Vec::new();
    let mut paths = Unrolling::new(depth, target);
    loop {
        let k = paths.length();
        let asked = Instant::now();
        on_event(Event::Asking(&format!("length {k} of {depth}")));
        let verdict = paths.check(model)?;
        on_event(Event::Done(&format!(
            "length {k}: {} ({} ms)",
            verdict.summary(),
            asked.elapsed().as_millis()
        )));
        match verdict {
            LengthResult::Counterexample(trace, violated) => {
                // Found over bits beyond this length, it is the shortest within the encoding only.
                let length = paths.length();
                return Ok(BmcResult {
                    outcome: BmcOutcome::Counterexample {
                        length,
                        trace,
                        violated,
                        shortest: length == k && undecided.iter().all(|(l, _)| *l >= k),
                    },
                    depth,
                    unrolled_from: paths.unrolled_from(),
                    elapsed: start.elapsed(),
                });
            }
            LengthResult::None => {}
            LengthResult::Undecided(why) => undecided.push((k, why)),
        }
        if k == depth {
            break;
        }
        // The budget spent before the longer paths were asked: they are undecided, not absent.
        if let Err(e) = model.context.check_deadline(model.machine().span) {
            undecided.push((k + 1, e.to_string()));
            break;
        }
        match paths.advance(model)? {
            Advance::Paths => {}
            Advance::NoPath => break,
            Advance::GiveUp(why) => {
                undecided.push((k + 1, why));
                break;
            }
        }
    }
    Ok(BmcResult {
        outcome: BmcOutcome::NoCounterexample { undecided },
        depth,
        unrolled_from: paths.unrolled_from(),
        elapsed: start.elapsed(),
    })
}
