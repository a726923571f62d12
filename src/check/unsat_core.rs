//! Why PROPERTIES have no solution: a small group of conjuncts of CONSTRAINTS & PROPERTIES that is already
//! unsatisfiable on its own.
//!
//! Deletion-based: starting from all conjuncts, each one in turn is dropped when the rest is still proved
//! unsatisfiable (a complete search). A conjunct whose removal gives a solution, an incomplete search or a
//! timeout stays, so the result is always unsatisfiable, and minimal when every check was decided.
//! Only the constants the remaining conjuncts mention are solved for, and the conjuncts are tried last
//! first: typing conjuncts usually come first, so a constant's `x : 1..5` is tried after the constraints
//! on `x` are gone, when dropping it no longer leaves `x` an unbounded integer (an incomplete search).

use super::Model;
use crate::diag::{Span, source};
use crate::eval::Env;
use crate::ir::{Pred, PredKind, TypedName};
use crate::solve::{self, Answer, Problem};
use std::time::{Duration, Instant};

/// The conjuncts of CONSTRAINTS & PROPERTIES left after deletion, in source order. `per_call` bounds each
/// solver call; the context's deadline is cleared afterwards.
pub fn minimal_failing_conjuncts(model: &Model, per_call: Duration) -> Vec<&Pred> {
    let m = model.machine();
    let vars: Vec<TypedName> = m.params.iter().chain(&m.constants).cloned().collect();
    let mut kept: Vec<&Pred> = m
        .constraints
        .conjuncts()
        .into_iter()
        .chain(m.properties.conjuncts())
        .collect();
    for i in (0..kept.len()).rev() {
        let rest: Vec<&Pred> = kept
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| *p)
            .collect();
        if proved_unsat(model, &vars, &rest, per_call) {
            kept.remove(i);
        }
    }
    model.context.set_deadline(None);
    kept
}

fn proved_unsat(
    model: &Model,
    vars: &[TypedName],
    conjuncts: &[&Pred],
    per_call: Duration,
) -> bool {
    let span = conjuncts.first().map(|p| p.span).unwrap_or_default();
    let pred = Pred::new(
        PredKind::And(conjuncts.iter().map(|p| (*p).clone()).collect()),
        span,
    );
    let mentioned = crate::ir::free_names::of_pred(&pred);
    let vars: Vec<TypedName> = vars
        .iter()
        .filter(|v| mentioned.contains(&v.name))
        .cloned()
        .collect();
    let env = Env::new();
    let problem = Problem::new(&vars, &pred, &env);
    model.context.set_deadline(Some(Instant::now() + per_call));
    let answer = solve::first(&model.context, &problem, model.context.settings().backend);
    answer == Answer::Unsat { complete: true }
}

/// The source text a span covers (empty for a generated span), on one line.
pub fn source_text(span: Span) -> String {
    source(span.file)
        .and_then(|f| {
            f.text
                .get(span.start as usize..span.end as usize)
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Options;

    fn model(name: &str, text: &str) -> Model {
        let dir = std::env::temp_dir().join(format!("bsolve-core-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!("{name}.mch"));
        std::fs::write(&path, text).expect("writes");
        Model::load(&path, &Options::default()).expect("loads")
    }

    #[test]
    fn keeps_only_the_contradicting_conjuncts() {
        let m = model(
            "Core",
            "MACHINE Core CONSTANTS a, b, c\n\
             PROPERTIES a : 1..5 & b : 1..5 & c : 1..5 & a < b & b < a & c = 2\nEND",
        );
        let core: Vec<String> = minimal_failing_conjuncts(&m, Duration::from_secs(5))
            .iter()
            .map(|p| source_text(p.span))
            .collect();
        // Which typing conjuncts stay depends on what the solver proves without them; the contradiction
        // stays and c's conjuncts go.
        assert!(
            core.ends_with(&["a < b".to_string(), "b < a".to_string()]),
            "{core:?}"
        );
        assert!(core.iter().all(|c| !c.starts_with('c')), "{core:?}");
    }

    #[test]
    fn spans_name_the_file_line_and_column() {
        let m = model(
            "CoreSpan",
            "MACHINE CoreSpan CONSTANTS a\nPROPERTIES a : 1..3 &\n  a > 4\nEND",
        );
        let core = minimal_failing_conjuncts(&m, Duration::from_secs(5));
        let shown: Vec<String> = core.iter().map(|p| p.span.to_string()).collect();
        assert_eq!(shown.len(), 2);
        assert!(shown[1].ends_with("CoreSpan.mch:3:3"), "{shown:?}");
    }
}
