//! Constraint-based checking (Hallerstede & Leuschel): questions about one step of the machine, asked of
//! the solver over constants, a state, parameters and an after-state, with no exploration from the
//! INITIALISATION.
//!
//! * `invariant_preservation` (`bsolve cbc FILE [OP|all]`): PROPERTIES & INV(x) & BA(op)(x, p, x') &
//!   not INV(x'); also PROPERTIES & BA(INITIALISATION)(x') & not INV(x').
//! * `deadlock` (`bsolve cbc-deadlock`): PROPERTIES & INV(x) [& P(x)] & no operation enabled.
//! * `assertions` (`bsolve cbc-assertions`): PROPERTIES & not A for each ASSERTION on constants only.
//! * `sequence` (`bsolve cbc-sequence`): constants, initial state and parameters making `op1;op2;..`
//!   executable.
//!
//! Every answer is justified: a counterexample is re-checked by the interpreter (inside `solve::`) and
//! replayed (the operation executed from the before-state reaches the after-state, which violates the
//! invariant); "preserved" / "proved" only from a complete Unsat; anything else is UNKNOWN.

use super::Model;
use super::mc::Step;
use super::setup::Assignment;
use crate::analysis::before_after::{self, and, pred_in_copy, state_copy};
use crate::diag::{DiagKind, Diagnostic, Span, register_source};
use crate::eval::{Env, EvalError, SymbolicConstant};
use crate::ir::{Machine, Operation, Pred, PredKind, TypedName};
use crate::solve::{self, Answer, Problem};
use crate::syntax;
use crate::types::{self, Formula};
use crate::value::Value;
use std::time::{Duration, Instant};

/// What one solver question gave.
#[derive(Clone, Debug)]
pub(crate) enum Search {
    Found(Vec<Value>),
    /// No solution; `complete` only when the search was exhaustive.
    Empty {
        complete: bool,
    },
    Unknown(String),
}

pub(crate) const INCOMPLETE: &str =
    "no solution found, but the search was bounded (MININT..MAXINT or default deferred-set sizes)";

/// How an Unknown from an exhaustive search that met ill-defined candidates begins.
pub(crate) const NO_WELL_DEFINED: &str = "no well-defined counterexample";

/// A search that found nothing but met candidates on which the predicate is ill-defined proves nothing
/// here: such a state is one where an invariant, a guard or a substitution is ill-defined (ProB reports
/// an error or a deadlock there), so "no counterexample" would hide it.
pub(crate) fn search(model: &Model, vars: &[TypedName], pred: &Pred, env: &Env) -> Search {
    search_with(model, model.context.settings().backend, vars, pred, env)
}

/// `search` with the given backend.
pub(crate) fn search_with(
    model: &Model,
    backend: crate::solve::Backend,
    vars: &[TypedName],
    pred: &Pred,
    env: &Env,
) -> Search {
    model.context.take_unknown_note();
    let symbolic = match model.context.symbolic_constants() {
        Ok(all) => all,
        Err(e) => return Search::Unknown(e.to_string()),
    };
    let bound: Vec<&SymbolicConstant> = symbolic
        .iter()
        .filter(|s| vars.iter().any(|v| v.name == s.name))
        .collect();
    if !bound.is_empty() {
        return search_binding_symbolic(model, backend, vars, pred, env, &bound);
    }
    match solve::first(&model.context, &Problem::new(vars, pred, env), backend) {
        Answer::Sat(values) => Search::Found(values),
        Answer::Unsat { complete: true } => match model.context.take_ill_defined_note() {
            Some(note) => Search::Unknown(format!("{NO_WELL_DEFINED}; {note}")),
            None => Search::Empty { complete: true },
        },
        Answer::Unsat { complete } => Search::Empty { complete },
        Answer::Unknown(reason) => Search::Unknown(reason),
    }
}

