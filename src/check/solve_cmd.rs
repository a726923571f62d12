//! `bsolve solve`: decide a predicate in the context of a machine.
//!
//! The machine gives the sets, their elements and the DEFINITIONS. Every other identifier is free and
//! existentially quantified: the formula's unknown identifiers (typed by inference) and also the machine's
//! parameters, constants and variables the predicate mentions (with their declared types). PROPERTIES and
//! INVARIANT are *not* added: the predicate is decided on its own, as ProB's predicate corpus poses it.

use super::Model;
use super::setup::Assignment;
use crate::diag::{DiagKind, Diagnostic, register_source};
use crate::eval::Env;
use crate::ir::TypedName;
use crate::solve::{self, Problem};
use crate::syntax;
use crate::types::{self, Formula};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The decision on one predicate.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// A solution: a value for every free identifier.
    Sat(Assignment),
    /// Proved unsatisfiable (the search was exhaustive).
    Unsat,
    /// Undecided: a timeout, an incomplete search, an unsupported construct.
    Unknown(String),
}

pub struct Solved {
    pub decision: Decision,
    /// The identifiers solved for, with their types (for printing the solution).
    pub free: Vec<TypedName>,
    pub elapsed: Duration,
}

/// Parses, types and decides `text` in the context of `model`. `timeout` bounds the search (the deadline is
/// set on the model's context before the predicate is parsed). Errors are bad input: a syntax or type error,
/// or an expression where a predicate is expected.
pub fn solve_predicate(
    model: &Model,
    source_name: &str,
    text: &str,
    timeout: Option<Duration>,
) -> Result<Solved, Diagnostic> {
    let start = Instant::now();
    model.context.set_deadline(timeout.map(|t| start + t));
    let file = register_source(source_name, text);
    let term = syntax::parse_term(file, text)?;
    let (pred, inferred) = match types::check_formula(&model.ast, model.machine(), &term)? {
        Formula::Pred(p, free) => (p, free),
        Formula::Expr(e, _) => {
            return Err(Diagnostic::new(
                DiagKind::Usage,
                e.span,
                "expected a predicate, found an expression (use `bsolve eval` to evaluate it)",
            ));
        }
    };
    let free = with_machine_identifiers(model, &pred, inferred);
    let env = Env::new();
    let problem = Problem::new(&free, &pred, &env);
    let backend = model.context.settings().backend;
    let decision = match solve::first(&model.context, &problem, backend) {
        solve::Answer::Sat(values) => Decision::Sat(
            free.iter()
                .map(|v| v.name.clone())
                .zip(values)
                .collect(),
        ),
        solve::Answer::Unsat { complete: true } => Decision::Unsat,
        solve::Answer::Unsat { complete: false } => Decision::Unknown(
            "no solution within MININT..MAXINT or the enumeration limits (search incomplete)".into(),
        ),
        solve::Answer::Unknown(reason) => Decision::Unknown(reason),
    };
    model.context.set_deadline(None);
    Ok(Solved {
        decision,
        free,
        elapsed: start.elapsed(),
    })
}

/// The inferred free identifiers, then the machine's parameters, constants and variables that `pred`
/// mentions, in declaration order.
fn with_machine_identifiers(
    model: &Model,
    pred: &crate::ir::Pred,
    mut free: Vec<TypedName>,
) -> Vec<TypedName> {
    let mentioned: BTreeSet<_> = crate::ir::free_names::of_pred(pred);
    let m = model.machine();
    for n in m.params.iter().chain(&m.constants).chain(&m.variables) {
        if mentioned.contains(&n.name) && !free.iter().any(|f| f.name == n.name) {
            free.push(n.clone());
        }
    }
    free
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Options;

    fn model(text: &str) -> Model {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bsolve-solve-cmd-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let name = text.split_whitespace().nth(1).expect("machine name");
        let path = dir.join(format!("{name}.mch"));
        std::fs::write(&path, text).expect("writes");
        Model::load(&path, &Options::default()).expect("loads")
    }

    fn decide(m: &Model, p: &str) -> Decision {
        solve_predicate(m, "<pred>", p, Some(Duration::from_secs(5)))
            .expect("well-formed")
            .decision
    }

    #[test]
    fn free_identifiers_are_solved_for() {
        let m = model("MACHINE Empty END");
        match decide(&m, "x : 1..5 & x * x = 16") {
            Decision::Sat(a) => assert_eq!(a[0].1.to_string(), "4"),
            other => panic!("{other:?}"),
        }
        assert_eq!(decide(&m, "x : 1..5 & x > 7"), Decision::Unsat);
    }

    #[test]
    fn machine_constants_and_variables_are_free_and_properties_ignored() {
        let m = model(
            "MACHINE MC SETS C = {red, green} CONSTANTS k PROPERTIES k = 1 \
             VARIABLES v INVARIANT v : C INITIALISATION v := red END",
        );
        match decide(&m, "k : 2..3 & v /= red") {
            Decision::Sat(a) => {
                let shown: Vec<String> = a.iter().map(|(n, v)| format!("{n}={v}")).collect();
                assert_eq!(shown, ["k=2", "v=green"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unbounded_unsat_is_unknown() {
        let m = model("MACHINE Empty END");
        assert!(matches!(
            decide(&m, "X < Y & Y < X & X : INTEGER"),
            Decision::Unknown(_)
        ));
    }

    #[test]
    fn an_expression_is_rejected() {
        let m = model("MACHINE Empty END");
        let e = solve_predicate(&m, "<pred>", "1 + 2", None)
            .err()
            .expect("an error");
        assert_eq!(e.kind, DiagKind::Usage);
    }
}
