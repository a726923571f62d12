//! IC3 / PDR (`bsolve ic3 FILE [--max-frames N]`): proves the INVARIANT for all reachable states by
//! building an inductive strengthening of it, or finds a reachable violation (Bradley's IC3 in the
//! formulation of Eén, Mishchenko & Brayton).
//!
//! Frames: F_0 = INIT; F_i (i >= 1) = INV & not c for every blocked cube c of level >= i (a cube blocked
//! at level j holds in F_1..F_j: the "delta" encoding). A cube is a conjunction of `x = value` over the
//! state variables, the values taken from a solver model. Bad states are found as successors of the
//! frontier, `F_k & BA(op) & not INV'`; each before-state becomes a proof obligation, blocked by the
//! relative-induction query `F_(i-1) & not c & BA(op) & c'` (one query per operation, as `bmc` asks, so
//! that each is a conjunction the solver propagates through). A satisfiable query gives a predecessor
//! (a new obligation one frame lower; at frame 0 it is an initial state and the chain is a
//! counterexample); an unsatisfiable one blocks the cube, first generalised by dropping literals while
//! the query (and `INIT & c`) stays a complete Unsat, then pushed to the highest frame where it still is
//! relatively inductive. After each frontier is cleared, cubes are propagated forward; when a level
//! becomes empty, F_i = F_(i+1) is an inductive invariant implying INV.
//!
//! A proof rests on *complete* Unsats only. An incomplete one (a search cut by MININT..MAXINT or by
//! default deferred-set sizes) is still taken as "no solution", so that the search goes on looking for
//! counterexamples (which are replayed, hence real whatever the frames were), but the run is then marked
//! bounded and cannot end in a proof: convergence is reported as UNKNOWN. The
//! invariant found is printed as a B predicate (INVARIANT & not(x = v & ...) & ...), parsed back and
//! re-checked by CBC (`cbc::invariant_preservation_of`, the check behind `bsolve cbc --invariant`)
//! before it is reported; a counterexample is replayed by the interpreter, as BMC's are.
//!
//! On a machine with constants, a violation in an initial state or after one operation is first looked
//! for with the constants solved symbolically (one query per operation, as `bmc` asks). Then constants
//! are solved: all constant setups (PROPERTIES), at most MAX_INITIALISATIONS of them,
//! each with its own run; a proof for several setups is the disjunction of the per-setup invariants,
//! each guarded by its constants' values. When the setups are more than MAX_INITIALISATIONS (or their
//! enumeration is incomplete), a proof is UNKNOWN; counterexamples are still found.
//!
//! With the `auto` and `kodkod` backends, IC3 over the SAT encoding's state bits (`ic3::sat`: one
//! incremental solver, cubes of bits, constants symbolic) runs first; this module's cubes of values,
//! whose queries go through `solve::` and so work with any backend, take what it cannot decide (a
//! relation that does not translate, a proof CBC does not confirm).

use super::Model;
use super::bmc::{SequenceResult, Start, Steps, check_target, unrollable};
use super::cbc::{
    self, CbcOutcome, INCOMPLETE, NO_WELL_DEFINED, Search, constant_vars, require_variables,
    search_with,
};
use super::explicit_search;
use super::mc::Step;
use super::transition_system::{Target, any_operation, confirm_states, selected};
use crate::analysis::before_after::{self, and, copy_name, pred_in_copy, state_copy};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::eval::Env;
use crate::ir::{CompareOp, Expr, ExprKind, Machine, Pred, PredKind, TypedName};
use crate::solve::{self, Backend};
use crate::syntax::ast::Name;
use crate::value::Value;
use crate::value::display::display_with_type;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

mod sat;

