//! End-to-end tests of the `bsolve` command line on the bundled models: the answers a user sees, the exit
//! codes, and clear errors on bad input.

mod common;

use common::{bsolve, bsolve_json, model_arg as model};

use serde_json::Value as Json;

fn solutions(json: &Json) -> &Vec<Json> {
    json["solutions"].as_array().expect("solutions array")
}

#[test]
fn who_killed_agatha_every_solution_names_agatha() {
    let (code, json) = bsolve_json(&["setup-constants", &model("WhoKilledAgatha.mch"), "--all"]);
    assert_eq!(code, 0);
    assert_eq!(json["complete"], true);
    let sols = solutions(&json);
    assert!(!sols.is_empty());
    assert!(sols.iter().all(|s| s["killer"] == "Agatha"), "{json}");
}

#[test]
fn loop_has_seven_solutions() {
    let (code, json) = bsolve_json(&["setup-constants", &model("Loop.mch"), "--all"]);
    assert_eq!(code, 0);
    assert_eq!(solutions(&json).len(), 7, "{json}");
    assert_eq!(json["complete"], true);
}

#[test]
fn six_queens_has_four_solutions() {
    let (code, json) = bsolve_json(&["setup-constants", &model("NQueens6.mch"), "--all"]);
    assert_eq!(code, 0);
    assert_eq!(solutions(&json).len(), 4, "{json}");
}

/// `setup-constants --all` is a complete list under every backend (z3 when installed): symmetry reduction
/// over deferred sets may speed a search up, never shrink what is reported as all solutions; the elements
/// of a sequence of integers are bounded by its typing, not cut to MININT..MAXINT.
#[test]
fn every_backend_lists_every_setup() {
    let mut backends = vec!["brute", "native", "kodkod", "auto"];
    if common::smt("every_backend_lists_every_setup (z3)") {
        backends.push("z3");
    }
    for (file, expected) in [
        // 6*5*6*6 setups; C(6,3) partitions; C(4,2) pairings; 5! disjoint singletons; 4 involutions.
        ("DeferredSymmetry.mch", 1080),
        ("DeferredPartition.mch", 20),
        ("DeferredPairing.mch", 6),
        ("DeferredDisjointSubsets.mch", 120),
        ("DeferredInvolution.mch", 4),
        // Default sizes: other sizes of KEY and DOOR give other setups, so the list is not complete.
        ("DeferredBijection.mch", 2),
        // "A sequence of at most 2 of 1..4 whose first and last elements differ" (4 is above MAXINT).
        ("SeqPuzzle.mch", 12),
    ] {
        let sizes_fixed = file != "DeferredBijection.mch";
        for &backend in &backends {
            let (code, json) = bsolve_json(&[
                "--backend",
                backend,
                "setup-constants",
                "--all",
                "-p",
                "MAX_INITIALISATIONS=100000",
                &model(file),
            ]);
            assert_eq!(code, 0, "{file} {backend}: {json}");
            let found = solutions(&json);
            assert_eq!(found.len(), expected, "{file} {backend}");
            assert_eq!(json["complete"], sizes_fixed, "{file} {backend}");
            let distinct: std::collections::BTreeSet<String> =
                found.iter().map(|s| s.to_string()).collect();
            assert_eq!(
                distinct.len(),
                expected,
                "{file} {backend}: a setup repeated"
            );
        }
    }
}

/// `mc` counts constant setups as ProB's model checker does — one per class of permutations of a
/// deferred set where ProB's rules apply (scalars, partitions), every setup otherwise — and says when it
/// reduced them; `--all-setups` explores every setup.
#[test]
fn mc_counts_setups_as_prob_does_and_says_when_it_reduced_them() {
    let mc = |file: &str, all: bool| {
        let mut args = vec!["mc", "-p", "MAX_INITIALISATIONS=100000"];
        if all {
            args.push("--all-setups");
        }
        let path = model(file);
        args.push(&path);
        let (_, json) = bsolve_json(&args);
        (
            json["states"].as_u64().expect("states"),
            json["setups_up_to_symmetry"] == true,
        )
    };
    // One setup node and one initial state per setup.
    assert_eq!(mc("DeferredSymmetry.mch", false), (20, true));
    assert_eq!(mc("DeferredSymmetry.mch", true), (2160, false));
    assert_eq!(mc("DeferredPartition.mch", false), (2, true));
    assert_eq!(mc("DeferredPartition.mch", true), (40, false));
    // Set-valued constants outside a partition: ProB reduces nothing, nor does mc.
    assert_eq!(mc("DeferredDisjointSubsets.mch", false), (240, false));
    let (_, text, _) = bsolve(&["mc", &model("DeferredSymmetry.mch")]);
    assert!(
        text.contains("constant setups: one per class of permutations of deferred-set elements"),
        "{text}"
    );
}

