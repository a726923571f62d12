//! A machine's one-step transition relation translated once into an incremental SAT solver, for IC3
//! over bits (`check::ic3_sat`, after Eén, Mishchenko & Brayton's PDR on AIGs).
//!
//! The state is the constants and the variables; the variables have two copies (before and after a
//! step), the constants one, shared by both. Both copies of a variable get the *same* encoding — the
//! hull of the candidates the bounds pass finds for the before-state (from the invariant) and for the
//! after-state (from the relation) — so that bit j of the before-state and bit j of the after-state
//! mean the same, and a cube over the one is a cube over the other by renaming literals. Kodkod's
//! bounds are per relation; sharing them between copies is what makes the frames of IC3 clauses over
//! one set of state bits.
//!
//! The pieces IC3 asks about (the INITIALISATION, the INVARIANT before the step, the step, the
//! INVARIANT violated after it) are each one SAT literal, asked as assumptions, so that every query
//! reuses the one encoding and what the solver learnt. PROPERTIES and the encodings' range and
//! one-hot conditions are asserted. An integer the analysis cannot bound is cut as elsewhere (`cut`):
//! then an Unsat is relative to the cut.

use super::bounds;
use super::circuit::{Lit, TRUE};
use super::cnf::Encoder;
use super::integers::{self, BitVec, width};
use super::solutions::encoded_value_of;
use super::translate::{FunTerm, SetTerm, Term, Translator, unsupported};
use crate::diag::{Diagnostic, Span};
use crate::eval::{Context, Env};
use crate::ir::{CompareOp, Expr, ExprKind, Pred, PredKind, TypedName};
use crate::solve::interval::Range;
use crate::types::Type;
use crate::value::Value;
use crate::value::display::display_with_type;
use num_traits::ToPrimitive;
use solver_bridges::SolveResult;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The candidates of one state variable, shared by its two copies.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// One of these values (one-hot; one input for two values).
    Scalar(Vec<Value>),
    Int(i64, i64),
    /// A subset of these elements (one input per element).
    Set(Vec<Value>),
    Pair(Box<Shape>, Box<Shape>),
    /// A function into sets: per candidate argument, whether it is always in the domain (a total
    /// function) and the candidate elements of its image.
    Fun(BTreeMap<Value, (bool, Vec<Value>)>),
}

fn shape(t: &Term) -> Option<Shape> {
    Some(match t {
        Term::Scalar(choices) if !choices.is_empty() => {
            Shape::Scalar(choices.iter().map(|(v, _)| v.clone()).collect())
        }
        Term::Scalar(_) => return None,
        Term::Int(b) => Shape::Int(b.lo, b.hi),
        Term::Set(s) => Shape::Set(s.keys().cloned().collect()),
        Term::Pair(a, b) => Shape::Pair(Box::new(shape(a)?), Box::new(shape(b)?)),
        Term::Fun(f) => Shape::Fun(
            f.iter()
                .map(|(x, (d, s))| (x.clone(), (*d == TRUE, s.keys().cloned().collect())))
                .collect(),
        ),
    })
}

fn union(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut all: Vec<Value> = a.iter().chain(b).cloned().collect();
    all.sort();
    all.dedup();
    all
}

fn hull(a: Shape, b: Shape) -> Option<Shape> {
    Some(match (a, b) {
        (Shape::Scalar(x), Shape::Scalar(y)) => Shape::Scalar(union(&x, &y)),
        (Shape::Int(l1, h1), Shape::Int(l2, h2)) => Shape::Int(l1.min(l2), h1.max(h2)),
        (Shape::Set(x), Shape::Set(y)) => Shape::Set(union(&x, &y)),
        (Shape::Pair(a1, b1), Shape::Pair(a2, b2)) => {
            Shape::Pair(Box::new(hull(*a1, *a2)?), Box::new(hull(*b1, *b2)?))
        }
        (Shape::Fun(mut f), Shape::Fun(g)) => {
            // Total only where always in both domains.
            for (x, (total, _)) in f.iter_mut() {
                *total &= g.contains_key(x);
            }
            for (x, (total, image)) in g {
                match f.get_mut(&x) {
                    Some((t, i)) => {
                        *t &= total;
                        *i = union(i, &image);
                    }
                    None => {
                        f.insert(x, (false, image));
                    }
                }
            }
            Shape::Fun(f)
        }
        _ => return None,
    })
}

