//! Random formulas, fairness assumptions and lassos for the differential tests.

use super::super::formula::{Formula, Kind};
use super::super::ltl::{Lasso, Position};
use super::super::space::{Fairness, StateSpace};
use super::build::formula;
use super::run::steps;

/// An atom, `true` or `false` (one time in ten each).
fn leaf(rng: &mut fastrand::Rng, atoms: &[usize]) -> Kind<usize> {
    match rng.u8(0..10) {
        0 => Kind::True,
        1 => Kind::False,
        _ => Kind::Atom(atoms[rng.usize(0..atoms.len())]),
    }
}

/// An LTL formula of nesting depth at most `depth` over `atoms`, with every LTL operator (booleans,
/// future and past) equally likely at each inner node; a leaf one time in five before the depth runs out.
/// A past operator's operands are future-free: the checker's history bits cannot take future operators
/// under past ones (it reports them as unsupported).
pub fn random_ltl(rng: &mut fastrand::Rng, atoms: &[usize], depth: usize) -> Formula<usize> {
    random_ltl_in(rng, atoms, depth, true)
}

fn random_ltl_in(
    rng: &mut fastrand::Rng,
    atoms: &[usize],
    depth: usize,
    future: bool,
) -> Formula<usize> {
    use Kind::*;
    if depth == 0 || rng.u8(0..5) == 0 {
        return formula(leaf(rng, atoms));
    }
    let sub = |rng: &mut fastrand::Rng| Box::new(random_ltl_in(rng, atoms, depth - 1, future));
    let past = |rng: &mut fastrand::Rng| Box::new(random_ltl_in(rng, atoms, depth - 1, false));
    let choice = loop {
        let c = rng.u8(0..16);
        if future || !(5..=10).contains(&c) {
            break c;
        }
    };
    let kind = match choice {
        0 => Not(sub(rng)),
        1 => And(sub(rng), sub(rng)),
        2 => Or(sub(rng), sub(rng)),
        3 => Implies(sub(rng), sub(rng)),
        4 => Equiv(sub(rng), sub(rng)),
        5 => Next(sub(rng)),
        6 => Globally(sub(rng)),
        7 => Finally(sub(rng)),
        8 => Until(sub(rng), sub(rng)),
        9 => WeakUntil(sub(rng), sub(rng)),
        10 => Release(sub(rng), sub(rng)),
        11 => Yesterday(past(rng)),
        12 => Historically(past(rng)),
        13 => Once(past(rng)),
        14 => Since(past(rng), past(rng)),
        _ => Trigger(past(rng), past(rng)),
    };
    formula(kind)
}

/// A CTL formula of nesting depth at most `depth`: atoms from `state_atoms`, every CTL operator and the
/// booleans at inner nodes, `EX[a] f` with `a` from `event_atoms` (when there are any).
pub fn random_ctl(
    rng: &mut fastrand::Rng,
    state_atoms: &[usize],
    event_atoms: &[usize],
    depth: usize,
) -> Formula<usize> {
    use Kind::*;
    if depth == 0 || rng.u8(0..5) == 0 {
        return formula(leaf(rng, state_atoms));
    }
    let sub =
        |rng: &mut fastrand::Rng| Box::new(random_ctl(rng, state_atoms, event_atoms, depth - 1));
    let kind = match rng.u8(0..14) {
        0 => Not(sub(rng)),
        1 => And(sub(rng), sub(rng)),
        2 => Or(sub(rng), sub(rng)),
        3 => Implies(sub(rng), sub(rng)),
        4 => Equiv(sub(rng), sub(rng)),
        5 => ExistsNext(None, sub(rng)),
        6 if !event_atoms.is_empty() => {
            let event = event_atoms[rng.usize(0..event_atoms.len())];
            ExistsNext(Some(event), sub(rng))
        }
        6 | 7 => AllNext(sub(rng)),
        8 => ExistsFinally(sub(rng)),
        9 => ExistsGlobally(sub(rng)),
        10 => AllFinally(sub(rng)),
        11 => AllGlobally(sub(rng)),
        12 => ExistsUntil(sub(rng), sub(rng)),
        _ => AllUntil(sub(rng), sub(rng)),
    };
    formula(kind)
}

/// Fairness assumptions on operations `0..operations`: none half of the time, else one or two, weak or
/// strong.
pub fn random_fairness(rng: &mut fastrand::Rng, operations: usize) -> Vec<Fairness> {
    if rng.bool() {
        return Vec::new();
    }
    (0..rng.usize(1..=2))
        .map(|_| Fairness {
            strong: rng.bool(),
            operation: rng.usize(0..operations),
        })
        .collect()
}

/// A random run of `space` as a lasso: a random walk from an initial node, at least one step long, that
/// goes on until its next node is one it has been at; the cycle starts at a random such position.
pub fn random_lasso(rng: &mut fastrand::Rng, space: &mut dyn StateSpace) -> Lasso {
    let initial = space.initial().expect("explicit spaces never stop");
    let mut node = initial[rng.usize(0..initial.len())];
    let min_length = rng.usize(1..8);
    let mut walk: Vec<Position> = Vec::new();
    loop {
        let choices = steps(space, node);
        let (edge, next) = choices[rng.usize(0..choices.len())];
        walk.push((node, edge));
        node = next;
        let returns: Vec<usize> = (0..walk.len()).filter(|&i| walk[i].0 == node).collect();
        // The walk can only visit finitely many nodes, so it comes back to one soon.
        if walk.len() >= min_length && !returns.is_empty() {
            let cut = returns[rng.usize(0..returns.len())];
            let cycle = walk.split_off(cut);
            return Lasso {
                prefix: walk,
                cycle,
            };
        }
    }
}
