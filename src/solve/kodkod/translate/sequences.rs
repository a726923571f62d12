//! Sequences in the circuit: a sequence is a relation `1..n --> T` (a `SetTerm` of pairs `i |-> v`), so
//! its operators are rewirings of the membership matrix by index. The candidate indices are bounded
//! (the analysis bounds a sequence's domain), so every operator has an exact finite encoding:
//! "the size is n" is a one-hot choice over the candidate lengths, read off the contiguous domain.
//!
//! Each operator is well-defined exactly where the interpreter's is (`eval::sequences`): its operands
//! are sequences, `first`/`last`/`front`/`tail` ask for a non-empty one and `s /|\ k`, `s \|/ k` for
//! `0 <= k <= size(s)`.

use super::{FALSE, Lit, SetTerm, TRUE, Term, Tr, Translator, pair_parts, unsupported};
use crate::diag::Span;
use crate::ir::{BinaryOp, Expr, UnaryOp};
use crate::solve::kodkod::integers::BitVec;
use crate::value::Value;
use std::collections::BTreeMap;

/// A relation read as a sequence.
pub(super) struct SeqView {
    /// The candidate elements at each candidate index `1..=max`.
    slots: BTreeMap<i64, Vec<(Value, Lit)>>,
    /// Whether index i is in the domain.
    present: BTreeMap<i64, Lit>,
    /// `length[n]`: the size is n (`0..=max`); meaningful when `sequence` holds.
    length: Vec<Lit>,
    /// The relation is a sequence (functional, domain `1..n`).
    sequence: Lit,
}

impl SeqView {
    fn max(&self) -> i64 {
        self.length.len() as i64 - 1
    }

    fn present(&self, i: i64) -> Lit {
        self.present.get(&i).copied().unwrap_or(FALSE)
    }

    fn non_empty(&self) -> Lit {
        self.present(1)
    }

    fn entries(&self) -> impl Iterator<Item = (i64, &Value, Lit)> {
        self.slots
            .iter()
            .flat_map(|(i, vs)| vs.iter().map(move |(v, l)| (*i, v, *l)))
    }
}

