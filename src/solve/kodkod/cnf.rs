//! Tseitin numbering (Kodkod's gate numbering into CNF): each circuit node in the cone of an asserted
//! literal gets a SAT variable, each AND gate three clauses. Asserted conjunctions become unit clauses
//! and asserted disjunctions single clauses, so the flat parts of a problem need no gate variables.
//! The clauses can be kept for `--dump-cnf`.

use super::circuit::{Circuit, FALSE, Lit, Node, TRUE};
use solver_bridges::SatSolver;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Gates encoded between two polls of the stop conditions (`Encoder::stop_when`).
const POLL_GATES: u32 = 4096;

pub struct Encoder {
    pub solver: Box<dyn SatSolver>,
    /// SAT variable per circuit node (0: not yet encoded).
    vars: Vec<i32>,
    /// The clauses added, when kept for a dump.
    pub clauses: Option<Vec<Vec<i32>>>,
    /// A constant false literal was asserted: no solution.
    pub contradiction: bool,
    /// Work lists of `lit` and `assert`, kept between calls: a problem asserts thousands of roots, and
    /// allocating them afresh for each was a third of the time it took to hand a problem to the solver.
    gates: Vec<(usize, bool)>,
    roots: Vec<Lit>,
    pending: Vec<Lit>,
    disjuncts: Vec<Lit>,
    clause: Vec<i32>,
    /// When to give up encoding: a deadline, and a flag another thread sets (`stop_when`).
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Gates encoded since the last poll.
    since_poll: u32,
    /// The encoding stopped before its end (`stop_when`): the solver's clauses are incomplete and
    /// must not be solved.
    pub interrupted: bool,
}

impl Encoder {
    pub fn new(solver: Box<dyn SatSolver>, keep_clauses: bool) -> Encoder {
        Encoder {
            solver,
            vars: Vec::new(),
            clauses: keep_clauses.then(Vec::new),
            contradiction: false,
            gates: Vec::new(),
            roots: Vec::new(),
            pending: Vec::new(),
            disjuncts: Vec::new(),
            clause: Vec::new(),
            deadline: None,
            interrupt: None,
            since_poll: 0,
            interrupted: false,
        }
    }

    /// Stops encoding (`interrupted`) once `deadline` passes or `interrupt` is set: a circuit of wide
    /// bit vectors takes tens of milliseconds to encode, more than a cancelled portfolio lane may keep
    /// its question waiting.
    pub fn stop_when(&mut self, deadline: Option<Instant>, interrupt: Option<Arc<AtomicBool>>) {
        self.deadline = deadline;
        self.interrupt = interrupt;
    }

    /// Polls the stop conditions once per `POLL_GATES` gates.
    fn poll(&mut self) -> bool {
        self.since_poll += 1;
        if self.since_poll < POLL_GATES {
            return self.interrupted;
        }
        self.since_poll = 0;
        self.interrupted |= self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
        self.interrupted
    }

    pub fn add_clause(&mut self, clause: Vec<i32>) {
        self.solver.add_clause(&clause);
        if let Some(kept) = &mut self.clauses {
            kept.push(clause);
        }
    }

    fn add(&mut self, clause: &[i32]) {
        self.solver.add_clause(clause);
        if let Some(kept) = &mut self.clauses {
            kept.push(clause.to_vec());
        }
    }

    /// The SAT literal of `l`, encoding the gates below it first.
    pub fn lit(&mut self, c: &Circuit, l: Lit) -> i32 {
        if self.vars.len() < c.len() {
            self.vars.resize(c.len(), 0);
        }
        if self.vars[l.node()] == 0 {
            self.encode(c, l.node());
        }
        self.signed(l)
    }

    /// Gives `node` and the gates below it SAT variables and their clauses.
    fn encode(&mut self, c: &Circuit, node: usize) {
        let mut stack = std::mem::take(&mut self.gates);
        stack.push((node, false));
        while let Some((n, children_done)) = stack.pop() {
            if self.vars[n] != 0 {
                continue;
            }
            if self.poll() {
                stack.clear();
                break;
            }
            match c.node(n) {
                Node::False => {
                    let v = self.solver.new_var();
                    self.vars[n] = v;
                    self.add(&[-v]);
                }
                Node::Input => self.vars[n] = self.solver.new_var(),
                Node::And(a, b) => {
                    if children_done {
                        let v = self.solver.new_var();
                        self.vars[n] = v;
                        let (x, y) = (self.signed(a), self.signed(b));
                        self.add(&[-v, x]);
                        self.add(&[-v, y]);
                        self.add(&[v, -x, -y]);
                    } else {
                        stack.push((n, true));
                        stack.push((a.node(), false));
                        stack.push((b.node(), false));
                    }
                }
            }
        }
        self.gates = stack;
    }

