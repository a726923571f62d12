//! The SMT backend (`--backend z3`): the problem is translated to SMT-LIB v2 (`translate`), sent to a
//! solver process (`process`: `z3 -in`, or the `--smt-solver` command), and every model is read back
//! into `Value`s (`model`) and excluded by a blocking clause before the next `check-sat`, until the
//! solver answers `unsat` — a proof over unbounded integers, since the translation is exact on every
//! well-defined assignment. `unknown`, a missing or crashed solver, and the deadline are errors (the
//! answer is then UNKNOWN with the reason), never a verdict.
//!
//! A question over deferred sets sized by DEFAULT_SETSIZE only gets a second translation when the first
//! finds no solution: with those sets as uninterpreted sorts (`translate::Mode::AnySize`), whose `unsat`
//! holds for every size (`refute_any_size`; `Stats::any_size` then tells `solve::stream` not to
//! downgrade the Unsat).

mod model;
mod process;
mod translate;

/// A predicate typed in a machine with deferred sets (for the portfolio's tests).
#[cfg(test)]
pub(crate) use translate::tests::formula as test_formula;

use super::{Problem, Stats};
use crate::diag::Span;
use crate::eval::{Context, EvalError, Settings, limit_error};
use crate::types::Type;
use crate::value::Value;
use std::fmt::Write;

/// The solver command the settings ask for.
fn command(settings: &Settings) -> &str {
    settings
        .smt_solver
        .as_deref()
        .unwrap_or(process::DEFAULT_SOLVER)
}

/// Whether the default SMT solver (`z3 -in`) starts on this machine; asked once per process. z3 is
/// optional: without it, questions that need it are answered UNKNOWN with the reason.
pub fn default_solver_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| process::Solver::start(process::DEFAULT_SOLVER).is_ok())
}

/// For tests that need z3: whether it is there. Without it the test is skipped loudly (a line on the
/// process's stderr, which the test harness does not capture), or fails when the environment sets
/// `BSOLVE_REQUIRE_SMT=1` (CI installs z3 and sets it, so a broken installation cannot pass silently).
pub fn available_for_test(test: &str) -> bool {
    solver_for_test(test, "z3", default_solver_available())
}

/// As `available_for_test`, for another solver command (e.g. cvc5's).
pub fn command_available_for_test(test: &str, command: &str) -> bool {
    let name = command.split_whitespace().next().unwrap_or(command);
    solver_for_test(test, name, process::Solver::start(command).is_ok())
}

fn solver_for_test(test: &str, name: &str, available: bool) -> bool {
    if available {
        return true;
    }
    if std::env::var("BSOLVE_REQUIRE_SMT").is_ok_and(|v| v == "1") {
        panic!(
            "{test}: needs {name}, which could not be started, and BSOLVE_REQUIRE_SMT=1 requires it"
        );
    }
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: needs the optional SMT solver {name}, which is not installed \
         (apt install {name}; BSOLVE_REQUIRE_SMT=1 turns this skip into a failure)"
    );
    false
}

/// The solver's name and version, from SMT-LIB's `(get-info :name)` / `(get-info :version)`.
pub fn solver_version(settings: &Settings) -> Result<String, String> {
    let cmd = command(settings);
    let mut solver = process::Solver::start(cmd)?;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let deadline = || {
        if std::time::Instant::now() < until {
            Ok(())
        } else {
            Err(limit_error(Span::default(), "no answer within 5 s"))
        }
    };
    let mut ask = |what: &str| -> Result<String, String> {
        solver
            .send(&format!("(get-info :{what})\n"))
            .map_err(|e| e.to_string())?;
        let answer = solver.answer(&deadline).map_err(|e| e.to_string())?;
        match model::parse(&answer) {
            Ok(model::Sexp::List(items)) => match items.get(1) {
                Some(model::Sexp::Str(s)) => Ok(s.clone()),
                Some(model::Sexp::Atom(s)) => Ok(s.clone()),
                _ => Err(format!("unexpected answer {answer}")),
            },
            _ => Err(format!("unexpected answer {answer}")),
        }
    };
    let name = ask("name")?;
    let version = ask("version")?;
    Ok(format!("{name} {version} (`{cmd}`)"))
}

