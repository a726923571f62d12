//! varisat (pure Rust). It has no callback to poll a deadline during a search: a passed deadline is
//! honoured before each `solve` call only.

use crate::{Lit, SatSolver, SatStats, SolveResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use varisat::ExtendFormula;

pub struct Varisat {
    solver: varisat::Solver<'static>,
    vars: i32,
    clauses: usize,
    model: Vec<bool>,
    core: Vec<Lit>,
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
    solve_time: Duration,
    solve_calls: u64,
}

impl Varisat {
    pub fn new() -> Varisat {
        Varisat {
            solver: varisat::Solver::new(),
            vars: 0,
            clauses: 0,
            model: Vec::new(),
            core: Vec::new(),
            deadline: None,
            interrupt: None,
            solve_time: Duration::ZERO,
            solve_calls: 0,
        }
    }
}

impl Default for Varisat {
    fn default() -> Varisat {
        Varisat::new()
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(lit as isize)
}

impl SatSolver for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }
    fn new_var(&mut self) -> Lit {
        self.solver.new_var();
        self.vars += 1;
        self.vars
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&lits);
    }
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return SolveResult::Interrupted;
        }
        let start = Instant::now();
        let lits: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&lits);
        let result = self.solver.solve();
        self.solve_time += start.elapsed();
        self.solve_calls += 1;
        match result {
            Ok(true) => {
                self.model = vec![false; self.vars as usize + 1];
                for l in self.solver.model().unwrap_or_default() {
                    let v = l.to_dimacs();
                    if v > 0 && (v as usize) < self.model.len() {
                        self.model[v as usize] = true;
                    }
                }
                SolveResult::Sat
            }
            Ok(false) => {
                self.core = self
                    .solver
                    .failed_core()
                    .unwrap_or(&[])
                    .iter()
                    .map(|l| l.to_dimacs() as Lit)
                    .collect();
                SolveResult::Unsat
            }
            Err(_) => SolveResult::Interrupted,
        }
    }
    fn value(&self, lit: Lit) -> bool {
        let v = self
            .model
            .get(lit.unsigned_abs() as usize)
            .copied()
            .unwrap_or(false);
        if lit > 0 { v } else { !v }
    }
    fn failed_assumptions(&self, assumptions: &[Lit]) -> Vec<Lit> {
        assumptions
            .iter()
            .copied()
            .filter(|a| self.core.contains(a))
            .collect()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
    fn stats(&self) -> SatStats {
        SatStats {
            vars: self.vars as usize,
            clauses: self.clauses,
            conflicts: None,
            solve_time: self.solve_time,
            solve_calls: self.solve_calls,
        }
    }
}
