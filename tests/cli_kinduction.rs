//! End-to-end tests of `bsolve kinduction` (and of `bmc` and `ic3` on the corpus' invariant-violating
//! machines): proofs of invariants that hold in every reachable state but are not inductive (`cbc` alone
//! reports a counterexample to induction), the simple-path constraints that some of them need, and
//! violations found with a trace replayed by the interpreter. Exit codes: 0 proved, 1 counterexample,
//! 2 unknown.

mod common;

use common::{
    bsolve, bsolve_json, corpus_model, model_arg as model, operations, replayed_violation,
};

/// `cbc` finds a counterexample to induction; `kinduction` proves the invariant with the step case for
/// `k` (a complete Unsat).
fn proves_non_inductive(file: &str, k: usize) {
    let (code, cbc) = bsolve_json(&["cbc", file]);
    assert_eq!(
        code, 1,
        "{file}: the invariant should not be inductive: {cbc}"
    );
    let (code, json) = bsolve_json(&["kinduction", file]);
    assert_eq!(code, 0, "{file}: {json}");
    assert_eq!(json["status"], "PROVED for all reachable states", "{json}");
    let justification = json["justification"].as_str().expect("justification");
    assert!(justification.starts_with("complete Unsat"), "{json}");
    assert!(
        justification.ends_with(&format!("step case for k = {k}")),
        "{file}: {json}"
    );
}

#[test]
fn proves_the_delayed_copy() {
    proves_non_inductive(&model("DelayedCopy.mch"), 2);
}

#[test]
fn proves_the_shift_register() {
    proves_non_inductive(&model("ShiftRegister.mch"), 3);
}

#[test]
fn proves_the_counter_pair() {
    proves_non_inductive(&model("CounterPair.mch"), 4);
}

#[test]
fn proves_the_two_phase_mutex() {
    proves_non_inductive(&model("MutexTwoPhase.mch"), 3);
}

#[test]
fn proves_the_token_ring() {
    proves_non_inductive(&model("TokenRing.mch"), 3);
}

/// The lift's counterexamples to induction (at floor 0 facing down, the door opening and closing) lie on
/// a loop of unreachable states: only the simple-path constraints prove it.
#[test]
fn proves_the_elevator_with_simple_paths_only() {
    proves_non_inductive(&model("Elevator.mch"), 3);
    let (code, out, _) = bsolve(&[
        "--timeout",
        "1500",
        "kinduction",
        "--no-simple-path",
        "--max-k",
        "4",
        &model("Elevator.mch"),
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("UNKNOWN (not proved with k <= 4: the invariant is not 4-inductive"),
        "{out}"
    );
}

#[test]
fn proves_corpus_invariants_that_cbc_refutes() {
    for (name, k) in [
        ("B/Demo/Lift_inf.mch", 2),
        ("B/Simple/VerySimpleDFA.mch", 5),
        ("B/CBC/BinarySearchEvents_Overflow.mch", 4),
        ("B/EventB/ETH_Elevator/elevator3.mch", 2),
    ] {
        // elevator3's step case is over unbounded integers: z3 decides it.
        if name.contains("elevator3")
            && !common::smt("proves_corpus_invariants_that_cbc_refutes (elevator3)")
        {
            continue;
        }
        let Some(file) = corpus_model(name) else {
            return;
        };
        proves_non_inductive(&file, k);
    }
}

#[test]
fn finds_the_corpus_violations_with_every_symbolic_check() {
    for name in [
        "B/CBC/ProcessIDStarvation_InvErr.mch",
        "B/Demo/GCD.mch",
        "B/Demo/phonebook4.mch",
        "B/SymbolicModelChecking/Counters/InfiniteAndFiniteCounterWrong.mch",
    ] {
        let Some(file) = corpus_model(name) else {
            return;
        };
        replayed_violation(&["bmc", &file, "10"]);
        replayed_violation(&["kinduction", &file]);
        replayed_violation(&["ic3", &file]);
    }
}

/// Deep violations on branching machines whose transition relation has no exact SAT translation
/// (CarlaTravelAgencyErr: 4 operations among thousands of sequences, each a hard value-level question;
/// TheSystem: 8; LightbotAbstract: 14, its constants defined by PROPERTIES): `bmc` and k-induction's base
/// case find them by the search over bits; the trace is replayed, and not claimed shortest.
#[test]
fn bmc_and_kinduction_find_deep_violations_over_bits() {
    for (name, length) in [
        ("B/Demo/CarlaTravelAgencyErr.mch", 4),
        ("B/ABCD/TheSystem.mch", 8),
        ("B/SymbolicModelChecking/LightbotAbstract.mch", 14),
        // A function into sets updated by override (`has_keys(person) := ...`).
        ("B/Demo/RussianPostalPuzzle2.mch", 18),
    ] {
        let Some(file) = corpus_model(name) else {
            return;
        };
        let json = replayed_violation(&["bmc", &file, "20", "--timeout", "60000"]);
        assert_eq!(
            json["status"],
            format!("INVARIANT VIOLATION at depth {length}")
        );
        let justification = json["justification"].as_str().expect("justification");
        assert!(justification.contains("searched over bits"), "{json}");
        replayed_violation(&["kinduction", "--timeout", "30000", &file]);
    }
}

/// The violation of SimpleInvViolation needs 11 operations, beyond the default --max-k 8: the base case
/// goes on as bounded model checking once the step case is given up.
#[test]
fn kinduction_finds_a_violation_deeper_than_max_k() {
    let Some(file) = corpus_model("B/CBC/SimpleInvViolation.mch") else {
        return;
    };
    let json = replayed_violation(&["kinduction", "--max-k", "2", &file]);
    let ops = operations(&json["trace"]);
    assert_eq!(
        ops.iter().filter(|o| **o == "AddReservation").count(),
        11,
        "{json}"
    );
}

/// countdown's set of naturals grows by products: no finite encoding, every operation sequence a
/// non-linear question; the breadth-first search of concrete states that k-induction and IC3 ask first
/// reaches the violation (6 operations, through a reset) and says so.
#[test]
fn kinduction_and_ic3_find_countdowns_violation_among_concrete_states() {
    let Some(file) = corpus_model("B/Demo/countdown.mch") else {
        return;
    };
    for command in ["kinduction", "ic3"] {
        let json = replayed_violation(&[command, "--timeout", "60000", &file]);
        assert_eq!(json["explicit_search"], true, "{json}");
        let justification = json["justification"].as_str().expect("justification");
        assert!(justification.contains("concrete states"), "{json}");
        let ops = operations(&json["trace"]);
        assert_eq!(ops.len(), 7, "{json}");
        assert_eq!(ops[1], "reset", "{json}");
    }
}

/// Where the transition relation translates exactly, the symbolic base case answers: no search of
/// concrete states is asked (MutexWrong's violation, 4 operations deep, was reported by it when the
/// search ran on every machine).
#[test]
fn kinduction_leaves_exactly_translated_machines_to_the_symbolic_base_case() {
    let json = replayed_violation(&["kinduction", &model("MutexWrong.mch")]);
    assert_eq!(json["explicit_search"], false, "{json}");
    assert_eq!(operations(&json["trace"]).len(), 5, "{json}");
}
