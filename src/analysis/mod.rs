//! Static analyses of a conjunction over typed search variables, run before solving it.
//!
//! * `partition`: split the conjuncts into independent components (no shared search variable), so each
//!   can be solved alone (Plagge & Leuschel 2012, §3.6).
//! * `deterministic`: the equations `x = E` that fix a variable from known values, in an order in which
//!   they can be evaluated first (ProB evaluates such deterministic equalities before any enumeration).
//!
//! The interval analysis (`solve::interval`) lives with the solvers: it evaluates known names through the
//! interpreter, which this layer stays below.
//!
//! * `before_after`: before-after, enabling predicates and read/write sets of operations, for the
//!   symbolic checks (not a conjunct analysis: it turns substitutions into predicates).
//! * `guard_split`: an operation's guard as conjuncts, each with the variables it reads (the guard read
//!   matrix beside `before_after`'s read, write and must-write sets).
//!
//! Both conjunct analyses are sound over-approximations: they never drop a solution.

pub mod before_after;
pub mod deterministic;
pub mod guard_split;
pub mod partition;

#[cfg(test)]
mod corpus_soundness;
#[cfg(test)]
pub(crate) mod test_formula;