/// The most values an integer bit is printed as a set of (`x : {1, 3, 5}`); wider ranges print the
/// bit arithmetically.
const LISTED_BIT_VALUES: i64 = 64;

/// One state bit: its input and, when it has one, the B predicate "this bit is true".
struct Bit {
    input: Lit,
    text: Option<String>,
}

/// A fresh term of `shape` for the variable `name` of type `ty` (`None`: a component, not printable),
/// its inputs appended to `bits` and its encoding's conditions to `conditions`.
fn instantiate(
    tr: &mut Translator<'_>,
    shape: &Shape,
    name: Option<&str>,
    ty: &Type,
    bits: &mut Vec<Bit>,
    conditions: &mut Vec<Lit>,
) -> Term {
    match shape {
        Shape::Scalar(values) => {
            let text = |v: &Value| name.map(|n| format!("{n} = {}", display_with_type(v, ty)));
            match values.as_slice() {
                // `shape` gives no empty scalar.
                [] | [_] => Term::Scalar(values.iter().map(|v| (v.clone(), TRUE)).collect()),
                [a, b] => {
                    let l = tr.circuit.input();
                    bits.push(Bit {
                        input: l,
                        text: text(b),
                    });
                    Term::Scalar(vec![(a.clone(), !l), (b.clone(), l)])
                }
                _ => {
                    let choices: Vec<(Value, Lit)> = values
                        .iter()
                        .map(|v| (v.clone(), tr.circuit.input()))
                        .collect();
                    for (v, l) in &choices {
                        bits.push(Bit {
                            input: *l,
                            text: text(v),
                        });
                    }
                    let lits: Vec<Lit> = choices.iter().map(|(_, l)| *l).collect();
                    conditions.push(tr.circuit.exactly_one(&lits));
                    Term::Scalar(choices)
                }
            }
        }
        Shape::Int(lo, hi) => int_term(tr, name, (*lo, *hi), width(*lo, *hi), bits, conditions),
        Shape::Set(elements) => {
            let elem_ty = match ty {
                Type::Set(t) => (**t).clone(),
                other => other.clone(),
            };
            let mut s = SetTerm::new();
            for e in elements {
                let l = tr.circuit.input();
                let text = name.map(|n| format!("{} : {n}", display_with_type(e, &elem_ty)));
                bits.push(Bit { input: l, text });
                s.insert(e.clone(), l);
            }
            Term::Set(s)
        }
        Shape::Fun(args) => {
            let (arg_ty, elem_ty) = match ty {
                Type::Set(p) => match &**p {
                    Type::Pair(a, s) => match &**s {
                        Type::Set(e) => ((**a).clone(), (**e).clone()),
                        other => ((**a).clone(), other.clone()),
                    },
                    other => (other.clone(), other.clone()),
                },
                other => (other.clone(), other.clone()),
            };
            let mut f = FunTerm::new();
            for (x, (total, image)) in args {
                let x_text = display_with_type(x, &arg_ty);
                let d = if *total {
                    TRUE
                } else {
                    let d = tr.circuit.input();
                    let text = name.map(|n| format!("{x_text} : dom({n})"));
                    bits.push(Bit { input: d, text });
                    d
                };
                let mut s = SetTerm::new();
                for e in image {
                    let l = tr.circuit.input();
                    // Canonical: no image outside the domain, so the bit is exactly its text.
                    conditions.push(tr.circuit.implies(l, d));
                    let e_text = display_with_type(e, &elem_ty);
                    let text = name.map(|n| match total {
                        true => format!("{e_text} : {n}({x_text})"),
                        false => format!("({x_text} : dom({n}) & {e_text} : {n}({x_text}))"),
                    });
                    bits.push(Bit { input: l, text });
                    s.insert(e.clone(), l);
                }
                f.insert(x.clone(), (d, s));
            }
            Term::Fun(Rc::new(f))
        }
        Shape::Pair(a, b) => {
            let (ta, tb) = match ty {
                Type::Pair(x, y) => ((**x).clone(), (**y).clone()),
                other => (other.clone(), other.clone()),
            };
            let first = instantiate(tr, a, None, &ta, bits, conditions);
            let second = instantiate(tr, b, None, &tb, bits, conditions);
            Term::Pair(Box::new(first), Box::new(second))
        }
    }
}

