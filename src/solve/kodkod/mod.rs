//! The Kodkod-style backend (`--backend kodkod`): bounded relational translation to SAT, after Torlak &
//! Jackson 2007 and Plagge & Leuschel 2012, in one process.
//!
//! The pipeline, one pass per module, as in Kodkod's translator:
//! 1. `bounds`: candidate values of every unknown (types, typing conjuncts, interval analysis) and the
//!    circuit inputs standing for them;
//! 2. `translate` (with `integers`): the predicate as a hash-consed boolean `circuit`, sets as sparse
//!    membership matrices, integers as bit-vectors of proven width;
//! 3. `cnf`: Tseitin numbering into the SAT solver of `solver-bridges` (CaDiCaL by default, varisat),
//!    optionally dumped as DIMACS;
//! 4. `solutions`: models back into `Value`s; all solutions by blocking clauses over the unknowns' inputs.
//!
//! `transition` keeps a machine's one-step relation in one incremental solver for IC3 over bits.
//!
//! A problem that does not translate completely (a construct listed as unsupported, an integer the
//! analysis cannot bound, a higher-order unknown) goes to the native solver, or fails with the construct
//! and its position under `--kodkod-only`. Every solution is re-checked by the interpreter in `solve::`.

mod bounds;
mod circuit;
mod cnf;
mod derived;
mod integers;
mod solutions;
mod transition;
mod translate;
mod unroll;

pub use transition::{Pieces, Query, TransitionSat};
pub use unroll::Unrolled;

use super::{Found, Problem, Stats};
use crate::diag::{Diagnostic, Span};
use crate::eval::{Context, EvalError};
use crate::solve::interval;
use crate::solve::orbits::SetPermutation;
use crate::value::Value;
use circuit::Lit;
use solver_bridges::SolveResult;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the kodkod backend did over all calls in this process (reported with `-v` and by `bench`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SatReport {
    pub solver: &'static str,
    /// Problems solved by SAT.
    pub translated: u64,
    /// Problems handed to the native solver because they did not translate.
    pub fallbacks: u64,
    /// The last reason a problem did not translate.
    pub last_unsupported: Option<String>,
    pub vars: u64,
    pub clauses: u64,
    pub conflicts: u64,
    pub solve_calls: u64,
    pub translate_time: Duration,
    pub solve_time: Duration,
}

static REPORT: Mutex<Option<SatReport>> = Mutex::new(None);

/// The statistics gathered so far.
pub fn report() -> SatReport {
    REPORT
        .lock()
        .map(|r| r.clone().unwrap_or_default())
        .unwrap_or_default()
}

fn record(update: impl FnOnce(&mut SatReport)) {
    if let Ok(mut r) = REPORT.lock() {
        update(r.get_or_insert_with(SatReport::default));
    }
}

/// Streams the solutions of `problem`; returns whether the search was exhaustive. When SAT over a cut
/// of the integers finds nothing, the native solver, which may prove that exactly, takes the problem.
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    solve_with(
        ctx,
        problem,
        on_solution,
        stats,
        Beyond::Native.unless_kodkod_only(ctx),
    )
}

/// `solve` without the native solver after a fruitless cut: for the portfolio, whose native stage
/// already ran.
pub(crate) fn solve_sat(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let beyond = Beyond::Components.unless_kodkod_only(ctx);
    solve_with(ctx, problem, on_solution, stats, beyond)
}

/// SAT alone: a question that does not translate completely is `Unsupported` (no component goes to
/// the native solver), for the portfolio's SAT probe, which must not spend its time on native's work.
pub(crate) fn solve_sat_alone(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    solve_with(ctx, problem, on_solution, stats, Beyond::Nothing)
}

/// Who takes what SAT alone cannot answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Beyond {
    /// Nobody: an untranslatable question is `Unsupported`, a fruitless cut an incomplete answer.
    Nothing,
    /// The native solver takes the components that do not translate (`route_components`).
    Components,
    /// As `Components`, and the whole question after a fruitless cut of the integers.
    Native,
}

impl Beyond {
    /// `Nothing` under `--kodkod-only`, where the user asked for SAT's answer alone.
    fn unless_kodkod_only(self, ctx: &Context) -> Beyond {
        if ctx.settings().kodkod_only {
            Beyond::Nothing
        } else {
            self
        }
    }
}

