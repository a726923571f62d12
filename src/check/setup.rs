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

#[cfg(test)]
mod tests {
    use crate::check::Model;
    use crate::eval::{Chooser, Chosen, Context, EvalError, Question, Symmetry};
    use crate::value::Value;
    use std::sync::{Arc, Mutex};

    /// Records how many solutions each question says its caller reads, and answers none.
    struct Recording(Mutex<Vec<usize>>);

    impl Chooser for Recording {
        fn stream(
            &self,
            _: &Context,
            question: &Question<'_>,
            _: &mut dyn FnMut(&[Value]) -> bool,
        ) -> Result<Chosen, EvalError> {
            self.0.lock().expect("lock").push(question.wanted);
            Ok(Chosen::default())
        }
    }

    /// The solver is told how many setups are read (one for `init`, the limit for `setup-constants`):
    /// the portfolio's lanes stop native once they have that many, rather than list 64 of them first.
    #[test]
    fn a_setup_search_says_how_many_setups_are_read() {
        let model = Model::from_text(
            "W.mch",
            "MACHINE W CONSTANTS c PROPERTIES c : 1..1000 & c mod 7 = 3 END",
        );
        let recording = Arc::new(Recording(Mutex::new(Vec::new())));
        let ctx = Context::new(
            model.machine().clone(),
            model.context.settings().clone(),
            recording.clone(),
        )
        .expect("context");
        for limit in [1, 5, usize::MAX] {
            ctx.setup_constants(limit, Symmetry::Expanded)
                .expect("asked");
        }
        assert_eq!(*recording.0.lock().expect("lock"), vec![1, 5, usize::MAX]);
    }
}