#[derive(Clone, Debug)]
pub enum Ic3Outcome {
    /// The invariant holds in every reachable state: `invariant` (a B predicate over the constants and
    /// variables, INVARIANT included) is established by the INITIALISATION and preserved by every
    /// operation, as re-checked by CBC.
    Proved {
        invariant: String,
        /// The frame that converged (largest over the constant setups).
        frame: usize,
        /// Blocked cubes in the invariant.
        lemmas: usize,
    },
    /// A replayed trace from the INITIALISATION to a state violating the invariant.
    Counterexample {
        trace: Vec<Step>,
        violated: Vec<Span>,
    },
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct Ic3Result {
    pub outcome: Ic3Outcome,
    pub max_frames: usize,
    /// Constant setups checked (1 for a machine without constants).
    pub setups: usize,
    /// Solver questions asked.
    pub queries: usize,
    /// The verdict came from IC3 over the SAT encoding's state bits (`ic3::sat`; constants symbolic,
    /// `setups` 0), not from cubes of values.
    pub over_bits: bool,
    /// The counterexample came from the breadth-first search of concrete states (`explicit_search`)
    /// asked before the cubes of values.
    pub explicit_search: bool,
    pub elapsed: Duration,
}

impl Ic3Result {
    /// The counterexample trace, empty without one.
    pub fn trace(&self) -> &[Step] {
        match &self.outcome {
            Ic3Outcome::Counterexample { trace, .. } => trace,
            Ic3Outcome::Proved { .. } | Ic3Outcome::Unknown(_) => &[],
        }
    }
}

/// Blocked cubes at most (all frames, one setup): cubes of values converge only on finite state
/// spaces; beyond this the run is UNKNOWN rather than endless when no --timeout is given.
pub const MAX_CUBES: usize = 20_000;

/// A conjunction of `variable = value`, by variable index, sorted.
type Cube = Vec<(usize, Value)>;

/// An operation (by index; `None` when found through the one-step relation, the replay then finds the
/// operation) with its before- and after-state.
type Transition = (Option<usize>, Vec<Value>, Vec<Value>);

/// A predecessor state and the operation leading from it (`None`: found through the one-step relation,
/// the replay finds the operation).
type Predecessor = (Option<usize>, Vec<Value>);

/// A proof obligation's state: a full assignment of the variables, and the operation leading to the
/// next state of its path to a bad state (none for the bad state itself).
struct Node {
    state: Vec<Value>,
    next: Option<(Option<usize>, usize)>,
}

/// How one setup's run ended.
pub(super) enum Run {
    Proved { lemmas: Vec<Cube>, frame: usize },
    Counterexample(Vec<Step>, Vec<Span>),
    Unknown(String),
}

/// What a query gave; `Unsat` also for an incomplete Unsat, which marks the run bounded.
enum Q {
    Sat(Vec<Value>),
    Unsat,
    Stop(String),
}

pub fn ic3(model: &Model, max_frames: usize) -> Result<Ic3Result, Diagnostic> {
    require_variables(model)?;
    if max_frames == 0 {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            Span::default(),
            "ic3: --max-frames must be at least 1",
        ));
    }
    let start = Instant::now();
    let m = model.machine();
    let mut queries = 0;
    let result = |outcome, setups, queries| Ic3Result {
        outcome,
        max_frames,
        setups,
        queries,
        over_bits: false,
        explicit_search: false,
        elapsed: start.elapsed(),
    };
    // Over bits first, when the step may go to SAT; what it cannot decide, cubes of values try.
    let mut over_bits_failed = None;
    if matches!(
        model.context.settings().backend,
        Backend::Auto | Backend::Kodkod
    ) && !m.operations.is_empty()
    {
        match sat::run(model, max_frames) {
            Ok((outcome, queries)) => {
                return Ok(Ic3Result {
                    over_bits: true,
                    ..result(outcome, 0, queries)
                });
            }
            Err(why) => over_bits_failed = Some(why),
        }
    }
    if !constant_vars(m).is_empty()
        && let Some(counterexample) = shallow_violation(model)?
    {
        return Ok(result(counterexample, 0, m.operations.len() + 1));
    }
    // Cubes of values block one concrete state at a time and their predecessor questions may be
    // non-linear and unbounded: then concrete states breadth-first, with an eighth of the time left
    // (B/Demo/countdown.mch: IC3's first frame never settles, 18,000 states reach the violation; see
    // `explicit_search`).
    if let Some((trace, violated)) = explicit_search::violation_in_share(model) {
        return Ok(Ic3Result {
            explicit_search: true,
            ..result(Ic3Outcome::Counterexample { trace, violated }, 0, 0)
        });
    }
    let (setups, all_setups) = match constant_setups(model) {
        Ok(s) => s,
        Err(why) => return Ok(result(Ic3Outcome::Unknown(why), 0, 0)),
    };
    if setups.is_empty() {
        let why = if all_setups {
            "PROPERTIES has no solution: no state is reachable".to_string()
        } else {
            format!("no constant setup found: {INCOMPLETE}")
        };
        return Ok(result(Ic3Outcome::Unknown(why), 0, 0));
    }
    let mut proofs = Vec::new();
    let mut unknown = None;
    let unrolled = unrollable(
        model,
        Start::Anywhere { simple_path: false },
        Target::InvariantViolation,
    );
    for constants in &setups {
        let mut pdr = match Pdr::new(model, constants, max_frames, unrolled) {
            Ok(p) => p,
            Err(d) if d.kind == DiagKind::Unsupported => {
                return Ok(result(Ic3Outcome::Unknown(d.to_string()), setups.len(), 0));
            }
            Err(d) => return Err(d),
        };
        let run = pdr.run()?;
        queries += pdr.queries;
        match run {
            Run::Proved { lemmas, frame } => proofs.push((constants, lemmas, frame)),
            Run::Counterexample(trace, violated) => {
                return Ok(result(
                    Ic3Outcome::Counterexample { trace, violated },
                    setups.len(),
                    queries,
                ));
            }
            Run::Unknown(why) => {
                unknown.get_or_insert(why);
            }
        }
    }
    let outcome = if let Some(why) = unknown {
        Ic3Outcome::Unknown(why)
    } else if !all_setups {
        Ic3Outcome::Unknown(format!(
            "proved for the {} constant setups found, but PROPERTIES may have more (MAX_INITIALISATIONS \
             or a bounded enumeration)",
            setups.len()
        ))
    } else {
        let invariant = invariant_text(m, &proofs);
        match recheck(model, &invariant) {
            Ok(()) => Ic3Outcome::Proved {
                invariant,
                frame: proofs.iter().map(|p| p.2).max().unwrap_or(0),
                lemmas: proofs.iter().map(|p| p.1.len()).sum(),
            },
            Err(why) => Ic3Outcome::Unknown(format!(
                "internal: the invariant found is not re-checked by CBC ({why}): {invariant}"
            )),
        }
    };
    let outcome = match (outcome, over_bits_failed) {
        (Ic3Outcome::Unknown(why), Some(bits)) => {
            Ic3Outcome::Unknown(format!("{why}; over bits: {bits}"))
        }
        (outcome, _) => outcome,
    };
    Ok(result(outcome, setups.len(), queries))
}