/// Streams the solutions of `problem`; returns whether the search was exhaustive. When the question
/// depends on deferred sets of default size, the search over that size gets half of the time, and its
/// Unsat (or failure) is followed by `refute_any_size` (which sets `stats.any_size` when it succeeds).
pub(crate) fn solve(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    if !(problem.sizes_matter && ctx.depends_on_default_sizes(problem.vars, problem.pred)) {
        return solve_exact(ctx, problem, on_solution, stats);
    }
    let half = crate::eval::share_of_time_left(ctx.deadline(), 1, 2);
    let mut reported = false;
    let exact = ctx.with_stage_deadline(half, || {
        solve_exact(
            ctx,
            problem,
            &mut |values, witnesses| {
                reported = true;
                on_solution(values, witnesses)
            },
            stats,
        )
    });
    if reported {
        return exact;
    }
    match refute_any_size(ctx, problem) {
        Ok(true) => {
            stats.any_size = true;
            Ok(true)
        }
        // The exact search's verdict (an Unsat for the default sizes) or why it failed.
        _ => exact,
    }
}

/// Whether `problem` translates to SMT-LIB (in the exact mode `solve` starts with), without asking a
/// solver.
pub(crate) fn translates(ctx: &Context, problem: &Problem<'_>) -> bool {
    translate::translate(
        ctx,
        problem.vars,
        problem.pred,
        problem.env,
        translate::Mode::Exact,
    )
    .is_ok()
}

/// Whether `problem` is proved to have no solution whatever the (finite, non-empty) sizes of the deferred
/// sets sized by DEFAULT_SETSIZE only: `Ok(true)` when the solver answers `unsat` with those sets as
/// uninterpreted sorts, `Ok(false)` when it finds a model (not a solution: its carriers may be larger
/// than the interpreter's, or infinite), an error when the problem does not translate in that mode or
/// the solver cannot answer.
pub(crate) fn refute_any_size(ctx: &Context, problem: &Problem<'_>) -> Result<bool, EvalError> {
    let span = problem.pred.span;
    let script = translate::translate(
        ctx,
        problem.vars,
        problem.pred,
        problem.env,
        translate::Mode::AnySize,
    )?;
    let mut solver = open_solver(ctx, span)?;
    let mut text = String::from("(set-logic ALL)\n");
    text.push_str(&script.text);
    text.push_str("(check-sat)\n");
    solver.send(&text)?;
    let answer = solver.answer(&|| ctx.check_deadline(span))?;
    let result = match answer.as_str() {
        "unsat" => Ok(true),
        "sat" => Ok(false),
        other => Err(limit_error(
            span,
            format!("the SMT solver answered {other} (deferred sets as uninterpreted sorts)"),
        )),
    };
    if result.is_ok() {
        release(solver);
    }
    result
}

/// The search over the interpreter's instantiation of the deferred sets (`translate::Mode::Exact`).
fn solve_exact(
    ctx: &Context,
    problem: &Problem<'_>,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
) -> Result<bool, EvalError> {
    let span = problem.pred.span;
    let translate::Script {
        text: script,
        outputs,
        sorts,
    } = translate::translate(
        ctx,
        problem.vars,
        problem.pred,
        problem.env,
        translate::Mode::Exact,
    )?;
    let mut solver = open_solver(ctx, span)?;
    let result = search(
        ctx,
        &mut solver,
        script,
        outputs,
        sorts,
        on_solution,
        stats,
        span,
    );
    if result.is_ok() {
        release(solver);
    }
    result
}

thread_local! {
    /// The solver process of the last question, reused (after `(reset)`) by the next one: starting z3
    /// costs more than most questions. A process that failed or timed out is never kept.
    static IDLE: std::cell::RefCell<Option<process::Solver>> = const { std::cell::RefCell::new(None) };
}