fn solve_with(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
    beyond: Beyond,
) -> Result<bool, EvalError> {
    let start = Instant::now();
    match prepare_deriving(ctx, problem) {
        Ok((prepared, split)) => {
            let translate_time = start.elapsed();
            record(|r| {
                r.translated += 1;
                r.translate_time += translate_time;
            });
            let Some(p) = prepared else {
                return Ok(true);
            };
            let cut = p.bounds.cut.clone();
            let mut reported = false;
            let mut report = |values: &[Value], witnesses: &[(crate::syntax::ast::Name, Value)]| {
                reported = true;
                on_solution(values, witnesses)
            };
            let result = match &split {
                Some(split) => run(
                    ctx,
                    &split.rest(problem),
                    p,
                    &mut |values: &[Value], witnesses: &[(crate::syntax::ast::Name, Value)]| {
                        match split.complete(ctx, problem, values)? {
                            Some(all) => report(&all, witnesses),
                            None => Ok(true),
                        }
                    },
                    stats,
                ),
                None => run(ctx, problem, p, &mut report, stats),
            };
            if let Some(cut) = cut
                && !reported
                && matches!(result, Ok(false))
            {
                // Nothing within the cut: what was cut goes into the report of an UNKNOWN.
                ctx.record_search_cut(&cut);
                if beyond == Beyond::Native {
                    return super::native::solve(ctx, problem, on_solution, stats);
                }
            }
            result
        }
        // A timeout while translating is a timeout, not an untranslatable construct.
        Err(d) if d.kind == crate::diag::DiagKind::Limit => Err(EvalError::Limit(d)),
        Err(d) if beyond == Beyond::Nothing => Err(EvalError::Unsupported(located(d))),
        Err(d) => {
            record(|r| {
                r.fallbacks += 1;
                r.last_unsupported = Some(d.render());
            });
            route_components(ctx, problem, on_solution, stats)
        }
    }
}

/// The most solutions of the SAT part collected to combine with the native part's; beyond, the
/// native solver takes the whole problem (independent components with many solutions each multiply,
/// and collecting them all would cost more than the native search).
const MAX_SAT_PART_SOLUTIONS: usize = 1_000;

/// Plagge & Leuschel §3.6: the components (classes of conjuncts sharing unknowns) that translate
/// completely go to SAT, the others to the native solver; components share no unknown, so the solutions
/// are the products of both parts'. Symmetry reduction is of whole solutions: then native solves all.
fn route_components(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let conjuncts = problem.pred.conjuncts();
    let components = crate::analysis::partition::components(problem.vars, &conjuncts);
    let mut sat_part = (Vec::new(), Vec::new());
    let mut native_part = (Vec::new(), Vec::new());
    if !problem.symmetry.reduces() && components.len() > 1 {
        for comp in &components {
            let vars: Vec<_> = comp.vars.iter().map(|&i| problem.vars[i].clone()).collect();
            let pred = conjunction(
                comp.conjuncts.iter().map(|&i| conjuncts[i]),
                problem.pred.span,
            );
            let sub = Problem {
                vars: &vars,
                pred: &pred,
                ..*problem
            };
            let part = if prepare(ctx, &sub).is_ok() {
                &mut sat_part
            } else {
                &mut native_part
            };
            part.0.extend(comp.vars.iter().copied());
            part.1.extend(comp.conjuncts.iter().copied());
        }
    }
    if sat_part.0.is_empty() {
        return super::native::solve(ctx, problem, on_solution, stats);
    }
    let sub_problem = |(vs, cs): &(Vec<usize>, Vec<usize>)| {
        let vars: Vec<_> = vs.iter().map(|&i| problem.vars[i].clone()).collect();
        let pred = conjunction(cs.iter().map(|&i| conjuncts[i]), problem.pred.span);
        (vars, pred)
    };
    let (sat_vars, sat_pred) = sub_problem(&sat_part);
    let sat_problem = Problem {
        vars: &sat_vars,
        pred: &sat_pred,
        ..*problem
    };
    let Ok(prepared) = prepare(ctx, &sat_problem) else {
        return super::native::solve(ctx, problem, on_solution, stats);
    };
    let mut sat_solutions = Vec::new();
    let mut too_many = false;
    let mut collect = |values: &[Value], witnesses: &[(crate::syntax::ast::Name, Value)]| {
        sat_solutions.push((values.to_vec(), witnesses.to_vec()));
        too_many = sat_solutions.len() > MAX_SAT_PART_SOLUTIONS;
        Ok(!too_many)
    };
    let sat_complete = match prepared {
        Some(p) => run(ctx, &sat_problem, p, &mut collect, stats)?,
        None => true,
    };
    if too_many {
        return super::native::solve(ctx, problem, on_solution, stats);
    }
    if sat_solutions.is_empty() {
        return Ok(sat_complete);
    }
    let (native_vars, native_pred) = sub_problem(&native_part);
    let native_problem = Problem {
        vars: &native_vars,
        pred: &native_pred,
        ..*problem
    };
    let native_complete = super::native::solve(
        ctx,
        &native_problem,
        &mut |values, witnesses| {
            for (sat_values, sat_witnesses) in &sat_solutions {
                let mut all = vec![Value::empty_set(); problem.vars.len()];
                for (&i, v) in sat_part.0.iter().zip(sat_values) {
                    all[i] = v.clone();
                }
                for (&i, v) in native_part.0.iter().zip(values) {
                    all[i] = v.clone();
                }
                let mut w = sat_witnesses.clone();
                w.extend(witnesses.iter().cloned());
                if !on_solution(&all, &w)? {
                    return Ok(false);
                }
            }
            Ok(true)
        },
        stats,
    )?;
    Ok(sat_complete && native_complete)
}

