//! SAT solver traits and their adapters. Nothing here knows about B: literals are DIMACS-style signed
//! integers, clauses are slices of them.
//!
//! * `SatSolver`: the incremental interface every adapter offers — fresh variables, clauses, solving under
//!   assumptions, the model, the failed assumptions, a deadline, statistics.
//! * `cadical_solver::Cadical`: CaDiCaL through the `cadical` crate (compiled with the C++ compiler only);
//!   the default.
//! * `varisat_solver::Varisat`: varisat, pure Rust.
//! * `dimacs`: writing a clause set as DIMACS CNF with comment lines.

mod cadical_solver;
pub mod dimacs;
mod varisat_solver;

pub use cadical_solver::Cadical;
pub use varisat_solver::Varisat;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A literal: variable `v >= 1` positive, `-v` negated (DIMACS convention).
pub type Lit = i32;

/// The outcome of one `solve` call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    Sat,
    Unsat,
    /// Stopped by the deadline before deciding.
    Interrupted,
}

/// What a solver did so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SatStats {
    pub vars: usize,
    pub clauses: usize,
    /// Conflicts, when the solver reports them (CaDiCaL: one learnt clause per conflict).
    pub conflicts: Option<u64>,
    /// Time spent inside `solve` calls.
    pub solve_time: Duration,
    pub solve_calls: u64,
}

/// An incremental SAT solver.
pub trait SatSolver {
    /// The solver's name (`cadical`, `varisat`).
    fn name(&self) -> &'static str;
    /// A fresh variable (a positive literal).
    fn new_var(&mut self) -> Lit;
    /// Adds a clause (a disjunction of literals over variables created by `new_var`).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves the clauses added so far with `assumptions` temporarily true.
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// The value of `lit` in the model of the last `Sat` answer (`false` for an unassigned variable).
    fn value(&self, lit: Lit) -> bool;
    /// The assumptions of the last `Unsat` answer that the refutation used (an unsat core).
    fn failed_assumptions(&self, assumptions: &[Lit]) -> Vec<Lit>;
    /// After `deadline`, `solve` gives up with `Interrupted` (`None`: no deadline).
    fn set_deadline(&mut self, deadline: Option<Instant>);
    /// Once `flag` is set (by another thread), `solve` gives up with `Interrupted`, as at the deadline
    /// (`None`: no flag). A solver without a callback into its search sees it only when a call starts.
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>);
    fn stats(&self) -> SatStats;
}

/// The solvers this crate can build, by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolverKind {
    #[default]
    Cadical,
    Varisat,
}

impl SolverKind {
    pub fn parse(name: &str) -> Option<SolverKind> {
        match name {
            "cadical" => Some(SolverKind::Cadical),
            "varisat" => Some(SolverKind::Varisat),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cadical => "cadical",
            SolverKind::Varisat => "varisat",
        }
    }

    /// A fresh solver of this kind.
    pub fn create(self) -> Box<dyn SatSolver> {
        match self {
            SolverKind::Cadical => Box::new(Cadical::new()),
            SolverKind::Varisat => Box::new(Varisat::new()),
        }
    }
}

#[cfg(test)]
mod tests;
