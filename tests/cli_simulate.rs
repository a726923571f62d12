//! `bsolve simulate`: random walks find a violation far beyond a breadth-first search's horizon, the
//! trace is replayed, and the same seed gives the same walk.

mod common;

use std::time::{Duration, Instant};

#[test]
fn a_guided_simulation_finds_the_deep_violation_within_ten_seconds_and_reproduces_it() {
    let model = common::model_arg("DeepViolation.mch");
    let start = Instant::now();
    let (code, json) = common::bsolve_json(&[
        "simulate",
        &model,
        "--guided",
        "--seed",
        "3",
        "--timeout",
        "10000",
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION", "{json}");
    assert_eq!(json["justification"], "trace replayed by the interpreter");
    let trace = common::operations(&json["trace"]);
    let advances = trace.iter().filter(|o| **o == "advance").count();
    assert!(advances >= 45, "{trace:?}");
    // The same seed, the same walk.
    let (_, again) = common::bsolve_json(&[
        "simulate",
        &model,
        "--guided",
        "--seed",
        "3",
        "--timeout",
        "10000",
    ]);
    assert_eq!(again["trace"], json["trace"]);
    assert_eq!(
        (&again["runs"], &again["steps"]),
        (&json["runs"], &json["steps"])
    );
}

#[test]
fn breadth_first_model_checking_does_not_reach_the_deep_violation() {
    // A million states do not reach it either (benchmarks/RESULTS.md); a tenth keeps the test short.
    let model = common::model_arg("DeepViolation.mch");
    let (code, json) = common::bsolve_json(&["mc", &model, "--max-states", "100000"]);
    assert_eq!(code, 2, "{json}");
    assert!(
        json["detail"]
            .as_str()
            .is_some_and(|d| d.contains("--max-states")),
        "{json}"
    );
}

#[test]
fn a_simulation_that_finds_nothing_says_it_proves_nothing() {
    let model = common::model_arg("ConcurrentCounters.mch");
    let (code, text, _) = common::bsolve(&[
        "simulate", &model, "--runs", "3", "--depth", "20", "--seed", "1",
    ]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("NO ERROR FOUND IN THE RUNS: 3 random runs of at most 20 steps")
            && text.contains("proves nothing")
            && text.contains("steps/s"),
        "{text}"
    );
}

#[test]
fn a_simulated_deadlock_is_reported_with_its_trace() {
    let model = common::model_arg("Deadlocking.mch");
    let (code, json) = common::bsolve_json(&["simulate", &model, "--seed", "5"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "DEADLOCK", "{json}");
    assert!(!json["trace"].as_array().expect("trace").is_empty());
}