/// A fresh integer of `range` in `w` bits.
fn int_term(
    tr: &mut Translator<'_>,
    name: Option<&str>,
    (lo, hi): (i64, i64),
    w: usize,
    bits: &mut Vec<Bit>,
    conditions: &mut Vec<Lit>,
) -> Term {
    let (v, inside) = BitVec::fresh_of_width(&mut tr.circuit, lo, hi, w);
    conditions.push(inside);
    for (i, &input) in v.bits.iter().enumerate() {
        let text = name.map(|n| int_bit_text(n, lo, hi, i as u32, w as u32));
        bits.push(Bit { input, text });
    }
    Term::Int(v)
}

/// The candidates of an integer the analysis bounded by `r`: `r` when both ends are known, else the
/// bounds pass's cut (`bounds::cut_range`) widened by 2^widen - 1 windows of MININT..MAXINT's width on
/// its open sides. The flag says whether it is a cut.
fn int_domain(ctx: &Context, r: &Range, widen: u32) -> Option<(i64, i64, bool)> {
    let known = |end: &Option<num_bigint::BigInt>| end.as_ref().and_then(|v| v.to_i64());
    if let (Some(lo), Some(hi)) = (known(&r.lo), known(&r.hi)) {
        return (lo <= hi && integers::in_limits(lo, hi)).then_some((lo, hi, false));
    }
    let (lo, hi) = bounds::cut_range(ctx, r)?;
    let settings = ctx.settings();
    let window = settings
        .maxint
        .to_i64()?
        .checked_sub(settings.minint.to_i64()?)?
        .max(1);
    let extra = window.checked_mul((1i64 << widen.min(40)) - 1)?;
    let lo = if r.lo.is_none() {
        lo.checked_sub(extra)?
    } else {
        lo
    };
    let hi = if r.hi.is_none() {
        hi.checked_add(extra)?
    } else {
        hi
    };
    integers::in_limits(lo, hi).then_some((lo, hi, true))
}

/// `lo <= x & x <= hi`.
fn within(x: &TypedName, (lo, hi): (i64, i64)) -> [Pred; 2] {
    let var = || {
        Box::new(Expr::new(
            ExprKind::Var(x.name.clone()),
            Type::Integer,
            x.span,
        ))
    };
    let int = |v: i64| Box::new(Expr::new(ExprKind::Int(v.into()), Type::Integer, x.span));
    [
        Pred::new(PredKind::Compare(CompareOp::Le, int(lo), var()), x.span),
        Pred::new(PredKind::Compare(CompareOp::Le, var(), int(hi)), x.span),
    ]
}

/// "Bit i of the w-bit two's complement of n is set" as a B predicate: the values of lo..hi with that
/// bit when they are few, else `((n + 2^w) mod 2^w / 2^i) mod 2 = 1` (n + 2^w is positive, as B's
/// `mod` needs).
fn int_bit_text(n: &str, lo: i64, hi: i64, i: u32, w: u32) -> String {
    let bit = |v: i64| (v.rem_euclid(1i64 << w) >> i) & 1 == 1;
    if hi - lo < LISTED_BIT_VALUES {
        let values: Vec<String> = (lo..=hi)
            .filter(|&v| bit(v))
            .map(|v| v.to_string())
            .collect();
        return if values.is_empty() {
            "FALSE = TRUE".into()
        } else {
            format!("{n} : {{{}}}", values.join(", "))
        };
    }
    let m = 1i64 << w;
    format!("(({n} + {m}) mod {m} / {}) mod 2 = 1", 1i64 << i)
}

