//! LTL to a transition-based generalised Büchi automaton, built on the fly (Couvreur, FM 1999).
//!
//! A state is the set of NNF formulas the run must satisfy from the current position. Expanding it by
//! the tableau rules (`f U g = g or (f and X (f U g))`, `f R g = g and (f or X (f R g))`) gives its
//! outgoing transitions: the literals the current position must satisfy, the set of formulas due at the
//! next position (the target state), and the acceptance bits of the transition. There is one acceptance
//! bit per until subformula: a transition carries it unless it postpones that until (took the
//! `f and X (f U g)` branch). A run is accepted when every bit recurs, so no until is postponed forever.

use super::normal_form::{Literal, Nnf, Node};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::rc::Rc;

/// An outgoing transition of an automaton state.
#[derive(Clone, Debug)]
pub struct Branch {
    /// What the current position must satisfy (consistent: never a literal and its negation).
    pub literals: Vec<Literal>,
    /// The state the run is in at the next position.
    pub next: u32,
    /// The acceptance bits this transition carries.
    pub accepting: u64,
}

pub struct Tableau<'n> {
    nnf: &'n Nnf,
    states: Vec<Vec<u32>>,
    index: FxHashMap<Vec<u32>, u32>,
    expansions: Vec<Option<Rc<[Branch]>>>,
    /// Per NNF node, its acceptance bit when it is an until.
    bit_of: FxHashMap<u32, u32>,
    /// Every acceptance bit.
    pub all_bits: u64,
}

/// Until subformulas at most (one acceptance bit each).
pub const MAX_UNTILS: usize = 64;

/// A branch of the expansion under construction.
#[derive(Clone, Default)]
struct Partial {
    todo: Vec<u32>,
    done: BTreeSet<u32>,
    literals: BTreeSet<Literal>,
    next: BTreeSet<u32>,
    postponed: u64,
}

impl<'n> Tableau<'n> {
    /// The automaton of `nnf` from `root`; its initial state is 0. `None` when the formula has more
    /// untils than acceptance bits.
    pub fn new(nnf: &'n Nnf, root: u32) -> Option<Tableau<'n>> {
        let untils: Vec<u32> = (0..nnf.nodes.len() as u32)
            .filter(|&i| matches!(nnf.nodes[i as usize], Node::Until(..)))
            .collect();
        if untils.len() > MAX_UNTILS {
            return None;
        }
        let all_bits = if untils.len() == 64 {
            u64::MAX
        } else {
            (1u64 << untils.len()) - 1
        };
        let mut t = Tableau {
            nnf,
            states: Vec::new(),
            index: FxHashMap::default(),
            expansions: Vec::new(),
            bit_of: untils
                .iter()
                .enumerate()
                .map(|(b, &u)| (u, b as u32))
                .collect(),
            all_bits,
        };
        t.intern(vec![root]);
        Some(t)
    }

    fn intern(&mut self, formulas: Vec<u32>) -> u32 {
        if let Some(&s) = self.index.get(&formulas) {
            return s;
        }
        let s = self.states.len() as u32;
        self.states.push(formulas.clone());
        self.index.insert(formulas, s);
        self.expansions.push(None);
        s
    }

    /// The transitions leaving `state` (computed once).
    pub fn branches(&mut self, state: u32) -> Rc<[Branch]> {
        if let Some(b) = &self.expansions[state as usize] {
            return b.clone();
        }
        let start = Partial {
            todo: self.states[state as usize].clone(),
            ..Partial::default()
        };
        let mut work = vec![start];
        let mut out = Vec::new();
        while let Some(mut p) = work.pop() {
            let Some(f) = p.todo.pop() else {
                let next = self.intern(p.next.into_iter().collect());
                out.push(Branch {
                    literals: p.literals.into_iter().collect(),
                    next,
                    accepting: self.all_bits & !p.postponed,
                });
                continue;
            };
            if !p.done.insert(f) {
                work.push(p);
                continue;
            }
            match self.nnf.nodes[f as usize] {
                Node::True => work.push(p),
                Node::False => {}
                Node::Literal(l) => {
                    let opposite = Literal {
                        positive: !l.positive,
                        ..l
                    };
                    if !p.literals.contains(&opposite) {
                        p.literals.insert(l);
                        work.push(p);
                    }
                }
                Node::And(a, b) => {
                    p.todo.extend([a, b]);
                    work.push(p);
                }
                Node::Or(a, b) => {
                    let mut q = p.clone();
                    p.todo.push(a);
                    q.todo.push(b);
                    work.extend([p, q]);
                }
                Node::Next(a) => {
                    p.next.insert(a);
                    work.push(p);
                }
                // g now, or f now and the until again at the next position (postponed).
                Node::Until(a, b) => {
                    let mut q = p.clone();
                    p.todo.push(b);
                    q.todo.push(a);
                    q.next.insert(f);
                    q.postponed |= 1 << self.bit_of[&f];
                    work.extend([p, q]);
                }
                // g now and f now, or g now and the release again at the next position.
                Node::Release(a, b) => {
                    let mut q = p.clone();
                    p.todo.extend([a, b]);
                    q.todo.push(b);
                    q.next.insert(f);
                    work.extend([p, q]);
                }
            }
        }
        let branches: Rc<[Branch]> = out.into();
        self.expansions[state as usize] = Some(branches.clone());
        branches
    }
}