    fn signed(&self, l: Lit) -> i32 {
        let v = self.vars[l.node()];
        if l.is_negated() { -v } else { v }
    }

    /// Adds `l` as a constraint.
    pub fn assert(&mut self, c: &Circuit, l: Lit) {
        let mut stack = std::mem::take(&mut self.roots);
        stack.push(l);
        while let Some(x) = stack.pop() {
            if x == TRUE {
                continue;
            }
            if x == FALSE {
                self.contradiction = true;
                continue;
            }
            match c.node(x.node()) {
                Node::And(a, b) if !x.is_negated() => {
                    stack.push(a);
                    stack.push(b);
                }
                _ => {
                    let mut disjuncts = std::mem::take(&mut self.disjuncts);
                    if disjuncts_of(c, x, &mut self.pending, &mut disjuncts) {
                        let mut clause = std::mem::take(&mut self.clause);
                        clause.clear();
                        for &d in &disjuncts {
                            clause.push(self.lit(c, d));
                        }
                        // An interrupted encoding left some literal without a variable.
                        if self.interrupted {
                            stack.clear();
                            self.clause = clause;
                            self.disjuncts = disjuncts;
                            break;
                        }
                        self.add(&clause);
                        self.clause = clause;
                    }
                    self.disjuncts = disjuncts;
                }
            }
        }
        self.roots = stack;
    }

    /// The value of an encoded literal in the solver's model.
    pub fn value(&self, l: Lit) -> bool {
        self.value_with(l, |v| self.solver.value(v))
    }

    /// The value of `l` when SAT literal `v` has value `model(v)`; an unencoded literal is false.
    pub fn value_with(&self, l: Lit, model: impl Fn(i32) -> bool) -> bool {
        if l.is_const() {
            return l == TRUE;
        }
        let v = self.vars.get(l.node()).copied().unwrap_or(0);
        if v == 0 {
            return false;
        }
        model(if l.is_negated() { -v } else { v })
    }

    /// The number of SAT variables used so far.
    pub fn num_vars(&self) -> usize {
        self.solver.stats().vars
    }
}

/// The literals of the flattened disjunction `x` (into `out`, cleared first; `pending` is a work list);
/// false when it is trivially true.
fn disjuncts_of(c: &Circuit, x: Lit, pending: &mut Vec<Lit>, out: &mut Vec<Lit>) -> bool {
    out.clear();
    pending.clear();
    pending.push(x);
    while let Some(y) = pending.pop() {
        if y == TRUE {
            return false;
        }
        if y == FALSE {
            continue;
        }
        match c.node(y.node()) {
            // ¬(a ∧ b) = ¬a ∨ ¬b
            Node::And(a, b) if y.is_negated() => {
                pending.push(!a);
                pending.push(!b);
            }
            _ => out.push(y),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts a disjunction of 10,000 xor gates over fresh inputs (about 30,000 gates under one
    /// clause) with the interrupt flag `raised`: whether the encoding was interrupted, and its clauses.
    fn encode_wide(raised: bool) -> (bool, Vec<Vec<i32>>) {
        let mut c = Circuit::new();
        let mut disjuncts = Vec::new();
        for _ in 0..10_000 {
            let (a, b) = (c.input(), c.input());
            disjuncts.push(c.xor(a, b));
        }
        let root = c.or_all(disjuncts);
        let mut enc = Encoder::new(Box::new(solver_bridges::Cadical::new()), true);
        enc.stop_when(None, Some(Arc::new(AtomicBool::new(raised))));
        enc.assert(&c, root);
        (enc.interrupted, enc.clauses.take().expect("kept"))
    }

    #[test]
    fn a_set_interrupt_flag_stops_the_encoding_and_adds_no_partial_clause() {
        let (interrupted, clauses) = encode_wide(true);
        assert!(interrupted);
        assert!(clauses.iter().all(|cl| cl.iter().all(|&l| l != 0)));
        // The one clause of the root is never added: its literals were not all encoded.
        assert!(clauses.iter().all(|cl| cl.len() < 10_000));
    }

    #[test]
    fn without_a_stop_the_encoding_is_whole() {
        let (interrupted, clauses) = encode_wide(false);
        assert!(!interrupted);
        assert!(clauses.iter().any(|cl| cl.len() == 10_000));
    }
}