/// IC3's first two checks (a violation in an initial state, or after one operation) asked once with the
/// constants solved symbolically, as `bmc` asks them, before the constants are enumerated: the
/// per-setup runs below block bad states one cube of values at a time, which on a machine with
/// hundreds of constant setups never reaches a violation that a single query finds. Only a replayed
/// counterexample is taken from here; anything else leaves the question to the runs.
fn shallow_violation(model: &Model) -> Result<Option<Ic3Outcome>, Diagnostic> {
    let ops = model.machine().operations.len();
    let sequences = std::iter::once(vec![]).chain((0..ops).map(|op| vec![op]));
    for seq in sequences {
        let found = check_target(
            model,
            Steps::Ops(&seq),
            Start::Initialisation,
            Target::InvariantViolation,
        )?;
        if let SequenceResult::Counterexample(trace, violated) = found {
            return Ok(Some(Ic3Outcome::Counterexample { trace, violated }));
        }
    }
    Ok(None)
}

/// The constant setups, at most MAX_INITIALISATIONS, and whether they are all of them.
fn constant_setups(model: &Model) -> Result<(Vec<Vec<Value>>, bool), String> {
    let m = model.machine();
    let consts = constant_vars(m);
    if consts.is_empty() {
        return Ok((vec![vec![]], true));
    }
    let ctx = &model.context;
    // MAX_INITIALISATIONS = 0 (ProB: the model checker computes no initial state, as symbolic
    // model-checking examples set it) would leave nothing to check: one setup at least.
    let limit = ctx.settings().max_initialisations.max(1);
    // As the model checker sets them up: constants kept symbolic are bound, not searched for.
    let found = ctx
        .setup_constants(limit, solve::Symmetry::Expanded)
        .map_err(|e| format!("setting up the constants: {e}"))?;
    Ok((found.solutions, found.complete))
}

/// INVARIANT & the blocked cubes, negated; with several constant setups, a disjunction over them.
fn invariant_text(m: &Machine, proofs: &[(&Vec<Value>, Vec<Cube>, usize)]) -> String {
    let consts = constant_vars(m);
    let inv: Vec<String> = m
        .invariant
        .conjuncts()
        .into_iter()
        .map(|c| format!("({})", super::unsat_core::source_text(c.span)))
        .collect();
    let lemmas = |cubes: &[Cube]| -> Vec<String> {
        cubes
            .iter()
            .map(|c| format!("not({})", cube_text(m, c)))
            .collect()
    };
    let mut parts = inv;
    if let [(_, cubes, _)] = proofs {
        parts.extend(lemmas(cubes));
    } else {
        let cases: Vec<String> = proofs
            .iter()
            .map(|(values, cubes, _)| {
                let mut case: Vec<String> = consts
                    .iter()
                    .zip(values.iter())
                    .map(|(c, v)| format!("{} = {}", c.name, display_with_type(v, &c.ty)))
                    .collect();
                case.extend(lemmas(cubes));
                format!("({})", case.join(" & "))
            })
            .collect();
        parts.push(format!("({})", cases.join(" or ")));
    }
    parts.join(" & ")
}

