//! CaDiCaL through the `cadical` crate: the deadline is its terminate callback, the conflict count its
//! learnt-clause callback (CaDiCaL learns one clause per conflict).

use crate::{Lit, SatSolver, SatStats, SolveResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The callbacks CaDiCaL polls while solving.
struct Watch {
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Shared with the adapter, which reads it through `&self`.
    learnt: Arc<AtomicU64>,
}

impl Watch {
    /// The deadline passed, or the interrupt flag is set.
    fn stop(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        self.stop()
    }
    fn max_length(&self) -> i32 {
        // Every learnt clause, so that the count is the number of conflicts (the clause is not copied).
        i32::MAX
    }
    fn learn(&mut self, _clause: &[i32]) {
        self.learnt.fetch_add(1, Ordering::Relaxed);
    }
}

pub struct Cadical {
    solver: cadical::Solver<Watch>,
    learnt: Arc<AtomicU64>,
    vars: i32,
    /// A variable of no clause, assumed to skip the lucky phases (`solve`).
    unconstrained: Option<i32>,
    clauses: usize,
    solve_time: Duration,
    solve_calls: u64,
}

impl Cadical {
    pub fn new() -> Cadical {
        let mut solver = cadical::Solver::new();
        let learnt = Arc::new(AtomicU64::new(0));
        solver.set_callbacks(Some(Watch {
            deadline: None,
            interrupt: None,
            learnt: learnt.clone(),
        }));
        Cadical {
            solver,
            learnt,
            vars: 0,
            unconstrained: None,
            clauses: 0,
            solve_time: Duration::ZERO,
            solve_calls: 0,
        }
    }
}

impl Default for Cadical {
    fn default() -> Cadical {
        Cadical::new()
    }
}

impl SatSolver for Cadical {
    fn name(&self) -> &'static str {
        "cadical"
    }
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        self.vars
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.solver.add_clause(clause.iter().copied());
    }
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        // CaDiCaL polls the callback only inside its search; an easy instance may never reach a poll.
        if self.solver.get_callbacks().is_some_and(|w| w.stop()) {
            return SolveResult::Interrupted;
        }
        // Its "lucky phases", tried first by a solve without assumptions, never poll it either (tens of
        // milliseconds over wide bit vectors): a solve another thread may interrupt assumes a variable
        // of no clause, which skips them.
        let interruptible = self
            .solver
            .get_callbacks()
            .is_some_and(|w| w.interrupt.is_some());
        let mut assumed = assumptions.to_vec();
        if interruptible && assumptions.is_empty() {
            let free = *self.unconstrained.get_or_insert_with(|| {
                self.vars += 1;
                self.vars
            });
            assumed.push(free);
        }
        let start = Instant::now();
        let result = self.solver.solve_with(assumed);
        self.solve_time += start.elapsed();
        self.solve_calls += 1;
        match result {
            Some(true) => SolveResult::Sat,
            Some(false) => SolveResult::Unsat,
            None => SolveResult::Interrupted,
        }
    }
    fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit).unwrap_or(false)
    }
    fn failed_assumptions(&self, assumptions: &[Lit]) -> Vec<Lit> {
        assumptions
            .iter()
            .copied()
            .filter(|&a| self.solver.failed(a))
            .collect()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        if let Some(w) = self.solver.get_callbacks() {
            w.deadline = deadline;
        }
    }
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        if let Some(w) = self.solver.get_callbacks() {
            w.interrupt = flag;
        }
    }
    fn stats(&self) -> SatStats {
        SatStats {
            vars: self.vars as usize,
            clauses: self.clauses,
            conflicts: Some(self.learnt.load(Ordering::Relaxed)),
            solve_time: self.solve_time,
            solve_calls: self.solve_calls,
        }
    }
}
