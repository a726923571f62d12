//! `bsolve mc --symbolic` end to end: the report a user sees (verdict, ProB's counts, the symbolic
//! search's figures), traces printed as the explicit checker prints them, and honest UNKNOWNs.

mod common;

use common::{bsolve, bsolve_json, model_arg, operations};

#[test]
fn a_complete_exploration_reports_probs_counts_and_the_symbolic_figures() {
    let (code, out, err) = bsolve(&["mc", "--symbolic", &model_arg("scheduler.mch")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("NO ERROR FOUND: all states explored\n"),
        "{out}"
    );
    // B/Benchmarks/scheduler: 35 states and 121 transitions in ProB's count, as the explicit mc.
    assert!(
        out.contains("states: 35, transitions: 121 (ProB's count)"),
        "{out}"
    );
    assert!(out.contains("symbolic (bfs): "), "{out}");
    assert!(out.contains("next-state calls: "), "{out}");
    assert!(out.contains("LDD nodes: "), "{out}");
    assert!(out.contains("peak memory: "), "{out}");
}

#[test]
fn json_carries_the_counts_and_the_symbolic_figures() {
    let (code, json) = bsolve_json(&["mc", "--symbolic", &model_arg("ConcurrentCounters.mch")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND");
    assert_eq!(json["states"], 31250);
    assert_eq!(json["transitions"], 150003);
    assert_eq!(json["exploration_complete"], true);
    let symbolic = &json["symbolic"];
    for key in [
        "levels",
        "next_state_calls",
        "reused",
        "ldd_nodes",
        "ldd_cache_hits",
    ] {
        assert!(!symbolic[key].is_null(), "{key}: {json}");
    }
    assert!(json["peak_memory_kib"].is_u64() || json["peak_memory_kib"].is_null());
}

#[test]
fn a_deadlock_trace_is_a_shortest_one_and_replayed() {
    let (code, out, err) = bsolve(&["mc", "--symbolic", &model_arg("Deadlocking.mch")]);
    let (explicit_code, explicit, _) = bsolve(&["mc", &model_arg("Deadlocking.mch")]);
    assert_eq!(code, explicit_code, "{out}{err}");
    assert!(
        out.starts_with("DEADLOCK: no operation is enabled\n"),
        "{out}"
    );
    let trace_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("trace ("))
            .map(str::to_string)
    };
    assert_eq!(trace_line(&out), trace_line(&explicit), "{out}\n{explicit}");
}

#[test]
fn an_invariant_violation_names_the_conjunct_and_its_trace_replays() {
    let model = model_arg("MutexWrong.mch");
    let (code, json) = bsolve_json(&["mc", "--symbolic", &model]);
    let (explicit_code, explicit) = bsolve_json(&["mc", &model]);
    assert_eq!(code, explicit_code, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    assert_eq!(json["detail"], explicit["detail"]);
    assert_eq!(
        operations(&json["trace"]).len(),
        operations(&explicit["trace"]).len(),
        "{json}\n{explicit}"
    );
}

#[test]
fn the_node_limit_ends_with_an_unknown_not_a_crash() {
    let (code, out, err) = bsolve(&[
        "mc",
        "--symbolic",
        "--max-nodes",
        "50",
        &model_arg("ConcurrentCounters.mch"),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN: "), "{out}");
    assert!(out.contains("LDD node limit of 50 nodes reached"), "{out}");
    assert!(!out.contains("all states explored"), "{out}");
}

#[test]
fn values_that_never_repeat_end_with_a_limit_not_a_claim() {
    // A counter without bound: every level is new, so only a limit can end the search.
    let (code, out, err) = bsolve(&[
        "--timeout",
        "500",
        "mc",
        "--symbolic",
        &model_arg("VerySimpleCounterWrong.mch"),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN: "), "{out}");
    assert!(out.contains("timeout"), "{out}");
}

#[test]
fn a_machine_that_cannot_be_vectorised_is_declined_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("bsolve-symbolic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("Looping.mch");
    // A WHILE loop: its read and write sets are not exact, so no transition group can be formed.
    std::fs::write(
        &file,
        "MACHINE Looping\nVARIABLES x\nINVARIANT x : 0..10\nINITIALISATION x := 0\n\
         OPERATIONS run = VAR i IN i := 0; WHILE i < 3 DO i := i + 1 INVARIANT i : 0..3 \
         VARIANT 3 - i END; x := i END\nEND\n",
    )
    .expect("write machine");
    let (code, out, err) = bsolve(&["mc", "--symbolic", &file.display().to_string()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("the symbolic search does not apply"), "{out}");
    assert!(out.contains("operation run"), "{out}");
}

#[test]
fn every_strategy_reports_the_same_counts_and_says_which_it_used() {
    for strategy in ["bfs", "chaining", "saturation"] {
        let (code, json) = bsolve_json(&[
            "mc",
            "--symbolic",
            "--strategy",
            strategy,
            &model_arg("ConcurrentCounters.mch"),
        ]);
        assert_eq!(code, 0, "{json}");
        assert_eq!(json["states"], 31250, "{strategy}");
        assert_eq!(json["transitions"], 150003, "{strategy}");
        assert_eq!(json["symbolic"]["strategy"], strategy);
    }
    // Stopping at the first error, chaining's trace replays but need not be a shortest one.
    let model = model_arg("MutexWrong.mch");
    let (code, json) = bsolve_json(&["mc", "--symbolic", "--strategy", "chaining", &model]);
    let (explicit_code, explicit) = bsolve_json(&["mc", &model]);
    assert_eq!(code, explicit_code, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    assert!(json["symbolic"]["trace_shortest"].is_boolean(), "{json}");
    assert!(operations(&json["trace"]).len() >= operations(&explicit["trace"]).len());
}

#[test]
fn json_carries_the_dependency_matrix_with_must_writes_and_guard_conjuncts() {
    let (_, json) = bsolve_json(&["mc", "--symbolic", &model_arg("MutexWrong.mch")]);
    let rows = json["symbolic"]["matrix"].as_array().expect("matrix rows");
    assert!(!rows.is_empty(), "{json}");
    for row in rows {
        assert!(row["operation"].is_string(), "{row}");
        assert_eq!(row["exact"], true, "{row}");
        for key in ["reads", "writes", "must_writes", "guards"] {
            assert!(row[key].is_array(), "{key}: {row}");
        }
        // Must-write ⊆ write.
        let writes = row["writes"].as_array().expect("writes");
        for w in row["must_writes"].as_array().expect("must_writes") {
            assert!(writes.contains(w), "{row}");
        }
    }
}