fn cube_text(m: &Machine, cube: &Cube) -> String {
    cube.iter()
        .map(|(i, v)| {
            let x = &m.variables[*i];
            format!("{} = {}", x.name, display_with_type(v, &x.ty))
        })
        .collect::<Vec<_>>()
        .join(" & ")
}

/// Parses the printed invariant back and has CBC check it is established and preserved.
pub(super) fn recheck(model: &Model, invariant: &str) -> Result<(), String> {
    let checks = cbc::invariant_preservation_of(model, None, Some(invariant), &mut |_| {})
        .map_err(|d| d.to_string())?;
    for c in checks {
        match c.outcome {
            CbcOutcome::Preserved | CbcOutcome::Untouched => {}
            CbcOutcome::Violated(_) => return Err(format!("{} violates it", c.operation)),
            CbcOutcome::Unknown(why) => return Err(format!("{}: {why}", c.operation)),
        }
    }
    Ok(())
}

/// One run of PDR for fixed constants.
struct Pdr<'a> {
    model: &'a Model,
    m: &'a Machine,
    constants: &'a [Value],
    max_frames: usize,
    /// The constants and the cubes' values, each value bound to a name `x@v<n>`.
    env: Env,
    literals: FxHashMap<(usize, Value), Name>,
    x0: Vec<TypedName>,
    init0: Pred,
    inv0: Pred,
    not_inv1: Pred,
    /// Per operation: BA from copy 0 to copy 1 and its variables (state 0, parameters, outputs,
    /// state 1).
    ops: Vec<(Pred, Vec<TypedName>)>,
    /// When the one-step transition relation translates to SAT with exact bounds
    /// (`bmc::unrollable`): the relation (some operation from copy 0 to copy 1) and its variables (states
    /// 0 and 1, the operation selector). Each step query is then one SAT query instead of one query per operation, and the
    /// negated cubes of the frames are clauses rather than constraints the native solver checks late.
    relation: Option<(Pred, Vec<TypedName>)>,
    /// The user's backend, for the other queries.
    backend: Backend,
    /// `lemmas[i]`: cubes blocked at level i (index 0 unused: F_0 is INIT).
    lemmas: Vec<Vec<Cube>>,
    nodes: Vec<Node>,
    queries: usize,
    /// Some "no solution" was an incomplete Unsat: no proof.
    bounded: bool,
    /// Cubes blocked so far (see MAX_CUBES).
    cubes: usize,
}

impl<'a> Pdr<'a> {
    /// `unrolled`: the one-step relation translates to SAT with exact bounds (`bmc::unrollable`).
    fn new(
        model: &'a Model,
        constants: &'a [Value],
        max_frames: usize,
        unrolled: bool,
    ) -> Result<Self, Diagnostic> {
        let m = model.machine();
        let env = model.context.constants_env(constants)?;
        let x0 = state_copy(m, 0);
        let x1 = state_copy(m, 1);
        let mut ops = Vec::new();
        for op in &m.operations {
            let t = before_after::operation(m, op, 0, 1)?;
            let vars = x0
                .iter()
                .chain(&t.params)
                .chain(&t.outputs)
                .chain(&x1)
                .cloned()
                .collect();
            ops.push((t.pred, vars));
        }
        let relation = if unrolled {
            let (step, selector) = any_operation(m, 0, 1)?;
            let vars = x0.iter().chain(&x1).cloned().chain([selector]).collect();
            Some((step, vars))
        } else {
            None
        };
        Ok(Pdr {
            model,
            m,
            constants,
            max_frames,
            env,
            literals: FxHashMap::default(),
            init0: before_after::initialisation(m, 0)?,
            inv0: pred_in_copy(m, &m.invariant, 0),
            not_inv1: cbc::not(pred_in_copy(m, &m.invariant, 1)),
            x0,
            ops,
            relation,
            backend: model.context.settings().backend,
            lemmas: vec![vec![], vec![]],
            nodes: Vec::new(),
            queries: 0,
            bounded: false,
            cubes: 0,
        })
    }

