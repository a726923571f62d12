//! Sequences as a length and an element function, without quantifiers where the length is bounded.
//!
//! A problem variable that is a sequence in every solution (`sequence_variables`) is declared as a
//! length `l.v : Int` and an element array `s.v : (Array Int T)`; only indices `1..l.v` are meaningful.
//! Every expression that is a sequence by construction (such a variable, an enumeration, a known
//! sequence value, the result of `<-`, `->`, `^`, `tail`, `front`, `rev`, `/|\`, `\|/`) is a `Seq`: a
//! length term and a function from an index term to the element term, so that `size`, `first`, `last`,
//! `s(i)`, membership of a pair and equality are quantifier-free terms over the variables' arrays. What
//! needs all indices (equality, `seq(S)`, injectivity, `ran`) is a finite conjunction over `1..bound`
//! when the length has a known bound, else a quantifier over `1..len`. A sequence given as a relation
//! (a bound variable, a set expression) becomes a `Seq` through hoisted fresh length and elements, defined
//! when the relation is a sequence — the definedness the interpreter's sequence operators have.
//!
//! Where a relation operator needs a sequence variable as a set, it gets the characteristic lambda of
//! the pairs `(i, s.v[i])` with `i` in `1..l.v`.
//!
//! Well-definedness is the interpreter's: `first`, `last`, `tail`, `front` of `[]` and `s(i)` outside
//! `1..size(s)`, `s /|\ k` and `s \|/ k` outside `0..size(s)` hoist their guards like function
//! applications do. Elements outside `1..len` are never read where a guard does not exclude them, so
//! their values never change a formula's truth.

use super::sequence_variables::{built_as_sequence, is_sequence_type};
use super::{R, Tr, and, implies, not, or, quantified, symbol};
use crate::diag::Span;
use crate::eval::{Val, unsupported};
use crate::ir::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::types::Type;
use crate::value::Value;
use std::fmt::Write;
use std::rc::Rc;

/// The largest length bound up to which a property of every index is a finite conjunction.
const INDEX_EXPAND_LIMIT: usize = 64;

/// A problem variable encoded as a length and an element array.
pub(crate) struct SequenceOutput {
    /// The `Int` constant of its length.
    pub len: String,
    /// The `(Array Int T)` constant of its elements.
    pub elems: String,
}

/// A problem variable encoded as a sequence, with a bound on its length when one is known.
pub(super) struct SequenceVariable {
    pub symbols: SequenceOutput,
    pub bound: Option<usize>,
}

impl SequenceVariable {
    pub(super) fn new(name: &str, bound: Option<usize>) -> SequenceVariable {
        SequenceVariable {
            symbols: SequenceOutput {
                len: symbol("l.", name),
                elems: symbol("s.", name),
            },
            bound,
        }
    }
}

/// A sequence expression as SMT terms.
struct Seq {
    len: String,
    /// The element at an index term (meaningful on `1..len`).
    at: Rc<dyn Fn(&str) -> String>,
    /// An upper bound on `len` in every solution where the expression is defined.
    bound: Option<usize>,
}

impl Seq {
    fn at(&self, i: &str) -> String {
        (self.at)(i)
    }
}

