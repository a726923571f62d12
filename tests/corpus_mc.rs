//! Explicit model checking against ProB's recorded verdicts: for a list of corpus machines that finish
//! quickly, `mc` must reach the verdict recorded in `../shared/corpus/expected.csv` (deadlock, invariant
//! violation or none) and, where ProB found no error, the same state and transition counts. The expectations
//! are read from the corpus file; the list only says which machines are fast enough for every CI run (the
//! whole corpus is compared by `benchmarks/corpus.py mc`, figures in benchmarks/CORPUS.md).

use bsolve::check::mc::{McOptions, Verdict, model_check};
use bsolve::check::{Model, Options};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

const MACHINES: &[&str] = &include!("corpus_mc_machines.txt");

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// ProB's verdict and counts per machine, from expected.csv (columns are fixed by the corpus README).
fn expected() -> HashMap<String, (String, String, String, String)> {
    let text = std::fs::read_to_string(corpus().join("expected.csv")).expect("expected.csv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            (
                f[0].to_string(),
                (
                    f[1].to_string(),
                    f[2].to_string(),
                    f[3].to_string(),
                    f[4].to_string(),
                ),
            )
        })
        .collect()
}

#[test]
fn mc_reproduces_probs_verdicts_on_fast_corpus_machines() {
    if !corpus().exists() {
        eprintln!("corpus not found next to the repository: skipping");
        return;
    }
    let expected = expected();
    let mut failures = vec![];
    for name in MACHINES {
        let (deadlock, invariant, states, transitions) = &expected[*name];
        let model = match Model::load(&corpus().join("models").join(name), &Options::default()) {
            Ok(m) => m,
            Err(d) => {
                failures.push(format!("{name}: {}", d));
                continue;
            }
        };
        let options = McOptions {
            timeout: Some(Duration::from_secs(20)),
            ..McOptions::default()
        };
        let result = match model_check(&model, &options) {
            Ok(r) => r,
            Err(d) => {
                failures.push(format!("{name}: {d}"));
                continue;
            }
        };
        let ours = match result.verdict {
            Verdict::Deadlock => "deadlock",
            Verdict::InvariantViolation(_) => "invariant",
            Verdict::NoErrorFound => "none",
            ref other => {
                failures.push(format!("{name}: no comparable verdict: {other:?}"));
                continue;
            }
        };
        let theirs = match (deadlock.as_str(), invariant.as_str()) {
            ("true", _) => "deadlock",
            (_, "true") => "invariant",
            _ => "none",
        };
        if ours != theirs {
            failures.push(format!("{name}: ProB {theirs}, bsolve {ours}"));
        } else if ours == "none"
            && (result.states.to_string(), result.transitions.to_string())
                != (states.clone(), transitions.clone())
        {
            failures.push(format!(
                "{name}: ProB {states} states / {transitions} transitions, bsolve {} / {}",
                result.states, result.transitions
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} machines differ:\n{}",
        failures.len(),
        MACHINES.len(),
        failures.join("\n")
    );
}
