//! The checkers in `ltl` and `ctl` against the oracle, on random small graphs and formulas.
//!
//! Each case is generated from its own seed, printed with the case when the checker and the oracle
//! disagree, so a failure is replayed with `BSOLVE_LTL_SEED=<seed> BSOLVE_LTL_CASES=1`.

use super::super::ltl::{self, LtlVerdict};
use super::super::space::StateSpace;
use super::super::{ctl, formula::Formula};
use super::*;

/// Bounds that cover the runs of graphs of at most 4 nodes well (see the module comment in `oracle`).
const MAX_NODES: usize = 4;
const MAX_PREFIX: usize = 4;
const MAX_CYCLE: usize = 6;

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text} is not a number")),
        Err(_) => default,
    }
}

/// The seeds of the run: `BSOLVE_LTL_SEED` (default 1) and the `count` after it.
fn seeds(count: u64) -> std::ops::Range<u64> {
    let first = env_number("BSOLVE_LTL_SEED", 1);
    first..first + count
}

fn random_space(rng: &mut fastrand::Rng) -> ExplicitSpace {
    let operations = rng.usize(1..=2);
    ExplicitSpace::random(rng, MAX_NODES, operations, 2)
}

/// One LTL case: a `Violated` run must be a fair run of the space violating the formula; `Holds` must
/// leave the bounded search without a counterexample.
fn compare_ltl(seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut space = random_space(&mut rng);
    let formula = random_ltl(&mut rng, &space.atoms(), 3);
    let fairness = random_fairness(&mut rng, space.operations().len());
    let case = format!(
        "seed {seed}\n{space}{}\nfairness {fairness:?}",
        formula_text(&formula)
    );
    let verdict = ltl::check(&mut space.clone(), &formula, &fairness)
        .unwrap_or_else(|stop| panic!("the checker stopped ({stop:?})\n{}", case));
    match verdict {
        LtlVerdict::Violated(lasso) => {
            let problem = if !is_run(&mut space, &lasso) {
                Some("not a run of the space")
            } else if !is_fair(&mut space, &fairness, &lasso) {
                Some("not fair")
            } else if ltl_on_lasso(&mut space, &formula, &lasso) {
                Some("satisfies the formula")
            } else {
                None
            };
            if let Some(problem) = problem {
                panic!("the counterexample {lasso:?} is {problem}\n{}", case);
            }
        }
        LtlVerdict::Holds => {
            let found = ltl_counterexample(&mut space, &formula, &fairness, MAX_PREFIX, MAX_CYCLE);
            if let Some(lasso) = found {
                panic!(
                    "the checker says Holds; the oracle finds {lasso:?}\n{}",
                    case
                );
            }
        }
    }
}

/// One CTL case: the first initial node where the formula fails, by the checker and by the oracle.
fn compare_ctl(seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut space = random_space(&mut rng);
    let (states, events) = (space.state_atoms(), space.event_atoms());
    let formula = random_ctl(&mut rng, &states, &events, 3);
    let initial = space.initial().expect("explicit spaces never stop");
    let expected = initial
        .into_iter()
        .find(|&n| !ctl_holds(&mut space, &formula, n));
    let actual = ctl::check(&mut space.clone(), &formula);
    assert!(
        matches!(actual, Ok(found) if found == expected),
        "seed {seed}\n{space}{}\nchecker {actual:?}, oracle {expected:?}",
        formula_text(&formula)
    );
}

fn run_cases(compare: fn(u64), default_count: u64) {
    for seed in seeds(env_number("BSOLVE_LTL_CASES", default_count)) {
        compare(seed);
    }
}

#[test]
fn ltl_checker_agrees_with_the_oracle() {
    run_cases(compare_ltl, 300);
}

#[test]
#[ignore = "long: BSOLVE_LTL_CASES cases (default 10,000)"]
fn ltl_checker_agrees_with_the_oracle_long() {
    run_cases(compare_ltl, 10_000);
}

#[test]
fn ctl_checker_agrees_with_the_oracle() {
    run_cases(compare_ctl, 300);
}

#[test]
#[ignore = "long: BSOLVE_LTL_CASES cases (default 10,000)"]
fn ctl_checker_agrees_with_the_oracle_long() {
    run_cases(compare_ctl, 10_000);
}

/// The oracle's side of the comparison alone, so that its cost is known before the checkers exist: the
/// bounded search on every default case.
#[test]
#[ignore = "timing of the oracle alone"]
fn oracle_search_on_the_default_cases() {
    for seed in seeds(300) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut space = random_space(&mut rng);
        let formula: Formula<usize> = random_ltl(&mut rng, &space.atoms(), 3);
        let fairness = random_fairness(&mut rng, space.operations().len());
        ltl_counterexample(&mut space, &formula, &fairness, MAX_PREFIX, MAX_CYCLE);
    }
}
