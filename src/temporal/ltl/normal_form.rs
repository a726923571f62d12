//! LTL formulas in negation normal form over literals, the input of the tableau.
//!
//! Negations are pushed to the literals (atoms and history bits) with the dualities `not X f = X not f`
//! (runs are infinite: a deadlock stutters), `not (f U g) = not f R not g`; `G f = false R f`,
//! `F f = true U f`, `f W g = g R (f or g)`. Past subformulas do not reach the tableau: each becomes a
//! history bit that `history::Monitor` computes along the run, and the tableau reads it as a literal.
//! Nodes are hash-consed, so equal subformulas share one index (the tableau's states are sets of them).

use super::history::Monitor;
use crate::diag::Diagnostic;
use crate::temporal::formula::{Formula, Kind};
use rustc_hash::FxHashMap;

/// What a literal reads: an atom of the state space, or a history bit of the monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    Atom(usize),
    History(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Literal {
    pub var: Var,
    pub positive: bool,
}

/// A node of a formula in negation normal form; operands are indices into `Nnf::nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    True,
    False,
    Literal(Literal),
    And(u32, u32),
    Or(u32, u32),
    Next(u32),
    Until(u32, u32),
    Release(u32, u32),
}

/// Hash-consed NNF nodes, and the history bits the past subformulas became.
pub struct Nnf {
    pub nodes: Vec<Node>,
    index: FxHashMap<Node, u32>,
    pub monitor: Monitor,
}

impl Nnf {
    /// The NNF of `formula` (negated when `negate`), with its root node.
    pub fn build(formula: &Formula<usize>, negate: bool) -> Result<(Nnf, u32), Diagnostic> {
        let mut nnf = Nnf {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            monitor: Monitor::default(),
        };
        let root = nnf.convert(formula, negate)?;
        Ok((nnf, root))
    }

    fn node(&mut self, node: Node) -> u32 {
        if let Some(&i) = self.index.get(&node) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(node);
        self.index.insert(node, i);
        i
    }

    fn literal(&mut self, var: Var, positive: bool) -> u32 {
        self.node(Node::Literal(Literal { var, positive }))
    }

    /// `formula` in NNF, negated when `neg`.
    fn convert(&mut self, formula: &Formula<usize>, neg: bool) -> Result<u32, Diagnostic> {
        let node = match &formula.kind {
            Kind::True => {
                if neg {
                    Node::False
                } else {
                    Node::True
                }
            }
            Kind::False => {
                if neg {
                    Node::True
                } else {
                    Node::False
                }
            }
            Kind::Atom(a) => return Ok(self.literal(Var::Atom(*a), !neg)),
            Kind::Not(f) => return self.convert(f, !neg),
            Kind::And(f, g) | Kind::Or(f, g) => {
                let (a, b) = (self.convert(f, neg)?, self.convert(g, neg)?);
                if matches!(formula.kind, Kind::And(..)) != neg {
                    Node::And(a, b)
                } else {
                    Node::Or(a, b)
                }
            }
            // f => g is not f or g; negated, f and not g.
            Kind::Implies(f, g) => {
                let (a, b) = (self.convert(f, !neg)?, self.convert(g, neg)?);
                if neg { Node::And(a, b) } else { Node::Or(a, b) }
            }
            // f <=> g is (f and g) or (not f and not g); negated, (f and not g) or (not f and g).
            Kind::Equiv(f, g) => {
                let (pf, nf) = (self.convert(f, false)?, self.convert(f, true)?);
                let (pg, ng) = (self.convert(g, false)?, self.convert(g, true)?);
                let (x, y) = if neg {
                    (self.node(Node::And(pf, ng)), self.node(Node::And(nf, pg)))
                } else {
                    (self.node(Node::And(pf, pg)), self.node(Node::And(nf, ng)))
                };
                Node::Or(x, y)
            }
            Kind::Next(f) => Node::Next(self.convert(f, neg)?),
            // G f = false R f; not G f = true U not f.
            Kind::Globally(f) => {
                let a = self.convert(f, neg)?;
                if neg {
                    let t = self.node(Node::True);
                    Node::Until(t, a)
                } else {
                    let ff = self.node(Node::False);
                    Node::Release(ff, a)
                }
            }
            Kind::Finally(f) => {
                let a = self.convert(f, neg)?;
                if neg {
                    let ff = self.node(Node::False);
                    Node::Release(ff, a)
                } else {
                    let t = self.node(Node::True);
                    Node::Until(t, a)
                }
            }
            // not (f U g) = not f R not g.
            Kind::Until(f, g) => {
                let (a, b) = (self.convert(f, neg)?, self.convert(g, neg)?);
                if neg {
                    Node::Release(a, b)
                } else {
                    Node::Until(a, b)
                }
            }
            Kind::Release(f, g) => {
                let (a, b) = (self.convert(f, neg)?, self.convert(g, neg)?);
                if neg {
                    Node::Until(a, b)
                } else {
                    Node::Release(a, b)
                }
            }
            // f W g = g R (f or g); not (f W g) = not g U (not f and not g).
            Kind::WeakUntil(f, g) => {
                let (a, b) = (self.convert(f, neg)?, self.convert(g, neg)?);
                if neg {
                    let both = self.node(Node::And(a, b));
                    Node::Until(b, both)
                } else {
                    let either = self.node(Node::Or(a, b));
                    Node::Release(b, either)
                }
            }
            Kind::Yesterday(_)
            | Kind::Historically(_)
            | Kind::Once(_)
            | Kind::Since(..)
            | Kind::Trigger(..) => {
                let bit = self.monitor.add(formula)?;
                return Ok(self.literal(Var::History(bit), !neg));
            }
            _ => return Err(not_ltl(formula)),
        };
        Ok(self.node(node))
    }
}

/// A CTL operator, a fairness assumption below the top level, or an unexpanded quantifier in an LTL
/// formula.
pub(super) fn not_ltl(formula: &Formula<usize>) -> Diagnostic {
    Diagnostic::new(
        crate::diag::DiagKind::Unsupported,
        formula.span,
        "unsupported: this operator is not an LTL operator here (CTL operators belong in `bsolve ctl`; \
         fairness assumptions only as conjuncts left of the top-level `=>`)",
    )
}
