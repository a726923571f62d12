//! CTL checking over a `StateSpace`.

use super::formula::Formula;
use super::space::{NodeId, StateSpace, Stop};

/// Checks `formula` at every initial node of `space`: the first initial node where it does not hold, or
/// `None` when it holds in all.
pub fn check(space: &mut dyn StateSpace, formula: &Formula<usize>) -> Result<Option<NodeId>, Stop> {
    let _ = (space, formula);
    unimplemented!("CTL checker")
}
