//! The one-step transition relation of `TransitionSat` unrolled over many steps in one incremental
//! solver, for bounded model checking over bits (`check::bmc_bits`).
//!
//! The relation is translated once; its clauses (the template, over the constants' bits, the two
//! state copies' bits and the gates) are then copied once per further step with the variables
//! renamed: the constants' bits stay (one copy for the whole path), the before-copy's bits become the
//! previous step's after-copy bits, every other variable (the after-copy, the operation selector, the
//! gates) a fresh one. This is the classical unrolling of Biere, Cimatti, Clarke & Zhu (1999) at the
//! CNF level: one translation whatever the depth, and the solver keeps what it learnt from one length
//! to the next.
//!
//! Each state of a path gets the range conditions of both copies it plays (the after-copy of one step,
//! the before-copy of the next): the before-copy's ranges come from the analysis of the INVARIANT,
//! which every state but the last of a shortest path to a violation satisfies.

use super::circuit::Lit;
use super::solutions::value_in;
use super::transition::{Query, TransitionSat};
use super::translate::Term;
use crate::diag::{Diagnostic, Span};
use crate::value::Value;

/// A transition relation unrolled over `steps()` steps.
pub struct Unrolled {
    ts: TransitionSat,
    /// Per step after the first: template variable -> variable of that step (index 0 unused). Step 0
    /// is the template itself.
    renamings: Vec<Vec<i32>>,
}

impl Unrolled {
    /// The relation over one step (the template itself); `ts` must be translated with its template
    /// (`TransitionSat::new(.., true)`).
    pub fn new(ts: TransitionSat) -> Unrolled {
        assert!(
            !ts.template.is_empty(),
            "internal: unrolling a transition encoding translated without its template"
        );
        Unrolled {
            ts,
            renamings: Vec::new(),
        }
    }

    pub fn steps(&self) -> usize {
        self.renamings.len() + 1
    }

    /// Whether some integer's candidates are a cut of its type.
    pub fn cut(&self) -> bool {
        self.ts.cut
    }

    /// The SAT literal of step `i` for template literal `l`.
    fn at(&self, i: usize, l: i32) -> i32 {
        match i {
            0 => l,
            _ => renamed(&self.renamings[i - 1], l),
        }
    }

    /// Adds one more step: the template's clauses renamed.
    pub fn unroll(&mut self) {
        let last = self.steps() - 1;
        let n = self.ts.template_vars;
        let mut renaming = vec![0; n + 1];
        for (&b, &a) in self.ts.bits(0).iter().zip(self.ts.bits(1)) {
            // A constant's bit is the same in both copies and stays; a variable's before-bit is the
            // previous step's after-bit.
            renaming[b as usize] = if a == b { b } else { self.at(last, a) };
        }
        for v in renaming.iter_mut().skip(1) {
            if *v == 0 {
                *v = self.ts.new_var();
            }
        }
        let clauses: Vec<Vec<i32>> = self
            .ts
            .template
            .iter()
            .map(|c| c.iter().map(|&l| renamed(&renaming, l)).collect())
            .collect();
        for c in clauses {
            self.ts.add_clause(c);
        }
        self.renamings.push(renaming);
    }

    /// INITIALISATION of state 0.
    pub fn init(&self) -> i32 {
        self.ts.init0
    }

    /// INVARIANT of state `i` (`i < steps()`).
    pub fn invariant(&self, i: usize) -> i32 {
        self.at(i, self.ts.inv0)
    }

    /// Step `i`: from state `i` to state `i + 1`.
    pub fn step(&self, i: usize) -> i32 {
        self.at(i, self.ts.step)
    }

    /// The bad states in state `i + 1`: `TransitionSat`'s "INVARIANT violated (well-defined)" literal,
    /// or the deadlock it was built with for `bmc --deadlock`.
    pub fn bad_after(&self, i: usize) -> i32 {
        self.at(i, self.ts.bad1)
    }

    pub fn add_clause(&mut self, clause: Vec<i32>) {
        self.ts.add_clause(clause);
    }

    pub fn solve(&mut self, assumptions: &[i32], span: Span) -> Result<Query, Diagnostic> {
        self.ts.solve(assumptions, span)
    }

    /// The value of a term of step `i` in the last model.
    fn value(&self, i: usize, term: &Term) -> Value {
        let enc = &self.ts.enc;
        let holds = |l: Lit| enc.value_with(l, |v| enc.solver.value(self.at(i, v)));
        value_in(term, &holds)
    }

    /// The constants' values in the last model.
    pub fn constants(&self) -> Vec<Value> {
        self.ts.constants()
    }

    /// The variables' values of state `i` (`i <= steps()`) in the last model.
    pub fn state(&self, i: usize) -> Vec<Value> {
        let (step, copy) = if i == 0 { (0, 0) } else { (i - 1, 1) };
        self.ts.states[copy]
            .iter()
            .map(|t| self.value(step, t))
            .collect()
    }

    /// The operation selector of step `i` in the last model.
    pub fn selector(&self, i: usize) -> Value {
        self.value(i, &self.ts.selector)
    }
}

/// Literal `l` under a renaming of its variable (sign kept).
fn renamed(renaming: &[i32], l: i32) -> i32 {
    let v = renaming[l.unsigned_abs() as usize];
    if l < 0 { -v } else { v }
}