/// `search_with` where some of `vars` are constants kept symbolic (a recursive lambda, an infinite
/// set): they are not searched for, as a constant setup does not search for them — each is bound to
/// its value (found by name through the context) and its defining conjunct, true by construction, is
/// left out; a solution holds their setup placeholders, which `bind_constants` turns back into them.
fn search_binding_symbolic(
    model: &Model,
    backend: crate::solve::Backend,
    vars: &[TypedName],
    pred: &Pred,
    env: &Env,
    bound: &[&SymbolicConstant],
) -> Search {
    let held = |v: &TypedName| bound.iter().find(|s| s.name == v.name);
    let searched: Vec<TypedName> = vars.iter().filter(|v| held(v).is_none()).cloned().collect();
    let kept: Vec<Pred> = pred
        .conjuncts()
        .into_iter()
        .filter(|c| bound.iter().all(|s| **c != s.defined_by))
        .cloned()
        .collect();
    let pred = Pred::new(PredKind::And(kept), pred.span);
    match search_with(model, backend, &searched, &pred, env) {
        Search::Found(values) => {
            let mut values = values.into_iter();
            let all = vars
                .iter()
                .map(|v| match held(v) {
                    Some(s) => Some(s.placeholder()),
                    None => values.next(),
                })
                .collect::<Option<Vec<Value>>>();
            match all {
                Some(all) => Search::Found(all),
                None => Search::Unknown("a solution lacks a value".into()),
            }
        }
        other => other,
    }
}

/// The machine parameters and constants, solved for with everything else.
pub(crate) fn constant_vars(m: &Machine) -> Vec<TypedName> {
    m.params.iter().chain(&m.constants).cloned().collect()
}

/// CONSTRAINTS & PROPERTIES.
pub(crate) fn properties(m: &Machine) -> Pred {
    and(
        vec![m.constraints.clone(), m.properties.clone()],
        m.properties.span,
    )
}

/// Values named by the user's names (`x@3` printed as `x`).
pub(crate) fn assignment(names: &[TypedName], values: &[Value]) -> Assignment {
    names
        .iter()
        .zip(values)
        .map(|(n, v)| {
            let base = n.name.rsplit_once('@').map_or(&*n.name, |(b, _)| b);
            (base.into(), v.clone())
        })
        .collect()
}

/// Refuses machines the symbolic checks have nothing to say about.
pub(crate) fn require_variables(model: &Model) -> Result<(), Diagnostic> {
    if model.machine().variables.is_empty() {
        return Err(Diagnostic::new(
            DiagKind::Usage,
            model.machine().span,
            format!(
                "machine {} has no VARIABLES: there is no state to check (use `bsolve cbc-assertions` for \
                 assertions on constants)",
                model.machine().name
            ),
        ));
    }
    Ok(())
}

fn usage(message: String) -> Diagnostic {
    Diagnostic::new(DiagKind::Usage, Span::default(), message)
}

/// The operation called `name`.
pub(crate) fn find_operation<'m>(m: &'m Machine, name: &str) -> Result<&'m Operation, Diagnostic> {
    m.operations
        .iter()
        .find(|o| &*o.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = m.operations.iter().map(|o| &*o.name).collect();
            usage(format!(
                "machine {} has no operation `{name}` (operations: {})",
                m.name,
                known.join(", ")
            ))
        })
}

/// One invariant-preservation check.
#[derive(Clone, Debug)]
pub struct OperationCheck {
    /// The operation, or `INITIALISATION`.
    pub operation: String,
    pub outcome: CbcOutcome,
    pub elapsed: Duration,
}

#[derive(Clone, Debug)]
pub enum CbcOutcome {
    /// Complete Unsat: no state satisfying the invariant leads to one violating it.
    Preserved,
    /// The operation writes no variable the invariant mentions: preserved by its frame conditions.
    Untouched,
    Violated(CbcCounterexample),
    Unknown(String),
}

/// A before-state satisfying PROPERTIES and INVARIANT, parameters, and an after-state violating the
/// invariant; replayed by the interpreter.
#[derive(Clone, Debug)]
pub struct CbcCounterexample {
    pub constants: Assignment,
    /// Empty for the INITIALISATION.
    pub before: Assignment,
    pub params: Assignment,
    pub after: Assignment,
    /// The invariant conjuncts false (or ill-defined) in the after-state.
    pub violated: Vec<Span>,
}

/// `bsolve cbc FILE [OP|all]`: `operation` None or `all` checks the INITIALISATION and every operation.
pub fn invariant_preservation(
    model: &Model,
    operation: Option<&str>,
) -> Result<Vec<OperationCheck>, Diagnostic> {
    invariant_preservation_of(model, operation, None, &mut |_| {})
}

/// What `invariant_preservation_of` reports as it goes: a check starts, a check is done (so that a
/// caller can print each verdict as soon as it is known).
pub enum CbcEvent<'a> {
    Started {
        operation: &'a str,
        index: usize,
        total: usize,
    },
    Done(&'a OperationCheck),
}