/// What a query found: satisfiable (read the states with `state`), or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Sat,
    Unsat,
}

/// The transition system of one machine in one SAT solver.
pub struct TransitionSat {
    pub(super) enc: Encoder,
    /// The clauses of the translation (before any clause a caller adds), over SAT variables
    /// 1..=template_vars: what `Unrolled` copies once per further step.
    pub(super) template: Vec<Vec<i32>>,
    pub(super) template_vars: usize,
    /// Per constant: its value when PROPERTIES defines it, else its term.
    constants: Vec<Result<Value, Term>>,
    pub(super) states: [Vec<Term>; 2],
    pub(super) selector: Term,
    /// The SAT literal of each state bit in copy 0 and copy 1 (a constant's bits are the same in both).
    bits: [Vec<i32>; 2],
    /// Per state bit, the B predicate saying it is set, when printable.
    texts: Vec<Option<String>>,
    /// INIT over copy 0, INVARIANT over copy 0, the step from copy 0 to 1, INVARIANT violated in copy 1.
    pub init0: i32,
    pub inv0: i32,
    pub step: i32,
    pub bad1: i32,
    /// Some integer's candidates are a cut of its type: an Unsat holds within the cut only.
    pub cut: bool,
}

/// The parts of the transition system, as predicates over the constants (plain names), copy 0 and
/// copy 1 of the variables, and the step's operation selector.
pub struct Pieces<'p> {
    pub constants: &'p [TypedName],
    pub states: [&'p [TypedName]; 2],
    pub selector: &'p TypedName,
    pub properties: &'p Pred,
    pub init0: &'p Pred,
    pub inv0: &'p Pred,
    pub inv1: &'p Pred,
    /// What bounds the before-state's integers when `inv0` does not (a deadlock search, where the
    /// "invariant" literals stand for "some operation is enabled"): its analysis sizes the bit
    /// windows, and since it is not assumed the encoding is a cut (`cut`).
    pub bounds: Option<&'p Pred>,
    pub step: &'p Pred,
    /// Per operation: its before-after predicate from copy 0 to copy 1 and its parameters and
    /// outputs (`step` is their disjunction).
    pub ops: &'p [(Pred, Vec<TypedName>)],
}

