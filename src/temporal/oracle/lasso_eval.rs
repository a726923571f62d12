//! LTL with past on one ultimately periodic run, by direct evaluation: every subformula's truth value
//! at every position of a finite lasso, bottom-up.
//!
//! Future operators only look forward, so on a lasso their values are periodic wherever their arguments'
//! are. Past operators look back to position 0, so their values on the cycle settle only after some
//! rounds: if a past operator's argument is periodic from position P, the operator is periodic from
//! P + |cycle| (after one full round, `O`/`H`/`S`/`T` have seen every value the argument takes; `Y`
//! settles after one step). Hence a formula of past nesting depth d is periodic from
//! |prefix| + d·|cycle|, and the lasso `prefix · cycle^k`, then `cycle` forever, represents the same run
//! with every subformula periodic on its cycle as soon as k ≥ d. We take k = d + 1 for margin (a test
//! checks that more rounds change nothing).

use super::super::formula::{Formula, Kind};
use super::super::ltl::{Lasso, Position};
use super::super::space::StateSpace;

/// Whether `formula` holds at position 0 of the run `lasso`.
pub fn ltl_on_lasso(space: &mut dyn StateSpace, formula: &Formula<usize>, lasso: &Lasso) -> bool {
    evaluate_unrolled(space, formula, lasso, past_depth(formula) + 1)
}

/// Evaluates on `prefix · cycle^rounds`, then `cycle` forever; correct when `rounds` ≥ the past depth.
fn evaluate_unrolled(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
    lasso: &Lasso,
    rounds: usize,
) -> bool {
    assert!(!lasso.cycle.is_empty(), "a lasso's cycle is never empty");
    let mut positions = lasso.prefix.clone();
    for _ in 0..rounds {
        positions.extend(&lasso.cycle);
    }
    let loop_start = positions.len();
    positions.extend(&lasso.cycle);
    let word = Word {
        positions,
        loop_start,
    };
    values(space, formula, &word)[0]
}

/// A finite lasso: positions `0..len`, the last one followed by `loop_start`.
struct Word {
    positions: Vec<Position>,
    loop_start: usize,
}

impl Word {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn next(&self, i: usize) -> usize {
        if i + 1 < self.len() {
            i + 1
        } else {
            self.loop_start
        }
    }
}

/// The most past operators on one path from the root to a leaf.
fn past_depth(formula: &Formula<usize>) -> usize {
    let own = match formula.kind {
        Kind::Yesterday(_)
        | Kind::Historically(_)
        | Kind::Once(_)
        | Kind::Since(..)
        | Kind::Trigger(..) => 1,
        _ => 0,
    };
    own + children(formula)
        .into_iter()
        .map(past_depth)
        .max()
        .unwrap_or(0)
}

fn children<A>(formula: &Formula<A>) -> Vec<&Formula<A>> {
    use Kind::*;
    match &formula.kind {
        True | False | Atom(_) | WeakFair(_) | StrongFair(_) | WeakFairAll | StrongFairAll => {
            vec![]
        }
        Not(f) | Next(f) | Globally(f) | Finally(f) | Yesterday(f) | Historically(f) | Once(f) => {
            vec![f]
        }
        ExistsNext(_, f)
        | AllNext(f)
        | ExistsFinally(f)
        | ExistsGlobally(f)
        | AllFinally(f)
        | AllGlobally(f) => vec![f],
        Quantified { body, .. } => vec![body],
        And(f, g)
        | Or(f, g)
        | Implies(f, g)
        | Equiv(f, g)
        | Until(f, g)
        | WeakUntil(f, g)
        | Release(f, g)
        | Since(f, g)
        | Trigger(f, g)
        | ExistsUntil(f, g)
        | AllUntil(f, g) => {
            vec![f, g]
        }
    }
}