    fn ask(&mut self, backend: Backend, vars: &[TypedName], pred: &Pred) -> Q {
        if let Err(e) = self.model.context.check_deadline(self.m.span) {
            return Q::Stop(e.to_string());
        }
        self.queries += 1;
        match search_with(self.model, backend, vars, pred, &self.env) {
            Search::Found(values) => Q::Sat(values),
            Search::Empty { complete: true } => Q::Unsat,
            Search::Empty { complete: false } => {
                self.bounded = true;
                Q::Unsat
            }
            // The native solver met an ill-defined candidate (it checks each conjunct alone, so a
            // candidate an earlier conjunct excludes counts too): like a bounded Unsat, no proof
            // rests on it, but the search for counterexamples goes on.
            Search::Unknown(why) if why.starts_with(NO_WELL_DEFINED) => {
                self.bounded = true;
                Q::Unsat
            }
            Search::Unknown(why) => Q::Stop(why),
        }
    }

    /// The name bound to `value` for variable `i`.
    fn literal(&mut self, i: usize, value: &Value) -> Name {
        if let Some(n) = self.literals.get(&(i, value.clone())) {
            return n.clone();
        }
        let name = copy_name(&self.m.variables[i].name, 0);
        let name: Name = format!("{name}v{}", self.literals.len()).into();
        self.env.bind(name.clone(), value.clone());
        self.literals.insert((i, value.clone()), name.clone());
        name
    }

    /// The cube as a predicate over copy `k`.
    fn cube_pred(&mut self, cube: &Cube, k: usize) -> Pred {
        let span = self.m.span;
        let parts = cube
            .iter()
            .map(|(i, v)| {
                let lit = self.literal(*i, v);
                let x = &self.m.variables[*i];
                let var = |n: Name| Expr::new(ExprKind::Var(n), x.ty.clone(), x.span);
                Pred::new(
                    PredKind::Compare(
                        CompareOp::Eq,
                        Box::new(var(copy_name(&x.name, k))),
                        Box::new(var(lit)),
                    ),
                    x.span,
                )
            })
            .collect();
        and(parts, span)
    }

    fn full_cube(state: &[Value]) -> Cube {
        state.iter().cloned().enumerate().collect()
    }

    /// F_i over copy 0.
    fn frame(&mut self, i: usize) -> Pred {
        if i == 0 {
            return self.init0.clone();
        }
        let cubes: Vec<Cube> = self.lemmas[i..].iter().flatten().cloned().collect();
        let mut parts = vec![self.inv0.clone()];
        for c in &cubes {
            parts.push(cbc::not(self.cube_pred(c, 0)));
        }
        and(parts, self.m.span)
    }

    /// Some operation from a state of `before` (copy 0) to one of `after` (copy 1): the operation and
    /// both states.
    fn step(&mut self, before: &Pred, after: &Pred) -> Result<Option<Transition>, String> {
        let n = self.m.variables.len();
        if let Some((relation, vars)) = self.relation.clone() {
            let pred = and(vec![before.clone(), relation, after.clone()], self.m.span);
            match self.ask(Backend::Kodkod, &vars, &pred) {
                Q::Sat(values) => {
                    return Ok(Some((
                        selected(&values[2 * n]),
                        values[..n].to_vec(),
                        values[n..2 * n].to_vec(),
                    )));
                }
                Q::Unsat => return Ok(None),
                // Undecided (a part the SAT translation left to the native solver met an
                // ill-defined candidate, say): one question per operation, as without the relation.
                Q::Stop(_) => {}
            }
        }
        for op in 0..self.ops.len() {
            let (ba, vars) = self.ops[op].clone();
            let pred = and(vec![before.clone(), ba, after.clone()], self.m.span);
            match self.ask(self.backend, &vars, &pred) {
                Q::Sat(values) => {
                    let s0 = values[..n].to_vec();
                    let s1 = values[values.len() - n..].to_vec();
                    return Ok(Some((Some(op), s0, s1)));
                }
                Q::Unsat => {}
                Q::Stop(why) => return Err(why),
            }
        }
        Ok(None)
    }

    /// Whether `INIT & cube` has a solution; `Err` when undecided.
    fn meets_init(&mut self, cube: &Cube) -> Result<bool, String> {
        let pred = and(
            vec![self.init0.clone(), self.cube_pred(cube, 0)],
            self.m.span,
        );
        let x0 = self.x0.clone();
        match self.ask(self.backend, &x0, &pred) {
            Q::Sat(_) => Ok(true),
            Q::Unsat => Ok(false),
            Q::Stop(why) => Err(why),
        }
    }