/// `bsolve cbc FILE [OP|all] --invariant PRED`: as `invariant_preservation` with PRED (a predicate over
/// the constants and variables) in place of the INVARIANT, e.g. to re-check the inductive invariant
/// `bsolve ic3` prints.
pub fn invariant_preservation_of(
    model: &Model,
    operation: Option<&str>,
    invariant: Option<&str>,
    progress: &mut dyn FnMut(CbcEvent<'_>),
) -> Result<Vec<OperationCheck>, Diagnostic> {
    require_variables(model)?;
    let m = model.machine();
    let inv = match invariant {
        Some(text) => state_predicate(model, text, "--invariant")?,
        None => m.invariant.clone(),
    };
    let ops: Vec<&Operation> = match operation {
        None | Some("all") => m.operations.iter().collect(),
        Some(name) => vec![find_operation(m, name)?],
    };
    let with_init = matches!(operation, None | Some("all"));
    let total = ops.len() + usize::from(with_init);
    let mut out = Vec::new();
    if with_init {
        progress(CbcEvent::Started {
            operation: "INITIALISATION",
            index: 0,
            total,
        });
        let check = check_initialisation(model, &inv)?;
        progress(CbcEvent::Done(&check));
        out.push(check);
    }
    for op in ops {
        progress(CbcEvent::Started {
            operation: &op.name,
            index: out.len(),
            total,
        });
        let check = check_operation_or_unknown(model, op, &inv)?;
        progress(CbcEvent::Done(&check));
        out.push(check);
    }
    Ok(out)
}

fn check_initialisation(model: &Model, inv: &Pred) -> Result<OperationCheck, Diagnostic> {
    let start = Instant::now();
    let m = model.machine();
    let consts = constant_vars(m);
    let after = state_copy(m, 1);
    let pred = and(
        vec![
            properties(m),
            before_after::initialisation(m, 1)?,
            not(pred_in_copy(m, inv, 1)),
        ],
        m.initialisation.span,
    );
    let vars: Vec<TypedName> = consts.iter().chain(&after).cloned().collect();
    let outcome = match search(model, &vars, &pred, &Env::new()) {
        Search::Found(values) => {
            let (c, a) = values.split_at(consts.len());
            let violated = violated_conjuncts_of(model, inv, c, a)?;
            let replay = replay_initialisation(model, c, a);
            let cex = CbcCounterexample {
                constants: assignment(&consts, c),
                before: vec![],
                params: vec![],
                after: assignment(&after, a),
                violated,
            };
            confirmed(cex, replay)
        }
        Search::Empty { complete: true } => CbcOutcome::Preserved,
        Search::Empty { complete: false } => CbcOutcome::Unknown(INCOMPLETE.into()),
        Search::Unknown(r) => CbcOutcome::Unknown(r),
    };
    Ok(OperationCheck {
        operation: "INITIALISATION".into(),
        outcome,
        elapsed: start.elapsed(),
    })
}

/// `check_operation`, or UNKNOWN when the budget is spent before it starts or the translation cannot
/// take the operation (the other operations are still checked).
fn check_operation_or_unknown(
    model: &Model,
    op: &Operation,
    inv: &Pred,
) -> Result<OperationCheck, Diagnostic> {
    let unknown = |reason: String| OperationCheck {
        operation: op.name.to_string(),
        outcome: CbcOutcome::Unknown(reason),
        elapsed: Duration::ZERO,
    };
    if let Err(e) = model.context.check_deadline(op.span) {
        return Ok(unknown(e.to_string()));
    }
    match check_operation(model, op, inv) {
        Err(d) if d.kind == DiagKind::Unsupported => Ok(unknown(d.to_string())),
        other => other,
    }
}

fn check_operation(
    model: &Model,
    op: &Operation,
    inv: &Pred,
) -> Result<OperationCheck, Diagnostic> {
    let start = Instant::now();
    let m = model.machine();
    let consts = constant_vars(m);
    let before = state_copy(m, 0);
    let after = state_copy(m, 1);
    let t = before_after::operation(m, op, 0, 1)?;
    // Only the invariant conjuncts mentioning a variable the operation writes can become false: the
    // others keep their value (frame conditions). Asking only about those keeps the negated invariant
    // small (LTSmin-style read/write dependencies).
    let written = before_after::read_write(m, op).writes;
    let touched: Vec<Pred> = inv
        .conjuncts()
        .into_iter()
        .filter(|c| {
            crate::ir::free_names::of_pred(c)
                .iter()
                .any(|n| written.contains(n))
        })
        .cloned()
        .collect();
    if touched.is_empty() {
        return Ok(OperationCheck {
            operation: op.name.to_string(),
            outcome: CbcOutcome::Untouched,
            elapsed: start.elapsed(),
        });
    }
    let pred = and(
        vec![
            properties(m),
            pred_in_copy(m, inv, 0),
            t.pred,
            not(pred_in_copy(m, &and(touched, inv.span), 1)),
        ],
        op.span,
    );
    let vars: Vec<TypedName> = consts
        .iter()
        .chain(&before)
        .chain(&t.params)
        .chain(&t.outputs)
        .chain(&after)
        .cloned()
        .collect();
    let outcome = match search(model, &vars, &pred, &Env::new()) {
        Search::Found(values) => {
            let (c, rest) = values.split_at(consts.len());
            let (b, rest) = rest.split_at(before.len());
            let (p, rest) = rest.split_at(t.params.len());
            let a = &rest[t.outputs.len()..];
            let violated = violated_conjuncts_of(model, inv, c, a)?;
            let replay = replay_operation(model, op, c, b, p, a).map(|_| ());
            let cex = CbcCounterexample {
                constants: assignment(&consts, c),
                before: assignment(&before, b),
                params: assignment(&t.params, p),
                after: assignment(&after, a),
                violated,
            };
            confirmed(cex, replay)
        }
        Search::Empty { complete: true } => CbcOutcome::Preserved,
        Search::Empty { complete: false } => CbcOutcome::Unknown(INCOMPLETE.into()),
        Search::Unknown(r) => CbcOutcome::Unknown(r),
    };
    Ok(OperationCheck {
        operation: op.name.to_string(),
        outcome,
        elapsed: start.elapsed(),
    })
}

/// A counterexample the interpreter could not replay is not printed as one (it would be a solver or
/// before-after bug).
fn confirmed(cex: CbcCounterexample, replay: Result<(), String>) -> CbcOutcome {
    match replay {
        Ok(()) if !cex.violated.is_empty() => CbcOutcome::Violated(cex),
        Ok(()) => CbcOutcome::Unknown(
            "internal: the solver's after-state satisfies the invariant when re-evaluated".into(),
        ),
        Err(why) => CbcOutcome::Unknown(format!(
            "counterexample not confirmed by the interpreter: {why}"
        )),
    }
}

pub(crate) fn not(p: Pred) -> Pred {
    let span = p.span;
    Pred::new(PredKind::Not(Box::new(p)), span)
}

/// The environment of a state: constants, then the variables under their own names.
pub(crate) fn state_env(
    model: &Model,
    constants: &[Value],
    state: &[Value],
) -> Result<Env, String> {
    let mut env = model
        .context
        .constants_env(constants)
        .map_err(|e| e.to_string())?;
    for (v, x) in model.machine().variables.iter().zip(state) {
        env.bind(v.name.clone(), x.clone());
    }
    Ok(env)
}

/// The invariant conjuncts false or ill-defined in `state`.
pub(crate) fn violated_conjuncts(
    model: &Model,
    constants: &[Value],
    state: &[Value],
) -> Result<Vec<Span>, Diagnostic> {
    violated_conjuncts_of(model, &model.machine().invariant, constants, state)
}

/// The conjuncts of `inv` false or ill-defined in `state`.
fn violated_conjuncts_of(
    model: &Model,
    inv: &Pred,
    constants: &[Value],
    state: &[Value],
) -> Result<Vec<Span>, Diagnostic> {
    let env = state_env(model, constants, state)
        .map_err(|e| Diagnostic::new(DiagKind::Internal, model.machine().span, e))?;
    let mut out = Vec::new();
    for c in inv.conjuncts() {
        match model.context.eval_pred(c, &env) {
            Ok(true) => {}
            Ok(false) | Err(EvalError::WellDefinedness(_)) => out.push(c.span),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}

/// Checks that the INITIALISATION can produce `state`: by evaluating its before-after predicate on the
/// state when that predicate is exact (one membership test, where executing `ct :: 0..(2**25 - 1)` would
/// list the outcomes up to the one sought), else by executing it.
pub(crate) fn replay_initialisation(
    model: &Model,
    constants: &[Value],
    state: &[Value],
) -> Result<(), String> {
    let ctx = &model.context;
    let m = model.machine();
    let env = ctx.constants_env(constants).map_err(|e| e.to_string())?;
    if !ctx
        .eval_pred(&properties(m), &env)
        .map_err(|e| e.to_string())?
    {
        return Err("the constants do not satisfy PROPERTIES".into());
    }
    if before_after::is_exact(&m.initialisation) {
        let ba = before_after::initialisation(m, 0).map_err(|d| d.to_string())?;
        let mut env = env.clone();
        for (v, x) in state_copy(m, 0).iter().zip(state) {
            env.bind(v.name.clone(), x.clone());
        }
        // An evaluation error (a construct the interpreter cannot decide on the state alone) leaves the
        // question to the execution below.
        match ctx.eval_pred(&ba, &env) {
            Ok(true) => return Ok(()),
            Ok(false) => return Err("the INITIALISATION does not produce this state".into()),
            Err(_) => {}
        }
    }
    let reached = |outcomes: &[crate::eval::Updates]| {
        outcomes.iter().any(|u| {
            m.variables
                .iter()
                .zip(state)
                .all(|(v, x)| u.iter().any(|(n, y)| *n == v.name && y == x))
        })
    };
    match ctx.execute(&m.initialisation, &env) {
        Ok(outcomes) if reached(&outcomes) => Ok(()),
        Ok(_) => Err("the INITIALISATION does not produce this state".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// Executes `op` with `params` from `before` and checks `after` is one of its outcomes; returns the
/// outputs of that outcome.
pub(crate) fn replay_operation(
    model: &Model,
    op: &Operation,
    constants: &[Value],
    before: &[Value],
    params: &[Value],
    after: &[Value],
) -> Result<Assignment, String> {
    let m = model.machine();
    let mut env = state_env(model, constants, before)?;
    for (p, v) in op.params.iter().zip(params) {
        env.bind(p.name.clone(), v.clone());
    }
    let outcomes = model
        .context
        .execute_operation(&op.outputs, &op.body, &env)
        .map_err(|e| e.to_string())?;
    for u in outcomes {
        let lookup = |name: &str| u.iter().find(|(n, _)| &**n == name).map(|(_, v)| v);
        let same = m
            .variables
            .iter()
            .zip(before.iter().zip(after))
            .all(|(v, (old, new))| lookup(&v.name).unwrap_or(old) == new);
        if same {
            return Ok(op
                .outputs
                .iter()
                .filter_map(|o| lookup(&o.name).map(|v| (o.name.clone(), v.clone())))
                .collect());
        }
    }
    Err(format!(
        "executing {} from the before-state does not reach the after-state",
        op.name
    ))
}

/// Finds an operation and parameters leading from `before` to `after` (solving each operation's BA with
/// both states known) and replays it; the trace step, or why none was confirmed.
pub(crate) fn replay_step(
    model: &Model,
    constants: &[Value],
    before: &[Value],
    after: &[Value],
    only: Option<&Operation>,
) -> Result<Step, String> {
    let m = model.machine();
    let mut env = model
        .context
        .constants_env(constants)
        .map_err(|e| e.to_string())?;
    for ((v0, v1), (x0, x1)) in state_copy(m, 0)
        .iter()
        .zip(state_copy(m, 1))
        .zip(before.iter().zip(after))
    {
        env.bind(v0.name.clone(), x0.clone());
        env.bind(v1.name.clone(), x1.clone());
    }
    let candidates: Vec<&Operation> = match only {
        Some(op) => vec![op],
        None => m.operations.iter().collect(),
    };
    let mut why = Vec::new();
    for op in candidates {
        let t = before_after::operation(m, op, 0, 1).map_err(|d| d.to_string())?;
        let vars: Vec<TypedName> = t.params.iter().chain(&t.outputs).cloned().collect();
        let params = match search(model, &vars, &t.pred, &env) {
            Search::Found(values) => values[..t.params.len()].to_vec(),
            Search::Empty { .. } => continue,
            Search::Unknown(r) => {
                why.push(format!("{}: {r}", op.name));
                continue;
            }
        };
        match replay_operation(model, op, constants, before, &params, after) {
            Ok(outputs) => {
                let changed = m
                    .variables
                    .iter()
                    .zip(before.iter().zip(after))
                    .filter(|(_, (old, new))| old != new)
                    .map(|(v, (_, new))| (v.name.clone(), new.clone()))
                    .collect();
                return Ok(Step {
                    label: op.name.to_string(),
                    params: assignment(&op.params, &params),
                    outputs,
                    changed,
                });
            }
            Err(e) => why.push(e),
        }
    }
    Err(if why.is_empty() {
        "no operation leads from one state of the trace to the next".into()
    } else {
        why.join("; ")
    })
}

/// The SETUP_CONSTANTS and INITIALISATION steps of a trace, replayed.
pub(crate) fn initial_steps(
    model: &Model,
    constants: &[Value],
    state: &[Value],
) -> Result<Vec<Step>, String> {
    replay_initialisation(model, constants, state)?;
    let m = model.machine();
    let mut steps = Vec::new();
    if !constants.is_empty() {
        steps.push(Step {
            label: "SETUP_CONSTANTS".into(),
            params: vec![],
            outputs: vec![],
            changed: assignment(&constant_vars(m), constants),
        });
    }
    steps.push(Step {
        label: "INITIALISATION".into(),
        params: vec![],
        outputs: vec![],
        changed: assignment(&m.variables, state),
    });
    Ok(steps)
}

/// A state where no operation is enabled.
#[derive(Clone, Debug)]
pub enum DeadlockOutcome {
    /// Complete Unsat: every state satisfying PROPERTIES and INVARIANT (and the predicate) enables some
    /// operation.
    NoDeadlock,
    Deadlock {
        constants: Assignment,
        state: Assignment,
    },
    Unknown(String),
}

/// `bsolve cbc-deadlock FILE [--pred P]`.
pub fn deadlock(
    model: &Model,
    restrict: Option<&str>,
) -> Result<(DeadlockOutcome, Duration), Diagnostic> {
    require_variables(model)?;
    let start = Instant::now();
    let m = model.machine();
    let mut parts = vec![properties(m), pred_in_copy(m, &m.invariant, 0)];
    if let Some(text) = restrict {
        parts.push(pred_in_copy(m, &state_predicate(model, text, "--pred")?, 0));
    }
    for op in &m.operations {
        parts.push(not(before_after::enabling(m, op, 0)?));
    }
    let pred = and(parts, m.span);
    let consts = constant_vars(m);
    let state = state_copy(m, 0);
    let vars: Vec<TypedName> = consts.iter().chain(&state).cloned().collect();
    let outcome = match search(model, &vars, &pred, &Env::new()) {
        Search::Found(values) => {
            let (c, s) = values.split_at(consts.len());
            let st = crate::eval::State { values: s.to_vec() };
            match model.context.successors(c, &st, 1) {
                Ok(ts) if ts.is_empty() => DeadlockOutcome::Deadlock {
                    constants: assignment(&consts, c),
                    state: assignment(&state, s),
                },
                Ok(_) => DeadlockOutcome::Unknown(
                    "internal: the interpreter finds an enabled operation in the solver's deadlock state".into(),
                ),
                Err(e) => DeadlockOutcome::Unknown(format!("deadlock state not confirmed: {e}")),
            }
        }
        Search::Empty { complete: true } => DeadlockOutcome::NoDeadlock,
        Search::Empty { complete: false } => DeadlockOutcome::Unknown(INCOMPLETE.into()),
        Search::Unknown(r) => DeadlockOutcome::Unknown(r),
    };
    Ok((outcome, start.elapsed()))
}

/// Parses and types a predicate over the machine's constants and variables (no other free identifier);
/// `option` names where it came from in messages.
pub(crate) fn state_predicate(model: &Model, text: &str, option: &str) -> Result<Pred, Diagnostic> {
    let file = register_source(&format!("<{option}>"), text);
    let term = syntax::parse_term(file, text)?;
    match types::check_formula(&model.ast, model.machine(), &term)? {
        Formula::Pred(p, free) if free.is_empty() => Ok(p),
        Formula::Pred(p, free) => Err(Diagnostic::new(
            DiagKind::Usage,
            p.span,
            format!(
                "{option} may only mention the machine's constants and variables; unknown: {}",
                free.iter()
                    .map(|f| f.name.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        Formula::Expr(e, _) => Err(Diagnostic::new(
            DiagKind::Usage,
            e.span,
            format!("{option} expects a predicate, found an expression"),
        )),
    }
}

/// One static assertion.
#[derive(Clone, Debug)]
pub struct AssertionCheck {
    pub span: Span,
    pub outcome: AssertionOutcome,
}

#[derive(Clone, Debug)]
pub enum AssertionOutcome {
    /// Complete Unsat of PROPERTIES & not A.
    Proved,
    /// Constants satisfying PROPERTIES and falsifying the assertion (re-checked by the interpreter).
    Counterexample(Assignment),
    /// No counterexample within the bounds: not a proof.
    NoCounterexampleFound,
    Unknown(String),
}

/// `bsolve cbc-assertions FILE`: the ASSERTIONS that mention no variable, under PROPERTIES. The number of
/// assertions on variables (not checked here) is returned too.
pub fn assertions(model: &Model) -> Result<(Vec<AssertionCheck>, usize), Diagnostic> {
    let m = model.machine();
    let consts = constant_vars(m);
    let mut out = Vec::new();
    let mut on_state = 0;
    for a in &m.assertions {
        let free = crate::ir::free_names::of_pred(a);
        if m.variables.iter().any(|v| free.contains(&v.name)) {
            on_state += 1;
            continue;
        }
        let pred = and(vec![properties(m), not(a.clone())], a.span);
        let outcome = match search(model, &consts, &pred, &Env::new()) {
            Search::Found(values) => AssertionOutcome::Counterexample(assignment(&consts, &values)),
            Search::Empty { complete: true } => AssertionOutcome::Proved,
            Search::Empty { complete: false } => AssertionOutcome::NoCounterexampleFound,
            Search::Unknown(r) => AssertionOutcome::Unknown(r),
        };
        out.push(AssertionCheck {
            span: a.span,
            outcome,
        });
    }
    Ok((out, on_state))
}

#[derive(Clone, Debug)]
pub enum SequenceOutcome {
    /// The replayed trace: SETUP_CONSTANTS (when there are constants), INITIALISATION, the operations.
    Found(Vec<Step>),
    /// Complete Unsat: no constants, initial state and parameters make the sequence executable.
    Infeasible,
    Unknown(String),
}

/// `bsolve cbc-sequence FILE "op1;op2"`.
pub fn sequence(model: &Model, ops: &str) -> Result<(SequenceOutcome, Duration), Diagnostic> {
    let start = Instant::now();
    let m = model.machine();
    let names: Vec<&str> = ops.split(';').map(str::trim).collect();
    if names.iter().any(|n| n.is_empty()) {
        return Err(usage(format!(
            "cbc-sequence: `{ops}` is not a list of operation names separated by `;`"
        )));
    }
    let ops: Vec<&Operation> = names
        .iter()
        .map(|n| find_operation(m, n))
        .collect::<Result<_, _>>()?;
    let consts = constant_vars(m);
    let mut vars = consts.clone();
    let mut parts = vec![properties(m), before_after::initialisation(m, 0)?];
    for k in 0..=ops.len() {
        vars.extend(state_copy(m, k));
    }
    for (k, op) in ops.iter().enumerate() {
        let t = before_after::operation(m, op, k, k + 1)?;
        vars.extend(t.params);
        vars.extend(t.outputs);
        parts.push(t.pred);
    }
    let pred = and(parts, m.span);
    let outcome = match search(model, &vars, &pred, &Env::new()) {
        Search::Found(values) => {
            let c = &values[..consts.len()];
            let n = m.variables.len();
            let state = |k: usize| &values[consts.len() + k * n..consts.len() + (k + 1) * n];
            let trace = initial_steps(model, c, state(0)).and_then(|mut steps| {
                for (k, op) in ops.iter().enumerate() {
                    steps.push(replay_step(model, c, state(k), state(k + 1), Some(op))?);
                }
                Ok(steps)
            });
            match trace {
                Ok(steps) => SequenceOutcome::Found(steps),
                Err(why) => SequenceOutcome::Unknown(format!(
                    "trace not confirmed by the interpreter: {why}"
                )),
            }
        }
        Search::Empty { complete: true } => SequenceOutcome::Infeasible,
        Search::Empty { complete: false } => SequenceOutcome::Unknown(INCOMPLETE.into()),
        Search::Unknown(r) => SequenceOutcome::Unknown(r),
    };
    Ok((outcome, start.elapsed()))
}
