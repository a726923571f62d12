//! Tseitin numbering (Kodkod's gate numbering into CNF): each circuit node in the cone of an asserted
//! literal gets a SAT variable, each AND gate three clauses. Asserted conjunctions become unit clauses
//! and asserted disjunctions single clauses, so the flat parts of a problem need no gate variables.
//! The clauses can be kept for `--dump-cnf`.

use super::circuit::{Circuit, FALSE, Lit, Node, TRUE};
use solver_bridges::SatSolver;

pub struct Encoder {
    pub solver: Box<dyn SatSolver>,
    /// SAT variable per circuit node (0: not yet encoded).
    vars: Vec<i32>,
    /// The clauses added, when kept for a dump.
    pub clauses: Option<Vec<Vec<i32>>>,
    /// A constant false literal was asserted: no solution.
    pub contradiction: bool,
}

impl Encoder {
    pub fn new(solver: Box<dyn SatSolver>, keep_clauses: bool) -> Encoder {
        Encoder {
            solver,
            vars: Vec::new(),
            clauses: keep_clauses.then(Vec::new),
            contradiction: false,
        }
    }

    pub fn add_clause(&mut self, clause: Vec<i32>) {
        self.solver.add_clause(&clause);
        if let Some(kept) = &mut self.clauses {
            kept.push(clause);
        }
    }

    /// The SAT literal of `l`, encoding the gates below it first.
    pub fn lit(&mut self, c: &Circuit, l: Lit) -> i32 {
        if self.vars.len() < c.len() {
            self.vars.resize(c.len(), 0);
        }
        let mut stack = vec![(l.node(), false)];
        while let Some((n, children_done)) = stack.pop() {
            if self.vars[n] != 0 {
                continue;
            }
            match c.node(n) {
                Node::False => {
                    let v = self.solver.new_var();
                    self.vars[n] = v;
                    self.add_clause(vec![-v]);
                }
                Node::Input => self.vars[n] = self.solver.new_var(),
                Node::And(a, b) => {
                    if children_done {
                        let v = self.solver.new_var();
                        self.vars[n] = v;
                        let (x, y) = (self.signed(a), self.signed(b));
                        self.add_clause(vec![-v, x]);
                        self.add_clause(vec![-v, y]);
                        self.add_clause(vec![v, -x, -y]);
                    } else {
                        stack.push((n, true));
                        stack.push((a.node(), false));
                        stack.push((b.node(), false));
                    }
                }
            }
        }
        self.signed(l)
    }

    fn signed(&self, l: Lit) -> i32 {
        let v = self.vars[l.node()];
        if l.is_negated() { -v } else { v }
    }

    /// Adds `l` as a constraint.
    pub fn assert(&mut self, c: &Circuit, l: Lit) {
        let mut stack = vec![l];
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
                    let mut disjuncts = Vec::new();
                    if self.disjuncts(c, x, &mut disjuncts) {
                        let clause: Vec<i32> = disjuncts.iter().map(|&d| self.lit(c, d)).collect();
                        self.add_clause(clause);
                    }
                }
            }
        }
    }

    /// The literals of the flattened disjunction `x`; false when it is trivially true.
    fn disjuncts(&self, c: &Circuit, x: Lit, out: &mut Vec<Lit>) -> bool {
        let mut stack = vec![x];
        while let Some(y) = stack.pop() {
            if y == TRUE {
                return false;
            }
            if y == FALSE {
                continue;
            }
            match c.node(y.node()) {
                // ¬(a ∧ b) = ¬a ∨ ¬b
                Node::And(a, b) if y.is_negated() => {
                    stack.push(!a);
                    stack.push(!b);
                }
                _ => out.push(y),
            }
        }
        true
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