    /// A predecessor in F_(i-1) outside the cube of a state in the cube, or none (complete Unsat).
    fn predecessor(&mut self, i: usize, cube: &Cube) -> Result<Option<Predecessor>, String> {
        let before = and(
            vec![self.frame(i - 1), cbc::not(self.cube_pred(cube, 0))],
            self.m.span,
        );
        let after = self.cube_pred(cube, 1);
        Ok(self.step(&before, &after)?.map(|(op, s0, _)| (op, s0)))
    }

    /// `not cube` may be added to F_i: it excludes every initial state and is inductive relative to
    /// F_(i-1), both by complete Unsats.
    fn blockable(&mut self, i: usize, cube: &Cube) -> bool {
        matches!(self.meets_init(cube), Ok(false)) && matches!(self.predecessor(i, cube), Ok(None))
    }

    /// Drops literals while the cube stays blockable at level i.
    fn generalise(&mut self, i: usize, mut cube: Cube) -> Cube {
        let mut at = 0;
        while at < cube.len() && cube.len() > 1 {
            let mut smaller = cube.clone();
            smaller.remove(at);
            if self.blockable(i, &smaller) {
                cube = smaller;
            } else {
                at += 1;
            }
        }
        cube
    }

    fn add_lemma(&mut self, level: usize, cube: Cube) {
        add_lemma(&mut self.lemmas, level, cube);
    }

    /// Whether a lemma of level >= i excludes the state.
    fn blocked(&self, state: &[Value], i: usize) -> bool {
        excluded(&self.lemmas, i, |(x, v)| state[*x] == *v)
    }

    fn node(&mut self, state: Vec<Value>, next: Option<(Option<usize>, usize)>) -> usize {
        self.nodes.push(Node { state, next });
        self.nodes.len() - 1
    }

    fn run(&mut self) -> Result<Run, Diagnostic> {
        // A violation in an initial state.
        let bad0 = and(
            vec![self.init0.clone(), cbc::not(self.inv0.clone())],
            self.m.span,
        );
        let x0 = self.x0.clone();
        match self.ask(self.backend, &x0, &bad0) {
            Q::Sat(state) => {
                let n = self.node(state, None);
                return Ok(self.counterexample(n));
            }
            Q::Unsat => {}
            Q::Stop(why) => return Ok(Run::Unknown(format!("initial states: {why}"))),
        }
        let mut k = 1;
        loop {
            // Block every state of F_k with a successor violating the invariant.
            loop {
                let fk = self.frame(k);
                let bad = self.not_inv1.clone();
                match self.step(&fk, &bad) {
                    Ok(None) => break,
                    Ok(Some((op, s, b))) => {
                        let b = self.node(b, None);
                        let s = self.node(s, Some((op, b)));
                        if let Some(run) = self.block(s, k) {
                            return Ok(run);
                        }
                    }
                    Err(why) => return Ok(Run::Unknown(format!("frame {k}: {why}"))),
                }
            }
            if k >= self.max_frames {
                let bounded = if self.bounded {
                    format!("; some Unsats were bounded searches ({INCOMPLETE})")
                } else {
                    String::new()
                };
                return Ok(Run::Unknown(format!(
                    "no convergence within {} frames (--max-frames){bounded}",
                    self.max_frames
                )));
            }
            k += 1;
            self.lemmas.push(vec![]);
            match self.propagate(k) {
                Some(Run::Proved { .. }) if self.bounded => {
                    return Ok(Run::Unknown(format!(
                        "the frames converged, but some of their Unsats were bounded searches ({INCOMPLETE})"
                    )));
                }
                Some(run) => return Ok(run),
                None => {}
            }
        }
    }

    /// Moves forward the cubes still relatively inductive; F_i = F_(i+1) ends the run with a proof.
    fn propagate(&mut self, k: usize) -> Option<Run> {
        for i in 1..k {
            let cubes = self.lemmas[i].clone();
            for c in cubes {
                match self.predecessor(i + 1, &c) {
                    Ok(None) => {
                        self.lemmas[i].retain(|d| *d != c);
                        self.add_lemma(i + 1, c);
                    }
                    Ok(Some(_)) => {}
                    Err(why) => return Some(Run::Unknown(format!("propagation: {why}"))),
                }
            }
            if self.lemmas[i].is_empty() {
                return Some(Run::Proved {
                    lemmas: self.lemmas[i + 1..].iter().flatten().cloned().collect(),
                    frame: i,
                });
            }
        }
        None
    }

