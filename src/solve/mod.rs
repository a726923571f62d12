//! The solver layer: *find values for these typed variables that make this predicate true, or show that
//! there are none* — the one question every command asks.
//!
//! A `Problem` is typed variables, a predicate over them, and the environment of already-known names
//! (constants, state variables, outer bound variables). A backend streams candidate solutions; this module
//! re-checks every one with the interpreter before it leaves (a solution the interpreter rejects is counted
//! in `Stats::rejected`, reported with `-v`, and never returned), and turns the stream into an `Answer` or
//! a list of solutions. `Unsat { complete: false }` means the search was cut by a bound nobody asked for
//! (an unbounded integer explored only within MININT..MAXINT, a deferred set of default size): it must never
//! be printed as a proof.
//!
//! Backends: `brute` is the interpreter's enumeration oracle (`eval::enumerate`); `native` is the
//! propagating finite-domain solver (`native`); `kodkod` translates to SAT (`kodkod`); `z3` to SMT-LIB
//! (`smt`). `auto` runs the portfolio of `portfolio` (native first).

mod chooser;
mod determined;
/// Integer ranges, set cardinalities and element ranges of the variables, by abstract interpretation
/// iterated to a fixpoint (Plagge & Leuschel 2012, §3.4); it may prove the conjunction unsatisfiable.
pub mod interval;
pub mod kodkod;
pub mod native;
mod nesting;
pub(crate) mod orbits;
mod portfolio;
mod racer;
mod shape;

pub use racer::start_lanes;
pub mod smt;

use crate::eval::{Context, Env, EvalError};
use crate::ir::{Pred, PredKind, TypedName};
use crate::syntax::ast::Name;
use crate::value::Value;
use std::time::{Duration, Instant};

/// The backends and symmetry treatments are named by the interpreter's settings and questions
/// (`eval::chooser`), which this layer answers.
pub use crate::eval::{Backend, Symmetry};
pub use chooser::Solver;

/// A question for the solver.
#[derive(Clone, Copy)]
pub struct Problem<'a> {
    pub vars: &'a [TypedName],
    pub pred: &'a Pred,
    /// Values of the other names the predicate mentions.
    pub env: &'a Env,
    /// Solutions symmetric under permutations of the deferred sets' elements: see `Symmetry`.
    pub symmetry: Symmetry,
    /// Whether an answer relative to deferred sets sized by DEFAULT_SETSIZE only counts as incomplete
    /// (true for questions users ask; false for the interpreter's choices inside an already fixed
    /// instantiation of the sets, such as operation parameters during model checking).
    pub sizes_matter: bool,
    /// How many solutions the caller reads at most (`solve_all`'s limit; `usize::MAX` for a stream):
    /// a portfolio lane that has listed so many before native reported one has the answer.
    pub wanted: usize,
}

impl<'a> Problem<'a> {
    pub fn new(vars: &'a [TypedName], pred: &'a Pred, env: &'a Env) -> Problem<'a> {
        Problem {
            vars,
            pred,
            env,
            symmetry: Symmetry::None,
            sizes_matter: true,
            wanted: usize::MAX,
        }
    }
}

/// The answer to "is there a solution?".
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Values for the problem's variables, in their order, checked by the interpreter.
    Sat(Vec<Value>),
    /// No solution; `complete: false` when the search was bounded (then it proves nothing).
    Unsat { complete: bool },
    /// The solver could not decide (timeout, unsupported construct, resource limit).
    Unknown(String),
}

/// What a search found besides its solutions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Search nodes visited (choices made).
    pub nodes: u64,
    /// Solutions a backend proposed that the interpreter rejected (each one is a backend bug).
    pub rejected: usize,
    pub elapsed: Duration,
    /// The exhaustive verdict holds for every size of the deferred sets sized by DEFAULT_SETSIZE only
    /// (proved with them as uninterpreted sorts, `smt::refute_any_size`).
    pub any_size: bool,
    /// A search that found nothing met this well-definedness error on a candidate (counted as no
    /// solution): the commands print it beside their "no solution" (`native::solve_one`).
    pub ill_defined: Option<crate::diag::Diagnostic>,
    /// The solutions reported are representatives of classes of permutations of the deferred sets'
    /// elements, not all solutions (`Symmetry::reduces`).
    pub symmetry_reduced: bool,
}

/// All solutions found, up to a limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Solutions {
    pub solutions: Vec<Vec<Value>>,
    /// True when no further solution exists: the search was exhaustive and not cut by the limit.
    pub complete: bool,
    /// True when the search stopped because the limit was reached.
    pub limited: bool,
    pub stats: Stats,
}

