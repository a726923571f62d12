//! Helpers shared by the integration tests: load a bundled model, evaluate text in its context.

#![allow(dead_code)]

use bsolve::check::{Model, Options};
use bsolve::diag::register_source;
use bsolve::eval::Env;
use bsolve::types::{Formula, check_formula};
use bsolve::value::Value;
use std::path::PathBuf;

pub fn model_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

pub fn load(name: &str) -> Model {
    Model::load(&model_path(name), &Options::default()).unwrap_or_else(|d| panic!("{}", d.render()))
}

/// The value of a closed expression (it may use the machine's sets and DEFINITIONS).
pub fn value_of(model: &Model, text: &str) -> Value {
    let file = register_source("<test>", text);
    let term = bsolve::syntax::parse_term(file, text).unwrap_or_else(|d| panic!("{}", d.render()));
    match check_formula(&model.ast, model.machine(), &term)
        .unwrap_or_else(|d| panic!("{}", d.render()))
    {
        Formula::Expr(e, _) => model
            .context
            .eval_expr(&e, &Env::new())
            .unwrap_or_else(|e| panic!("{e:?}")),
        Formula::Pred(..) => panic!("`{text}` is a predicate"),
    }
}

/// Whether CONSTRAINTS & PROPERTIES hold for the given constant values (B expressions).
pub fn properties_hold(model: &Model, assignment: &[(&str, String)]) -> bool {
    let mut env = Env::new();
    for (name, text) in assignment {
        env = env.with((*name).into(), value_of(model, text));
    }
    let m = model.machine();
    let constraints = model
        .context
        .eval_pred(&m.constraints, &env)
        .unwrap_or_else(|e| panic!("{e:?}"));
    constraints
        && model
            .context
            .eval_pred(&m.properties, &env)
            .unwrap_or_else(|e| panic!("{e:?}"))
}
