//! CTL at one node, by recursion on the formula and a graph search for each path quantifier.
//!
//! Paths are the runs of `space`: infinite, a deadlock's only successor being itself (the stutter step).
//! No fairness. Atoms are read as state atoms, on the node alone (`holds(a, node, None)`); the event atom
//! of `EX[Op] f` is read on each step.

use std::collections::BTreeSet;

use super::super::formula::{Formula, Kind};
use super::super::space::{NodeId, StateSpace};
use super::run::steps;

/// Whether the CTL formula holds at `node`.
pub fn ctl_holds(space: &mut dyn StateSpace, formula: &Formula<usize>, node: NodeId) -> bool {
    use Kind::*;
    let holds = |space: &mut dyn StateSpace, f: &Formula<usize>| ctl_holds(space, f, node);
    match &formula.kind {
        True => true,
        False => false,
        Atom(a) => space
            .holds(*a, node, None)
            .expect("explicit spaces never stop"),
        Not(f) => !holds(space, f),
        And(f, g) => holds(space, f) && holds(space, g),
        Or(f, g) => holds(space, f) || holds(space, g),
        Implies(f, g) => !holds(space, f) || holds(space, g),
        Equiv(f, g) => holds(space, f) == holds(space, g),

        ExistsNext(None, f) => successors(space, node)
            .into_iter()
            .any(|m| ctl_holds(space, f, m)),
        // EX[a] f: some step from the node on which event atom a holds leads to an f-node. The stutter
        // step of a deadlock is a step too; event atoms are false on it.
        ExistsNext(Some(a), f) => steps(space, node).into_iter().any(|(edge, target)| {
            space
                .holds(*a, node, edge)
                .expect("explicit spaces never stop")
                && ctl_holds(space, f, target)
        }),
        AllNext(f) => successors(space, node)
            .into_iter()
            .all(|m| ctl_holds(space, f, m)),
        // EF f = E true U f.
        ExistsFinally(f) => exists_until(space, node, &|_, _| true, &|s, m| ctl_holds(s, f, m)),
        // AG f = ¬EF ¬f.
        AllGlobally(f) => !exists_until(space, node, &|_, _| true, &|s, m| !ctl_holds(s, f, m)),
        ExistsGlobally(f) => exists_globally(space, node, &|s, m| ctl_holds(s, f, m)),
        // AF f = ¬EG ¬f.
        AllFinally(f) => !exists_globally(space, node, &|s, m| !ctl_holds(s, f, m)),
        ExistsUntil(f, g) => exists_until(space, node, &|s, m| ctl_holds(s, f, m), &|s, m| {
            ctl_holds(s, g, m)
        }),
        // A f U g fails on a path iff g never holds on it (EG ¬g), or some position has neither f nor g
        // with ¬g everywhere before it (E ¬g U (¬f ∧ ¬g)).
        AllUntil(f, g) => {
            let not_g = |s: &mut dyn StateSpace, m| !ctl_holds(s, g, m);
            let neither = |s: &mut dyn StateSpace, m| !ctl_holds(s, f, m) && !ctl_holds(s, g, m);
            !exists_globally(space, node, &not_g) && !exists_until(space, node, &not_g, &neither)
        }

        other => panic!("not a CTL operator (the checkers never see it): {other:?}"),
    }
}

/// A property of a node, evaluated on demand.
type NodeTest<'a> = &'a dyn Fn(&mut dyn StateSpace, NodeId) -> bool;

fn successors(space: &mut dyn StateSpace, node: NodeId) -> Vec<NodeId> {
    steps(space, node)
        .into_iter()
        .map(|(_, target)| target)
        .collect()
}

/// E f U g: some path from `node` reaches a g-node through f-nodes only (search from `node`, expanding
/// only the f-nodes that are not g-nodes).
fn exists_until(space: &mut dyn StateSpace, node: NodeId, f: NodeTest, g: NodeTest) -> bool {
    let mut seen = BTreeSet::from([node]);
    let mut stack = vec![node];
    while let Some(m) = stack.pop() {
        if g(space, m) {
            return true;
        }
        if f(space, m) {
            for s in successors(space, m) {
                if seen.insert(s) {
                    stack.push(s);
                }
            }
        }
    }
    false
}

/// EG f: some path from `node` stays in f-nodes forever. The f-nodes reachable from `node` through
/// f-nodes form a finite region; an infinite path inside it must repeat a node, so it exists iff some node
/// of the region lies on a cycle inside the region (a deadlock's stutter step being a cycle of one).
fn exists_globally(space: &mut dyn StateSpace, node: NodeId, f: NodeTest) -> bool {
    if !f(space, node) {
        return false;
    }
    let region = reachable_within(space, node, f);
    region.iter().any(|&m| {
        successors(space, m)
            .into_iter()
            .any(|s| region.contains(&s) && reachable_within(space, s, f).contains(&m))
    })
}

/// The f-nodes reachable from `node` (an f-node) by paths of f-nodes, `node` included.
fn reachable_within(space: &mut dyn StateSpace, node: NodeId, f: NodeTest) -> BTreeSet<NodeId> {
    let mut region = BTreeSet::from([node]);
    let mut stack = vec![node];
    while let Some(m) = stack.pop() {
        for s in successors(space, m) {
            if !region.contains(&s) && f(space, s) {
                region.insert(s);
                stack.push(s);
            }
        }
    }
    region
}
