//! Temporal logic over a machine's state space: ProB's LTL[e] and CTL syntax, an on-the-fly LTL checker
//! (tableau to a generalised Büchi automaton, past operators as history bits, SCC-based emptiness with
//! fairness inside the SCC check), CTL by fixpoint labelling, and a simple oracle for the tests.
//!
//! The checkers see the machine only through `space::StateSpace` (numbered nodes, labelled edges, atoms
//! decided per node and edge), so the same algorithms run over a B machine (`machine_space`) and over
//! the small explicit graphs the tests generate.

pub mod ctl;
pub mod formula;
pub mod ltl;
pub mod machine_space;
pub mod parse;
pub mod resolve;
pub mod space;

#[cfg(test)]
pub(crate) mod oracle;