fn conjunction<'p>(
    conjuncts: impl Iterator<Item = &'p crate::ir::Pred>,
    span: Span,
) -> crate::ir::Pred {
    crate::ir::Pred::new(crate::ir::PredKind::And(conjuncts.cloned().collect()), span)
}

/// The diagnostic with its position in the message too: answers print only the message.
fn located(d: Diagnostic) -> Diagnostic {
    match d.span.location() {
        Some((file, line, col)) => {
            let message = format!("{} at {file}:{line}:{col}", d.message);
            Diagnostic { message, ..d }
        }
        None => d,
    }
}

/// Whether `problem` translates to SAT completely: the first construct that does not, otherwise.
pub fn check_translatable(ctx: &Context, problem: &Problem<'_>) -> Result<(), Diagnostic> {
    check_translation(ctx, problem).map(|_| ())
}

/// Like `check_translatable`, telling also whether the bounds are exact: `false` when some integer is
/// a cut of its infinite type (then SAT finds solutions but proves none absent).
pub fn check_translation(ctx: &Context, problem: &Problem<'_>) -> Result<bool, Diagnostic> {
    prepare_deriving(ctx, problem).map(|(p, _)| p.is_none_or(|p| p.bounds.cut.is_none()))
}

/// `prepare`, or, when the problem does not translate, `prepare` of it without its derived unknowns,
/// returned beside it: they are computed per solution (`derived`). The first construct that does not
/// translate otherwise.
fn prepare_deriving<'a>(
    ctx: &'a Context,
    problem: &Problem<'_>,
) -> Result<(Option<Prepared<'a>>, Option<derived::Derived>), Diagnostic> {
    if crate::ir::tla_value::in_names(problem.vars) || crate::ir::tla_value::in_pred(problem.pred) {
        return Err(Diagnostic::unsupported(
            problem.pred.span,
            "SAT backend: a TLA+ value of mixed kind",
        ));
    }
    match prepare(ctx, problem) {
        Err(d) if d.kind != crate::diag::DiagKind::Limit => {
            let Some(split) = derived::split(problem) else {
                return Err(d);
            };
            let prepared = prepare(ctx, &split.rest(problem)).map_err(|_| d)?;
            Ok((prepared, Some(split)))
        }
        other => other.map(|p| (p, None)),
    }
}

/// A translated problem.
struct Prepared<'a> {
    tr: translate::Translator<'a>,
    bounds: bounds::Bounds,
    roots: Vec<Lit>,
    symmetry: Vec<Vec<SetPermutation>>,
    /// Per variable (the problem's own first, then those of top-level existentials, whose values are
    /// reported as witnesses): its value when a deterministic equation fixed it, else its index in
    /// `bounds.terms`.
    slots: Vec<Result<Value, usize>>,
    outputs: usize,
    witnesses: Vec<crate::syntax::ast::Name>,
    /// The inputs of the problem's own unknowns: `bounds.primary[..main_inputs]`.
    main_inputs: usize,
}

