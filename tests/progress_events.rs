//! The steps `bmc` and `kinduction` report as they go (shown above a spinner on a terminal): each step is
//! announced before it is asked, and its verdict comes as soon as it is known, in order.

use bsolve::check::progress::Event;
use bsolve::check::{Model, Options, bmc, kinduction};
use std::path::Path;

fn load(name: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name);
    Model::load(&path, &Options::default()).expect("the model loads")
}

/// The events of one run, as `asking: ...` and `done: ...` lines.
fn recorded(run: impl FnOnce(&mut dyn FnMut(Event<'_>))) -> Vec<String> {
    let mut lines = Vec::new();
    run(&mut |e| {
        lines.push(match e {
            Event::Asking(what) => format!("asking: {what}"),
            Event::Done(line) => format!("done: {line}"),
        })
    });
    lines
}

#[test]
fn bmc_reports_each_length_before_and_after_asking_it() {
    let model = load("VerySimpleCounterWrong.mch");
    let lines = recorded(|on| {
        let result = bmc::bmc_with_events(&model, 10, bmc::Target::InvariantViolation, on)
            .expect("bmc answers");
        assert!(matches!(
            result.outcome,
            bmc::BmcOutcome::Counterexample { length: 1, .. }
        ));
    });
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "asking: length 0 of 10");
    assert!(
        lines[1].starts_with("done: length 0: none (complete)"),
        "{lines:?}"
    );
    assert_eq!(lines[2], "asking: length 1 of 10");
    assert!(
        lines[3].starts_with("done: length 1: counterexample"),
        "{lines:?}"
    );
}

#[test]
fn kinduction_reports_its_base_and_step_cases() {
    let model = load("BoundedFifo.mch");
    let lines = recorded(|on| {
        let result =
            kinduction::kinduction_with_events(&model, 4, true, on).expect("kinduction answers");
        assert!(matches!(
            result.outcome,
            kinduction::KInductionOutcome::Proved { k: 1 }
        ));
    });
    let done: Vec<&String> = lines.iter().filter(|l| l.starts_with("done")).collect();
    assert_eq!(
        done,
        [
            "done: base case at length 0: none (complete)",
            "done: step case k = 1: inductive"
        ],
        "{lines:?}"
    );
    assert_eq!(lines[0], "asking: k = 1, base case at length 0");
}
