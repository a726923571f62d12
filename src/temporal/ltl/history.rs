//! Past operators as history bits: the standard construction that turns a past subformula into a value
//! computed along the run from the value at the previous position.
//!
//! At position i, with `now` the values at i and `before` those at i-1 (none at 0):
//! `Y f` = f before (false at 0); `O f` = f or O f before; `H f` = f and H f before (f at 0);
//! `f S g` = g or (f and (f S g) before) (g at 0); `f T g` = g and (f or (f T g) before) (g at 0).
//! A past operator's operands may hold atoms, booleans and other past operators, not future ones (their
//! value would depend on the rest of the run). Bits are numbered so that operands come first: one pass
//! in order computes a position's bits.

use super::normal_form::not_ltl;
use crate::diag::{DiagKind, Diagnostic};
use crate::temporal::formula::{Formula, Kind};

/// Bits a run carries: the flag "a position came before" and two per `Y`, one per other past operator.
const MAX_SLOTS: usize = 63;

/// A future-free boolean condition over atoms and history bits.
#[derive(Clone, Debug)]
enum Cond {
    Const(bool),
    Atom(usize),
    Bit(usize),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

#[derive(Clone, Debug)]
enum Past {
    /// `Y f`: its slot holds f's value, read at the next position.
    Yesterday(Cond),
    Once(Cond),
    Historically(Cond),
    Since(Cond, Cond),
    Trigger(Cond, Cond),
}

/// The history bits of a formula's past subformulas.
#[derive(Clone, Debug, Default)]
pub struct Monitor {
    /// Per bit, its operator. Bit `i`'s value is slot `i`; each `Y`'s operand value has a slot after
    /// those (`y_slot`).
    past: Vec<Past>,
}

/// The history a position carries to the next: bit `MAX_SLOTS` says whether it exists.
pub type History = u64;

/// The history before the first position.
pub const START: History = 0;

const STARTED: u64 = 1 << MAX_SLOTS;

impl Monitor {
    /// Adds a past subformula; its bit index.
    pub fn add(&mut self, formula: &Formula<usize>) -> Result<usize, Diagnostic> {
        let past = match &formula.kind {
            Kind::Yesterday(f) => Past::Yesterday(self.cond(f)?),
            Kind::Once(f) => Past::Once(self.cond(f)?),
            Kind::Historically(f) => Past::Historically(self.cond(f)?),
            Kind::Since(f, g) => Past::Since(self.cond(f)?, self.cond(g)?),
            Kind::Trigger(f, g) => Past::Trigger(self.cond(f)?, self.cond(g)?),
            _ => return Err(not_ltl(formula)),
        };
        let ys = self
            .past
            .iter()
            .filter(|p| matches!(p, Past::Yesterday(_)))
            .count()
            + usize::from(matches!(past, Past::Yesterday(_)));
        if self.past.len() + 1 + ys > MAX_SLOTS {
            return Err(Diagnostic::new(
                DiagKind::Unsupported,
                formula.span,
                format!("unsupported: more than {MAX_SLOTS} history bits for past operators"),
            ));
        }
        let bit = self.past.len();
        self.past.push(past);
        Ok(bit)
    }

    fn cond(&mut self, f: &Formula<usize>) -> Result<Cond, Diagnostic> {
        Ok(match &f.kind {
            Kind::True => Cond::Const(true),
            Kind::False => Cond::Const(false),
            Kind::Atom(a) => Cond::Atom(*a),
            Kind::Not(g) => Cond::Not(Box::new(self.cond(g)?)),
            Kind::And(g, h) => Cond::And(Box::new(self.cond(g)?), Box::new(self.cond(h)?)),
            Kind::Or(g, h) => Cond::Or(Box::new(self.cond(g)?), Box::new(self.cond(h)?)),
            Kind::Implies(g, h) => Cond::Or(
                Box::new(Cond::Not(Box::new(self.cond(g)?))),
                Box::new(self.cond(h)?),
            ),
            Kind::Equiv(g, h) => {
                let (a, b) = (self.cond(g)?, self.cond(h)?);
                let not = |c: &Cond| Cond::Not(Box::new(c.clone()));
                Cond::Or(
                    Box::new(Cond::And(Box::new(a.clone()), Box::new(b.clone()))),
                    Box::new(Cond::And(Box::new(not(&a)), Box::new(not(&b)))),
                )
            }
            Kind::Yesterday(_)
            | Kind::Once(_)
            | Kind::Historically(_)
            | Kind::Since(..)
            | Kind::Trigger(..) => Cond::Bit(self.add(f)?),
            _ => {
                return Err(Diagnostic::new(
                    DiagKind::Unsupported,
                    f.span,
                    "unsupported: a future or CTL operator inside a past operator",
                ));
            }
        })
    }

    /// The history at the current position, from the one before (`START` at the first) and the current
    /// atoms' values (`atom(a)`).
    pub fn step<E>(
        &self,
        before: History,
        atom: &mut impl FnMut(usize) -> Result<bool, E>,
    ) -> Result<History, E> {
        if self.past.is_empty() {
            return Ok(STARTED);
        }
        let started = before & STARTED != 0;
        let mut now: History = STARTED;
        for (i, past) in self.past.iter().enumerate() {
            let prev = started && bit(before, i);
            let value = match past {
                Past::Yesterday(f) => {
                    let operand = self.eval(f, now, atom)?;
                    if operand {
                        now |= 1 << self.y_slot(i);
                    }
                    started && before & (1 << self.y_slot(i)) != 0
                }
                Past::Once(f) => self.eval(f, now, atom)? || prev,
                Past::Historically(f) => self.eval(f, now, atom)? && (prev || !started),
                Past::Since(f, g) => {
                    self.eval(g, now, atom)? || (prev && self.eval(f, now, atom)?)
                }
                Past::Trigger(f, g) => {
                    self.eval(g, now, atom)? && (!started || prev || self.eval(f, now, atom)?)
                }
            };
            if value {
                now |= 1 << i;
            }
        }
        Ok(now)
    }

    /// The slot of a `Y` bit's operand: after the bits' own slots, in order of the `Y`s.
    fn y_slot(&self, bit: usize) -> usize {
        self.past.len()
            + self.past[..bit]
                .iter()
                .filter(|p| matches!(p, Past::Yesterday(_)))
                .count()
    }

    fn eval<E>(
        &self,
        c: &Cond,
        now: History,
        atom: &mut impl FnMut(usize) -> Result<bool, E>,
    ) -> Result<bool, E> {
        Ok(match c {
            Cond::Const(b) => *b,
            Cond::Atom(a) => atom(*a)?,
            Cond::Bit(i) => bit(now, *i),
            Cond::Not(d) => !self.eval(d, now, atom)?,
            Cond::And(d, e) => self.eval(d, now, atom)? && self.eval(e, now, atom)?,
            Cond::Or(d, e) => self.eval(d, now, atom)? || self.eval(e, now, atom)?,
        })
    }
}

/// The value of history bit `i`.
pub fn bit(history: History, i: usize) -> bool {
    history & (1 << i) != 0
}