impl TransitionSat {
    /// Translates the pieces; an error names what does not translate (or what has no shared encoding).
    /// `widen`: integers the analysis leaves unbounded get windows 2^widen times as wide as the
    /// bounds pass's cut (`int_domain`), for a rerun when a run within the cut proved nothing.
    /// `template`: keep the translation's clauses for `Unrolled` (IC3 never unrolls: no copy).
    pub fn new(
        ctx: &Context,
        pieces: &Pieces<'_>,
        widen: u32,
        template: bool,
    ) -> Result<TransitionSat, Diagnostic> {
        let span = pieces.step.span;
        // Constants a deterministic equation of PROPERTIES defines are values, not bits.
        let mut env = Env::new();
        let (fixed, _) = super::deterministic_values(
            ctx,
            pieces.constants,
            &pieces.properties.conjuncts(),
            &mut env,
        );
        let open_constants: Vec<TypedName> = pieces
            .constants
            .iter()
            .zip(&fixed)
            .filter(|(_, f)| f.is_none())
            .map(|(c, _)| c.clone())
            .collect();
        let [x0, x1] = pieces.states;
        let n = x0.len();
        let k = open_constants.len();
        let mut cut = pieces.bounds.is_some();
        let mut domain = |r: &Range, x: &TypedName| {
            let (lo, hi, c) = int_domain(ctx, r, widen).ok_or_else(|| {
                unsupported(
                    x.span,
                    format!(
                        "the integer {}, which has no window within the bit-vector limits",
                        x.name
                    ),
                )
            })?;
            cut |= c;
            Ok::<_, Diagnostic>((lo, hi))
        };
        let is_int = |x: &TypedName| x.ty == Type::Integer;
        // Constants and the before-state: the analysis of PROPERTIES & INVARIANT.
        let mut vars: Vec<TypedName> = open_constants.clone();
        vars.extend(x0.iter().cloned());
        let mut conjuncts: Vec<&Pred> = pieces.properties.conjuncts();
        conjuncts.extend(pieces.bounds.unwrap_or(pieces.inv0).conjuncts());
        let contradiction =
            || unsupported(span, "a machine whose PROPERTIES and INVARIANT contradict");
        let ranges =
            super::integer_ranges(ctx, &vars, &conjuncts, &env).ok_or_else(contradiction)?;
        let mut before = Vec::with_capacity(k + n);
        for (x, r) in vars.iter().zip(&ranges) {
            before.push(if is_int(x) {
                Some(domain(&r.int, x)?)
            } else {
                None
            });
        }
        // The after-state: per operation, the analysis of its before-after predicate with the
        // before-state within those bounds (a disjunction over operations would hide them).
        let bounded: Vec<Pred> = vars
            .iter()
            .zip(&before)
            .filter_map(|(x, d)| d.map(|d| within(x, d)))
            .flatten()
            .collect();
        let mut after: Vec<Option<(i64, i64)>> = before[k..].to_vec();
        for (ba, hidden) in pieces.ops {
            let mut op_vars = vars.clone();
            op_vars.extend(hidden.iter().cloned());
            op_vars.extend(x1.iter().cloned());
            let mut cs: Vec<&Pred> = bounded.iter().collect();
            cs.extend(conjuncts.iter().copied());
            cs.extend(ba.conjuncts());
            let Some(r) = super::integer_ranges(ctx, &op_vars, &cs, &env) else {
                // Never enabled within the bounds.
                continue;
            };
            let first = op_vars.len() - n;
            for (i, x) in x1.iter().enumerate() {
                if let (Some((lo, hi)), true) = (after[i], is_int(x)) {
                    let (l, h) = domain(&r[first + i].int, x)?;
                    after[i] = Some((lo.min(l), hi.max(h)));
                }
            }
        }
        // The other unknowns' candidates from the bounds pass, each copy its own; hulls below.
        let others: Vec<TypedName> = vars
            .iter()
            .chain(x1)
            .filter(|x| !is_int(x))
            .cloned()
            .collect();
        let mut all_conjuncts = conjuncts.clone();
        all_conjuncts.push(pieces.step);
        let mut all = vars.clone();
        all.extend(x1.iter().cloned());
        let all_ranges =
            super::integer_ranges(ctx, &all, &all_conjuncts, &env).ok_or_else(contradiction)?;
        let other_ranges: Vec<_> = all
            .iter()
            .zip(all_ranges)
            .filter(|(x, _)| !is_int(x))
            .map(|(_, r)| r)
            .collect();
        let mut tr = Translator::new(ctx, &env);
        // An ill-defined step or invariant instance is dropped (no step, no violation), never
        // reported: the interpreter's order of evaluation need not be followed.
        tr.strict_well_definedness();
        let found = match bounds::declare(&mut tr, &others, &all_conjuncts, &other_ranges) {
            Ok(found) => found.terms,
            Err(_) => {
                // The after-copy's candidates cannot be bounded (a relation updated by an override
                // with parameters, say): it takes the before-copy's. A step leaving them is then
                // not represented — no counterexample is invented, and a proof missing it fails
                // CBC's re-check.
                let first = vars.iter().filter(|x| !is_int(x)).count();
                let mut terms = bounds::declare(
                    &mut tr,
                    &others[..first],
                    &conjuncts,
                    &other_ranges[..first],
                )?
                .terms;
                terms.extend_from_within(open_constants.iter().filter(|x| !is_int(x)).count()..);
                terms
            }
        };
        let mut found_terms = found.into_iter();
        let mut found_shape = |x: &TypedName| {
            found_terms
                .next()
                .as_ref()
                .and_then(shape)
                .ok_or_else(|| unsupported(x.span, format!("no shared encoding of {}", x.name)))
        };
        let mut conditions = Vec::new();
        let mut bits = Vec::new();
        let mut constants = Vec::new();
        for (c, d) in open_constants.iter().zip(&before) {
            let term = match d {
                Some((lo, hi)) => int_term(
                    &mut tr,
                    Some(&c.name),
                    (*lo, *hi),
                    width(*lo, *hi),
                    &mut bits,
                    &mut conditions,
                ),
                None => {
                    let s = found_shape(c)?;
                    instantiate(
                        &mut tr,
                        &s,
                        Some(&c.name),
                        &c.ty,
                        &mut bits,
                        &mut conditions,
                    )
                }
            };
            tr.declare(c.name.clone(), term.clone());
            constants.push(term);
        }
        let constant_bits = bits.len();
        // Per variable: (range before, range after, width) of an integer, or the hull of the
        // copies' candidates.
        let mut first_shapes = Vec::new();
        for x in x0 {
            first_shapes.push(if is_int(x) {
                None
            } else {
                Some(found_shape(x)?)
            });
        }
        let mut layouts = Vec::new();
        for i in 0..n {
            layouts.push(match (&first_shapes[i], before[k + i], after[i]) {
                (None, Some(b), Some(a)) => Err((b, a, width(b.0.min(a.0), b.1.max(a.1)))),
                (Some(s0), _, _) => {
                    let s1 = found_shape(&x1[i])?;
                    let none =
                        || unsupported(x0[i].span, format!("no shared encoding of {}", x0[i].name));
                    Ok(hull(s0.clone(), s1).ok_or_else(none)?)
                }
                _ => return Err(unsupported(x0[i].span, "an integer without bounds")),
            });
        }
        let mut states: [Vec<Term>; 2] = [Vec::new(), Vec::new()];
        let mut copy_bits: [Vec<Bit>; 2] = [Vec::new(), Vec::new()];
        for copy in 0..2 {
            for (i, layout) in layouts.iter().enumerate() {
                let x = &pieces.states[copy][i];
                let plain = x.name.rsplit_once('@').map_or(&*x.name, |(b, _)| b);
                let (bits, conditions) = (&mut copy_bits[copy], &mut conditions);
                let term = match layout {
                    Ok(s) => instantiate(&mut tr, s, Some(plain), &x.ty, bits, conditions),
                    Err((b, a, w)) => {
                        let range = if copy == 0 {
                            *b
                        } else {
                            (b.0.min(a.0), b.1.max(a.1))
                        };
                        int_term(&mut tr, Some(plain), range, *w, bits, conditions)
                    }
                };
                tr.declare(x.name.clone(), term.clone());
                states[copy].push(term);
            }
        }
        // The selector names one of the operations, exactly.
        let ops = pieces.ops.len().max(1) as i64;
        let mut no_bits = Vec::new();
        let selector = int_term(
            &mut tr,
            None,
            (1, ops),
            width(1, ops),
            &mut no_bits,
            &mut conditions,
        );
        tr.declare(pieces.selector.name.clone(), selector.clone());
        for &l in &conditions {
            tr.assume(l);
        }
        let properties = tr.pred(pieces.properties, true)?.holds;
        tr.assume(properties);
        let init0 = tr.pred(pieces.init0, true)?.holds;
        let inv0 = tr.pred(pieces.inv0, true)?.holds;
        let step = tr.pred(pieces.step, true)?.holds;
        let inv1 = tr.pred(pieces.inv1, false)?;
        // Violated, not ill-defined: an ill-defined INVARIANT is no counterexample to report.
        let bad1 = tr.circuit.and(inv1.defined, !inv1.holds);
        let settings = ctx.settings();
        let mut enc = Encoder::new(settings.sat_solver.create(), template);
        enc.solver.set_deadline(ctx.hard_deadline());
        enc.solver.set_interrupt(ctx.cancel_flag());
        for &l in &conditions {
            enc.assert(&tr.circuit, l);
        }
        enc.assert(&tr.circuit, properties);
        let lit = |enc: &mut Encoder, tr: &Translator<'_>, l: Lit| enc.lit(&tr.circuit, l);
        let init0 = lit(&mut enc, &tr, init0);
        let inv0 = lit(&mut enc, &tr, inv0);
        let step = lit(&mut enc, &tr, step);
        let bad1 = lit(&mut enc, &tr, bad1);
        let mut sat_bits: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
        let mut texts = Vec::new();
        for b in &bits[..constant_bits] {
            let v = lit(&mut enc, &tr, b.input);
            sat_bits[0].push(v);
            sat_bits[1].push(v);
            texts.push(b.text.clone());
        }
        for (copy, cb) in copy_bits.iter().enumerate() {
            for b in cb {
                let v = lit(&mut enc, &tr, b.input);
                sat_bits[copy].push(v);
                if copy == 0 {
                    texts.push(b.text.clone());
                }
            }
        }
        let template = enc.clauses.take().unwrap_or_default();
        let template_vars = enc.num_vars();
        Ok(TransitionSat {
            enc,
            template,
            template_vars,
            constants: {
                let mut open = constants.into_iter();
                fixed
                    .into_iter()
                    .map(|f| f.ok_or_else(|| open.next().expect("one term per open constant")))
                    .collect()
            },
            states,
            selector,
            bits: sat_bits,
            texts,
            init0,
            inv0,
            step,
            bad1,
            cut,
        })
    }