/// A solver process for the command the settings name, writing what it is sent to `--dump-smt`'s file.
fn open_solver(ctx: &Context, span: Span) -> Result<process::Solver, EvalError> {
    let settings = ctx.settings();
    let mut solver = acquire(command(settings)).map_err(|e| {
        ctx.record_smt_missing();
        limit_error(span, e)
    })?;
    solver
        .dump_to(settings.dump_smt.as_deref())
        .map_err(|e| limit_error(span, e))?;
    Ok(solver)
}

fn acquire(command: &str) -> Result<process::Solver, String> {
    let idle = IDLE.with(|s| s.borrow_mut().take());
    match idle {
        Some(mut s) if s.command() == command => match s.send("(reset)\n") {
            Ok(()) => Ok(s),
            Err(_) => process::Solver::start(command),
        },
        _ => process::Solver::start(command),
    }
}

fn release(mut solver: process::Solver) {
    let _ = solver.dump_to(None);
    IDLE.with(|s| *s.borrow_mut() = Some(solver));
}

#[allow(clippy::too_many_arguments)]
fn search(
    ctx: &Context,
    solver: &mut process::Solver,
    script: String,
    outputs: Vec<translate::Output>,
    mut sorts: translate::Sorts,
    on_solution: &mut super::Found<'_>,
    stats: &mut Stats,
    span: Span,
) -> Result<bool, EvalError> {
    let deadline = || ctx.check_deadline(span);
    let mut text = String::from("(set-option :produce-models true)\n(set-logic ALL)\n");
    text.push_str(&script);
    solver.send(&text)?;
    let mut queries = Vec::new();
    let mut counts = Vec::new();
    for o in &outputs {
        let q = model::queries(o, &mut |v| sorts.literal(ctx, v, &o.ty_element(), span))?;
        counts.push(q.len());
        queries.extend(q);
    }
    loop {
        solver.send("(check-sat)\n")?;
        let answer = solver.answer(&deadline)?;
        match answer.as_str() {
            "unsat" => return Ok(true),
            "sat" => {}
            "unknown" => {
                solver.send("(get-info :reason-unknown)\n")?;
                let reason = solver.answer(&deadline).unwrap_or_default();
                return Err(limit_error(
                    span,
                    format!("the SMT solver answered unknown {reason}"),
                ));
            }
            other => {
                return Err(limit_error(
                    span,
                    format!("the SMT solver answered {other}"),
                ));
            }
        }
        stats.nodes += 1;
        let values = if outputs.is_empty() {
            Vec::new()
        } else {
            let answers = if queries.is_empty() {
                Vec::new()
            } else {
                get_values(ctx, solver, &queries, span)?
            };
            let mut values = Vec::new();
            let mut unread = Vec::new();
            let mut at = 0;
            for (i, (o, n)) in outputs.iter().zip(&counts).enumerate() {
                let part = answers.get(at..at + n).unwrap_or_default();
                at += n;
                if let Some(seq) = &o.sequence {
                    values.push(read_sequence(ctx, solver, seq, &o.ty, &sorts, span)?);
                    continue;
                }
                match model::read(o, part, &sorts) {
                    Ok(v) => values.push(v),
                    Err(e) => match (&o.ty, part.first()) {
                        (crate::types::Type::Set(elem), Some(term)) => {
                            unread.push((i, elem.clone(), term.clone(), e));
                            values.push(Value::empty_set());
                        }
                        _ => return Err(e),
                    },
                }
            }
            // Sets printed in a form `model` does not read: their members among the ground terms of the
            // printed term (while the model is current), then a proof that there are no others.
            let mut members = Vec::new();
            for (i, elem, term, _) in &unread {
                let symbol = &outputs[*i].symbol;
                members.push(if **elem == crate::types::Type::Integer {
                    None
                } else {
                    Some(read_members(
                        ctx, solver, &mut sorts, symbol, elem, term, span,
                    )?)
                });
            }
            let mut failed = Vec::new();
            for ((i, elem, term, e), set) in unread.into_iter().zip(members) {
                let ty = crate::types::Type::Set(elem);
                match set {
                    Some(set) if is_exactly(ctx, solver, &mut sorts, &term, &set, &ty, span)? => {
                        values[i] = set;
                    }
                    _ => failed.push((i, e)),
                }
            }
            match failed.first() {
                None => values,
                Some((_, e)) => {
                    let e = e.clone();
                    let failed: Vec<usize> = failed.into_iter().map(|(i, _)| i).collect();
                    // Then every set variable read as a term: in the new model, one that was read may
                    // be infinite.
                    let all: Vec<usize> = outputs
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| {
                            o.carrier.is_none()
                                && o.sequence.is_none()
                                && matches!(o.ty, Type::Set(_))
                        })
                        .map(|(i, _)| i)
                        .collect();
                    let mut finite = finite_model(
                        ctx, solver, &outputs, &counts, &queries, &mut sorts, &failed, span,
                    )?;
                    if finite.is_none() && all != failed {
                        finite = finite_model(
                            ctx, solver, &outputs, &counts, &queries, &mut sorts, &all, span,
                        )?;
                    }
                    finite.ok_or(e)?
                }
            }
        };
        if !on_solution(&values, &[])? {
            return Ok(true);
        }
        if values.is_empty() {
            // The only assignment of no variables has been reported.
            return Ok(true);
        }
        let block = blocking_clause(ctx, &outputs, &mut sorts, &values, span)?;
        solver.send(&block)?;
    }
}

