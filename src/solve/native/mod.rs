//! The propagating finite-domain solver over B values (`--backend native`).
//!
//! `model` decomposes the problem's variables into atoms with domains and instantiates the constraints;
//! `search` labels atoms first-fail and propagates after each choice: `abs` decides constraints on partial
//! assignments, `search::filter` prunes the values of a constraint's last unfixed atom (forward checking),
//! `linear` tightens integer bounds, `sets` narrows membership bits and function images; `symmetry` reduces
//! deferred-set permutations. Every assignment reported has all constraints true on the interpreter
//! (and `solve::` checks it once more).

mod abs;
mod alldiff;
mod cases;
mod domain;
mod linear;
mod model;
mod search;
mod sets;
mod size_bounds;
mod small_values;
mod symmetry;

use super::{Problem, Stats};
use crate::eval::{Context, EvalError};
use crate::value::Value;
use rustc_hash::FxHashSet;
use search::{Propagation, Solver};

/// How far a user's question looks beyond MININT..MAXINT when nothing was found within: the cut widened
/// by these multiples of its width on each side, in turn (with the defaults -1..3: up to -1281..1283).
const WIDENINGS: [u32; 5] = [1, 4, 16, 64, 256];

/// Streams the solutions of `problem`; returns whether the search was exhaustive.
///
/// A search that found nothing but cut unbounded integers to MININT..MAXINT is tried again with a wider
/// cut (`WIDENINGS`), as ProB's enumeration of unbounded integers goes on beyond MAXINT: in a user's
/// question only (the model checker's choices keep ProB's cut, which its counts depend on), until a
/// solution is found or the time is spent. A wider search that finds nothing is still incomplete.
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let reported = std::cell::Cell::new(false);
    // One search with the integer cut widened by `factor` (0: ProB's cut), noting whether it reported.
    let mut search = |factor: u32| {
        ctx.with_widened_int_cut(factor, || {
            solve_by_cases(
                ctx,
                problem,
                &mut |values, witnesses| {
                    reported.set(true);
                    on_solution(values, witnesses)
                },
                stats,
                0,
            )
        })
    };
    let exhaustive = search(0)?;
    if exhaustive || reported.get() || !problem.sizes_matter {
        return Ok(exhaustive);
    }
    for factor in WIDENINGS {
        let wider = search(factor);
        match wider {
            // Nothing was cut this time: a wider cut cannot find more.
            Ok(true) if !reported.get() => return Ok(false),
            Ok(_) if reported.get() => return wider,
            Ok(_) => {}
            // The time ran out while widening: a timeout, so that the portfolio, which gave native a
            // share of the time only, lets it resume with the rest (SubsetSum2 needs the cut widened
            // to reach `stolen(17) = 4`).
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// How many nested case splits (`cases::split`) one question may make.
const MAX_SPLIT_DEPTH: u32 = 3;

/// One search within the current integer cut: by cases when a top-level disjunction types a variable
/// only in its cases (users' questions without symmetry reduction, whose orbits' representatives could
/// differ between cases), each solution reported once; `depth` counts the splits made so far.
fn solve_by_cases(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
    depth: u32,
) -> Result<bool, EvalError> {
    let cases = if problem.sizes_matter && !problem.symmetry.reduces() && depth < MAX_SPLIT_DEPTH {
        cases::split(problem.pred, problem.vars)
    } else {
        None
    };
    let Some(cases) = cases else {
        return solve_one(ctx, problem, on_solution, stats);
    };
    let mut seen: FxHashSet<Vec<Value>> = FxHashSet::default();
    let mut exhaustive = true;
    let outer = ctx.deadline();
    for (k, case) in cases.iter().enumerate() {
        let mut stopped = false;
        let sub = Problem {
            pred: case,
            ..*problem
        };
        // Each case gets its share of the time left (the last all of it): a hard first case (solving
        // the sudoku in `not(Sudoku) => x : DOM`) must not starve an easy later one.
        let share = crate::eval::share_of_time_left(outer, 1, (cases.len() - k) as u32);
        let result = ctx.with_stage_deadline(share, || {
            solve_by_cases(
                ctx,
                &sub,
                &mut |values, witnesses| {
                    if !seen.insert(values.to_vec()) {
                        return Ok(true);
                    }
                    let go_on = on_solution(values, witnesses)?;
                    stopped |= !go_on;
                    Ok(go_on)
                },
                stats,
                depth + 1,
            )
        });
        match result {
            Ok(complete) => exhaustive &= complete,
            // The case's share is spent, not the question's time: on to the next case.
            Err(e) if e.is_timeout() && k + 1 < cases.len() => {
                ctx.check_deadline(problem.pred.span)?;
                exhaustive = false;
            }
            Err(e) => return Err(e),
        }
        if stopped {
            return Ok(false);
        }
    }
    Ok(exhaustive)
}

/// One search of one case.
fn solve_one(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let model = model::build(
        ctx,
        problem.vars,
        problem.pred,
        problem.env,
        problem.sizes_matter,
    )?;
    if model.failed {
        if let Some(d) = &model.ill_defined {
            stats.ill_defined.get_or_insert_with(|| d.clone());
        }
        return Ok(true);
    }
    let exhaustive = !model.clipped;
    let symmetry = if problem.symmetry.reduces() {
        symmetry::Symmetry::of(ctx, &model, problem.symmetry == super::Symmetry::ProbSetups)
    } else {
        None
    };
    stats.symmetry_reduced |= symmetry.is_some();
    let mut solver = Solver::new(ctx, &model, problem.env, symmetry);
    // Guessing small sets for unknowns too large to enumerate helps a user's question; inside the model
    // checker's per-state choices it would only multiply partial transitions.
    solver.guess_small_sets = problem.sizes_matter;
    if let Propagation::Failed = solver.propagate(None)? {
        stats.nodes += 1;
        return Ok(exhaustive);
    }
    // Witnesses of top-level existentials are search variables too: report each projection once.
    let projected = model.vars.len() > model.outputs;
    let mut seen: FxHashSet<Vec<Value>> = FxHashSet::default();
    let outputs = model.outputs;
    let witness_names: Vec<_> = model.vars[outputs..]
        .iter()
        .map(|v| v.name.clone())
        .collect();
    let mut report = |values: &[Value]| -> Result<bool, EvalError> {
        let (main, extra) = values.split_at(outputs);
        if projected && !seen.insert(main.to_vec()) {
            return Ok(true);
        }
        let witnesses: Vec<_> = witness_names
            .iter()
            .cloned()
            .zip(extra.iter().cloned())
            .collect();
        on_solution(main, &witnesses)
    };
    let mut found = false;
    solver.search(&mut |values| {
        found = true;
        report(values)
    })?;
    stats.nodes += solver.nodes;
    // A candidate on which the predicate is ill-defined is no solution; when nothing else was found, the
    // user is told (`i <= 8` typed for `i <= NrQ` makes every candidate ill-defined, and ProB, which
    // reads an ill-defined atom as false, would find solutions).
    if !found
        && let Some(d) = solver
            .ill_defined
            .take()
            .or_else(|| model.ill_defined.clone())
    {
        stats.ill_defined.get_or_insert(d);
    }
    Ok(exhaustive && !solver.incomplete)
}

#[cfg(test)]
mod tests;