/// The formula's value at every position of `word`.
fn values(space: &mut dyn StateSpace, formula: &Formula<usize>, word: &Word) -> Vec<bool> {
    use Kind::*;
    let n = word.len();
    let mut sub = |f: &Formula<usize>| values(space, f, word);
    match &formula.kind {
        True => vec![true; n],
        False => vec![false; n],
        Atom(a) => {
            let a = *a;
            word.positions
                .iter()
                .map(|&(node, edge)| {
                    space
                        .holds(a, node, edge)
                        .expect("explicit spaces never stop")
                })
                .collect()
        }
        Not(f) => sub(f).into_iter().map(|v| !v).collect(),
        And(f, g) => pointwise(sub(f), sub(g), |x, y| x && y),
        Or(f, g) => pointwise(sub(f), sub(g), |x, y| x || y),
        Implies(f, g) => pointwise(sub(f), sub(g), |x, y| !x || y),
        Equiv(f, g) => pointwise(sub(f), sub(g), |x, y| x == y),

        Next(f) => {
            let f = sub(f);
            (0..n).map(|i| f[word.next(i)]).collect()
        }
        // F f = f ∨ X F f, the least solution (f must actually come).
        Finally(f) => {
            let f = sub(f);
            fixpoint(word, false, |i, v| f[i] || v[word.next(i)])
        }
        // G f = f ∧ X G f, the greatest solution.
        Globally(f) => {
            let f = sub(f);
            fixpoint(word, true, |i, v| f[i] && v[word.next(i)])
        }
        // f U g = g ∨ (f ∧ X(f U g)), least: g must come.
        Until(f, g) => {
            let (f, g) = (sub(f), sub(g));
            fixpoint(word, false, |i, v| g[i] || (f[i] && v[word.next(i)]))
        }
        // f W g: the same equation, greatest: f forever also satisfies it (f U g ∨ G f).
        WeakUntil(f, g) => {
            let (f, g) = (sub(f), sub(g));
            fixpoint(word, true, |i, v| g[i] || (f[i] && v[word.next(i)]))
        }
        // f R g = ¬(¬f U ¬g): the dual equation g ∧ (f ∨ X(f R g)), greatest.
        Release(f, g) => {
            let (f, g) = (sub(f), sub(g));
            fixpoint(word, true, |i, v| g[i] && (f[i] || v[word.next(i)]))
        }

        // The past, scanned forwards from position 0 (which has no predecessor). Positions 0..n of the
        // word are the run's first n positions, so these values are exact there.
        Yesterday(f) => {
            let f = sub(f);
            (0..n).map(|i| i > 0 && f[i - 1]).collect()
        }
        Historically(f) => {
            let f = sub(f);
            scan(n, |i, before| f[i] && before.unwrap_or(true))
        }
        Once(f) => {
            let f = sub(f);
            scan(n, |i, before| f[i] || before.unwrap_or(false))
        }
        // f S g = g ∨ (f ∧ Y(f S g)).
        Since(f, g) => {
            let (f, g) = (sub(f), sub(g));
            scan(n, |i, before| g[i] || (f[i] && before.unwrap_or(false)))
        }
        // f T g = ¬(¬f S ¬g) = g ∧ (f ∨ Z(f T g)), `Z` being "no predecessor, or true there".
        Trigger(f, g) => {
            let (f, g) = (sub(f), sub(g));
            scan(n, |i, before| g[i] && (f[i] || before.unwrap_or(true)))
        }

        other => panic!("not an LTL operator (the checkers never see it): {other:?}"),
    }
}

fn pointwise(f: Vec<bool>, g: Vec<bool>, op: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    f.into_iter().zip(g).map(|(x, y)| op(x, y)).collect()
}

/// Solves `v[i] = step(i, v)` for every position, starting from all `start` (false: the least solution;
/// true: the greatest) and recomputing every position, last to first, until nothing changes. `step` is
/// monotone in `v`, so this climbs (descends) to the least (greatest) fixpoint; sweeping backwards makes
/// it settle in a few rounds since each value reads its successor.
fn fixpoint(word: &Word, start: bool, step: impl Fn(usize, &[bool]) -> bool) -> Vec<bool> {
    let mut v = vec![start; word.len()];
    loop {
        let mut changed = false;
        for i in (0..v.len()).rev() {
            let new = step(i, &v);
            changed |= new != v[i];
            v[i] = new;
        }
        if !changed {
            return v;
        }
    }
}

/// Left-to-right recurrence for the past operators: `v[i] = step(i, v[i - 1])` over positions `0..n`,
/// the previous value being `None` at position 0.
fn scan(n: usize, step: impl Fn(usize, Option<bool>) -> bool) -> Vec<bool> {
    let mut v: Vec<bool> = Vec::with_capacity(n);
    for i in 0..n {
        let before = i.checked_sub(1).map(|j| v[j]);
        v.push(step(i, before));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::super::{ExplicitSpace, random_lasso, random_ltl};
    use super::*;

    /// The unrolling argument above, tested: more rounds of the cycle than the past depth needs never
    /// change a value.
    #[test]
    fn extra_rounds_of_the_cycle_change_nothing() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..500 {
            let mut space = ExplicitSpace::random(&mut rng, 4, 2, 2);
            let formula = random_ltl(&mut rng, &space.atoms(), 4);
            let lasso = random_lasso(&mut rng, &mut space);
            let depth = past_depth(&formula);
            let expected = evaluate_unrolled(&mut space, &formula, &lasso, depth);
            for rounds in depth + 1..depth + 4 {
                assert_eq!(
                    evaluate_unrolled(&mut space, &formula, &lasso, rounds),
                    expected,
                    "{space}{}\n{lasso:?}",
                    super::super::formula_text(&formula)
                );
            }
        }
    }
}