/// The most permutations of the deferred sets the orbit test tries per solution.
const MAX_PERMUTATIONS: usize = 5_040;

/// Translates the problem; `None` when the interval analysis already proved it has no solution.
fn prepare<'a>(
    ctx: &'a Context,
    problem: &Problem<'_>,
) -> Result<Option<Prepared<'a>>, Diagnostic> {
    // A term that does not translate where a declared unknown would (its well-definedness not settled
    // as the equation's is): the problem again, with every unknown declared. Only then: a problem
    // that used no term would fail the same way twice.
    let mut used_terms = false;
    match prepare_with(ctx, problem, true, &mut used_terms) {
        Err(d) if used_terms && d.kind != crate::diag::DiagKind::Limit => {
            prepare_with(ctx, problem, false, &mut used_terms).map_err(|_| d)
        }
        other => other,
    }
}

/// `prepare`; with `by_terms`, unknowns a top-level equation defines over the others are encoded by
/// that term (`analysis::deterministic::term_definitions`), and `used_terms` says whether there were any.
fn prepare_with<'a>(
    ctx: &'a Context,
    problem: &Problem<'_>,
    by_terms: bool,
    used_terms: &mut bool,
) -> Result<Option<Prepared<'a>>, Diagnostic> {
    // Top-level existentials are skolemised: their variables become unknowns too (their values are
    // witnesses the re-check uses), when the names clash with nothing else in scope.
    let mut vars = problem.vars.to_vec();
    let mut conjuncts = Vec::new();
    let mut witnesses = Vec::new();
    for c in problem.pred.conjuncts() {
        match &c.kind {
            crate::ir::PredKind::Exists(xs, body)
                if xs.iter().all(|x| {
                    !vars.iter().any(|v| v.name == x.name)
                        && problem.env.get(&x.name).is_none()
                        && !ctx.is_global(&x.name)
                }) =>
            {
                vars.extend(xs.iter().cloned());
                witnesses.extend(xs.iter().map(|x| x.name.clone()));
                conjuncts.extend(body.conjuncts());
            }
            _ => conjuncts.push(c),
        }
    }
    // Plagge & Leuschel §3.6: deterministic equations are evaluated first and enter as exact bounds
    // (here: known values, so the translation folds them away).
    let mut env = problem.env.clone();
    let (fixed, mut defining) = deterministic_values(ctx, &vars, &conjuncts, &mut env);
    // Unknowns that an equation defines by a term over the others take that term as their encoding.
    // Only the problem's own unknowns, over each other: solutions are blocked on their inputs, so a
    // term over a witness would make one solution per witness look like all of them.
    let by_term = if by_terms {
        crate::analysis::deterministic::term_definitions(
            &vars[..problem.vars.len()],
            &conjuncts,
            &|i| fixed[i].is_none(),
            &|n| env.get(n).is_some() || ctx.is_global(n),
        )
    } else {
        Vec::new()
    };
    *used_terms = !by_term.is_empty();
    let mut by_term_var = vec![false; vars.len()];
    for d in &by_term {
        by_term_var[d.var] = true;
    }
    let open_indices: Vec<usize> = (0..vars.len())
        .filter(|&i| fixed[i].is_none() && !by_term_var[i])
        .collect();
    let open: Vec<crate::ir::TypedName> = open_indices.iter().map(|&i| vars[i].clone()).collect();
    // Per variable: its value, or its index in `bounds.terms` — the declared unknowns first, in
    // order, then the defined ones in definition order.
    let mut slots: Vec<Result<Value, usize>> = fixed.into_iter().map(|f| f.ok_or(0)).collect();
    for (k, &i) in open_indices.iter().enumerate() {
        slots[i] = Err(k);
    }
    for (k, d) in by_term.iter().enumerate() {
        defining[d.conjunct] = true;
        slots[d.var] = Err(open.len() + k);
    }
    let Some(ranges) = integer_ranges(ctx, &open, &conjuncts, &env) else {
        return Ok(None);
    };
    // ProB's reduction of setups is narrower than an orbit test: under it SAT reduces nothing.
    let symmetry = if problem.symmetry == crate::solve::Symmetry::Representatives {
        deferred_permutations(ctx, problem.pred.span)?
    } else {
        Vec::new()
    };
    let mut tr = translate::Translator::new(ctx, &env);
    let mut bounds = bounds::declare(&mut tr, &open, &conjuncts, &ranges)?;
    let declared_outputs = open_indices
        .iter()
        .filter(|&&i| i < problem.vars.len())
        .count();
    let main_inputs = match declared_outputs {
        0 => 0,
        n => bounds.ends[n - 1],
    };
    let mut roots = bounds.constraints.clone();
    for &r in &roots {
        tr.assume(r);
    }
    // Typing conjuncts first: what they assert settles the well-definedness of the others (of the
    // defining terms too, so those typings that need no defined unknown come before the terms).
    let mut order: Vec<&crate::ir::Pred> = conjuncts
        .iter()
        .zip(&defining)
        .filter(|(_, d)| !**d)
        .map(|(c, _)| *c)
        .collect();
    order.sort_by_key(|c| !is_typing(c));
    let defined_names: Vec<&crate::syntax::ast::Name> =
        by_term.iter().map(|d| &vars[d.var].name).collect();
    let (early, late): (Vec<&crate::ir::Pred>, Vec<&crate::ir::Pred>) =
        order.into_iter().partition(|c| {
            is_typing(c)
                && !crate::ir::free_names::pred_mentions(c, &|n| defined_names.contains(&n))
        });
    for c in early {
        ctx.check_deadline(c.span)?;
        let holds = tr.pred(c, true)?.holds;
        tr.assume(holds);
        roots.push(holds);
    }
    for d in &by_term {
        let crate::ir::PredKind::Compare(_, l, r) = &conjuncts[d.conjunct].kind else {
            unreachable!("a definition is an equation");
        };
        let name = &vars[d.var].name;
        let side = if matches!(&l.kind, crate::ir::ExprKind::Var(n) if n == name) {
            r
        } else {
            l
        };
        let (term, defined) = tr.definition(side)?;
        tr.assume(defined);
        roots.push(defined);
        tr.declare(name.clone(), term.clone());
        debug_assert_eq!(slots[d.var], Err(bounds.terms.len()));
        bounds.terms.push(term);
    }
    for c in late {
        ctx.check_deadline(c.span)?;
        let holds = tr.pred(c, true)?.holds;
        tr.assume(holds);
        roots.push(holds);
    }
    Ok(Some(Prepared {
        tr,
        bounds,
        roots,
        symmetry,
        slots,
        outputs: problem.vars.len(),
        witnesses,
        main_inputs,
    }))
}