#[test]
fn default_number_of_setups_is_max_initialisations() {
    let (code, json) = bsolve_json(&[
        "--backend",
        "brute",
        "setup-constants",
        &model("DeferredSymmetry.mch"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(solutions(&json).len(), 1000);
    let (code, json) = bsolve_json(&[
        "setup-constants",
        &model("DeferredSymmetry.mch"),
        "-p",
        "MAX_INITIALISATIONS=4",
    ]);
    assert_eq!(code, 0);
    assert_eq!(solutions(&json).len(), 4);
}

#[test]
fn big_set_computations_evaluate_exactly() {
    for (file, expr, expected) in [
        ("SieveStep.mch", "card(numbers)", "50000"),
        ("SieveStepComprehension.mch", "card(odd_plus2)", "100"),
        ("SetUnion.mch", "card(x)", "1999"),
    ] {
        let (code, out, err) = bsolve(&["eval", &model(file), expr]);
        assert_eq!((code, out.trim()), (0, expected), "{file}: {err}");
    }
}

#[test]
fn running_without_subcommand_sets_up_constants() {
    let (code, out, _) = bsolve(&[&model("Loop.mch"), "--all"]);
    assert_eq!(code, 0);
    assert!(out.contains("ALL SOLUTIONS: 7 found"), "{out}");
}

fn mc(file: &str, extra: &[&str]) -> (i32, Json) {
    let mut args = vec!["mc", file];
    args.extend_from_slice(extra);
    bsolve_json(&args)
}

#[test]
fn eval_splits_a_known_sequence_among_its_concatenated_parts() {
    // Every split of [1..6] into three parts (C(8, 2) = 28), though `seq(1..6)` alone would list only
    // the sequences up to length MAXINT; then with a part's length fixed; then four permutations of
    // 1..4 matching a 16-card deck (CardTrick's invariant, without trying 24^4 quadruples).
    for (text, count) in [
        (
            "card({a,b,c | [1,2,3,4,5,6] = a^b^c & a : seq(1..6) & b : seq(1..6) & c : seq(1..6)})",
            "28",
        ),
        ("card({a,b,c | a^b^c = [1,2,3,4,5,6] & size(b) = 2})", "5"),
        (
            "card({a,b,c,d | a^b^c^d = [1,2,3,4,4,3,2,1,1,2,3,4,2,1,4,3] & a : perm(1..4) & \
             b : perm(1..4) & c : perm(1..4) & d : perm(1..4)})",
            "1",
        ),
        (
            "card({a,b,c,d | a^b^c^d = [1,2,3,4,4,3,2,1,1,2,3,4,2,1,4,4] & a : perm(1..4) & \
             b : perm(1..4) & c : perm(1..4) & d : perm(1..4)})",
            "0",
        ),
    ] {
        let (code, out, err) = bsolve(&["eval", text]);
        assert_eq!((code, out.trim()), (0, count), "{text}: {err}");
    }
}

#[test]
fn mc_counts_states_like_prob() {
    // SimpleCounter: count = 1..4; INITIALISATION + 6 Increase + 4 Reset transitions.
    let (code, json) = mc(&model("SimpleCounter.mch"), &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        (json["states"].as_u64(), json["transitions"].as_u64()),
        (Some(4), Some(11))
    );
    let (code, json) = mc(&model("MutexSimple.mch"), &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        (json["states"].as_u64(), json["transitions"].as_u64()),
        (Some(8), Some(15))
    );
    // The same figures ProB records for this model in the corpus.
    let (code, json) = mc(&model("scheduler.mch"), &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        (json["states"].as_u64(), json["transitions"].as_u64()),
        (Some(35), Some(121))
    );
}

#[test]
fn mc_counts_constant_setups_as_states() {
    // 10 setups + 10 initialised states; no operation, so ask for no deadlock check.
    let (code, json) = mc(&model("NumberOfStates.mch"), &["--no-deadlock"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        (json["states"].as_u64(), json["transitions"].as_u64()),
        (Some(20), Some(20))
    );
    let (code, json) = mc(&model("NumberOfStates.mch"), &[]);
    assert_eq!((code, json["status"].as_str()), (1, Some("DEADLOCK")));
    // Every initialised state is a dead end: the first stops the search, unless asked to go on.
    assert_eq!(json["deadlocked_states"].as_u64(), Some(1));
    let (code, json) = mc(&model("NumberOfStates.mch"), &["--all-deadlocks"]);
    assert_eq!((code, json["status"].as_str()), (1, Some("DEADLOCK")));
    assert_eq!(
        (json["states"].as_u64(), json["deadlocked_states"].as_u64()),
        (Some(20), Some(10))
    );
    assert_eq!(json["exploration_complete"].as_bool(), Some(true));
    let (code, out, err) = bsolve(&["mc", &model("NumberOfStates.mch"), "--all-deadlocks"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("deadlocked states: 10 (all states explored)"),
        "{out}"
    );
    let (code, _, err) = bsolve(&[
        "mc",
        &model("NumberOfStates.mch"),
        "--all-deadlocks",
        "--no-deadlock",
    ]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn mc_finds_the_shortest_invariant_violation() {
    let (code, json) = mc(&model("MutexWrong.mch"), &[]);
    assert_eq!(code, 1);
    assert_eq!(json["status"], "INVARIANT VIOLATION");
    let ops: Vec<&str> = json["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["operation"].as_str().unwrap())
        .collect();
    assert_eq!(
        ops,
        ["INITIALISATION", "request", "request", "enter", "enter"]
    );
    // Going on past it: the same verdict and trace, the whole state space's counts (those of a search
    // that does not check the invariant), and the violating states counted.
    let (code, past) = mc(&model("MutexWrong.mch"), &["--all-violations"]);
    assert_eq!(
        (code, past["status"].as_str()),
        (1, Some("INVARIANT VIOLATION"))
    );
    assert_eq!(past["trace"], json["trace"]);
    let (code, unchecked) = mc(&model("MutexWrong.mch"), &["--no-inv"]);
    assert_eq!(
        (code, unchecked["status"].as_str()),
        (0, Some("NO ERROR FOUND"))
    );
    assert_eq!(
        (&past["states"], &past["transitions"]),
        (&unchecked["states"], &unchecked["transitions"])
    );
    assert!(json["states"].as_u64() < past["states"].as_u64(), "{json}");
    assert_eq!(past["violating_states"].as_u64(), Some(1));
    assert_eq!(past["exploration_complete"].as_bool(), Some(true));
    let (code, _, err) = bsolve(&[
        "mc",
        &model("MutexWrong.mch"),
        "--all-violations",
        "--no-inv",
    ]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn a_deadlock_an_ill_defined_operation_may_cause_says_so() {
    // `1 / x` with x = 0: ProB's rule gives the instance no transition, so the state deadlocks; the
    // verdict must not read as if no operation were enabled for a plain reason.
    let file = temp_machine(
        "DivDeadlock",
        "MACHINE DivDeadlock\nVARIABLES x\nINVARIANT x : INTEGER\nINITIALISATION x := 0\n\
         OPERATIONS op = x := 1 / x\nEND\n",
    );
    let (code, out, err) = bsolve(&["mc", &file.display().to_string()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("DEADLOCK"), "{out}");
    assert!(out.contains("1 operation instance(s)"), "{out}");
    assert!(out.contains("ill-defined"), "{out}");
}

#[test]
fn mc_finds_a_deadlock_with_its_trace() {
    let (code, out, _) = bsolve(&["mc", &model("Deadlocking.mch")]);
    assert_eq!(code, 1);
    assert!(out.starts_with("DEADLOCK"), "{out}");
    assert!(out.contains("3: step   [x = 3]"), "{out}");
}

#[test]
fn mc_reports_unknown_when_cut_by_max_states() {
    let (code, json) = mc(
        &model("VerySimpleCounterWrong.mch"),
        &["--max-states", "200"],
    );
    assert_eq!(code, 2, "{json}");
    assert_eq!(json["status"], "UNKNOWN");
}

#[test]
fn check_lists_inferred_types() {
    let (code, out, _) = bsolve(&["check", &model("WhoKilledAgatha.mch")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("constant  hates : POW(Persons*Persons)"),
        "{out}"
    );
    assert!(out.contains("constant  killer : Persons"), "{out}");
}

#[test]
fn eval_without_a_machine() {
    assert_eq!(
        bsolve(&["eval", "card({1,2,3}) + 2**70"]).1.trim(),
        "1180591620717411303427"
    );
    assert_eq!(bsolve(&["eval", "rev([1,2]) ^ [3]"]).1.trim(), "[2,1,3]");
    let (_, out, _) = bsolve(&["eval", "s : seq(1..2) & size(s) = 2 & s(1) = 2"]);
    assert!(
        out.contains("s = [2,1]") || out.contains("s = [2,2]"),
        "{out}"
    );
    let (code, out, _) = bsolve(&["eval", "x : 1..5 & x * x = 16"]);
    assert_eq!(code, 0);
    assert!(out.contains("x = 4"), "{out}");
    let (code, out, _) = bsolve(&["eval", "1 / 0"]);
    assert_eq!(code, 2);
    assert!(out.starts_with("UNDEFINED"), "{out}");
}

#[test]
fn unbounded_search_never_claims_no_solution() {
    // ProB's example: the native solver searches only within MININT..MAXINT, so no proof; the
    // brute-force oracle neither.
    for backend in ["native", "brute"] {
        let (code, out, _) = bsolve(&["eval", "--backend", backend, "x < y & y < x"]);
        assert_eq!(code, 2, "{backend}: {out}");
        assert!(out.starts_with("UNKNOWN"), "{backend}: {out}");
    }
    // auto asks z3, which proves it; without z3 the question stays open.
    let (code, out, _) = bsolve(&["eval", "x < y & y < x"]);
    if common::smt("unbounded_search_never_claims_no_solution") {
        assert_eq!(code, 1, "{out}");
    } else {
        assert_eq!(code, 2, "{out}");
    }
    // Bounds from the conjuncts themselves prove this one.
    let (code, out, _) = bsolve(&["eval", "x : INTEGER & x > 5 & x < 4"]);
    assert_eq!(code, 1, "{out}");
    let (code, out, _) = bsolve(&["eval", "x : 1..3 & x > 5"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("FALSE"), "{out}");
}

#[test]
fn bad_input_gives_a_located_diagnostic_and_exit_3() {
    let dir = std::env::temp_dir().join(format!("bsolve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let syntax = dir.join("Syntax.mch");
    std::fs::write(
        &syntax,
        "MACHINE Syntax\nCONSTANTS c\nPROPERTIES c = = 1\nEND\n",
    )
    .unwrap();
    let (code, _, err) = bsolve(&["check", syntax.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("Syntax.mch:3:"), "{err}");
    let typing = dir.join("Typing.mch");
    std::fs::write(
        &typing,
        "MACHINE Typing\nCONSTANTS c\nPROPERTIES c = 1 & c = TRUE\nEND\n",
    )
    .unwrap();
    let (code, _, err) = bsolve(&["check", typing.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("Typing.mch:3:"), "{err}");
    let (code, _, err) = bsolve(&["check", dir.join("Missing.mch").to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains("Missing.mch"), "{err}");
    let (code, _, _) = bsolve(&["setup-constants", &model("Loop.mch"), "-p", "MAXINT"]);
    assert_eq!(code, 3);
    let (code, _, _) = bsolve(&["setup-constants", &model("Loop.mch"), "--card", "Blocks=0"]);
    assert_eq!(code, 3);
}

#[test]
fn unknown_backend_is_a_usage_error() {
    let (code, _, err) = bsolve(&["setup-constants", "--backend", "cplex", &model("Loop.mch")]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("cplex"), "{err}");
}

#[test]
fn mc_says_when_operation_parameters_were_cut() {
    let (code, json) = mc(&model("SimpleCounter.mch"), &[]);
    assert_eq!(
        (code, &json["partial_enumeration"]),
        (0, &Json::Bool(false))
    );
    // Increase(y) has up to three enablings per state; MAX_OPERATIONS=1 keeps one of them.
    // Nothing is proved beyond the values enumerated: no plain NO ERROR FOUND, and exit 2.
    let (code, json) = mc(&model("SimpleCounter.mch"), &["-p", "MAX_OPERATIONS=1"]);
    assert_eq!((code, &json["partial_enumeration"]), (2, &Json::Bool(true)));
    assert_eq!(
        json["status"], "NO ERROR FOUND IN THE EXPLORED PART",
        "{json}"
    );
    assert!(
        json["detail"]
            .as_str()
            .unwrap()
            .contains("enumerated only in part"),
        "{json}"
    );
}

#[test]
fn verbose_reports_the_solver_effort_and_rejected_solutions() {
    let (code, _, err) = bsolve(&["-v", "setup-constants", &model("SendMoreMoney.mch")]);
    assert_eq!(code, 0);
    assert!(err.contains("search nodes"), "{err}");
    assert!(
        err.contains("0 solutions rejected by the re-check"),
        "{err}"
    );
}

#[test]
fn a_reader_that_goes_away_stops_bsolve_quietly() {
    use std::process::{Command, Stdio};
    // `bsolve eval "1..100000" | true`: 590 kB of output, more than a pipe holds, and nobody reads.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("bsolve"))
        .args(["eval", "1..100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("exits");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{:?} {err}", out.status);
}

#[test]
fn symmetric_setups_with_function_images_are_all_listed() {
    let setups = |backend: &str, file: &str| {
        let (_, json) = bsolve_json(&[
            "--backend",
            backend,
            "setup-constants",
            "--all",
            &model(file),
        ]);
        solutions(&json).len()
    };
    // Function images into a deferred set, alone, beside a map into POW(DOOR), and distinct scalars
    // beside a subset: whatever each backend's symmetry rules cut, the list holds every setup.
    let backends = ["brute", "native", "kodkod"];
    for backend in backends {
        assert_eq!(setups(backend, "DeferredBijection.mch"), 2, "{backend}");
    }
    let dir = std::env::temp_dir().join(format!("bsolve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let maps = dir.join("DeferredMapsIntoSets.mch");
    std::fs::write(
        &maps,
        "MACHINE DeferredMapsIntoSets\nSETS KEY; DOOR\nCONSTANTS unlocks, opens\n\
         PROPERTIES unlocks : KEY >->> DOOR & opens : KEY --> POW(DOOR)\nEND\n",
    )
    .expect("writes the machine");
    let maps = maps.to_string_lossy().to_string();
    for backend in backends {
        assert_eq!(setups(backend, &maps), 32, "{backend}");
    }
    // Distinct scalars beside a subset (ProB's B/FeatureChecks/DeferredSetMaxCardWithUnion.mch): a and b
    // are pinned, s is free around them.
    let mixed = temp_machine(
        "DeferredPinnedBesideSubset",
        "MACHINE DeferredPinnedBesideSubset\nSETS D\nCONSTANTS a, b, s\n\
         PROPERTIES a : D & b : D & a /= b & s <: D & a : s\nEND\n",
    );
    let mixed = mixed.to_string_lossy().to_string();
    for backend in backends {
        assert_eq!(setups(backend, &mixed), 4, "{backend}");
    }
}

/// Writes a machine to a fresh temporary directory; returns its path.
fn temp_machine(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bsolve-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.mch"));
    std::fs::write(&file, text).expect("writes");
    file
}

#[test]
fn no_solution_among_ill_defined_candidates_says_why() {
    // `i : 1..3` typed for `i : 1..2`: every candidate applies r outside its domain, so none is a
    // solution, and the answer names the ill-defined application (ProB, reading it as false, finds
    // solutions).
    let file = temp_machine(
        "IllDefined",
        "MACHINE IllDefined\nCONSTANTS r\n\
         PROPERTIES r : 1..2 --> BOOL & !i.(i : 1..3 & r(i) = TRUE => i < 3)\nEND\n",
    );
    let path = file.to_str().expect("utf-8");
    let (code, out, _) = bsolve(&["setup-constants", path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("NO SOLUTION"), "{out}");
    assert!(
        out.contains("ill-defined") && out.contains("IllDefined.mch:3:") && out.contains("(to 3)"),
        "{out}"
    );
    let (code, json) = bsolve_json(&["solve", "--pred", "f : 1..2 --> 1..2 & f(3) = 1", path]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["answer"], "unsat");
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.contains("ill-defined")),
        "{json}"
    );
}

#[test]
fn kodkod_lists_the_setups_of_a_large_deferred_set_without_listing_its_permutations() {
    // 15! permutations are never listed (they once were, until memory ran out): the orbit of the one
    // representative is closed under swaps and cycles, 15 * 14 setups.
    let file = temp_machine(
        "BigDeferred",
        "MACHINE BigDeferred\nSETS G\nCONSTANTS x, y\n\
         PROPERTIES card(G) = 15 & x : G & y : G & x /= y\nEND\n",
    );
    let (code, json) = bsolve_json(&["setup-constants", "--kodkod", file.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(solutions(&json).len(), 210, "{json}");
    assert_eq!(json["complete"], true, "{json}");
}

#[test]
fn without_a_timeout_native_yields_to_sat_on_what_it_cannot_finish() {
    // Algebraic stack laws over deferred sets (the corpus' Demo/Stack.mch): no setup exists, which native
    // search takes many minutes to establish and SAT a millisecond. With no --timeout, native used to
    // search alone until done.
    let file = temp_machine(
        "StackLaws",
        "MACHINE StackLaws\nSETS STACKS; DATA\n\
         DEFINITIONS scope_DATA == 2; scope_STACKS == 3; NFSTACKS == (STACKS - {full})\n\
         CONSTANTS empty, full, STACKS1, push, pop, tops\n\
         PROPERTIES empty : STACKS & empty /: STACKS1 & STACKS = STACKS1 \\/ {empty} & full : STACKS &\n\
           push : NFSTACKS * DATA --> STACKS1 & push /= {} & pop : STACKS1 --> STACKS &\n\
           tops : STACKS1 --> DATA &\n\
           !(s, d).(s : NFSTACKS & d : DATA => pop(push(s, d)) = s) &\n\
           !(s, d).(s : NFSTACKS & d : DATA => tops(push(s, d)) = d)\nEND\n",
    );
    let out = assert_cmd::Command::cargo_bin("bsolve")
        .expect("binary")
        .args(["setup-constants", "-v", file.to_str().expect("utf-8")])
        // Not a speed target: a guard against waiting on native for minutes (it fails the test).
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("NO SOLUTION") && text.contains("exhaustive"),
        "{text}"
    );
    // The statistics of -v (on stderr) name the backend that decided.
    let stats = String::from_utf8_lossy(&out.stderr);
    assert!(stats.contains("1 problems by SAT"), "{stats}");
}

#[test]
fn a_constant_closure_ill_defined_for_some_elements_stays_symbolic() {
    // `max(s)` is ill-defined for `s = {}`: the set cannot be listed, and ProB keeps it a closure that
    // is applied to the arguments it is given.
    let file = temp_machine(
        "GcdClosure",
        "MACHINE GcdClosure\nDEFINITIONS IsCD(d,s) == !i.(i:s => i mod d = 0)\n\
         ABSTRACT_CONSTANTS gcdc\nPROPERTIES gcdc = {s,d| s<:NATURAL & d:1..max(s) & IsCD(d,s) & \
         not(#e.(e:NATURAL1 & e<=max(s) & IsCD(e,s) & e>d))}\n\
         VARIABLES res\nINVARIANT res : NATURAL\nINITIALISATION res := gcdc({10,15,20,100})\nEND\n",
    );
    let (code, json) = mc(file.to_str().expect("utf-8"), &["--timeout", "20000"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "DEADLOCK", "{json}");
    assert_eq!(
        (&json["states"], &json["transitions"]),
        (&Json::from(2), &Json::from(2))
    );
    assert_eq!(json["trace"][1]["changed"]["res"], "5", "{json}");
}

#[test]
fn an_initialisation_reading_a_variable_it_has_not_set_has_no_outcome() {
    // The ANY reads `a`, which only the parallel branch gives a value (ProB finds no initial state,
    // B/Mathematical/TLA/TLA_Rodin_PO.mch); a sequential composition that sets `a` first is fine, and
    // so is a read inside one branch of an IF only.
    let reads = temp_machine(
        "InitReadsUnset",
        "MACHINE InitReadsUnset\nVARIABLES a, b\nINVARIANT a : 0..3 & b : 0..3\n\
         INITIALISATION a :: 0..2 || ANY x WHERE x : 0..3 & x <= a THEN b := x END\n\
         OPERATIONS op = skip\nEND\n",
    );
    let (code, out, _) = bsolve(&["mc", reads.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("NO INITIALISATION"), "{out}");
    let sets_first = temp_machine(
        "InitSetsFirst",
        "MACHINE InitSetsFirst\nVARIABLES a, b\nINVARIANT a : 0..3 & b : 0..3\n\
         INITIALISATION a :: 0..2 ; ANY x WHERE x : 0..3 & x <= a THEN b := x END\n\
         OPERATIONS op = skip\nEND\n",
    );
    let (code, json) = mc(sets_first.to_str().expect("utf-8 path"), &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["states"].as_u64(), Some(6), "{json}");
    let branch_reads = temp_machine(
        "InitBranchReads",
        "MACHINE InitBranchReads\nVARIABLES a, b\nINVARIANT a : 0..3 & b : 0..3\n\
         INITIALISATION a := 1 || IF 1 = 2 THEN b := a ELSE b := 0 END\n\
         OPERATIONS op = skip\nEND\n",
    );
    let (code, json) = mc(branch_reads.to_str().expect("utf-8 path"), &[]);
    assert_eq!(code, 0, "{json}");
}

#[test]
fn variables_may_hold_sets_that_cannot_be_listed() {
    // s starts as NATURAL, t as STRING: the states hold them symbolically (B/Laws/FunLawsStrings.mch
    // keeps STRING in a variable); adding back what was removed comes back to the same state.
    let held = temp_machine(
        "HeldSets",
        "MACHINE HeldSets\nVARIABLES s, t\nINVARIANT s <: INTEGER & t <: STRING & 5 : s\n\
         INITIALISATION s := NATURAL || t := STRING\nOPERATIONS\n\
         dec(x) = PRE x : 0..6 & x : s THEN s := s - {x} END;\n\
         inc(x) = PRE x : 0..6 & x /: s THEN s := s \\/ {x} END;\n\
         rem = PRE \"a\" : t THEN t := t - {\"a\"} END\nEND\n",
    );
    let path = held.to_str().expect("utf-8 path");
    let (code, json) = mc(path, &["--no-inv", "--all-deadlocks"]);
    assert_eq!(code, 0, "{json}");
    // 128 subsets of 0..6 removed, times two values of t.
    assert_eq!(
        (json["states"].as_u64(), json["transitions"].as_u64()),
        (Some(256), Some(1921)),
        "{json}"
    );
    let (code, out, _) = bsolve(&["mc", path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("INVARIANT VIOLATION"), "{out}");
    assert!(out.contains("[s = NATURAL, t = STRING]"), "{out}");
    assert!(out.contains("dec(5)   [s = (NATURAL - {5})]"), "{out}");
}

#[test]
fn parameters_bounded_through_one_another_give_every_transition() {
    // Follow's parameters are bounded only through each other (`s : ran(rules)`, `i < size(s)`,
    // `j > i & j <= size(s)`): the enumeration answers them before the solver would. From the single
    // state: s = [a,b,c] gives (i,j) in {(1,2),(1,3),(2,3)}, s = [a,b] gives (1,2), s = [a] none — four
    // transitions, each to the same state; with the initialisation, 2 states / 6 transitions in ProB's
    // counting (root excluded, SETUP_CONSTANTS and INITIALISATION edges included: 1 setup + 1 state).
    let file = temp_machine(
        "Follow",
        "MACHINE Follow\nSETS SYM = {a, b, c}\nCONSTANTS rules\n\
         PROPERTIES rules = {1 |-> [a, b, c], 2 |-> [a, b], 3 |-> [a]}\n\
         VARIABLES n\nINVARIANT n : NATURAL\nINITIALISATION n := 0\nOPERATIONS\n\
         Follow(s, i, j) = PRE s : seq(SYM) & s : ran(rules) & i : NATURAL1 & i < size(s) & \
         j > i & j <= size(s) & s(i) /= s(j) THEN n := 0 END\nEND\n",
    );
    let path = file.to_str().expect("utf-8");
    let (code, json) = bsolve_json(&["mc", path, "--no-deadlock"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["states"], 2, "{json}");
    assert_eq!(json["transitions"], 6, "{json}");
    assert_eq!(json["exploration_complete"], true, "{json}");
}

/// `--timeout` takes milliseconds, or `none`/`0` for no limit; anything else is bad input (exit 3).
#[test]
fn timeout_values_are_milliseconds_or_none() {
    let file = model("SendMoreMoney.mch");
    for ok in ["5000", "none", "0"] {
        let (code, out, err) = bsolve(&["setup-constants", "--timeout", ok, &file]);
        assert_eq!(code, 0, "--timeout {ok}: {out}{err}");
    }
    for bad in ["-5", "abc", "1.5"] {
        let (code, _, err) = bsolve(&["setup-constants", "--timeout", bad, &file]);
        assert_eq!(code, 3, "--timeout {bad}: {err}");
    }
}

/// Past `--max-memory`, mc stops with an UNKNOWN naming the limit (each state here holds a
/// 1,000-element set, and there are a million of them).
#[test]
fn mc_stops_at_the_memory_limit_and_says_so() {
    let file = temp_machine(
        "Sliding",
        "MACHINE Sliding\nVARIABLES n, s\nINVARIANT n : NATURAL & s <: NATURAL\n\
         INITIALISATION n := 0 || s := 1..1000\nOPERATIONS\n\
         step = SELECT n < 1000000 THEN n := n + 1 || s := (s - {min(s)}) \\/ {max(s) + 1} END\nEND\n",
    );
    let (code, json) = bsolve_json(&["mc", "--max-memory", "200", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{json}");
    assert_eq!(json["status"], "UNKNOWN", "{json}");
    assert!(
        json["detail"]
            .as_str()
            .is_some_and(|d| d.contains("memory limit reached")),
        "{json}"
    );
    let (code, _, err) = bsolve(&["mc", "--max-memory", "lots", file.to_str().expect("utf-8")]);
    assert_eq!(code, 3, "{err}");
}

/// `--version` lists the solvers found: the built-in ones always, z3 as found or with the install hint.
#[test]
fn version_lists_the_solvers_found() {
    let (code, out, _) = bsolve(&["--version"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("bsolve "), "{out}");
    assert!(out.contains("CaDiCaL and varisat, built in"), "{out}");
    if common::smt("version_lists_the_solvers_found") {
        assert!(out.contains("SMT (--z3): Z3 4."), "{out}");
    } else {
        assert!(out.contains("apt install z3"), "{out}");
    }
}

/// The portfolio races native against SAT and z3: a question native would label 2^25 candidates for
/// (BigGuardDeadlock; native alone takes about 28 s) and an acyclicity Unsat native enumerates
/// relations for are decided by the lane, and the answers are the same as each backend's alone.
#[test]
fn auto_races_the_backends_and_agrees_with_each() {
    let (code, json) = bsolve_json(&["setup-constants", "-n", "1", &model("BigGuardDeadlock.mch")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(solutions(&json)[0]["ct"], "33554432", "{json}");
    for backend in ["auto", "kodkod", "native"] {
        let (code, json) = bsolve_json(&[
            "setup-constants",
            "--backend",
            backend,
            &model("AcyclicTooDense.mch"),
        ]);
        assert_eq!(code, 1, "{backend}: {json}");
        assert_eq!(json["complete"], true, "{backend}: {json}");
    }
}

#[test]
fn itf_export_of_a_b_trace_writes_relations_as_sets_of_tuples() {
    let itf = std::env::temp_dir().join(format!("bsolve-cli-itf-{}.json", std::process::id()));
    let itf = itf.display().to_string();
    let (code, out, err) = bsolve(&["mc", &model("MutexWrong.mch"), "--itf", &itf]);
    assert_eq!(code, 1, "{out}{err}");
    // B traces keep ProB's steps in text.
    assert!(
        out.contains("  0: INITIALISATION   [phase = {p1|->idle,p2|->idle}"),
        "{out}"
    );
    let trace: Json =
        serde_json::from_str(&std::fs::read_to_string(&itf).expect("written")).expect("JSON");
    assert_eq!(
        trace["vars"],
        serde_json::json!(["phase", "free"]),
        "{trace}"
    );
    let states = trace["states"].as_array().expect("states");
    assert_eq!(
        states.len(),
        5,
        "one state per step of the text trace: {trace}"
    );
    assert_eq!(states[0]["free"], true, "{trace}");
    assert_eq!(
        states[0]["phase"],
        serde_json::json!({"#set": [
            {"#tup": ["p1_OF_PROC", "idle_OF_PHASE"]},
            {"#tup": ["p2_OF_PROC", "idle_OF_PHASE"]}
        ]}),
        "{trace}"
    );
    assert_eq!(states[3]["free"], false, "{trace}");
}