    /// Blocks obligation `root` at frame k (and the predecessors it needs blocked); a counterexample
    /// or an undecided query ends the run.
    fn block(&mut self, root: usize, k: usize) -> Option<Run> {
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((k, root)));
        while let Some(Reverse((i, n))) = queue.pop() {
            if i == 0 {
                return Some(self.counterexample(n));
            }
            let state = self.nodes[n].state.clone();
            if self.blocked(&state, i) {
                continue;
            }
            let cube = Self::full_cube(&state);
            match self.meets_init(&cube) {
                Ok(true) => return Some(self.counterexample(n)),
                Ok(false) => {}
                Err(why) => return Some(Run::Unknown(format!("frame {i}: {why}"))),
            }
            match self.predecessor(i, &cube) {
                Ok(Some((op, t))) => {
                    let t = self.node(t, Some((op, n)));
                    queue.push(Reverse((i - 1, t)));
                    queue.push(Reverse((i, n)));
                }
                Ok(None) => {
                    let cube = self.generalise(i, cube);
                    let mut level = i;
                    while level < k && self.blockable(level + 1, &cube) {
                        level += 1;
                    }
                    self.add_lemma(level, cube);
                    self.cubes += 1;
                    if self.cubes > MAX_CUBES {
                        return Some(Run::Unknown(format!(
                            "more than {MAX_CUBES} blocked cubes: the state space may be too large \
                             or infinite for cubes of values"
                        )));
                    }
                    if level < k {
                        queue.push(Reverse((level + 1, n)));
                    }
                }
                Err(why) => return Some(Run::Unknown(format!("frame {i}: {why}"))),
            }
        }
        None
    }

    /// The path from node `n` (an initial state) to a bad state, replayed by the interpreter.
    fn counterexample(&self, n: usize) -> Run {
        let (states, ops) = path(&self.nodes, n, |node| (&node.state, node.next));
        replayed(self.model, self.constants, &states, &ops)
    }
}

/// Adds `cube` (a conjunction of literals) at `level` of `lemmas` (cubes blocked per level), dropping
/// the cubes it subsumes at that level and below.
pub(super) fn add_lemma<L: PartialEq>(lemmas: &mut [Vec<Vec<L>>], level: usize, cube: Vec<L>) {
    for cubes in &mut lemmas[1..=level] {
        cubes.retain(|d| !cube.iter().all(|l| d.contains(l)));
    }
    lemmas[level].push(cube);
}

/// Whether some lemma of level >= i has every literal true (`holds`): the state it is asked of is
/// excluded from F_i.
pub(super) fn excluded<L>(lemmas: &[Vec<Vec<L>>], i: usize, holds: impl Fn(&L) -> bool) -> bool {
    lemmas[i..].iter().flatten().any(|c| c.iter().all(&holds))
}

/// A proof obligation's state and its step to the next node (operation, node index).
pub(super) type Link<'a> = (&'a [Value], Option<(Option<usize>, usize)>);

/// The states and operations of the path of proof obligations from node `n` to the bad state that
/// ends it, following each node's `link`.
pub(super) fn path<'a, N>(
    nodes: &'a [N],
    n: usize,
    link: impl Fn(&'a N) -> Link<'a>,
) -> (Vec<&'a [Value]>, Vec<Option<usize>>) {
    let (first, mut next) = link(&nodes[n]);
    let mut states = vec![first];
    let mut ops = Vec::new();
    while let Some((op, at)) = next {
        let (state, after) = link(&nodes[at]);
        ops.push(op);
        states.push(state);
        next = after;
    }
    (states, ops)
}