impl Translator<'_> {
    /// Whether `f` is a sequence whose elements are in `t` (any element when `t` is None), injective and
    /// non-empty when asked.
    pub(super) fn sequence(
        &mut self,
        f: &SetTerm,
        t: Option<&SetTerm>,
        injective: bool,
        non_empty: bool,
    ) -> Lit {
        let view = self.seq_view(f);
        let mut conds = vec![view.sequence];
        if let Some(t) = t {
            for (_, v, l) in view.entries() {
                let in_t = t.get(v).copied().unwrap_or(FALSE);
                conds.push(self.circuit.implies(l, in_t));
            }
        }
        if injective {
            let mut by_value: BTreeMap<&Value, Vec<Lit>> = BTreeMap::new();
            for (_, v, l) in view.entries() {
                by_value.entry(v).or_default().push(l);
            }
            for lits in by_value.values() {
                conds.push(self.circuit.at_most_one(lits));
            }
        }
        if non_empty {
            conds.push(view.non_empty());
        }
        self.circuit.and_all(conds)
    }

    /// `f` read as a sequence: its slots, which indices are present, the one-hot size.
    pub(super) fn seq_view(&mut self, f: &SetTerm) -> SeqView {
        let mut conds = Vec::new();
        let mut slots: BTreeMap<i64, Vec<(Value, Lit)>> = BTreeMap::new();
        for (k, l) in f {
            let (i, v) = pair_parts(k);
            match i.as_int().and_then(|i| i.to_i64()).filter(|&i| i >= 1) {
                Some(i) => slots.entry(i).or_default().push((v.clone(), *l)),
                None => conds.push(!*l),
            }
        }
        // Only the candidate indices 1..max without a gap can be in a sequence (its domain is 1..n):
        // the pairs past the first gap are absent.
        let max = (1..)
            .find(|i| !slots.contains_key(i))
            .map_or(0, |gap| gap - 1);
        for (_, vs) in slots.split_off(&(max + 1)) {
            conds.extend(vs.into_iter().map(|(_, l)| !l));
        }
        let mut present = BTreeMap::new();
        for (i, vs) in &slots {
            let lits: Vec<Lit> = vs.iter().map(|(_, l)| *l).collect();
            conds.push(self.circuit.at_most_one(&lits));
            present.insert(*i, self.circuit.or_all(lits));
        }
        // Contiguous from 1: index i present only if i - 1 is.
        for (i, p) in &present {
            if *i > 1 {
                conds.push(self.circuit.implies(*p, present[&(i - 1)]));
            }
        }
        let at = |i: i64| present.get(&i).copied().unwrap_or(FALSE);
        let mut length = Vec::with_capacity(max as usize + 1);
        for n in 0..=max {
            let upto = if n == 0 { TRUE } else { at(n) };
            let next = at(n + 1);
            length.push(self.circuit.and(upto, !next));
        }
        let sequence = self.circuit.and_all(conds);
        SeqView {
            slots,
            present,
            length,
            sequence,
        }
    }

    /// The sequence operand `e` of an operator: its view, with "it is a sequence" (and "it is
    /// non-empty") added to the well-definedness conditions.
    fn seq_operand(&mut self, e: &Expr, non_empty: bool) -> Tr<SeqView> {
        let s = self.set(e)?;
        let view = self.seq_view(&s);
        self.wd.push(view.sequence);
        if non_empty {
            self.wd.push(view.non_empty());
        }
        Ok(view)
    }

    /// `size(s)`: defined when s is a sequence.
    pub(super) fn seq_size(&mut self, s: &Expr) -> Tr<BitVec> {
        let view = self.seq_operand(s, false)?;
        Ok(self.size_of(&view))
    }

    /// The number of pairs of a sequence: its size.
    fn size_of(&mut self, view: &SeqView) -> BitVec {
        let lits: Vec<Lit> = view.entries().map(|(_, _, l)| l).collect();
        BitVec::count(&mut self.circuit, &lits)
    }

    /// `first(s)` and `last(s)`: the element at index 1, or at the index equal to the size.
    pub(super) fn seq_element(&mut self, e: &Expr, op: UnaryOp, s: &Expr) -> Tr<Term> {
        let view = self.seq_operand(s, true)?;
        let mut choices = Vec::new();
        for (i, v, l) in view.entries() {
            let here = if op == UnaryOp::First {
                if i == 1 { l } else { FALSE }
            } else {
                self.circuit.and(l, view.length[i as usize])
            };
            if here != FALSE {
                choices.push((v.clone(), here));
            }
        }
        self.choose_among(&e.ty, &choices, e.span)
    }

    /// `tail`, `front`, `rev` as relations.
    pub(super) fn seq_unary(&mut self, op: UnaryOp, s: &Expr, span: Span) -> Tr<SetTerm> {
        let non_empty = matches!(op, UnaryOp::Tail | UnaryOp::Front);
        let view = self.seq_operand(s, non_empty)?;
        let mut out = SetTerm::new();
        for (i, v, l) in view.entries() {
            match op {
                UnaryOp::Tail if i >= 2 => self.add_to(&mut out, index(i - 1, v), l),
                UnaryOp::Tail => {}
                UnaryOp::Front => {
                    let kept = self.circuit.and(l, view.present(i + 1));
                    self.add_to(&mut out, index(i, v), kept);
                }
                UnaryOp::Rev => {
                    // Element i of a sequence of size n is element n + 1 - i of its reverse.
                    for n in i..=view.max() {
                        let moved = self.circuit.and(l, view.length[n as usize]);
                        self.add_to(&mut out, index(n + 1 - i, v), moved);
                    }
                }
                _ => return Err(unsupported(span, format!("the sequence operator {op:?}"))),
            }
        }
        Ok(out)
    }

    /// `s ^ t`, `x -> s`, `s <- x`, `s /|\ k`, `s \|/ k` as relations.
    pub(super) fn seq_binary(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> Tr<SetTerm> {
        let mut out = SetTerm::new();
        match op {
            BinaryOp::Concat => {
                let (s, t) = (self.seq_operand(a, false)?, self.seq_operand(b, false)?);
                for (i, v, l) in s.entries() {
                    self.add_to(&mut out, index(i, v), l);
                }
                // Element j of t is element n + j of the result when s has size n.
                for n in 0..=s.max() {
                    for (j, v, l) in t.entries() {
                        let moved = self.circuit.and(l, s.length[n as usize]);
                        self.add_to(&mut out, index(n + j, v), moved);
                    }
                }
            }
            BinaryOp::Prepend => {
                let x = self.expr(a)?;
                let s = self.seq_operand(b, false)?;
                for (v, l) in self.candidates(&x, span)? {
                    self.add_to(&mut out, index(1, &v), l);
                }
                for (i, v, l) in s.entries() {
                    self.add_to(&mut out, index(i + 1, v), l);
                }
            }
            BinaryOp::Append => {
                let s = self.seq_operand(a, false)?;
                let x = self.expr(b)?;
                for (i, v, l) in s.entries() {
                    self.add_to(&mut out, index(i, v), l);
                }
                let candidates = self.candidates(&x, span)?;
                for n in 0..=s.max() {
                    for (v, l) in &candidates {
                        let last = self.circuit.and(*l, s.length[n as usize]);
                        self.add_to(&mut out, index(n + 1, v), last);
                    }
                }
            }
            BinaryOp::Take | BinaryOp::Drop => {
                let s = self.seq_operand(a, false)?;
                let k = self.int(b)?;
                let size = self.size_of(&s);
                let at_least_zero = k.ge_const(&mut self.circuit, 0);
                let at_most_size = k.le(&mut self.circuit, &size);
                self.wd.push(at_least_zero);
                self.wd.push(at_most_size);
                for (i, v, l) in s.entries() {
                    if op == BinaryOp::Take {
                        let kept = k.ge_const(&mut self.circuit, i);
                        let kept = self.circuit.and(l, kept);
                        self.add_to(&mut out, index(i, v), kept);
                        continue;
                    }
                    // Dropping m elements moves element i to i - m.
                    for m in k.lo.max(0)..i.min(k.hi.saturating_add(1)) {
                        let is_m = k.eq_const(&mut self.circuit, m);
                        let moved = self.circuit.and(l, is_m);
                        self.add_to(&mut out, index(i - m, v), moved);
                    }
                }
            }
            _ => return Err(unsupported(span, format!("the sequence operator {op:?}"))),
        }
        Ok(out)
    }

    /// `[e1, ..., en]`: element i is one of e_i's candidates.
    pub(super) fn seq_enum(&mut self, items: &[Expr], span: Span) -> Tr<SetTerm> {
        let mut out = SetTerm::new();
        for (i, x) in items.iter().enumerate() {
            let t = self.expr(x)?;
            for (v, l) in self.candidates(&t, span)? {
                self.add_to(&mut out, index(i as i64 + 1, &v), l);
            }
        }
        Ok(out)
    }
}

fn index(i: i64, v: &Value) -> Value {
    Value::pair(Value::int(i), v.clone())
}
