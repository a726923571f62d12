//! The fast path for safety formulas: `G f` where `f` has no future operator (atoms, booleans and past
//! operators) is violated exactly when some reachable position violates `f`, which a breadth-first
//! search over (node, history) finds without the automaton; it shares the space's exploration and finds a
//! shortest bad prefix. The counterexample run continues from the bad position along first edges until a
//! node repeats, which closes the lasso (any continuation violates `G f`).

use super::history::{self, History, Monitor};
use super::{Lasso, LtlVerdict, Position};
use crate::diag::Diagnostic;
use crate::temporal::formula::{Formula, Kind};
use crate::temporal::space::{EdgeRef, NodeId, StateSpace, Stop};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// `f` when `formula` is `G f` with `f` free of future (and CTL) operators.
pub fn invariant_body(formula: &Formula<usize>) -> Option<&Formula<usize>> {
    match &formula.kind {
        Kind::Globally(f) if future_free(f) => Some(f),
        _ => None,
    }
}

fn future_free(f: &Formula<usize>) -> bool {
    match &f.kind {
        Kind::True | Kind::False | Kind::Atom(_) => true,
        Kind::Not(g) | Kind::Yesterday(g) | Kind::Historically(g) | Kind::Once(g) => future_free(g),
        Kind::And(g, h)
        | Kind::Or(g, h)
        | Kind::Implies(g, h)
        | Kind::Equiv(g, h)
        | Kind::Since(g, h)
        | Kind::Trigger(g, h) => future_free(g) && future_free(h),
        _ => false,
    }
}

/// Searches for a position violating `body`. The outer error is a formula the monitor cannot take.
pub fn check(
    space: &mut dyn StateSpace,
    body: &Formula<usize>,
) -> Result<Result<LtlVerdict, Stop>, Diagnostic> {
    // `O not f` is a history bit that turns true at the first position violating f.
    let mut monitor = Monitor::default();
    let negated = Formula::new(Kind::Not(Box::new(body.clone())), body.span);
    let bad = monitor.add(&Formula::new(Kind::Once(Box::new(negated)), body.span))?;
    Ok(search(space, &monitor, bad))
}

/// A position's node and the history before it.
type Key = (NodeId, History);

fn search(space: &mut dyn StateSpace, monitor: &Monitor, bad: usize) -> Result<LtlVerdict, Stop> {
    // Per (node, history before the position): the position it was reached from.
    let mut parent: FxHashMap<Key, Option<(Key, EdgeRef)>> = FxHashMap::default();
    let mut queue = VecDeque::new();
    for n in space.initial()? {
        if parent.insert((n, history::START), None).is_none() {
            queue.push_back((n, history::START));
        }
    }
    while let Some((node, before)) = queue.pop_front() {
        let steps: Vec<(EdgeRef, NodeId)> = {
            let edges = space.edges(node)?;
            if edges.is_empty() {
                vec![(None, node)]
            } else {
                edges
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (Some(i), e.target))
                    .collect()
            }
        };
        for (edge, target) in steps {
            let now = monitor.step(before, &mut |a| space.holds(a, node, edge))?;
            if history::bit(now, bad) {
                let mut prefix = vec![(node, edge)];
                let mut at = (node, before);
                while let Some(Some((p, e))) = parent.get(&at) {
                    prefix.push((p.0, *e));
                    at = *p;
                }
                prefix.reverse();
                return continue_to_lasso(space, prefix, target).map(LtlVerdict::Violated);
            }
            let key = (target, now);
            if let std::collections::hash_map::Entry::Vacant(slot) = parent.entry(key) {
                slot.insert(Some(((node, before), edge)));
                queue.push_back(key);
            }
        }
    }
    Ok(LtlVerdict::Holds)
}

/// Extends the bad prefix from `from` along first edges (the stutter step at a deadlock) until a node
/// repeats.
fn continue_to_lasso(
    space: &mut dyn StateSpace,
    mut prefix: Vec<Position>,
    from: NodeId,
) -> Result<Lasso, Stop> {
    let mut walk: Vec<Position> = Vec::new();
    let mut at = from;
    loop {
        if let Some(i) = walk.iter().position(|(n, _)| *n == at) {
            let cycle = walk.split_off(i);
            prefix.extend(walk);
            return Ok(Lasso { prefix, cycle });
        }
        let step = space.edges(at)?.first().map(|e| (Some(0), e.target));
        let (edge, next) = step.unwrap_or((None, at));
        walk.push((at, edge));
        at = next;
    }
}