    /// The state bits' SAT literals of copy `k` (constants' bits first).
    pub fn bits(&self, k: usize) -> &[i32] {
        &self.bits[k]
    }

    /// "State bit `i` is set", as a B predicate over the plain names, when printable.
    pub fn bit_text(&self, i: usize) -> Option<&str> {
        self.texts[i].as_deref()
    }

    pub fn new_var(&mut self) -> i32 {
        self.enc.solver.new_var()
    }

    pub fn add_clause(&mut self, clause: Vec<i32>) {
        self.enc.add_clause(clause);
    }

    /// Solves under `assumptions`; `Err` when the deadline stopped the solver.
    pub fn solve(&mut self, assumptions: &[i32], span: Span) -> Result<Query, Diagnostic> {
        match self.enc.solver.solve(assumptions) {
            SolveResult::Sat => Ok(Query::Sat),
            SolveResult::Unsat => Ok(Query::Unsat),
            SolveResult::Interrupted => Err(Diagnostic::new(
                crate::diag::DiagKind::Limit,
                span,
                "timeout: the time budget is spent",
            )),
        }
    }

    /// The assumptions the last Unsat used.
    pub fn failed(&self, assumptions: &[i32]) -> Vec<i32> {
        self.enc.solver.failed_assumptions(assumptions)
    }

    /// The value of a SAT literal in the last model.
    pub fn holds(&self, lit: i32) -> bool {
        self.enc.solver.value(lit)
    }

    /// The constants' values in the last model.
    pub fn constants(&self) -> Vec<Value> {
        self.constants
            .iter()
            .map(|c| match c {
                Ok(v) => v.clone(),
                Err(t) => encoded_value_of(&self.enc, t),
            })
            .collect()
    }

    /// The variables' values of copy `k` in the last model.
    pub fn state(&self, k: usize) -> Vec<Value> {
        self.states[k]
            .iter()
            .map(|t| encoded_value_of(&self.enc, t))
            .collect()
    }

    /// The step's operation selector in the last model.
    pub fn selector(&self) -> Value {
        encoded_value_of(&self.enc, &self.selector)
    }
}