/// Plagge & Leuschel §3.6: the unknowns a deterministic equation defines, evaluated in order and bound
/// in `env`, and which conjuncts are those equations (they hold by construction).
fn deterministic_values(
    ctx: &Context,
    vars: &[crate::ir::TypedName],
    conjuncts: &[&crate::ir::Pred],
    env: &mut crate::eval::Env,
) -> (Vec<Option<Value>>, Vec<bool>) {
    let mut fixed: Vec<Option<Value>> = vec![None; vars.len()];
    let mut defining = vec![false; conjuncts.len()];
    let known_env = env.clone();
    let known = |n: &str| known_env.get(n).is_some() || ctx.is_global(n);
    for d in crate::analysis::deterministic::definitions(vars, conjuncts, &known) {
        let crate::ir::PredKind::Compare(_, l, r) = &conjuncts[d.conjunct].kind else {
            break;
        };
        let is_var = |e: &crate::ir::Expr| matches!(&e.kind, crate::ir::ExprKind::Var(n) if *n == vars[d.var].name);
        let side = if is_var(l) { r } else { l };
        match ctx.eval_expr(side, env) {
            Ok(v) => {
                env.bind(vars[d.var].name.clone(), v.clone());
                fixed[d.var] = Some(v);
                defining[d.conjunct] = true;
            }
            // Later definitions may need this one: leave them to the translation.
            Err(_) => break,
        }
    }
    (fixed, defining)
}