/// The path through `states` (the first an initial state), `ops[i]` leading from state i to i + 1
/// (`None`: the replay finds the operation), replayed by the interpreter; the last state must violate
/// the invariant.
pub(super) fn replayed(
    model: &Model,
    constants: &[Value],
    states: &[&[Value]],
    ops: &[Option<usize>],
) -> Run {
    match confirm_states(model, constants, states, ops, Target::InvariantViolation) {
        Ok((trace, violated)) => Run::Counterexample(trace, violated),
        Err(why) => Run::Unknown(format!(
            "counterexample not confirmed by the interpreter: {why}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Options;

    fn model(name: &str, text: &str, options: &Options) -> Model {
        Model::from_text_with(name, text, options)
    }

    /// DelayedCopy with the register's width a constant of two possible values.
    const TWO_SETUPS: &str = "MACHINE TwoSetups
        CONSTANTS n PROPERTIES n : {1, 2}
        VARIABLES p, q
        INVARIANT p : 0..n & q : 0..n & p = 0
        INITIALISATION p, q := 0, 0
        OPERATIONS
          step = BEGIN p := q || q := 0 END;
          load = SELECT q = 0 THEN q := 0 END
        END";

    /// Cubes of values (the native backend: not over bits) enumerate the constant setups.
    #[test]
    fn several_constant_setups_give_a_guarded_disjunction() {
        let options = Options {
            backend: Backend::Native,
            ..Options::default()
        };
        let m = model("TwoSetups", TWO_SETUPS, &options);
        let r = ic3(&m, 10).expect("runs");
        assert!(!r.over_bits);
        assert_eq!(r.setups, 2);
        match r.outcome {
            Ic3Outcome::Proved { invariant, .. } => {
                assert!(invariant.contains("(n = 1 & not(q = 1))"), "{invariant}");
                assert!(invariant.contains(" or (n = 2 & "), "{invariant}");
                assert!(recheck(&m, &invariant).is_ok());
                // Without its strengthening the invariant is not inductive.
                assert!(recheck(&m, "p : 0..n & q : 0..n & p = 0").is_err());
            }
            other => panic!("{other:?}"),
        }
    }

    /// Over bits the constants are symbolic: one run, and the lemmas may mention them.
    #[test]
    fn over_bits_the_constants_are_part_of_the_state() {
        let m = model("TwoSetupsBits", TWO_SETUPS, &Options::default());
        let r = ic3(&m, 10).expect("runs");
        assert!(r.over_bits);
        match r.outcome {
            Ic3Outcome::Proved {
                invariant, lemmas, ..
            } => {
                assert!(lemmas >= 1, "{invariant}");
                assert!(recheck(&m, &invariant).is_ok());
            }
            other => panic!("{other:?}"),
        }
    }

    /// x's window beyond the invariant's bound is a cut (MAXINT = 3): the violation at 8 is found by
    /// widening it.
    #[test]
    fn a_violation_beyond_the_integer_cut_is_found_by_widening() {
        let text = "MACHINE Count
            VARIABLES x, y
            INVARIANT x : NATURAL & y : NATURAL & x < 8
            INITIALISATION x, y := 0, 0
            OPERATIONS
              up = BEGIN y := y + 1 END;
              copy = BEGIN x := y END
            END";
        let m = model("Count", text, &Options::default());
        let r = ic3(&m, 64).expect("runs");
        assert!(r.over_bits);
        match r.outcome {
            Ic3Outcome::Counterexample { trace, violated } => {
                assert_eq!(trace.len(), 10, "INITIALISATION, up x 8, copy");
                assert_eq!(violated.len(), 1);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_counterexample_starts_at_the_initialisation_and_is_replayed() {
        let text = "MACHINE Climb
            VARIABLES x
            INVARIANT x : 0..5 & x /= 3
            INITIALISATION x := 0
            OPERATIONS up = SELECT x < 5 THEN x := x + 1 END
            END";
        let m = model("Climb", text, &Options::default());
        match ic3(&m, 10).expect("runs").outcome {
            Ic3Outcome::Counterexample { trace, violated } => {
                let labels: Vec<&str> = trace.iter().map(|s| s.label.as_str()).collect();
                assert_eq!(labels, ["INITIALISATION", "up", "up", "up"]);
                assert_eq!(violated.len(), 1);
            }
            other => panic!("{other:?}"),
        }
    }

    /// Unsats relative to a deferred set of default size prove nothing: UNKNOWN, until --card fixes it.
    #[test]
    fn bounded_unsats_are_no_proof() {
        let text = "MACHINE Locked
            SETS S
            VARIABLES s, t
            INVARIANT s <: S & t : BOOL & (t = TRUE => s = {})
            INITIALISATION s, t := {}, FALSE
            OPERATIONS
              add(e) = SELECT e : S & t = FALSE THEN s := s \\/ {e} END;
              lock = SELECT s = {} THEN t := TRUE END
            END";
        let m = model("Locked", text, &Options::default());
        match ic3(&m, 10).expect("runs").outcome {
            Ic3Outcome::Unknown(why) => assert!(why.contains("bounded"), "{why}"),
            other => panic!("{other:?}"),
        }
        let options = Options {
            cards: vec![("S".into(), 2)],
            ..Options::default()
        };
        let m = model("Locked", text, &options);
        assert!(matches!(
            ic3(&m, 10).expect("runs").outcome,
            Ic3Outcome::Proved { .. }
        ));
    }

    #[test]
    fn a_machine_without_variables_is_refused() {
        let m = model(
            "NoVars",
            "MACHINE NoVars CONSTANTS c PROPERTIES c = 1 END",
            &Options::default(),
        );
        assert!(ic3(&m, 10).is_err());
        let m = model("TwoSetups", TWO_SETUPS, &Options::default());
        assert!(ic3(&m, 0).is_err());
    }
}
