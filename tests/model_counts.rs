//! Every machine of `models/` with its expected number of constant setups, found by the solver (the
//! default backend) and re-checked by the interpreter. A complete list counts every setup: symmetry
//! over deferred sets may speed the search, but each setup it skipped is re-expanded and re-checked
//! (DeferredSymmetry 1080, DeferredPartition 20). For the puzzles whose solution
//! sets are huge, the first solution is asked for and checked against the puzzle's rules.

mod common;

use bsolve::check::setup::setup_constants;
use common::{load, value_of};

/// The number of setups the solver finds with `--all`, asserting the search was exhaustive.
fn all_setups(name: &str) -> usize {
    let model = load(name);
    let result = setup_constants(&model, usize::MAX).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(result.complete, "{name}: the search must be exhaustive");
    result.solutions.len()
}

/// Whether the solver finds a first setup.
fn first_setup(name: &str) -> bsolve::check::setup::Assignment {
    let model = load(name);
    let result = setup_constants(&model, 1).unwrap_or_else(|e| panic!("{name}: {e}"));
    result
        .solutions
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{name}: no setup found"))
}

#[test]
fn exact_counts() {
    for (name, expected) in [
        ("SendMoreMoney.mch", 1),
        ("WhoKilledAgatha.mch", 6),
        ("Loop.mch", 7),
        ("NQueens6.mch", 4),
        ("SieveStep.mch", 1),
        ("SieveStepComprehension.mch", 1),
        ("SetUnion.mch", 1),
        ("DeferredSymmetry.mch", 1080),
        ("DeferredPartition.mch", 20),
        ("DeferredPairing.mch", 6),
        ("NumberOfStates.mch", 10),
        ("VerySimpleCounterWrong.mch", 1),
        // Machines without constants have exactly one (empty) setup.
        ("SimpleCounter.mch", 1),
        ("MutexSimple.mch", 1),
        ("MutexWrong.mch", 1),
        ("Deadlocking.mch", 1),
        ("scheduler.mch", 1),
    ] {
        assert_eq!(all_setups(name), expected, "{name}");
    }
}

#[test]
fn agatha_was_killed_by_herself_in_every_setup() {
    let model = load("WhoKilledAgatha.mch");
    let result = setup_constants(&model, usize::MAX).unwrap();
    for s in &result.solutions {
        let killer = s.iter().find(|(n, _)| &**n == "killer").unwrap();
        assert_eq!(killer.1.to_string(), "Agatha");
    }
}

#[test]
fn first_solutions_of_the_large_puzzles() {
    let queens = first_setup("NQueens.mch");
    assert_eq!(queens.len(), 2);
    // The interpreter re-checked PROPERTIES; check the permutation shape independently.
    let q = &queens[1].1;
    let model = load("NQueens.mch");
    let rows = value_of(&model, &format!("card(ran({q}))"));
    assert_eq!(rows.to_string(), "20");
    for name in [
        "GraphColouring.mch",
        "GraphColouringEnum.mch",
        "GraphIsomorphism.mch",
        "CrewAllocation.mch",
    ] {
        assert!(!first_setup(name).is_empty(), "{name}");
    }
}
