//! LTL checking over a `StateSpace`.

use super::formula::Formula;
use super::space::{EdgeRef, Fairness, NodeId, StateSpace, Stop};

/// One position of a run: a node and the edge the run leaves it by.
pub type Position = (NodeId, EdgeRef);

/// An ultimately periodic run: `prefix`, then `cycle` forever. The last position of `prefix` (or of the
/// cycle, going round) leads to `cycle[0]`'s node; the cycle is never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub prefix: Vec<Position>,
    pub cycle: Vec<Position>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlVerdict {
    /// Every run from every initial node that satisfies the fairness assumptions satisfies the formula.
    Holds,
    /// A fair run violating the formula.
    Violated(Lasso),
}

/// Checks `formula` (atoms resolved to the space's atom indices, fairness assumptions split off) on every
/// fair run of `space` from its initial nodes.
pub fn check(
    space: &mut dyn StateSpace,
    formula: &Formula<usize>,
    fairness: &[Fairness],
) -> Result<LtlVerdict, Stop> {
    let _ = (space, formula, fairness);
    unimplemented!("LTL checker")
}