/// How a backend reports a candidate solution: the problem's variables' values and the witnesses of
/// top-level existentials it found; returns whether to go on.
pub(crate) type Found<'a> = dyn FnMut(&[Value], &[(Name, Value)]) -> Result<bool, EvalError> + 'a;

/// Called with each checked solution; returns whether to go on.
pub type OnSolution<'a> = dyn FnMut(&[Value]) -> bool + 'a;

/// Streams the solutions of `problem` to `on_solution`. Returns whether the search was exhaustive
/// (ignoring a stop requested by `on_solution`) and the statistics.
pub fn stream(
    ctx: &Context,
    problem: &Problem<'_>,
    backend: Backend,
    on_solution: &mut OnSolution<'_>,
) -> Result<(bool, Stats), EvalError> {
    if problem.symmetry == Symmetry::Expanded {
        return orbits::stream_expanded(ctx, problem, backend, on_solution);
    }
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut rejected = 0;
    let mut checked = |values: &[Value], witnesses: &[(Name, Value)]| -> Result<bool, EvalError> {
        if is_solution(ctx, problem, values, witnesses)? {
            Ok(on_solution(values))
        } else {
            rejected += 1;
            Ok(true)
        }
    };
    let routed = route(ctx, problem, backend);
    let determined = match routed {
        // The oracle stays a plain enumeration.
        Backend::Brute => None,
        _ => determined::solve(ctx, problem, &mut checked, &mut stats)?,
    };
    let complete = match (determined, routed) {
        (Some(complete), _) => complete,
        (None, Backend::Brute) => brute(ctx, problem, &mut checked, &mut stats)?,
        (None, Backend::Kodkod) => kodkod::solve(ctx, problem, &mut checked, &mut stats)?,
        (None, Backend::Smt) => smt::solve(ctx, problem, &mut checked, &mut stats)?,
        (None, Backend::Auto) => portfolio::solve(ctx, problem, &mut checked, &mut stats)?,
        (None, Backend::Native) => native::solve(ctx, problem, &mut checked, &mut stats)?,
    };
    let complete = complete
        && (stats.any_size
            || !(problem.sizes_matter && ctx.depends_on_default_sizes(problem.vars, problem.pred)));
    stats.rejected = rejected;
    stats.elapsed = start.elapsed();
    ctx.record_solver_stats(stats.nodes, rejected);
    if let Some(d) = &stats.ill_defined {
        ctx.record_ill_defined(d);
    }
    // A backend that proposed a wrong solution cannot be trusted to have missed none.
    Ok((complete && rejected == 0, stats))
}

/// The backend that answers: the one asked for, or for `auto` the portfolio (`portfolio`: native, then
/// kodkod and z3 for what native cannot decide) — except for problems so small that enumerating them
/// costs less than building a propagation model (operation parameters of a few booleans or enumerated
/// values, asked once per state by the model checker): every variable of a finite type and at most
/// `SMALL_PROBLEM` candidate assignments in all.
fn route(ctx: &Context, problem: &Problem<'_>, backend: Backend) -> Backend {
    const SMALL_PROBLEM: usize = 64;
    if backend != Backend::Auto {
        return backend;
    }
    if problem.sizes_matter && ctx.depends_on_default_sizes(problem.vars, problem.pred) {
        // Enumeration's Unsat holds for the default sizes only; the portfolio tries every size.
        return Backend::Auto;
    }
    let mut product: usize = 1;
    for v in problem.vars {
        match type_size(ctx, &v.ty) {
            Some(n) => product = product.saturating_mul(n.max(1)),
            None => return Backend::Auto,
        }
        if product > SMALL_PROBLEM {
            return Backend::Auto;
        }
    }
    if problem.symmetry.reduces() && !ctx.machine().sets.iter().all(|s| s.elements.is_some()) {
        // Symmetry reduction of deferred sets is the solvers' (not the enumeration's).
        return Backend::Auto;
    }
    Backend::Brute
}

