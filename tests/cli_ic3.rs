//! End-to-end tests of `bsolve ic3`: proofs of invariants that hold in every reachable state but are not
//! inductive (CBC alone reports a counterexample to induction), each printed inductive invariant
//! re-checked by `bsolve cbc --invariant`; replayed counterexamples; exit codes (0 proved,
//! 1 counterexample, 2 unknown, 3 bad input).

mod common;

use common::{
    bsolve, bsolve_json, corpus_model, model_arg as model, operations, replayed_violation,
};

/// CBC finds a counterexample to induction of the machine's own invariant; IC3 proves it; the printed
/// invariant is established by the INITIALISATION and preserved by every operation according to
/// `cbc --invariant`, and it contains the machine's invariant.
fn proves_non_inductive(name: &str) -> String {
    proves_non_inductive_file(&model(name), name)
}

fn proves_non_inductive_file(file: &str, name: &str) -> String {
    let file = file.to_string();
    let (code, cbc) = bsolve_json(&["cbc", &file]);
    assert_eq!(
        code, 1,
        "{name}: the invariant should not be inductive: {cbc}"
    );
    let (code, json) = bsolve_json(&["ic3", &file]);
    assert_eq!(code, 0, "{name}: {json}");
    assert_eq!(json["status"], "PROVED for all reachable states", "{json}");
    let justification = json["justification"].as_str().expect("justification");
    assert!(
        justification.starts_with("inductive invariant re-checked"),
        "{json}"
    );
    let invariant = json["invariant"].as_str().expect("invariant").to_string();
    assert!(
        invariant.contains("not("),
        "{name}: no strengthening: {invariant}"
    );
    let (code, recheck) = bsolve_json(&["cbc", &file, "--invariant", &invariant]);
    assert_eq!(
        code, 0,
        "{name}: `cbc --invariant` rejects {invariant}: {recheck}"
    );
    let rows = recheck["results"].as_array().expect("results");
    assert_eq!(rows[0]["operation"], "INITIALISATION", "{recheck}");
    assert!(rows.iter().all(|r| r["status"] == "PRESERVED"), "{recheck}");
    invariant
}

#[test]
fn ic3_proves_delayed_copy() {
    let inv = proves_non_inductive("DelayedCopy.mch");
    assert!(inv.contains("not(q = TRUE)"), "{inv}");
}

#[test]
fn ic3_proves_shift_register() {
    let inv = proves_non_inductive("ShiftRegister.mch");
    assert!(
        inv.contains("not(a = TRUE)") && inv.contains("not(b = TRUE)"),
        "{inv}"
    );
}

#[test]
fn ic3_proves_two_phase_mutex() {
    proves_non_inductive("MutexTwoPhase.mch");
}

#[test]
fn ic3_proves_counter_pair() {
    proves_non_inductive("CounterPair.mch");
}

#[test]
fn ic3_proves_token_ring() {
    let inv = proves_non_inductive("TokenRing.mch");
    assert!(inv.contains("not(t2 = TRUE & t3 = TRUE)"), "{inv}");
}

#[test]
fn ic3_proves_elevator() {
    proves_non_inductive("Elevator.mch");
}

#[test]
fn ic3_proves_corpus_invariants_that_cbc_refutes() {
    for name in [
        "B/Demo/Lift_inf.mch",
        "B/Simple/VerySimpleDFA.mch",
        // Over bits: 3 cubes, one of them a bit of j.
        "B/CBC/BinarySearchEvents_Overflow.mch",
    ] {
        let Some(file) = corpus_model(name) else {
            return;
        };
        proves_non_inductive_file(&file, name);
    }
}