/// `x : S` or `x <: S` for a name x: a conjunct giving a type, domain or range.
fn is_typing(c: &crate::ir::Pred) -> bool {
    matches!(&c.kind, crate::ir::PredKind::Compare(
        crate::ir::CompareOp::In | crate::ir::CompareOp::Subset,
        x,
        _,
    ) if matches!(x.kind, crate::ir::ExprKind::Var(_)))
}

/// The interval analysis's ranges for the unknowns whose type mentions INTEGER (the others' candidates
/// come from their finite types), from the conjuncts mentioning them; `None` when it proves there is no
/// solution. The analysis is the costly part of translating a large propositional problem, so it only
/// sees what it can bound.
fn integer_ranges(
    ctx: &Context,
    vars: &[crate::ir::TypedName],
    conjuncts: &[&crate::ir::Pred],
    env: &crate::eval::Env,
) -> Option<Vec<interval::VarInfo>> {
    let unknown = interval::VarInfo {
        int: interval::Range::full(),
        card: interval::Range::at_least(0),
        elem: interval::Range::full(),
    };
    let numeric: Vec<usize> = (0..vars.len())
        .filter(|&i| mentions_integer(&vars[i].ty))
        .collect();
    let mut ranges = vec![unknown; vars.len()];
    if numeric.is_empty() {
        return Some(ranges);
    }
    let names: Vec<&crate::syntax::ast::Name> = numeric.iter().map(|&i| &vars[i].name).collect();
    let relevant: Vec<&crate::ir::Pred> = conjuncts
        .iter()
        .copied()
        .filter(|c| {
            crate::ir::free_names::of_pred(c)
                .iter()
                .any(|n| names.contains(&n))
        })
        .collect();
    let numeric_vars: Vec<crate::ir::TypedName> =
        numeric.iter().map(|&i| vars[i].clone()).collect();
    let analysis = interval::analyse(ctx, &numeric_vars, &relevant, env);
    if analysis.contradiction.is_some() {
        return None;
    }
    for (&i, info) in numeric.iter().zip(analysis.vars) {
        ranges[i] = info;
    }
    Some(ranges)
}

fn mentions_integer(ty: &crate::types::Type) -> bool {
    use crate::types::Type;
    match ty {
        Type::Integer => true,
        Type::Set(t) => mentions_integer(t),
        Type::Pair(a, b) => mentions_integer(a) || mentions_integer(b),
        Type::Struct(fields) => fields.iter().any(|(_, t)| mentions_integer(t)),
        _ => false,
    }
}

/// Every combination of permutations of the deferred sets' elements except the identity.
fn deferred_permutations(
    ctx: &Context,
    span: Span,
) -> Result<Vec<Vec<SetPermutation>>, Diagnostic> {
    let mut combos: Vec<Vec<SetPermutation>> = vec![Vec::new()];
    for gs in ctx.machine().sets.iter().filter(|s| s.elements.is_none()) {
        let elements = ctx.given_set(&gs.name, span).map_err(Diagnostic::from)?;
        // n! is checked before the permutations are listed: 15 girls would be 1.3e12 of them.
        let count = (1..=elements.len()).try_fold(1usize, |acc, k| acc.checked_mul(k));
        // Beyond that, no reduction: every solution is a representative too.
        if count.is_none_or(|n| combos.len().saturating_mul(n) > MAX_PERMUTATIONS) {
            return Ok(Vec::new());
        }
        let mut perms = solutions::permutations(elements.len());
        perms.push((0..elements.len()).collect());
        let mut next = Vec::new();
        for c in &combos {
            for p in &perms {
                let mut combo = c.clone();
                combo.push(SetPermutation {
                    set: gs.name.clone(),
                    elements: elements.clone(),
                    perm: p.clone(),
                });
                next.push(combo);
            }
        }
        combos = next;
    }
    combos.retain(|c| {
        c.iter()
            .any(|sp| sp.perm.iter().enumerate().any(|(i, &j)| i != j))
    });
    Ok(combos)
}

