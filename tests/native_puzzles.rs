//! Corpus puzzles the native solver must set up quickly and exactly: all constant setups (usually one),
//! or a complete "no solution". They exercise curried functions (`Board : DOM --> (DOM --> DOM)`),
//! nested quantifiers, all-different groups from `/=` cliques (pigeonhole, Hall sets), SIGMA and
//! `card` of comprehensions as linear sums, and quantifiers guarded by membership in a decomposed set.
//! The machines are read from the shared corpus (`../shared/corpus/models`); the test is skipped when it
//! is absent.

use bsolve::check::setup::setup_constants;
use bsolve::check::{Model, Options};
use bsolve::solve::Backend;
use std::path::PathBuf;

fn corpus_model(name: &str, cards: &[(&str, u32)]) -> Option<Model> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/models")
        .join(name);
    if !path.exists() {
        eprintln!("skipped: {} is not available", path.display());
        return None;
    }
    let options = Options {
        cards: cards.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
        backend: Backend::Native,
        ..Options::default()
    };
    Some(Model::load(&path, &options).unwrap_or_else(|d| panic!("{}", d.render())))
}

/// The number of constant setups, asserting that the search was exhaustive.
fn count(name: &str, cards: &[(&str, u32)]) -> Option<usize> {
    let model = corpus_model(name, cards)?;
    let result = setup_constants(&model, usize::MAX).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(result.complete, "{name}: the search must be exhaustive");
    Some(result.solutions.len())
}

fn expect(name: &str, cards: &[(&str, u32)], solutions: usize) {
    if let Some(n) = count(name, cards) {
        assert_eq!(n, solutions, "{name}");
    }
}

#[test]
fn sudoku_as_constant_has_one_solution() {
    expect("B/Puzzles/SudokuAsConstant.mch", &[], 1);
}

#[test]
fn sudoku_very_hard_has_one_solution() {
    expect("B/Puzzles/SudokuAsConstantVeryHard.mch", &[], 1);
}

#[test]
fn unsolvable_sudokus_have_none() {
    expect("B/Puzzles/SudokuAsConstantNoSolution.mch", &[], 0);
    expect("B/Puzzles/SudokuAsConstant_NoSolNorvig.mch", &[], 0);
}

#[test]
fn pigeonhole_is_a_complete_unsat() {
    // 100 pigeons injected into 99 holes: the all-different group's pigeonhole check, no search.
    expect(
        "B/Puzzles/Pigenhole.mch",
        &[("Pigeons", 100), ("Holes", 99)],
        0,
    );
}

#[test]
fn subset_sum_has_one_solution() {
    expect("B/Puzzles/SubsetSum.mch", &[], 1);
}

#[test]
fn minesweeper_boards() {
    // 22 bomb placements agree with the clues (ProB: 44 states, one setup and one initialisation each).
    expect("B/Puzzles/Minesweeper.mch", &[], 22);
}

#[test]
fn queens_board_version_has_four_solutions() {
    // 6 queens on a board given as a set of pairs.
    expect("B/Puzzles/Queens/QueensBoardVersion.mch", &[], 4);
}
