//! Solution counts of small predicates under the native solver, each worked out by hand, for the
//! propagators that go beyond forward checking (the differential tests compare many more against brute
//! force).

use crate::check::{Model, Options};
use crate::diag::register_source;
use crate::eval::Env;
use crate::solve::{Backend, Problem, solve_all};
use crate::types::{self, Formula};

/// The number of solutions of `text`, asserting that the search was exhaustive.
fn count(text: &str) -> usize {
    let model = Model::empty(&Options::default()).expect("an empty machine");
    let file = register_source("<native test>", text);
    let term = crate::syntax::parse_term(file, text).expect("parses");
    let Ok(Formula::Pred(pred, vars)) = types::check_formula(&model.ast, model.machine(), &term)
    else {
        panic!("`{text}` is not a well-typed predicate");
    };
    let env = Env::new();
    let found = solve_all(
        &model.context,
        &Problem::new(&vars, &pred, &env),
        Backend::Native,
        100_000,
    )
    .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(found.complete, "{text}: the search is exhaustive");
    found.solutions.len()
}

#[test]
fn pigeonhole_fails_without_search() {
    assert_eq!(count("f : 1..12 >-> 1..11"), 0);
    assert_eq!(
        count("x : 1..2 & y : 1..2 & z : 1..2 & x /= y & y /= z & x /= z"),
        0
    );
}

#[test]
fn disequality_cliques_keep_every_solution() {
    // Permutations of 1..4 as four pairwise different scalars, and with one value forced by a Hall set.
    assert_eq!(
        count(
            "a : 1..4 & b : 1..4 & c : 1..4 & d : 1..4 & a /= b & a /= c & a /= d & b /= c & b /= d \
             & c /= d"
        ),
        24
    );
    assert_eq!(
        count("a : 1..2 & b : 1..2 & c : 1..3 & a /= b & a /= c & b /= c"),
        2
    );
}

#[test]
fn curried_functions_are_decomposed_per_cell() {
    // f(1)(1) = 3, f(2)(1) /= f(1)(1): 2 choices; f(1)(2) and f(2)(2) are free: 3 each.
    assert_eq!(
        count(
            "f : 1..2 --> (1..2 --> 1..3) & f(1)(1) = 3 & !(i,j).(i : 1..2 & j : 1..2 & i < j => \
             f(i)(1) /= f(j)(1))"
        ),
        18
    );
}

#[test]
fn nested_quantifiers_are_instantiated() {
    assert_eq!(
        count("f : 1..3 --> 1..3 & !i.(i : 1..3 => !j.(j : 1..3 & i < j => f(i) /= f(j)))"),
        6
    );
}

#[test]
fn sums_over_known_points_are_linear() {
    assert_eq!(
        count("s : 1..4 --> 0..3 & SIGMA(i).(i : 1..4 | s(i)) = 1"),
        4
    );
    assert_eq!(
        count("b : 1..4 --> 0..1 & card({i | i : 1..4 & b(i) = 1}) = 2"),
        6
    );
}

#[test]
fn quantifiers_over_a_decomposed_set_use_its_carrier() {
    // Subsets of 1..3 without two consecutive numbers: {}, {1}, {2}, {3}, {1,3}.
    assert_eq!(count("s <: 1..3 & !x.(x : s => x + 1 /: s)"), 5);
}