/// The number of values of a type, when finite and representable.
fn type_size(ctx: &Context, ty: &crate::types::Type) -> Option<usize> {
    use crate::types::Type;
    match ty {
        Type::Bool => Some(2),
        Type::Given(name) => ctx.given_set(name, problem_span()).ok().map(|s| s.len()),
        Type::Set(t) => {
            let n = type_size(ctx, t)?;
            (n < 32).then(|| 1usize << n)
        }
        Type::Pair(a, b) => type_size(ctx, a)?.checked_mul(type_size(ctx, b)?),
        Type::Struct(fields) => fields
            .iter()
            .try_fold(1usize, |acc, (_, t)| acc.checked_mul(type_size(ctx, t)?)),
        Type::Integer | Type::String | Type::TlaValue | Type::Var(_) => None,
    }
}

fn problem_span() -> crate::diag::Span {
    crate::diag::Span::default()
}

/// Up to `limit` solutions.
pub fn solve_all(
    ctx: &Context,
    problem: &Problem<'_>,
    backend: Backend,
    limit: usize,
) -> Result<Solutions, EvalError> {
    let mut solutions = Vec::new();
    let mut limited = limit == 0;
    let problem = Problem {
        wanted: limit.min(problem.wanted),
        ..*problem
    };
    let (complete, stats) = if limited {
        (false, Stats::default())
    } else {
        stream(ctx, &problem, backend, &mut |values| {
            solutions.push(values.to_vec());
            if solutions.len() >= limit {
                limited = true;
                false
            } else {
                true
            }
        })?
    };
    Ok(Solutions {
        solutions,
        complete: complete && !limited,
        limited,
        stats,
    })
}

/// Whether there is a solution, with the first one found.
pub fn first(ctx: &Context, problem: &Problem<'_>, backend: Backend) -> Answer {
    match solve_all(ctx, problem, backend, 1) {
        Ok(s) => match s.solutions.into_iter().next() {
            Some(values) => Answer::Sat(values),
            None => Answer::Unsat {
                complete: s.complete,
            },
        },
        Err(e) => Answer::Unknown(e.to_string()),
    }
}

/// The interpreter's verdict on a proposed solution. `witnesses` are values a backend found for the
/// variables of top-level existentials: the conjunct `#x.P` is then checked as P at the witness (which
/// proves it), sparing the interpreter a search the backend has already done.
fn is_solution(
    ctx: &Context,
    problem: &Problem<'_>,
    values: &[Value],
    witnesses: &[(Name, Value)],
) -> Result<bool, EvalError> {
    let mut env = problem.env.clone();
    env.reserve(values.len());
    for (v, x) in problem.vars.iter().zip(values) {
        env.bind(v.name.clone(), x.clone());
    }
    if env.worth_indexing(problem.vars.len()) {
        // Frozen, the bindings are looked up by name instead of scanned (`Env::freeze`).
        env = env.freeze();
    }
    match holds_with_witnesses(ctx, problem.pred, &mut env, witnesses, &mut Vec::new()) {
        Ok(b) => Ok(b),
        // A solution on which the predicate is ill-defined is no solution.
        Err(EvalError::WellDefinedness(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The witnesses are matched to existentials as the backend opened them: in conjunct order, each
/// witness name used once (a later existential reusing a name is evaluated by the interpreter).
fn holds_with_witnesses(
    ctx: &Context,
    pred: &Pred,
    env: &mut Env,
    witnesses: &[(Name, Value)],
    used: &mut Vec<Name>,
) -> Result<bool, EvalError> {
    for c in pred.conjuncts() {
        let holds = match &c.kind {
            PredKind::Exists(xs, body) => {
                let found: Option<Vec<&Value>> = xs
                    .iter()
                    .map(|x| {
                        if used.contains(&x.name) {
                            return None;
                        }
                        witnesses.iter().find(|(n, _)| *n == x.name).map(|(_, v)| v)
                    })
                    .collect();
                match found {
                    Some(values) => {
                        used.extend(xs.iter().map(|x| x.name.clone()));
                        let mut inner = env.clone();
                        for (x, v) in xs.iter().zip(values) {
                            inner.bind(x.name.clone(), v.clone());
                        }
                        holds_with_witnesses(ctx, body, &mut inner, witnesses, used)?
                    }
                    None => ctx.eval_pred_in(c, env)?,
                }
            }
            _ => ctx.eval_pred_in(c, env)?,
        };
        if !holds {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The brute-force oracle, streamed.
pub(crate) fn brute(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let mut env = problem.env.clone();
    let vars = problem.vars;
    let span = problem.pred.span;
    let complete = ctx.search(vars, problem.pred, &mut env, &mut |ctx, env| {
        stats.nodes += 1;
        let values = ctx.bound_values(vars, env, span)?;
        on_solution(&values, &[])
    })?;
    Ok(complete)
}