impl Tr<'_> {
    /// Whether `e` is a sequence by construction (and has the exact encoding).
    pub(super) fn is_native_sequence(&self, e: &Expr) -> bool {
        if !is_sequence_type(&e.ty) {
            return false;
        }
        match &e.kind {
            ExprKind::Var(n) => {
                self.lookup(n).is_none()
                    && (self.sequences.contains_key(n) || self.sequence_value(n).is_some())
            }
            ExprKind::If(_, a, b) => self.is_native_sequence(a) && self.is_native_sequence(b),
            _ => built_as_sequence(e),
        }
    }

    /// The elements of a name the environment or the machine gives a sequence value.
    fn sequence_value(&self, name: &str) -> Option<Vec<Value>> {
        if self.vars.iter().any(|v| *v.name == *name) {
            return None;
        }
        match self.env.get(name).or_else(|| self.ctx.global(name))? {
            Val::Value(v) => v.as_sequence(),
            Val::Sym(_) => None,
        }
    }

    /// The sequence `e` as a length and elements: exact for a native sequence, through hoisted fresh
    /// constants for a relation (defined when it is a sequence).
    fn sequence(&mut self, e: &Expr) -> R<Seq> {
        let span = e.span;
        let Some(Type::Pair(_, t)) = e.ty.element() else {
            return Err(unsupported(
                span,
                "SMT backend: a sequence of unexpected type",
            ));
        };
        let t = (**t).clone();
        if !self.is_native_sequence(e) {
            return self.sequence_of_relation(e, &t);
        }
        Ok(match &e.kind {
            ExprKind::Var(n) => match self.sequences.get(n) {
                Some(v) => {
                    let elems = v.symbols.elems.clone();
                    Seq {
                        len: v.symbols.len.clone(),
                        at: Rc::new(move |i| format!("(select {elems} {i})")),
                        bound: v.bound,
                    }
                }
                None => {
                    let items = self.sequence_value(n).unwrap_or_default();
                    let terms = items
                        .iter()
                        .map(|x| self.value(x, &t, span))
                        .collect::<R<Vec<_>>>()?;
                    self.enumerated(terms, &t, span)?
                }
            },
            ExprKind::SeqEnum(items) => {
                let terms = items.iter().map(|x| self.term(x)).collect::<R<Vec<_>>>()?;
                self.enumerated(terms, &t, span)?
            }
            ExprKind::SetEnum(_) => self.enumerated(Vec::new(), &t, span)?,
            ExprKind::Unary(op, a) => {
                let s = self.sequence(a)?;
                let (len, at) = (s.len.clone(), s.at.clone());
                match op {
                    UnaryOp::Rev => Seq {
                        at: Rc::new(move |i| at(&format!("(- (+ {len} 1) {i})"))),
                        ..s
                    },
                    _ => {
                        // front and tail of [] are ill-defined.
                        self.hoist(vec![], format!("(<= 1 {len})"));
                        Seq {
                            len: format!("(- {len} 1)"),
                            at: if *op == UnaryOp::Tail {
                                Rc::new(move |i| at(&format!("(+ {i} 1)")))
                            } else {
                                at
                            },
                            bound: s.bound.map(|b| b.saturating_sub(1)),
                        }
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.sequence_binary(*op, a, b)?,
            ExprKind::If(c, a, b) => {
                let (tc, _) = self.pred(c)?;
                let x = self.branch_sequence(&tc, a)?;
                let y = self.branch_sequence(&not(&tc), b)?;
                Seq {
                    len: format!("(ite {tc} {} {})", x.len, y.len),
                    bound: x.bound.zip(y.bound).map(|(p, q)| p.max(q)),
                    at: Rc::new(move |i| format!("(ite {tc} {} {})", x.at(i), y.at(i))),
                }
            }
            _ => return self.sequence_of_relation(e, &t),
        })
    }

    /// `s ^ t`, `e -> s`, `s <- e`, `s /|\ k`, `s \|/ k`.
    fn sequence_binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr) -> R<Seq> {
        Ok(match op {
            BinaryOp::Concat => {
                let (x, y) = (self.sequence(a)?, self.sequence(b)?);
                let lx = x.len.clone();
                Seq {
                    len: format!("(+ {lx} {})", y.len),
                    bound: x.bound.zip(y.bound).and_then(|(p, q)| p.checked_add(q)),
                    at: Rc::new(move |i| {
                        format!(
                            "(ite (<= {i} {lx}) {} {})",
                            x.at(i),
                            y.at(&format!("(- {i} {lx})"))
                        )
                    }),
                }
            }
            BinaryOp::Prepend => {
                let e = self.term(a)?;
                let s = self.sequence(b)?;
                Seq {
                    len: format!("(+ {} 1)", s.len),
                    bound: s.bound.and_then(|n| n.checked_add(1)),
                    at: Rc::new(move |i| {
                        format!("(ite (= {i} 1) {e} {})", s.at(&format!("(- {i} 1)")))
                    }),
                }
            }
            BinaryOp::Append => {
                let s = self.sequence(a)?;
                let e = self.term(b)?;
                let n = s.len.clone();
                Seq {
                    len: format!("(+ {n} 1)"),
                    bound: s.bound.and_then(|n| n.checked_add(1)),
                    at: Rc::new(move |i| format!("(ite (<= {i} {n}) {} {e})", s.at(i))),
                }
            }
            BinaryOp::Take | BinaryOp::Drop => {
                let s = self.sequence(a)?;
                let k = self.term(b)?;
                let n = s.len.clone();
                // Defined for 0 <= k <= size(s).
                self.hoist(vec![], format!("(and (<= 0 {k}) (<= {k} {n}))"));
                if op == BinaryOp::Take {
                    Seq { len: k, ..s }
                } else {
                    let at = s.at.clone();
                    let shift = k.clone();
                    Seq {
                        len: format!("(- {n} {k})"),
                        at: Rc::new(move |i| at(&format!("(+ {i} {shift})"))),
                        bound: s.bound,
                    }
                }
            }
            _ => {
                return Err(unsupported(
                    a.span,
                    format!("SMT backend: the operator {op:?}"),
                ));
            }
        })
    }

    /// A branch of an IF sequence expression: what it hoists is required only when `cond` holds.
    fn branch_sequence(&mut self, cond: &str, e: &Expr) -> R<Seq> {
        self.frames.push(Vec::new());
        let s = self.sequence(e);
        let hoisted = self.frames.pop().unwrap_or_default();
        for h in hoisted {
            self.hoist(h.vars, implies(cond, &h.guard));
        }
        s
    }

    /// The sequence of the element terms `items`.
    fn enumerated(&mut self, items: Vec<String>, t: &Type, span: Span) -> R<Seq> {
        let fallback = match items.last() {
            Some(last) => last.clone(),
            None => self.unspecified(t, span)?,
        };
        let len = items.len();
        Ok(Seq {
            len: len.to_string(),
            bound: Some(len),
            at: Rc::new(move |i| {
                // A literal index picks its item; any other is a chain of tests.
                if let Some(item) = i
                    .parse::<usize>()
                    .ok()
                    .and_then(|k| k.checked_sub(1))
                    .and_then(|k| items.get(k))
                {
                    return item.clone();
                }
                let mut term = fallback.clone();
                for (k, item) in items.iter().enumerate().rev().skip(1) {
                    term = format!("(ite (= {i} {}) {item} {term})", k + 1);
                }
                term
            }),
        })
    }

    /// A constant of sort `t` with no constraint: the elements of `[]`, never read.
    fn unspecified(&mut self, t: &Type, span: Span) -> R<String> {
        let sort = self.sort(t, span)?;
        if let Some(c) = self.unspecified.get(&sort) {
            return Ok(c.clone());
        }
        let c = format!("none!{}", self.unspecified.len());
        let _ = writeln!(self.sequence_decls, "(declare-const {c} {sort})");
        self.unspecified.insert(sort, c.clone());
        Ok(c)
    }

    /// A relation used as a sequence: hoisted `n` and `elems` with the relation a sequence of length `n`
    /// whose `i`-th element is `elems[i]`.
    fn sequence_of_relation(&mut self, e: &Expr, t: &Type) -> R<Seq> {
        let span = e.span;
        let rel = self.term(e)?;
        let (n, elems, i) = (self.fresh("n"), self.fresh("elems"), self.fresh("i"));
        let is_seq = self.is_sequence(&rel, t, &n, span)?;
        let (ts, psort) = (
            self.sort(t, span)?,
            self.pair_sort(&Type::Integer, t, span)?,
        );
        let inside = quantified(
            "forall",
            &[(i.clone(), "Int".into())],
            implies(
                &format!("(and (<= 1 {i}) (<= {i} {n}))"),
                &format!("(select {rel} (mk.{psort} {i} (select {elems} {i})))"),
            ),
        );
        self.hoist(
            vec![
                (n.clone(), "Int".into()),
                (elems.clone(), format!("(Array Int {ts})")),
            ],
            and(&[is_seq, inside]),
        );
        Ok(Seq {
            len: n,
            at: Rc::new(move |i| format!("(select {elems} {i})")),
            bound: None,
        })
    }

    /// `body(i)` for every index `i` of a sequence of length `len`: a conjunction up to `bound` when it
    /// is small, a quantifier otherwise. What `body` hoists stays inside (it may mention `i`).
    fn every_index(
        &mut self,
        len: &str,
        bound: Option<usize>,
        mut body: impl FnMut(&mut Self, &str) -> R<String>,
    ) -> R<String> {
        if let Some(b) = bound.filter(|b| *b <= INDEX_EXPAND_LIMIT) {
            let mut parts = Vec::new();
            for k in 1..=b {
                let k = k.to_string();
                let holds = self.framed(|tr| body(tr, &k))?;
                parts.push(implies(&format!("(<= {k} {len})"), &holds));
            }
            return Ok(and(&parts));
        }
        let i = self.fresh("i");
        let holds = self.framed(|tr| body(tr, &i))?;
        Ok(quantified(
            "forall",
            &[(i.clone(), "Int".into())],
            implies(&format!("(and (<= 1 {i}) (<= {i} {len}))"), &holds),
        ))
    }

    /// Whether `test(i)` holds for some index `i` of `s`.
    fn some_index(&mut self, s: &Seq, test: impl Fn(&str) -> String) -> String {
        if let Some(b) = s.bound.filter(|b| *b <= INDEX_EXPAND_LIMIT) {
            let parts: Vec<String> = (1..=b)
                .map(|k| and(&[format!("(<= {k} {})", s.len), test(&k.to_string())]))
                .collect();
            return or(&parts);
        }
        let i = self.fresh("i");
        quantified(
            "exists",
            &[(i.clone(), "Int".into())],
            and(&[format!("(and (<= 1 {i}) (<= {i} {}))", s.len), test(&i)]),
        )
    }

    /// `x : e` for a pair term `x` and a native sequence `e`: `x = (i, e(i))` with `i` in `1..size(e)`.
    pub(super) fn sequence_mem(&mut self, x: &str, e: &Expr, elem: &Type) -> R<String> {
        let s = self.sequence(e)?;
        let (i, v) = self.split(x, elem, e.span)?;
        Ok(format!(
            "(and (<= 1 {i}) (<= {i} {}) (= {} {v}))",
            s.len,
            s.at(&i)
        ))
    }

    /// A sequence variable as a set of pairs: the characteristic lambda of `(i, elems[i])`, `i : 1..len`.
    pub(super) fn sequence_relation(&mut self, e: &Expr) -> R<String> {
        let Some(elem) = e.ty.element().cloned() else {
            return Err(unsupported(
                e.span,
                "SMT backend: a sequence of unexpected type",
            ));
        };
        let sort = self.sort(&elem, e.span)?;
        let q = self.fresh("q");
        let m = self.sequence_mem(&q, e, &elem)?;
        Ok(format!("(lambda (({q} {sort})) {m})"))
    }

    /// `a = b` for native sequences: equal lengths and equal elements on `1..size(a)`.
    pub(super) fn sequence_eq(&mut self, a: &Expr, b: &Expr) -> R<String> {
        let (x, y) = (self.sequence(a)?, self.sequence(b)?);
        let bound = match (x.bound, y.bound) {
            (Some(p), Some(q)) => Some(p.min(q)),
            (p, q) => p.or(q),
        };
        let same = self.every_index(&x.len, bound, |_, i| {
            Ok(format!("(= {} {})", x.at(i), y.at(i)))
        })?;
        Ok(and(&[format!("(= {} {})", x.len, y.len), same]))
    }

    /// `a : seq(set)` (`seq1`, `iseq`, `iseq1`, `perm`) for a native sequence `a`: every element in `set`,
    /// non-empty, injective, and onto `set` as the operator requires (`perm` as the interpreter checks
    /// it: injective, and as long as `set` is large).
    pub(super) fn sequence_membership(&mut self, a: &Expr, op: UnaryOp, set: &Expr) -> R<String> {
        let s = self.sequence(a)?;
        let mut parts = Vec::new();
        if matches!(op, UnaryOp::Seq1 | UnaryOp::Iseq1) {
            parts.push(format!("(<= 1 {})", s.len));
        }
        let inside = self.every_index(&s.len, s.bound, |tr, i| tr.mem(&s.at(i), set))?;
        parts.push(inside);
        if matches!(op, UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm) {
            parts.push(self.injective(&s));
        }
        if op == UnaryOp::Perm {
            parts.push(self.onto(&s, set)?);
        }
        Ok(and(&parts))
    }

    /// For an injective `s` with elements in `set`: `s` is onto `set`. When `set`'s size translates,
    /// as long as `set` is large (the interpreter's test); otherwise every member of `set` occurs in `s`.
    fn onto(&mut self, s: &Seq, set: &Expr) -> R<String> {
        let counted = matches!(
            set.kind,
            ExprKind::SetEnum(_) | ExprKind::Binary(BinaryOp::Interval, ..)
        ) || self.term_carrier(set)?.is_some();
        if counted {
            let card = self.card(set, set.span)?;
            return Ok(format!("(= {} {card})", s.len));
        }
        let Some(elem) = set.ty.element().cloned() else {
            return Err(unsupported(set.span, "SMT backend: perm of a non-set"));
        };
        let sort = self.sort(&elem, set.span)?;
        let v = self.fresh("v");
        let member = self.mem(&v, set)?;
        let occurs = self.some_index(s, |i| format!("(= {} {v})", s.at(i)));
        Ok(quantified(
            "forall",
            &[(v.clone(), sort)],
            implies(&member, &occurs),
        ))
    }

    /// No element of `s` occurs twice.
    fn injective(&mut self, s: &Seq) -> String {
        if let Some(b) = s.bound.filter(|b| *b <= INDEX_EXPAND_LIMIT) {
            let mut parts = Vec::new();
            for k in 2..=b {
                for j in 1..k {
                    let (x, y) = (s.at(&j.to_string()), s.at(&k.to_string()));
                    parts.push(implies(
                        &format!("(<= {k} {})", s.len),
                        &format!("(distinct {x} {y})"),
                    ));
                }
            }
            return and(&parts);
        }
        let (i, j) = (self.fresh("i"), self.fresh("j"));
        quantified(
            "forall",
            &[(i.clone(), "Int".into()), (j.clone(), "Int".into())],
            implies(
                &format!("(and (<= 1 {i}) (< {i} {j}) (<= {j} {}))", s.len),
                &format!("(distinct {} {})", s.at(&i), s.at(&j)),
            ),
        )
    }

    /// `x : ran(a)` (`x` an element term) or `x : dom(a)` (`x` an index term) for a native sequence `a`.
    pub(super) fn sequence_projection_mem(&mut self, x: &str, a: &Expr, range: bool) -> R<String> {
        let s = self.sequence(a)?;
        Ok(if range {
            self.some_index(&s, |i| format!("(= {} {x})", s.at(i)))
        } else {
            format!("(and (<= 1 {x}) (<= {x} {}))", s.len)
        })
    }

    /// `size(a)`, `first(a)`, `last(a)`, `card(a)`: the length, the element at 1 or at the length (both
    /// defined when `a` is not empty).
    pub(super) fn sequence_read(&mut self, op: UnaryOp, a: &Expr) -> R<String> {
        let s = self.sequence(a)?;
        let index = match op {
            UnaryOp::First => "1".to_string(),
            UnaryOp::Last => s.len.clone(),
            _ => return Ok(s.len),
        };
        self.hoist(vec![], format!("(<= 1 {})", s.len));
        Ok(s.at(&index))
    }

    /// `f(arg)` for a native sequence `f`: its element at `arg`, defined on `1..size(f)`.
    pub(super) fn sequence_apply(&mut self, f: &Expr, arg: &Expr) -> R<String> {
        let i = self.term(arg)?;
        let s = self.sequence(f)?;
        self.hoist(vec![], format!("(and (<= 1 {i}) (<= {i} {}))", s.len));
        Ok(s.at(&i))
    }
}