/// A model whose set variables `failed` (among them those printed as sets the reader cannot enumerate,
/// such as `(lambda ((x Int)) (>= x 0))`) are finite: in a pushed scope, each of them included in `k` fresh
/// elements, for a few `k`; the values of every variable, or `None` when no such model is found.
#[allow(clippy::too_many_arguments)]
fn finite_model(
    ctx: &Context,
    solver: &mut process::Solver,
    outputs: &[translate::Output],
    counts: &[usize],
    queries: &[String],
    sorts: &mut translate::Sorts,
    failed: &[usize],
    span: Span,
) -> Result<Option<Vec<Value>>, EvalError> {
    const SIZES: [usize; 2] = [8, 64];
    let deadline = || ctx.check_deadline(span);
    for k in SIZES {
        let mut text = String::from("(push 1)\n");
        let mut elements = Vec::new();
        for &i in failed {
            let o = &outputs[i];
            let elem = o.ty_element();
            let sort = sorts.sort(ctx, &elem, span)?;
            let names: Vec<String> = (0..k).map(|j| format!("fin!{i}!{j}")).collect();
            for n in &names {
                let _ = writeln!(text, "(declare-const {n} {sort})");
            }
            let among: Vec<String> = names.iter().map(|n| format!("(= x!fin {n})")).collect();
            let _ = writeln!(
                text,
                "(assert (forall ((x!fin {sort})) (=> (select {} x!fin) (or {}))))",
                o.symbol,
                among.join(" ")
            );
            elements.push((i, elem, names));
        }
        text.push_str("(check-sat)\n");
        solver.send(&text)?;
        let answer = solver.answer(&deadline)?;
        if answer != "sat" {
            solver.send("(pop 1)\n")?;
            continue;
        }
        let values = read_finite(
            ctx, solver, outputs, counts, queries, sorts, &elements, span,
        );
        solver.send("(pop 1)\n")?;
        if let Ok(values) = values {
            return Ok(Some(values));
        }
    }
    Ok(None)
}

