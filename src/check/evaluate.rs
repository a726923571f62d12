//! `bsolve eval`: evaluate an expression, or decide a predicate, in the context of a machine.
//!
//! The machine's constants are set up first (first solution of PROPERTIES, as ProB's REPL does); free
//! identifiers of a predicate are existentially quantified and solved for by the brute-force oracle.

use super::Model;
use super::setup::Assignment;
use crate::diag::{Diagnostic, register_source};
use crate::eval::Env;
use crate::ir::TypedName;
use crate::types::{self, Formula, Type};
use crate::value::Value;
use crate::{eval::EvalError, syntax};

pub enum EvalOutcome {
    /// The value of an expression, with its type (for printing sequences and sets readably).
    Value(Value, Type),
    /// A closed predicate's truth value.
    Truth(bool),
    /// A predicate with free identifiers: a solution, or none (`complete` says whether "none" is proved).
    Solution(Option<Assignment>, bool),
    /// Evaluation hit a well-definedness error (e.g. division by zero): the formula has no value.
    Undefined(Diagnostic),
}

pub struct Evaluation {
    pub outcome: EvalOutcome,
    /// The constant setup the formula was evaluated in (empty when the machine has no constants).
    pub constants: Assignment,
    /// The formula's free identifiers with their inferred types (those a `Solution` gives values to).
    pub free: Vec<TypedName>,
}

/// Parses `text`, types it in the machine's context and evaluates it.
pub fn evaluate(model: &Model, text: &str) -> Result<Evaluation, Diagnostic> {
    let file = register_source("<formula>", text);
    let term = syntax::parse_term(file, text)?;
    let formula = types::check_formula(&model.ast, model.machine(), &term)?;
    let constants = first_constant_setup(model)?;
    // Through the context, so that constants kept symbolic (a recursive lambda) get their value rather
    // than their setup's placeholder.
    let mut env = Env::new();
    let values: Vec<_> = constants.iter().map(|(_, v)| v.clone()).collect();
    if !values.is_empty() {
        model.context.bind_constants(&mut env, &values);
    }
    let mut solved_for = vec![];
    let outcome = match formula {
        Formula::Expr(expr, free) => {
            reject_free(&free)?;
            match model.context.eval_expr(&expr, &env) {
                Ok(v) => EvalOutcome::Value(v, expr.ty.clone()),
                Err(e) => undefined_or_error(e)?,
            }
        }
        Formula::Pred(pred, free) if free.is_empty() => {
            match model.context.eval_pred(&pred, &env) {
                Ok(b) => EvalOutcome::Truth(b),
                Err(e) => undefined_or_error(e)?,
            }
        }
        Formula::Pred(pred, free) => {
            let problem = crate::solve::Problem::new(&free, &pred, &env);
            let backend = model.context.settings().backend;
            let found = crate::solve::solve_all(&model.context, &problem, backend, 1)?;
            solved_for = free.clone();
            let solution = found
                .solutions
                .into_iter()
                .next()
                .map(|values| free.iter().map(|v| v.name.clone()).zip(values).collect());
            EvalOutcome::Solution(solution, found.complete)
        }
    };
    Ok(Evaluation {
        outcome,
        constants,
        free: solved_for,
    })
}

/// The first solution of PROPERTIES, or no constants at all. A machine whose PROPERTIES have no solution
/// cannot give a context to evaluate in.
fn first_constant_setup(model: &Model) -> Result<Assignment, Diagnostic> {
    let m = model.machine();
    if m.constants.is_empty() && m.params.is_empty() {
        return Ok(vec![]);
    }
    let setup = super::setup::setup_constants(model, 1)?;
    match setup.solutions.into_iter().next() {
        Some(solution) => Ok(solution),
        None => Err(Diagnostic::new(
            crate::diag::DiagKind::Limit,
            m.span,
            if setup.complete {
                "PROPERTIES have no solution: no constants to evaluate in"
            } else {
                "no constant setup found (search incomplete)"
            },
        )),
    }
}

fn reject_free(free: &[TypedName]) -> Result<(), Diagnostic> {
    match free.first() {
        Some(v) => Err(Diagnostic::type_error(
            v.span,
            format!("unknown identifier `{}` in expression", v.name),
        )),
        None => Ok(()),
    }
}

fn undefined_or_error(e: EvalError) -> Result<EvalOutcome, Diagnostic> {
    match e {
        EvalError::WellDefinedness(d) => Ok(EvalOutcome::Undefined(d)),
        other => Err(other.into()),
    }
}