fn run(
    ctx: &Context,
    problem: &Problem<'_>,
    p: Prepared<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let settings = ctx.settings();
    let span = problem.pred.span;
    stats.symmetry_reduced |= !p.symmetry.is_empty();
    let mut enc = cnf::Encoder::new(settings.sat_solver.create(), settings.dump_cnf.is_some());
    enc.solver.set_deadline(ctx.hard_deadline());
    enc.solver.set_interrupt(ctx.cancel_flag());
    enc.stop_when(ctx.hard_deadline(), ctx.cancel_flag());
    for &r in &p.roots {
        enc.assert(&p.tr.circuit, r);
    }
    if enc.interrupted {
        return Err(crate::eval::timeout_error(span));
    }
    let primary: Vec<i32> = p
        .bounds
        .primary
        .iter()
        .map(|(l, _)| enc.lit(&p.tr.circuit, *l))
        .collect();
    // Blocking the problem's own unknowns only: one solution per assignment of them, whatever witness.
    let main_inputs = p.main_inputs;
    if let Some(path) = &settings.dump_cnf {
        dump(&enc, &p, &primary, problem, path, span)?;
    }
    let exact = p.bounds.cut.is_none();
    let result = if enc.contradiction {
        Ok(exact)
    } else {
        enumerate(
            ctx,
            &mut enc,
            &p,
            &primary[..main_inputs],
            on_solution,
            span,
        )
    };
    let s = enc.solver.stats();
    record(|r| {
        r.solver = enc.solver.name();
        r.vars += s.vars as u64;
        r.clauses += s.clauses as u64;
        r.conflicts += s.conflicts.unwrap_or(0);
        r.solve_calls += s.solve_calls;
        r.solve_time += s.solve_time;
    });
    stats.nodes += s.solve_calls;
    result
}

fn enumerate(
    ctx: &Context,
    enc: &mut cnf::Encoder,
    p: &Prepared<'_>,
    primary: &[i32],
    on_solution: &mut Found<'_>,
    span: Span,
) -> Result<bool, EvalError> {
    loop {
        ctx.check_deadline(span)?;
        match enc.solver.solve(&[]) {
            SolveResult::Sat => {
                let mut values: Vec<Value> = p
                    .slots
                    .iter()
                    .map(|s| match s {
                        Ok(v) => v.clone(),
                        Err(i) => solutions::value_of(enc, &p.tr.circuit, &p.bounds.terms[*i]),
                    })
                    .collect();
                let witnesses: Vec<_> = p
                    .witnesses
                    .iter()
                    .cloned()
                    .zip(values.drain(p.outputs..))
                    .collect();
                if (p.symmetry.is_empty() || solutions::is_orbit_least(&values, &p.symmetry))
                    && !on_solution(&values, &witnesses)?
                {
                    return Ok(true);
                }
                if primary.is_empty() {
                    return Ok(true);
                }
                let clause = solutions::blocking_clause(enc, primary);
                enc.add_clause(clause);
            }
            // Exhaustive within the bounds: complete when they are exact.
            SolveResult::Unsat => return Ok(p.bounds.cut.is_none()),
            SolveResult::Interrupted => {
                ctx.check_deadline(span)?;
                return Ok(false);
            }
        }
    }
}

/// Writes the problem's CNF as DIMACS, with a header naming the B meaning of the unknowns' variables.
fn dump(
    enc: &cnf::Encoder,
    p: &Prepared<'_>,
    primary: &[i32],
    problem: &Problem<'_>,
    path: &std::path::Path,
    span: Span,
) -> Result<(), EvalError> {
    let mut comments = vec![format!(
        "bsolve kodkod translation of a problem over {}",
        problem
            .vars
            .iter()
            .map(|v| format!("{} : {}", v.name, v.ty))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    for ((_, meaning), v) in p.bounds.primary.iter().zip(primary) {
        comments.push(format!("var {v}: {meaning}"));
    }
    let clauses = enc.clauses.as_deref().unwrap_or(&[]);
    let mut clauses_out = clauses.to_vec();
    if enc.contradiction {
        clauses_out.push(Vec::new());
    }
    let write = || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        solver_bridges::dimacs::write(&mut out, enc.num_vars(), &clauses_out, &comments)?;
        std::io::Write::flush(&mut out)
    };
    write().map_err(|e| {
        EvalError::Limit(Diagnostic::new(
            crate::diag::DiagKind::Usage,
            span,
            format!("cannot write the CNF to {}: {e}", path.display()),
        ))
    })
}

#[cfg(test)]
mod tests;