/// The values of the outputs in the current model, the sets `elements` names read as the fresh elements
/// they contain.
#[allow(clippy::too_many_arguments)]
fn read_finite(
    ctx: &Context,
    solver: &mut process::Solver,
    outputs: &[translate::Output],
    counts: &[usize],
    queries: &[String],
    sorts: &translate::Sorts,
    elements: &[(usize, crate::types::Type, Vec<String>)],
    span: Span,
) -> Result<Vec<Value>, EvalError> {
    let answers = if queries.is_empty() {
        Vec::new()
    } else {
        get_values(ctx, solver, queries, span)?
    };
    let mut values = Vec::new();
    let mut at = 0;
    for (i, (o, n)) in outputs.iter().zip(counts).enumerate() {
        let part = answers.get(at..at + n).unwrap_or_default();
        at += n;
        if let Some(seq) = &o.sequence {
            values.push(read_sequence(ctx, solver, seq, &o.ty, sorts, span)?);
            continue;
        }
        match elements.iter().find(|(j, _, _)| *j == i) {
            Some((_, elem, names)) => {
                let mut terms = names.clone();
                terms.extend(names.iter().map(|n| format!("(select {} {n})", o.symbol)));
                let got = get_values(ctx, solver, &terms, span)?;
                let (members, inside) = got.split_at(names.len().min(got.len()));
                let mut set = Vec::new();
                for (m, b) in members.iter().zip(inside) {
                    if *b == model::Sexp::Atom("true".into()) {
                        set.push(model::value(m, elem, sorts)?);
                    }
                }
                values.push(model::set_of(set));
            }
            None => values.push(model::read(o, part, sorts)?),
        }
    }
    Ok(values)
}

/// The solver's values of `terms` in the current model, in order.
fn get_values(
    ctx: &Context,
    solver: &mut process::Solver,
    terms: &[String],
    span: Span,
) -> Result<Vec<model::Sexp>, EvalError> {
    solver.send(&format!("(get-value ({}))\n", terms.join(" ")))?;
    let answer = solver.answer(&|| ctx.check_deadline(span))?;
    let parsed = model::parse(&answer).map_err(|e| limit_error(span, e))?;
    model::pairs(&parsed)
}

/// The value of a sequence variable in the current model: its length, then its elements `1..length`.
fn read_sequence(
    ctx: &Context,
    solver: &mut process::Solver,
    seq: &translate::SequenceOutput,
    ty: &Type,
    sorts: &translate::Sorts,
    span: Span,
) -> Result<Value, EvalError> {
    /// The longest sequence read from a model.
    const MAX_LENGTH: usize = 100_000;
    let Some(Type::Pair(_, elem)) = ty.element() else {
        return Err(limit_error(
            span,
            "SMT backend: a sequence of unexpected type",
        ));
    };
    let len = match get_values(ctx, solver, std::slice::from_ref(&seq.len), span)?.first() {
        Some(term) => model::value(term, &Type::Integer, sorts)?,
        None => return Err(limit_error(span, "SMT backend: no length in the model")),
    };
    let len = len
        .as_int()
        .and_then(|n| n.to_usize())
        .filter(|n| *n <= MAX_LENGTH)
        .ok_or_else(|| limit_error(span, format!("SMT backend: a sequence of length {len}")))?;
    if len == 0 {
        return Ok(Value::sequence(Vec::new()));
    }
    let terms: Vec<String> = (1..=len)
        .map(|i| format!("(select {} {i})", seq.elems))
        .collect();
    let items = get_values(ctx, solver, &terms, span)?
        .iter()
        .map(|t| model::value(t, elem, sorts))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::sequence(items))
}

/// The members of the set variable `symbol`, printed as `term`, among the ground subterms of `term` of
/// the element type.
fn read_members(
    ctx: &Context,
    solver: &mut process::Solver,
    sorts: &mut translate::Sorts,
    symbol: &str,
    elem: &crate::types::Type,
    term: &model::Sexp,
    span: Span,
) -> Result<Value, EvalError> {
    let mut candidates = Vec::new();
    model::ground_values(term, elem, sorts, &mut candidates);
    candidates.sort();
    candidates.dedup();
    let mut members = Vec::new();
    if candidates.is_empty() {
        return Ok(Value::empty_set());
    }
    let mut tests = Vec::new();
    for c in &candidates {
        let lit = sorts.literal(ctx, c, elem, span)?;
        tests.push(format!("(select {symbol} {lit})"));
    }
    solver.send(&format!("(get-value ({}))\n", tests.join(" ")))?;
    let answer = solver.answer(&|| ctx.check_deadline(span))?;
    let parsed = model::parse(&answer).map_err(|e| limit_error(span, e))?;
    for (c, a) in candidates.iter().zip(model::pairs(&parsed)?) {
        if a == model::Sexp::Atom("true".into()) {
            members.push(c.clone());
        }
    }
    Ok(model::set_of(members))
}

