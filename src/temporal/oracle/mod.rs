//! A reference for the temporal checkers: deliberately simple, obviously correct, slow.
//!
//! Nothing here is clever. LTL is evaluated on one lasso at a time by fixpoints over its positions, and a
//! property "holds" when no fair lasso within a length bound violates it (`ltl_counterexample` tries them
//! all); CTL is evaluated at one node at a time by recursion and graph search. The checkers in `ltl` and
//! `ctl` are compared with it on random small graphs (`ExplicitSpace::random`) and random formulas.
//!
//! Bounded enumeration makes the LTL oracle one-sided: a counterexample it finds is real, but "no
//! counterexample" only means none with a prefix and a cycle within the bounds. A formula can need a
//! longer run to be violated (nested `X`/`Y` count positions, and the violating run of a graph × automaton
//! product may wind through the graph several times), so the bounds are chosen generously for the graph
//! sizes used (4 nodes: prefix 4, cycle 6) and a checker's `Holds` is checked only against them.

mod build;
mod counterexample;
mod ctl_eval;
mod explicit_space;
mod generate;
mod lasso_eval;
mod print;
mod run;

pub use build::{atom, binary, formula, unary};
pub use counterexample::ltl_counterexample;
pub use ctl_eval::ctl_holds;
pub use explicit_space::ExplicitSpace;
pub use generate::{random_ctl, random_fairness, random_lasso, random_ltl};
pub use lasso_eval::ltl_on_lasso;
pub use print::formula_text;
pub use run::{is_fair, is_run};

// The tests: the oracle on cases worked out by hand, the oracle against itself (identities, LTL against
// CTL), and the checkers against the oracle.
mod compare_checkers;
mod hand_cases;
mod self_checks;
