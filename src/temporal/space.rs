//! What the temporal checkers see of a system: numbered nodes, labelled edges, atoms decided per position.
//!
//! A position of a run is a node and the edge the run leaves it by, so that state atoms (`{P}`, `e(Op)`)
//! and event atoms (`[Op]`) are read at the same position, as ProB's LTL[e] does. A node without edges
//! (a deadlock) is left by an implicit *stutter* step back to itself, which no operation labels: every run
//! is infinite, event atoms are false on the stutter step, and `X`, `G`, `AX`, `EG` keep their usual
//! meaning in a deadlock.

use crate::diag::Diagnostic;

/// A node of the state space.
pub type NodeId = u32;

/// Which edge a position leaves its node by: `Some(i)` is the node's `i`-th edge, `None` the stutter
/// step of a deadlocked node.
pub type EdgeRef = Option<usize>;

/// One edge: the operation it is an instance of (an index into `StateSpace::operations`) and its target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub operation: usize,
    pub target: NodeId,
}

/// Why a state space could not answer: a limit, a budget, or an error in the machine (with its position).
#[derive(Clone, Debug)]
pub enum Stop {
    /// The exploration was cut (state limit, timeout, memory): the reason, for the user.
    Limit(String),
    /// Evaluating something was ill-defined or failed; the node it happened in, when known.
    Error(Diagnostic, Option<NodeId>),
}

/// A state space explored on demand. Nodes are numbered in the order they are found; `edges` of a node
/// are computed the first time they are asked for and are the same every time after.
pub trait StateSpace {
    /// The nodes the checked runs start in.
    fn initial(&mut self) -> Result<Vec<NodeId>, Stop>;

    /// The edges leaving `node` (empty for a deadlock).
    fn edges(&mut self, node: NodeId) -> Result<&[Edge], Stop>;

    /// Whether atom `atom` (an index into the space's atom table) holds at the position leaving `node`
    /// by `edge`. State atoms ignore `edge`.
    fn holds(&mut self, atom: usize, node: NodeId, edge: EdgeRef) -> Result<bool, Stop>;

    /// Whether atom `atom` reads the step (an event atom such as `[Op]`) rather than only the node.
    fn is_event_atom(&self, atom: usize) -> bool;

    /// The operations' names, indexed as in `Edge::operation`.
    fn operations(&self) -> &[String];

    /// Some node's edges were enumerated only partly (MAX_OPERATIONS, parameters searched within
    /// MININT..MAXINT): a property found to hold then holds only on the explored part.
    fn partial(&self) -> bool {
        false
    }
}

/// A fairness assumption on an operation, as `WF(Op)` / `SF(Op)` give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fairness {
    /// Strong (`SF`: enabled infinitely often implies taken infinitely often) or weak (`WF`: enabled
    /// from some point on implies taken infinitely often).
    pub strong: bool,
    /// The operation (an index into `StateSpace::operations`).
    pub operation: usize,
}
