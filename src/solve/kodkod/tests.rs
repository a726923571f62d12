//! Solution counts of small predicates under the kodkod backend alone (KODKOD_ONLY_FULL), each worked out
//! by hand; the differential tests in `tests/kodkod.rs` compare many more against brute force.

use crate::check::{Model, Options};
use crate::diag::register_source;
use crate::eval::{Env, EvalError};
use crate::solve::{Backend, Problem, solve_all};
use crate::types::{self, Formula};

fn solve(text: &str) -> Result<(usize, bool), EvalError> {
    let options = Options {
        prefs: vec![("KODKOD_ONLY_FULL".into(), "TRUE".into())],
        ..Options::default()
    };
    let model = Model::empty(&options).expect("an empty machine");
    let file = register_source("<kodkod test>", text);
    let term = crate::syntax::parse_term(file, text).expect("parses");
    let Ok(Formula::Pred(pred, vars)) = types::check_formula(&model.ast, model.machine(), &term)
    else {
        panic!("`{text}` is not a well-typed predicate");
    };
    let env = Env::new();
    let s = solve_all(
        &model.context,
        &Problem::new(&vars, &pred, &env),
        Backend::Kodkod,
        1000,
    )?;
    Ok((s.solutions.len(), s.complete))
}

fn count(text: &str) -> usize {
    let (n, complete) = solve(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(complete, "{text}: the SAT search is exhaustive");
    n
}

#[test]
fn arithmetic_is_exact() {
    assert_eq!(count("x : 1..10 & x mod 3 = 1"), 4);
    assert_eq!(count("x : -3..3 & y : -3..3 & x * y = -4"), 2);
    assert_eq!(count("x : -5..5 & x / 2 = -1"), 2);
    assert_eq!(count("x : 0..100 & x + x = 7"), 0);
}

#[test]
fn relations_and_functions() {
    assert_eq!(count("f : 1..3 >-> 1..3"), 6);
    assert_eq!(count("f : 1..3 --> BOOL & f(2) = TRUE"), 4);
    assert_eq!(
        count("r : {1,2,3} <-> {1,2,3} & closure1(r) = {1|->2, 2|->3, 1|->3}"),
        2
    );
    assert_eq!(count("r : BOOL <-> BOOL & r~ = r & dom(r) = BOOL"), 5);
}

#[test]
fn projections_of_pairs() {
    // f(1) with first component 2 (3 ways), f(2) free (9).
    assert_eq!(
        count("f : 1..2 --> (1..3)*(1..3) & prj1(INTEGER,INTEGER)(f(1)) = 2"),
        27
    );
    assert_eq!(
        count(
            "f : 1..1 --> (1..3)*(1..3) & \
             prj2(INTEGER,INTEGER)(f(1)) < prj1(INTEGER,INTEGER)(f(1))"
        ),
        3
    );
    // Defined only for pairs within (1..2)*(1..2): an ill-defined candidate is no solution.
    assert_eq!(
        count("f : 1..1 --> (0..2)*(0..2) & prj1(1..2,1..2)(f(1)) = 1"),
        2
    );
}

#[test]
fn sequences() {
    // Sequences of BOOL of length at most 2: 1 + 2 + 4.
    assert_eq!(count("s : seq(BOOL) & size(s) <= 2"), 7);
    assert_eq!(count("s : iseq(BOOL) & size(s) = 2"), 2);
    assert_eq!(count("s : seq1(BOOL) & size(s) <= 1"), 2);
}

#[test]
fn sets_cardinality_sums_and_extrema() {
    assert_eq!(
        count("s <: 1..4 & card(s) = 2 & SIGMA(y).(y : s | y) = 5"),
        2
    );
    assert_eq!(count("s <: 1..3 & max(s) = 2"), 2);
    assert_eq!(count("s <: 1..5 & !x.(x : s => x > 2)"), 8);
}

#[test]
fn top_level_existentials_give_witnesses() {
    assert_eq!(count("x : 0..30 & #y.(y : 1..5 & x = y * y)"), 5);
}

#[test]
fn an_unbounded_integer_is_cut_and_the_search_incomplete() {
    // Within the cut (MININT..MAXINT, or a window from the known end) solutions are found, but the
    // search does not claim to be exhaustive.
    let (n, complete) = solve("x : INTEGER & x > 5").expect("translates over a cut");
    assert!(n > 0 && !complete, "{n} {complete}");
    // No solution in the cut is not "no solution".
    let (n, complete) = solve("x : INTEGER & x * x = 2").expect("translates over a cut");
    assert_eq!((n, complete), (0, false));
}

#[test]
fn functions_into_sets_are_curried() {
    // Each of the two arguments maps to one of the four functions 1..2 --> BOOL.
    assert_eq!(count("f : 1..2 --> (1..2 --> BOOL)"), 16);
    assert_eq!(
        count("f : 1..2 --> (1..2 --> BOOL) & f(1)(2) = TRUE & f(2) = f(1)"),
        2
    );
    // One argument of three, mapped to one of the four subsets of 1..2.
    assert_eq!(count("f : 1..3 +-> POW(1..2) & card(f) = 1"), 12);
    assert_eq!(
        count("f : 1..2 --> POW(1..2) & dom(f) = 1..2 & f(1) /\\ f(2) = {}"),
        9
    );
    assert_eq!(
        count("g : 1..2 --> POW(1..2) & g /= {1 |-> {2}, 2 |-> {}}"),
        15
    );
    // The argument an unknown integer: well-defined only inside the domain.
    assert_eq!(
        count("f : 1..2 --> POW(1..2) & x : 1..3 & f(x) = {1} & f(1) = {} & f(2) = {1}"),
        1
    );
}

#[test]
fn functions_into_sets_are_overridden() {
    // g is f with the image of x extended: one g per f (16) and x (2).
    assert_eq!(
        count(
            "f : 1..2 --> POW(1..2) & g : 1..2 --> POW(1..2) & x : 1..2 & g = f <+ {x |-> (f(x) \\/ {1})}"
        ),
        32
    );
    // Each of three arguments outside the domain or mapped to one of four subsets; g adds 3 |-> {}.
    assert_eq!(
        count("f : 1..3 +-> POW(1..2) & g : 1..3 +-> POW(1..2) & g = f <+ {3 |-> {}}"),
        125
    );
    assert_eq!(
        count("f : 1..3 +-> POW(1..2) & f <+ {3 |-> {}} = f & card(f) = 1"),
        1
    );
    assert_eq!(count("f : 1..2 --> POW(1..2) & f <+ {1 |-> {2}} = f"), 4);
}

#[test]
fn well_definedness_follows_from_typing() {
    // `b(x)` is well-defined for x in 1..3 since b is total there: the comprehension translates.
    assert_eq!(
        count("b : 1..3 --> 0..1 & card({x | x : 1..3 & b(x) = 1}) = 2"),
        3
    );
    // A claim nested in a top-level claim, with applications in it.
    assert_eq!(
        count("f : 1..3 --> 1..3 & !x.(x : 1..3 => !y.(y : 1..3 & x < y => f(x) /= f(y)))"),
        6
    );
    // Outside the domain the application is ill-defined: no solution, not a wrong one.
    assert_eq!(count("f : 1..2 --> 1..2 & !x.(x : 1..3 => f(x) = 1)"), 0);
}

#[test]
fn bound_variables_from_tuples_and_sets_of_sets() {
    assert_eq!(
        count("s <: (1..3) * (1..3) & !(i, j).((i, j) : s => i < j) & card(s) = 2"),
        3
    );
    assert_eq!(
        count("r : (1..2) * (1..2) --> 0..1 & !(i, j).((i, j) : dom(r) => r(i, j) = 0)"),
        1
    );
    assert_eq!(count("x : 1..4 & !s.(s : {{1, 2}, {3}} => x /: s)"), 1);
}

#[test]
fn injective_sequences_and_permutations_are_bounded_by_their_set() {
    assert_eq!(count("s : perm({1, 2, 3})"), 6);
    // Injective sequences over three elements: 1 + 3 + 6 + 6.
    assert_eq!(count("s : iseq(1..3)"), 16);
    assert_eq!(count("f : 1..2 --> perm(1..2)"), 4);
    // Images of length two (2 of the 5 injective sequences of BOOL) for argument 1.
    assert_eq!(count("f : 1..2 --> iseq(BOOL) & size(f(1)) = 2"), 10);
}

#[test]
fn a_typing_predicate_below_the_top_level_bounds_a_cut() {
    // Only subsets of 1..3 are searched: those containing 2, and the search is not exhaustive.
    assert_eq!(solve("not(s <: 1..3) or 2 : s").ok(), Some((4, false)));
    assert_eq!(
        solve("(f : 1..2 --> POW(BOOL)) => f(1) = {TRUE}").ok(),
        Some((4, false))
    );
}

#[test]
fn let_in_a_predicate_binds_known_values_and_terms() {
    // A bound expression over unknowns becomes a term: of the 8 functions 1..3 --> BOOL, the 4 with
    // f(1) /= f(2).
    assert_eq!(
        count("f : 1..3 --> BOOL & LET a BE a = f(1) IN a /= f(2) END"),
        4
    );
    // A known bound expression (over a quantified variable) and a later binding seeing an earlier one.
    assert_eq!(
        count(
            "f : 1..3 --> 1..3 & !i.(i : 1..2 => LET a, b BE a = f(i) & b = a + 1 IN f(i + 1) = b END)"
        ),
        1
    );
    // A LET name shadows an unknown of the same name, which keeps its meaning outside.
    assert_eq!(
        count("x : 1..3 & (LET x BE x = 2 IN x = 2 END) & x /= 1"),
        2
    );
    // Where the bound expression is ill-defined (x = 3) there is no solution: x = 1 with f(1) = 1 or
    // x = 2 with f(2) = 1, 2 functions each.
    assert_eq!(
        count("f : 1..2 --> 1..2 & x : 1..3 & LET a BE a = f(x) IN a = 1 END"),
        4
    );
}

#[test]
fn a_quantifier_over_a_singleton_names_a_value() {
    // `v : {f(y)}` binds v to f(y), a term over unknowns, which grounding could not bound.
    assert_eq!(
        count("f : 1..3 --> 1..3 & !y.(y : 1..3 => !v.(v : {f(y)} => v /= 2))"),
        8
    );
    assert_eq!(count("f : 1..2 --> 1..2 & #v.(v : {f(1)} & v = 2)"), 2);
    // A tuple of bound variables against a tuple of maplets; the other domain conjuncts stay.
    assert_eq!(
        count("f : 1..2 --> 1..2 & !(a, b).(a |-> b : {f(1) |-> f(2)} & a = 1 => a < b)"),
        3
    );
}

#[test]
fn an_existential_equal_to_a_term_binds_it() {
    // `v = t` binds v to the term instead of grounding it over its range (an operation parameter
    // equal to a state variable in BMC's unrolled relation).
    assert_eq!(count("t : 0..20 & #v.(v = t & v mod 5 = 0 & u = t - v)"), 5);
    // u = t + 1 (10 pairs), or u = t or 2t (19: t = 0 gives one), (1, 2) in both: 28.
    assert_eq!(
        count("t : 0..9 & (#v.(t = v & u = v + 1) or #w.(w : 1..2 & u = t * w))"),
        28
    );
}

#[test]
fn powers_with_a_known_exponent() {
    // (0,5), (3,4), (4,3), (5,0).
    assert_eq!(count("x : 0..10 & y : 0..10 & x**2 + y**2 = 25"), 4);
    assert_eq!(count("x : -3..3 & x**3 = -8 & x**0 = 1"), 1);
}

#[test]
fn unknowns_defined_over_the_others_are_computed_per_solution() {
    // PI does not translate; r is a function of a and b, evaluated for each of their 3 solutions.
    assert_eq!(
        count("a : 1..3 & b : 1..3 & a < b & r = PI(x).(x : {a, b} | x)"),
        3
    );
    // Ill-defined for a = 0: no solution there.
    assert_eq!(count("a : 0..2 & r = PI(x).(x : {a} | 6 / x)"), 2);
    // r is mentioned elsewhere: not derived, and the problem does not translate.
    assert!(solve("a : 1..3 & r = PI(x).(x : {a} | x) & r > 1").is_err());
}

#[test]
fn if_expressions_choose_a_branch() {
    // x = 1 gives y = 10; x = 2, 3 give y = x.
    assert_eq!(
        count("x : 1..3 & y : 0..20 & y = IF x = 1 THEN 10 ELSE x END & y > 2"),
        2
    );
    // The branch not taken may be ill-defined: 10 / x with x = 0 is not evaluated.
    assert_eq!(
        count("x : 0..2 & y : -5..20 & y = IF x = 0 THEN -1 ELSE 10 / x END"),
        3
    );
}

#[test]
fn a_known_function_into_functions_into_sets_is_refused_not_a_crash() {
    let text = "f = {1 |-> {2 |-> {3}}} & y : 3..4 & f = {1 |-> {2 |-> {y}}}";
    match solve(text) {
        Err(e) => assert!(e.to_string().contains("functions into sets"), "{e}"),
        Ok((n, _)) => assert_eq!(n, 1, "{text}"),
    }
}

#[test]
fn unknowns_defined_by_terms_keep_their_values_and_well_definedness() {
    // y and s are encoded by their defining terms; their values are read back from the circuit.
    assert_eq!(count("x : 1..3 & y = x * x & y > 3"), 2);
    assert_eq!(
        count("s : seq(1..2) & size(s) <= 2 & t = s <- 1 & t /= [1]"),
        6
    );
    // The term's well-definedness rests on f's typing (f total): translated after it, not refused.
    assert_eq!(
        count("f : 1..2 --> 1..2 & y = card({x | x : 1..2 & f(x) > 1})"),
        4
    );
    // An ill-defined definition is no solution: first([]) for the empty s.
    assert_eq!(count("s : seq(1..2) & size(s) <= 1 & e = first(s)"), 2);
}

#[test]
fn indices_past_a_gap_are_never_in_a_sequence() {
    // {1000000 |-> 1} is not a sequence (size ill-defined); no million-long length choice is built.
    assert_eq!(
        count("s <: {1 |-> 1, 1000000 |-> 1, 1000001 |-> 1} & size(s) = 1"),
        1
    );
    assert_eq!(count("s <: {1 |-> 1, 3 |-> 2} & s : seq(1..2)"), 2);
}
