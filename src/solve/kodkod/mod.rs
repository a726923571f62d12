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
//! A problem that does not translate completely (a construct listed as unsupported, an integer the
//! analysis cannot bound, a higher-order unknown) goes to the native solver, or fails with the construct
//! and its position under `--kodkod-only`. Every solution is re-checked by the interpreter in `solve::`.

mod bounds;
mod circuit;
mod cnf;
mod integers;
mod solutions;
mod translate;

use super::{Found, Problem, Stats};
use crate::analysis::interval;
use crate::diag::{Diagnostic, Span};
use crate::eval::{Context, EvalError};
use crate::value::Value;
use circuit::Lit;
use solutions::SetPermutation;
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

/// Streams the solutions of `problem`; returns whether the search was exhaustive.
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let start = Instant::now();
    match prepare(ctx, problem) {
        Ok(prepared) => {
            let translate_time = start.elapsed();
            record(|r| {
                r.translated += 1;
                r.translate_time += translate_time;
            });
            match prepared {
                Some(p) => run(ctx, problem, p, on_solution, stats),
                None => Ok(true),
            }
        }
        Err(d) if ctx.settings().kodkod_only => Err(EvalError::Unsupported(located(d))),
        Err(d) => {
            record(|r| {
                r.fallbacks += 1;
                r.last_unsupported = Some(d.render());
            });
            super::native::solve(ctx, problem, on_solution, stats)
        }
    }
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
    prepare(ctx, problem).map(|_| ())
}

/// A translated problem.
struct Prepared<'a> {
    tr: translate::Translator<'a>,
    bounds: bounds::Bounds,
    roots: Vec<Lit>,
    symmetry: Vec<Vec<SetPermutation>>,
}

/// The most permutations of the deferred sets the orbit test tries per solution.
const MAX_PERMUTATIONS: usize = 5_040;

/// Translates the problem; `None` when the interval analysis already proved it has no solution.
fn prepare<'a>(
    ctx: &'a Context,
    problem: &Problem<'_>,
) -> Result<Option<Prepared<'a>>, Diagnostic> {
    let conjuncts = problem.pred.conjuncts();
    let analysis = interval::analyse(ctx, problem.vars, &conjuncts, problem.env);
    if analysis.contradiction.is_some() {
        return Ok(None);
    }
    let symmetry = if problem.symmetry {
        deferred_permutations(ctx, problem.pred.span)?
    } else {
        Vec::new()
    };
    let mut tr = translate::Translator::new(ctx, problem.env);
    let bounds = bounds::declare(&mut tr, problem.vars, &conjuncts, &analysis.vars)?;
    let mut roots = bounds.constraints.clone();
    for c in &conjuncts {
        roots.push(tr.pred(c, true)?.holds);
    }
    Ok(Some(Prepared {
        tr,
        bounds,
        roots,
        symmetry,
    }))
}

/// Every combination of permutations of the deferred sets' elements except the identity.
fn deferred_permutations(
    ctx: &Context,
    span: Span,
) -> Result<Vec<Vec<SetPermutation>>, Diagnostic> {
    let mut combos: Vec<Vec<SetPermutation>> = vec![Vec::new()];
    for gs in ctx.machine().sets.iter().filter(|s| s.elements.is_none()) {
        let elements = ctx.given_set(&gs.name, span).map_err(Diagnostic::from)?;
        let mut perms = solutions::permutations(elements.len());
        perms.push((0..elements.len()).collect());
        if combos.len().saturating_mul(perms.len()) > MAX_PERMUTATIONS {
            return Err(translate::unsupported(
                gs.span,
                "symmetry reduction over deferred sets this large",
            ));
        }
        let mut next = Vec::new();
        for c in &combos {
            for p in &perms {
                let mut combo: Vec<SetPermutation> = c
                    .iter()
                    .map(|sp| SetPermutation {
                        set: sp.set.clone(),
                        elements: sp.elements.clone(),
                        perm: sp.perm.clone(),
                    })
                    .collect();
                combo.push(SetPermutation {
                    set: gs.name.clone(),
                    elements: elements.to_vec(),
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
    let mut enc = cnf::Encoder::new(settings.sat_solver.create(), settings.dump_cnf.is_some());
    enc.solver.set_deadline(ctx.deadline());
    for &r in &p.roots {
        enc.assert(&p.tr.circuit, r);
    }
    let primary: Vec<i32> = p
        .bounds
        .primary
        .iter()
        .map(|(l, _)| enc.lit(&p.tr.circuit, *l))
        .collect();
    if let Some(path) = &settings.dump_cnf {
        dump(&enc, &p, &primary, problem, path, span)?;
    }
    let result = if enc.contradiction {
        Ok(true)
    } else {
        enumerate(ctx, &mut enc, &p, &primary, on_solution, span)
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
                let values: Vec<Value> = p
                    .bounds
                    .terms
                    .iter()
                    .map(|t| solutions::value_of(enc, t))
                    .collect();
                if (p.symmetry.is_empty() || solutions::is_orbit_least(&values, &p.symmetry))
                    && !on_solution(&values, &[])?
                {
                    return Ok(true);
                }
                if primary.is_empty() {
                    return Ok(true);
                }
                let clause = solutions::blocking_clause(enc, primary);
                enc.add_clause(clause);
            }
            SolveResult::Unsat => return Ok(true),
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