/// Whether the printed set `term` is exactly `set`, proved by the solver in a pushed scope.
fn is_exactly(
    ctx: &Context,
    solver: &mut process::Solver,
    sorts: &mut translate::Sorts,
    term: &model::Sexp,
    set: &Value,
    ty: &crate::types::Type,
    span: Span,
) -> Result<bool, EvalError> {
    let lit = sorts.literal(ctx, set, ty, span)?;
    solver.send(&format!(
        "(push 1)\n(assert (not (= {term} {lit})))\n(check-sat)\n"
    ))?;
    let answer = solver.answer(&|| ctx.check_deadline(span))?;
    solver.send("(pop 1)\n")?;
    Ok(answer == "unsat")
}

/// `(assert (not (and (= v1 value1) ...)))` for a found solution.
fn blocking_clause(
    ctx: &Context,
    outputs: &[translate::Output],
    sorts: &mut translate::Sorts,
    values: &[Value],
    span: Span,
) -> Result<String, EvalError> {
    let mut parts = Vec::new();
    for (o, v) in outputs.iter().zip(values) {
        if let (Some(seq), Some(items), Some(Type::Pair(_, elem))) =
            (&o.sequence, v.as_sequence(), o.ty.element())
        {
            parts.push(format!("(= {} {})", seq.len, items.len()));
            for (i, item) in items.iter().enumerate() {
                let lit = sorts.literal(ctx, item, elem, span)?;
                parts.push(format!("(= (select {} {}) {lit})", seq.elems, i + 1));
            }
            continue;
        }
        match (&o.carrier, v) {
            (Some(carrier), Value::Set(members)) => {
                let elem = o.ty_element();
                for c in carrier {
                    let lit = sorts.literal(ctx, c, &elem, span)?;
                    let b = members.binary_search(c).is_ok();
                    parts.push(format!("(= (select {} {lit}) {b})", o.symbol));
                }
            }
            _ => {
                let lit = sorts.literal(ctx, v, &o.ty, span)?;
                parts.push(format!("(= {} {lit})", o.symbol));
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(text, "(assert (not (and true {})))", parts.join(" "));
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Env;

    fn refute(text: &str) -> Result<bool, EvalError> {
        let (ctx, vars, pred) = translate::tests::formula(text);
        let env = Env::new();
        refute_any_size(&ctx, &Problem::new(&vars, &pred, &env))
    }

    #[test]
    fn unsat_over_a_sort_holds_for_every_size() {
        if !crate::solve::smt::available_for_test("unsat_over_a_sort_holds_for_every_size") {
            return;
        }
        for text in [
            "x : S & not(x : S)",
            "f : S >-> {1} & a : S & b : S & a /= b",
            "!x.(x : S => x = a) & b : S & b /= a",
            "a : S & b : S & card({a, b}) = 3",
        ] {
            assert_eq!(refute(text).ok(), Some(true), "{text}");
        }
    }

    #[test]
    fn size_dependent_predicates_are_not_refuted() {
        if !crate::solve::smt::available_for_test("size_dependent_predicates_are_not_refuted") {
            return;
        }
        // No solution with two elements, solutions with three (or one).
        for text in [
            "a : S & b : S & c : S & a /= b & b /= c & a /= c",
            "!(x, y).(x : S & y : S => x = y)",
            "f : 1..3 >-> S",
        ] {
            assert_eq!(refute(text).ok(), Some(false), "{text}");
        }
        // The size itself does not translate.
        assert!(refute("card(S) = 3").is_err());
    }
}