#[test]
fn ic3_proves_with_the_brute_force_backend_too() {
    let (code, out, err) = bsolve(&["--backend", "brute", "ic3", &model("CounterPair.mch")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("inductive invariant: "), "{out}");
}

#[test]
fn an_inductive_invariant_is_printed_unchanged() {
    let (code, json) = bsolve_json(&["ic3", &model("MutexSimple.mch")]);
    assert_eq!(code, 0, "{json}");
    assert!(
        !json["invariant"].as_str().unwrap().contains("not("),
        "{json}"
    );
}

#[test]
fn cbc_invariant_rejects_a_non_inductive_predicate() {
    let (code, out, _) = bsolve(&[
        "cbc",
        &model("DelayedCopy.mch"),
        "--invariant",
        "p : BOOL & q : BOOL & p = FALSE",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("step: COUNTEREXAMPLE"), "{out}");
    assert!(out.contains("<--invariant>"), "{out}");
}

/// Violations ProB's corpus records that cubes of values never reached within a minute: Bakery1err's is
/// 20 steps deep, past the default MAXINT window of its NATURAL tickets (found by widening it);
/// TimingExample's needs one of 2,500 constant setups (symbolic over bits); LightbotAbstract's
/// constants are defined by PROPERTIES (values, not bits); TwoPurses' transfer needs integer sums.
#[test]
fn ic3_over_bits_finds_deep_corpus_violations() {
    for (name, steps) in [
        ("B/Demo/Bakery1err.mch", 21),
        ("B/SymbolicModelChecking/TimingExample.mch", 0),
        ("B/SymbolicModelChecking/LightbotAbstract.mch", 0),
        // Its operations' outputs are dropped from the relation (nothing reads them) and its SIGMA
        // over a possibly ill-defined set is well-defined when every instance is.
        ("B/Simple/TwoPurses.mch", 0),
        // A function into sets updated by override.
        ("B/Demo/RussianPostalPuzzle2.mch", 0),
    ] {
        let Some(file) = corpus_model(name) else {
            return;
        };
        let json = replayed_violation(&["ic3", "--timeout", "60000", &file]);
        assert_eq!(json["status"], "INVARIANT VIOLATION", "{json}");
        assert_eq!(json["over_bits"], true, "{json}");
        let ops = operations(&json["trace"]);
        assert!(ops[..2].contains(&"INITIALISATION"), "{json}");
        if steps > 0 {
            assert_eq!(ops.len(), steps, "{name}: {json}");
        }
    }
}

#[test]
fn ic3_finds_the_mutex_wrong_violation() {
    let (code, json) = bsolve_json(&["ic3", &model("MutexWrong.mch")]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "INVARIANT VIOLATION", "{json}");
    assert!(json["justification"].as_str().unwrap().contains("replayed"));
    let ops = operations(&json["trace"]);
    assert_eq!(ops[0], "INITIALISATION", "{json}");
    assert_eq!(ops.iter().filter(|o| **o == "enter").count(), 2, "{json}");
    assert_eq!(json["violated"][0]["text"], "card(phase~[{critical}]) <= 1");
}

#[test]
fn ic3_finds_the_very_simple_counter_violation() {
    let (code, json) = bsolve_json(&["ic3", &model("VerySimpleCounterWrong.mch")]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        operations(&json["trace"]),
        ["SETUP_CONSTANTS", "INITIALISATION", "Inc"]
    );
    assert_eq!(json["violated"][0]["text"], "ct < lim");
}

#[test]
fn a_frame_budget_too_small_is_unknown() {
    let (code, out, _) = bsolve(&["ic3", "--max-frames", "1", &model("ShiftRegister.mch")]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
}

#[test]
fn bad_input_exits_3() {
    let (code, _, err) = bsolve(&["ic3", &model("StaticAssertions.mch")]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no VARIABLES"), "{err}");
    let (code, _, err) = bsolve(&["ic3", "--backend", "nosuch", &model("DelayedCopy.mch")]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = bsolve(&["ic3", "--max-frames", "0", &model("DelayedCopy.mch")]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn ic3_finds_corpus_violations_whatever_the_constant_setups() {
    // 420 constant setups: the violation after one operation is asked with the constants symbolic.
    // MAX_INITIALISATIONS = 0: one setup is still checked.
    for (name, steps) in [
        ("B/SymbolicModelChecking/DisjunctionInProperties.mch", 3),
        ("B/SymbolicModelChecking/Counters/CounterArticle64.mch", 4),
    ] {
        let Some(file) = corpus_model(name) else {
            return;
        };
        let json = replayed_violation(&["ic3", &file]);
        let ops = operations(&json["trace"]);
        assert_eq!(ops[..2], ["SETUP_CONSTANTS", "INITIALISATION"], "{json}");
        assert_eq!(ops.len(), steps, "{name}: {json}");
    }
}
