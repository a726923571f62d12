//! Whether a lasso is a run of the space, and whether it is fair.

use super::super::ltl::{Lasso, Position};
use super::super::space::{Edge, EdgeRef, Fairness, NodeId, StateSpace};

/// The node's edges; the oracle's spaces are explicit and never stop.
pub(super) fn edges_of(space: &mut dyn StateSpace, node: NodeId) -> Vec<Edge> {
    space
        .edges(node)
        .expect("the oracle runs on explicit spaces, which never stop")
        .to_vec()
}

/// The steps leaving `node`, each with its target: every edge (`Some(k)`), or for a deadlock the stutter
/// step back to itself (`None`).
pub(super) fn steps(space: &mut dyn StateSpace, node: NodeId) -> Vec<(EdgeRef, NodeId)> {
    let edges = edges_of(space, node);
    if edges.is_empty() {
        return vec![(None, node)];
    }
    edges
        .iter()
        .enumerate()
        .map(|(k, e)| (Some(k), e.target))
        .collect()
}

/// The node a position's step leads to, or `None` when the step does not exist: an edge index out of
/// range, or a stutter step at a node that has edges (only deadlocks stutter).
pub(super) fn step_target(space: &mut dyn StateSpace, (node, edge): Position) -> Option<NodeId> {
    let edges = edges_of(space, node);
    match edge {
        None if edges.is_empty() => Some(node),
        None => None,
        Some(k) => edges.get(k).map(|e| e.target),
    }
}

/// The lasso is a run: it starts at an initial node, every position's step exists and leads to the next
/// position's node, and the cycle's last step (and the prefix's, into the cycle) leads to `cycle[0]`.
pub fn is_run(space: &mut dyn StateSpace, lasso: &Lasso) -> bool {
    let Some(&(cycle_start, _)) = lasso.cycle.first() else {
        return false;
    };
    let positions: Vec<Position> = lasso.prefix.iter().chain(&lasso.cycle).copied().collect();
    let initial = space.initial().expect("explicit spaces never stop");
    if !initial.contains(&positions[0].0) {
        return false;
    }
    positions.iter().enumerate().all(|(i, &position)| {
        // Position prefix.len() is cycle[0], so the prefix's last step is checked against it too.
        let next = positions.get(i + 1).map_or(cycle_start, |p| p.0);
        step_target(space, position) == Some(next)
    })
}

/// Every fairness assumption holds on the lasso. Only the cycle's positions occur infinitely often, so
/// "infinitely often" is "at some cycle position" and "from some point on always" is "at every cycle
/// position". `WF(Op)`: enabled at every cycle position implies taken at some; `SF(Op)`: enabled at some
/// cycle position implies taken at some.
pub fn is_fair(space: &mut dyn StateSpace, fairness: &[Fairness], lasso: &Lasso) -> bool {
    fairness.iter().all(|assumption| {
        let op = assumption.operation;
        let mut enabled = Vec::new();
        let mut taken = false;
        for &(node, edge) in &lasso.cycle {
            let edges = edges_of(space, node);
            enabled.push(edges.iter().any(|e| e.operation == op));
            // The stutter step (`None`) is no operation's.
            taken |= edge.is_some_and(|k| edges.get(k).is_some_and(|e| e.operation == op));
        }
        let demanded = if assumption.strong {
            enabled.iter().any(|&e| e)
        } else {
            enabled.iter().all(|&e| e)
        };
        !demanded || taken
    })
}
