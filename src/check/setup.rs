//! `bsolve setup-constants` and `bsolve init`: solutions of CONSTRAINTS & PROPERTIES, and the initial states.

use super::Model;
use crate::diag::Diagnostic;
use crate::solve::Symmetry;
use crate::syntax::ast::Name;
use crate::value::Value;
use std::time::{Duration, Instant};

/// Named values in declaration order.
pub type Assignment = Vec<(Name, Value)>;

pub struct SetupResult {
    pub solutions: Vec<Assignment>,
    /// True when the enumeration was exhaustive: no further solution exists beyond `solutions`
    /// (false when a limit cut it or an unbounded integer was searched only within MININT..MAXINT).
    pub complete: bool,
    /// True when the search stopped because `limit` solutions were found.
    pub limited: bool,
    pub elapsed: Duration,
}

/// Finds up to `limit` constant setups: every one of them, however symmetric (a reduced search's
/// representatives are expanded to all their permutations of the deferred sets' elements).
pub fn setup_constants(model: &Model, limit: usize) -> Result<SetupResult, Diagnostic> {
    let start = Instant::now();
    let enumeration = model.context.setup_constants(limit, Symmetry::Expanded)?;
    let names: Vec<Name> = constant_names(model);
    let limited = enumeration.solutions.len() >= limit;
    let solutions = enumeration
        .solutions
        .into_iter()
        .map(|values| names.iter().cloned().zip(values).collect())
        .collect();
    Ok(SetupResult {
        solutions,
        complete: enumeration.complete,
        limited,
        elapsed: start.elapsed(),
    })
}

/// Parameters first, then constants: the order in which `Context::setup_constants` reports values.
pub fn constant_names(model: &Model) -> Vec<Name> {
    let m = model.machine();
    m.params
        .iter()
        .chain(&m.constants)
        .map(|t| t.name.clone())
        .collect()
}

pub struct InitResult {
    /// The constant setup used (empty when the machine has no constants).
    pub constants: Assignment,
    pub states: Vec<Assignment>,
    pub setup_complete: bool,
    pub elapsed: Duration,
}

/// Sets up the constants (first solution) and computes up to `limit` initial states.
/// `Ok(None)` when PROPERTIES has no solution.
pub fn initialise(model: &Model, limit: usize) -> Result<Option<InitResult>, Diagnostic> {
    let start = Instant::now();
    // Any one setup will do: a representative of its class is one.
    let setup = model
        .context
        .setup_constants(1, Symmetry::Representatives)?;
    let Some(values) = setup.solutions.into_iter().next() else {
        return Ok(None);
    };
    let states = model.context.initial_states(&values, limit)?;
    let variables: Vec<Name> = model
        .machine()
        .variables
        .iter()
        .map(|v| v.name.clone())
        .collect();
    let states = states
        .into_iter()
        .map(|s| variables.iter().cloned().zip(s.values).collect())
        .collect();
    let constants = constant_names(model).into_iter().zip(values).collect();
    Ok(Some(InitResult {
        constants,
        states,
        setup_complete: setup.complete,
        elapsed: start.elapsed(),
    }))
}
