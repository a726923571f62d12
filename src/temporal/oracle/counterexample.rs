//! Bounded search for a fair run violating an LTL formula: every lasso within the bounds, one by one.

use super::super::formula::Formula;
use super::super::ltl::{Lasso, Position};
use super::super::space::{Fairness, NodeId, StateSpace};
use super::lasso_eval::ltl_on_lasso;
use super::run::{is_fair, step_target, steps};

/// The first fair lasso violating `formula`, among all lassos with a prefix of at most `max_prefix`
/// positions and a cycle of 1 to `max_cycle` positions, shortest (prefix + cycle) first. Cycles are closed
/// walks (they may repeat nodes and edges), so every ultimately periodic run within the bounds is tried.
pub fn ltl_counterexample(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
    fairness: &[Fairness],
    max_prefix: usize,
    max_cycle: usize,
) -> Option<Lasso> {
    let initial = space.initial().expect("explicit spaces never stop");
    for length in 1..=max_prefix + max_cycle {
        let mut found = None;
        for &start in &initial {
            walks(space, &mut Vec::new(), start, length, &mut |space, walk| {
                // Split the walk into prefix and cycle at every point where the cycle closes.
                let end = step_target(space, *walk.last().expect("walks are not empty"));
                for cut in 0..walk.len().min(max_prefix + 1) {
                    let closes = Some(walk[cut].0) == end;
                    if !closes || walk.len() - cut > max_cycle {
                        continue;
                    }
                    let lasso = Lasso {
                        prefix: walk[..cut].to_vec(),
                        cycle: walk[cut..].to_vec(),
                    };
                    if is_fair(space, fairness, &lasso) && !ltl_on_lasso(space, formula, &lasso) {
                        found = Some(lasso);
                        return true;
                    }
                }
                false
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// Calls `visit` on every walk of exactly `length` positions that extends `walk` from `node` (the node the
/// next position is at), until `visit` returns true; returns whether it did. A node with edges is left by
/// each of them, a deadlock by its stutter step.
fn walks(
    space: &mut dyn StateSpace,
    walk: &mut Vec<Position>,
    node: NodeId,
    length: usize,
    visit: &mut dyn FnMut(&mut dyn StateSpace, &[Position]) -> bool,
) -> bool {
    if walk.len() == length {
        return visit(space, walk);
    }
    for (edge, target) in steps(space, node) {
        walk.push((node, edge));
        let stop = walks(space, walk, target, length, visit);
        walk.pop();
        if stop {
            return true;
        }
    }
    false
}
