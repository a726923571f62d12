//! Typed IR → SMT-LIB v2 text.
//!
//! Sorts: INTEGER is `Int` (unbounded), BOOL `Bool`, STRING `String`; every given set (enumerated, or
//! deferred with the size the interpreter gave it) is a datatype of nullary constructors; pairs and records
//! are datatypes; `POW(T)` is `(Array T Bool)`. Set expressions are never built as terms when avoidable:
//! `e : S` is translated structurally into a formula over `e` (`mem`), and set equality and inclusion
//! become conjunctions over the carrier of a small finite element type, or a quantifier over the element
//! sort otherwise. Only sets used as values (inside pairs, as elements of sets) become characteristic
//! lambdas.
//!
//! Well-definedness follows the interpreter (left-to-right, the L-system): every predicate is translated
//! to a truth formula T and a definedness formula D, and the problem asserts `T & D` of the whole
//! predicate. A function application `f(a)` inside an atom is hoisted to a fresh variable `y` with the
//! guard `(a, y) : f` and `f` functional at `a`; the atom becomes `#y.(guard & atom[y])` and its
//! definedness `#y.guard`. Inside binders the definedness is not asserted (it depends on the interpreter's
//! enumeration order): a model that is ill-defined there is rejected by the re-check, never returned.
//! The translation over-approximates the solutions the interpreter accepts, and is exact on every
//! well-defined assignment, so `unsat` is a proof.
//!
//! Deferred sets in `Mode::AnySize`: a deferred set whose size the machine does not fix (the interpreter
//! gives it DEFAULT_SETSIZE elements) is an uninterpreted sort (`declare-sort`), the set being all of the
//! sort. Every instantiation of the sets with finite non-empty carriers, whatever their sizes, is then a
//! model of the script on the assignments it accepts, so `unsat` proves the predicate unsatisfiable for
//! every size. What would need the carrier's size or its elements — `card` of a set over such a sort
//! without an enumeration of its members, an element value (a constant of the environment, a named
//! element) — is `Unsupported`; `FIN(T)` of a type finite in B is `POW(T)` (as it is in every
//! instantiation the answer is about, though the solver's carriers may be infinite); the model of a
//! `sat` answer is never read (its carrier may be infinite).
//!
//! Division truncates toward zero and `mod` is floored (the sign of the divisor), as the interpreter
//! computes them; both require a non-zero divisor. Sequences are functions `1..n`: a variable that is a
//! sequence in every solution is a length and an element array, and every sequence operator's result a
//! length term and element terms (`sequences`), so `seq`, `seq1`, `iseq`, `iseq1`, `perm` (membership),
//! `size`, `first`, `last`, `front`, `tail`, `rev`, `^`, `->`, `<-`, `/|\`, `\|/`, application and
//! equality need no quantifier where the lengths are bounded; a sequence given as a relation takes part
//! through a hoisted length and elements. `><`, `||`, `prj1` and `prj2` translate too. `closure`/`closure1`,
//! `conc`, `**` with a non-literal exponent, `card` of sets without a small finite carrier, and the rest
//! of what is not listed here are `Unsupported` with their span.

use crate::diag::Span;
use crate::eval::{Context, Env, EvalError, Val, unsupported};
use crate::ir::{
    ArrowProperties, BinaryOp, BinderKind, CompareOp, Expr, ExprConst, ExprKind, Pred, PredKind,
    TypedName, UnaryOp, free_names,
};
use crate::syntax::ast::Name;
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;
use std::fmt::Write;

mod sequence_variables;
mod sequences;

pub(crate) use sequences::SequenceOutput;
use sequences::SequenceVariable;

/// The largest carrier over which set equality, inclusion and `card` are expanded.
const EXPAND_LIMIT: usize = 256;
/// The largest carrier a set variable's elements are read from.
const CARRIER_LIMIT: usize = 10_000;

type R<T> = Result<T, EvalError>;

/// How deferred sets sized by DEFAULT_SETSIZE only are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// As datatypes of the interpreter's elements: models are read back, `unsat` holds for that size.
    Exact,
    /// As uninterpreted sorts: `unsat` holds for every size; models are not read.
    AnySize,
}

/// The translated problem.
pub(crate) struct Script {
    /// Sort declarations, variable declarations and the assertion.
    pub text: String,
    /// The problem's variables, in order.
    pub outputs: Vec<Output>,
    pub sorts: Sorts,
}

/// One variable of the problem as the solver knows it.
pub(crate) struct Output {
    pub symbol: String,
    pub ty: Type,
    /// For a set: every element it may contain (from its type, or a top-level typing conjunct).
    pub carrier: Option<Vec<Value>>,
    /// For a sequence encoded as a length and elements: their symbols (`symbol` is then not declared).
    pub sequence: Option<SequenceOutput>,
}

impl Output {
    /// The element type of a set variable (the variable's type otherwise).
    pub(crate) fn ty_element(&self) -> Type {
        self.ty
            .element()
            .cloned()
            .unwrap_or_else(|| self.ty.clone())
    }
}

/// The datatypes declared, to read model terms back.
#[derive(Default)]
pub(crate) struct Sorts {
    names: FxHashMap<Type, String>,
    /// The deferred sets declared as uninterpreted sorts (`Mode::AnySize`).
    uninterpreted: Vec<Name>,
    /// Constructor symbol of a given-set element → the element.
    pub elements: FxHashMap<String, Value>,
    decls: String,
}

impl Sorts {
    fn new(ctx: &Context, mode: Mode) -> Sorts {
        let uninterpreted = match mode {
            Mode::Exact => Vec::new(),
            Mode::AnySize => ctx.default_sized_sets().to_vec(),
        };
        Sorts {
            uninterpreted,
            ..Sorts::default()
        }
    }

    /// Whether the given set `name` is an uninterpreted sort (its elements unknown).
    fn is_uninterpreted(&self, name: &str) -> bool {
        self.uninterpreted.iter().any(|n| &**n == name)
    }

    /// Whether the type `ty` is finite in every instantiation of the uninterpreted sorts (though the
    /// solver may give them infinite carriers).
    fn finite_in_b(&self, ty: &Type) -> bool {
        match ty {
            Type::Given(name) => self.is_uninterpreted(name),
            Type::Set(t) => self.finite_in_b(t),
            Type::Pair(a, b) => self.finite_in_b(a) && self.finite_in_b(b),
            Type::Struct(fields) => fields.iter().all(|(_, t)| self.finite_in_b(t)),
            Type::Bool => true,
            Type::Integer | Type::String | Type::TlaValue | Type::Var(_) => false,
        }
    }

    /// Whether a value of type `ty` may contain an element of an uninterpreted sort.
    fn mentions_uninterpreted(&self, ty: &Type) -> bool {
        match ty {
            Type::Given(name) => self.is_uninterpreted(name),
            Type::Set(t) => self.mentions_uninterpreted(t),
            Type::Pair(a, b) => self.mentions_uninterpreted(a) || self.mentions_uninterpreted(b),
            Type::Struct(fields) => fields.iter().any(|(_, t)| self.mentions_uninterpreted(t)),
            Type::Integer | Type::Bool | Type::String | Type::TlaValue | Type::Var(_) => false,
        }
    }

    pub(crate) fn sort(&mut self, ctx: &Context, ty: &Type, span: Span) -> R<String> {
        Ok(match ty {
            Type::Integer => "Int".into(),
            Type::Bool => "Bool".into(),
            Type::String => "String".into(),
            Type::Set(t) => format!("(Array {} Bool)", self.sort(ctx, t, span)?),
            Type::Var(_) => return Err(unsupported(span, "SMT backend: an untyped expression")),
            // A TLA+ value of mixed kind has no SMT sort (a datatype of the three kinds would do, but the
            // operators would need a case split each): the native solver answers instead.
            Type::TlaValue => {
                return Err(unsupported(span, "SMT backend: a TLA+ value of mixed kind"));
            }
            Type::Given(name) => {
                if let Some(s) = self.names.get(ty) {
                    return Ok(s.clone());
                }
                let sort = symbol("G.", name);
                if self.is_uninterpreted(name) {
                    let _ = writeln!(self.decls, "(declare-sort {sort} 0)");
                    self.names.insert(ty.clone(), sort.clone());
                    return Ok(sort);
                }
                let elems = ctx.given_set(name, span)?;
                let mut ctors = String::new();
                for e in elems.iter() {
                    let c = element_symbol(e);
                    let _ = write!(ctors, " ({c})");
                    self.elements.insert(c, e.clone());
                }
                let _ = writeln!(
                    self.decls,
                    "(declare-datatypes (({sort} 0)) (({})))",
                    ctors.trim()
                );
                self.names.insert(ty.clone(), sort.clone());
                sort
            }
            Type::Pair(a, b) => {
                if let Some(s) = self.names.get(ty) {
                    return Ok(s.clone());
                }
                let (sa, sb) = (self.sort(ctx, a, span)?, self.sort(ctx, b, span)?);
                let n = self.names.len();
                let sort = format!("P{n}");
                let _ = writeln!(
                    self.decls,
                    "(declare-datatypes (({sort} 0)) (((mk.{sort} (fst.{sort} {sa}) (snd.{sort} {sb})))))"
                );
                self.names.insert(ty.clone(), sort.clone());
                sort
            }
            Type::Struct(fields) => {
                if let Some(s) = self.names.get(ty) {
                    return Ok(s.clone());
                }
                let mut sels = String::new();
                let n = self.names.len();
                let sort = format!("R{n}");
                for (f, t) in fields {
                    let s = self.sort(ctx, t, span)?;
                    let _ = write!(sels, " ({} {s})", symbol(&format!("{sort}."), f));
                }
                let _ = writeln!(
                    self.decls,
                    "(declare-datatypes (({sort} 0)) (((mk.{sort}{sels}))))"
                );
                self.names.insert(ty.clone(), sort.clone());
                sort
            }
        })
    }

    /// The SMT term of a value of type `ty`.
    pub(crate) fn literal(&mut self, ctx: &Context, v: &Value, ty: &Type, span: Span) -> R<String> {
        if self.mentions_uninterpreted(ty) && !matches!(v, Value::Set(s) if s.is_empty()) {
            return Err(unsupported(
                span,
                format!(
                    "SMT backend: the value {v} names elements of a deferred set of unfixed size"
                ),
            ));
        }
        Ok(match (v, ty) {
            (Value::Int(i), _) => int_literal(&i.to_bigint()),
            (Value::Bool(b), _) => b.to_string(),
            (Value::Str(s), _) => string_literal(s, span)?,
            (Value::Elem(_), Type::Given(_)) => {
                self.sort(ctx, ty, span)?;
                element_symbol(v)
            }
            (Value::Pair(p), Type::Pair(a, b)) => {
                let sort = self.sort(ctx, &Type::pair((**a).clone(), (**b).clone()), span)?;
                let x = self.literal(ctx, &p.0, a, span)?;
                let y = self.literal(ctx, &p.1, b, span)?;
                format!("(mk.{sort} {x} {y})")
            }
            (Value::Record(fields), Type::Struct(types)) => {
                let sort = self.sort(ctx, ty, span)?;
                let mut args = Vec::new();
                for ((_, x), (_, t)) in fields.iter().zip(types) {
                    args.push(self.literal(ctx, x, t, span)?);
                }
                format!("(mk.{sort} {})", args.join(" "))
            }
            (Value::Set(elems), Type::Set(t)) => {
                let sort = self.sort(ctx, ty, span)?;
                let mut term = format!("((as const {sort}) false)");
                for e in elems.iter() {
                    let x = self.literal(ctx, e, t, span)?;
                    term = format!("(store {term} {x} true)");
                }
                term
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("SMT backend: the value {v} of type {ty}"),
                ));
            }
        })
    }
}

pub(crate) fn translate(
    ctx: &Context,
    vars: &[TypedName],
    pred: &Pred,
    env: &Env,
    mode: Mode,
) -> R<Script> {
    if crate::ir::tla_value::in_names(vars) || crate::ir::tla_value::in_pred(pred) {
        return Err(unsupported(
            pred.span,
            "SMT backend: a TLA+ value of mixed kind",
        ));
    }
    let mut tr = Tr {
        ctx,
        env,
        vars,
        scope: Vec::new(),
        sorts: Sorts::new(ctx, mode),
        fresh: 0,
        frames: Vec::new(),
        carriers: FxHashMap::default(),
        sequences: FxHashMap::default(),
        unspecified: FxHashMap::default(),
        sequence_decls: String::new(),
    };
    let mut decls = String::new();
    let mut outputs = Vec::new();
    let sequences = sequence_variables::sequence_variables(ctx, env, vars, pred);
    for v in vars {
        let symbol = var_symbol(&v.name);
        if let (Some(bound), Some(Type::Pair(_, t))) = (sequences.get(&v.name), v.ty.element()) {
            // Implied by the predicate (`sequence_variables`): a length in 0..bound.
            let seq = SequenceVariable::new(&v.name, *bound);
            let sort = tr.sort(t, v.span)?;
            let (len, elems) = (&seq.symbols.len, &seq.symbols.elems);
            let _ = writeln!(decls, "(declare-const {len} Int)");
            let _ = writeln!(decls, "(declare-const {elems} (Array Int {sort}))");
            let _ = writeln!(decls, "(assert (<= 0 {len}))");
            if let Some(b) = bound {
                let _ = writeln!(decls, "(assert (<= {len} {b}))");
            }
            outputs.push(Output {
                symbol,
                ty: v.ty.clone(),
                carrier: None,
                sequence: Some(SequenceOutput {
                    len: len.clone(),
                    elems: elems.clone(),
                }),
            });
            tr.sequences.insert(v.name.clone(), seq);
            continue;
        }
        let sort = tr.sort(&v.ty, v.span)?;
        let _ = writeln!(decls, "(declare-const {symbol} {sort})");
        let carrier = match &v.ty {
            // Its elements are unknown: no carrier.
            Type::Set(elem) if tr.sorts.mentions_uninterpreted(elem) => None,
            Type::Set(elem) => match tr.carrier(elem, CARRIER_LIMIT) {
                Some(c) => Some(c),
                None => declared_carrier(ctx, env, vars, &v.name, pred),
            },
            _ => None,
        };
        if let Some(c) = &carrier {
            tr.carriers.insert(v.name.clone(), c.clone());
        }
        outputs.push(Output {
            symbol,
            ty: v.ty.clone(),
            carrier,
            sequence: None,
        });
    }
    let (t, d) = tr.pred(pred)?;
    let mut text = std::mem::take(&mut tr.sorts.decls);
    text.push_str(&decls);
    text.push_str(&tr.sequence_decls);
    // The carriers found in typing conjuncts are implied by the predicate; asserting nothing more.
    let _ = writeln!(text, "(assert {})", and(&[t, d]));
    Ok(Script {
        text,
        outputs,
        sorts: tr.sorts,
    })
}

pub(crate) fn var_symbol(name: &str) -> String {
    symbol("v.", name)
}

/// An SMT-LIB symbol for a B name: simple when the name's characters allow, quoted otherwise.
fn symbol(prefix: &str, name: &str) -> String {
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.$!?@%^&*+-=<>/~".contains(c))
    {
        format!("{prefix}{name}")
    } else {
        format!("|{prefix}{}|", name.replace(['|', '\\'], "_"))
    }
}

/// The elements a set variable may contain, from a top-level typing conjunct `v <: S`, `v : POW(S)`,
/// `v : A <-> B` (and the arrows) whose right side the interpreter evaluates to a small finite set.
fn declared_carrier(
    ctx: &Context,
    env: &Env,
    vars: &[TypedName],
    name: &str,
    pred: &Pred,
) -> Option<Vec<Value>> {
    let closed = |e: &Expr| {
        free_names::of_expr(e)
            .iter()
            .all(|n| !vars.iter().any(|v| v.name == *n))
    };
    let finite = |e: &Expr| -> Option<Vec<Value>> {
        if !closed(e) {
            return None;
        }
        match ctx.eval_expr(e, env).ok()? {
            Value::Set(s) if s.len() <= CARRIER_LIMIT => Some(s.to_vec()),
            _ => None,
        }
    };
    for c in pred.conjuncts() {
        let PredKind::Compare(op, l, r) = &c.kind else {
            continue;
        };
        if !matches!(&l.kind, ExprKind::Var(n) if **n == *name) {
            continue;
        }
        let found = match (op, &r.kind) {
            (CompareOp::Subset | CompareOp::StrictSubset, _) => finite(r),
            (
                CompareOp::In,
                ExprKind::Unary(UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, s),
            ) => finite(s),
            (CompareOp::In, ExprKind::Binary(arrow, a, b)) if arrow.is_arrow() => {
                let (a, b) = (finite(a)?, finite(b)?);
                (a.len().saturating_mul(b.len()) <= CARRIER_LIMIT).then(|| {
                    a.iter()
                        .flat_map(|x| b.iter().map(|y| Value::pair(x.clone(), y.clone())))
                        .collect()
                })
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A function application (or another partial operator) hoisted out of the term it occurs in.
struct Hoist {
    /// Fresh variables standing for the application's value, with their sorts.
    vars: Vec<(String, String)>,
    /// When the value is defined (and what it is).
    guard: String,
}

struct Tr<'a> {
    ctx: &'a Context,
    env: &'a Env,
    vars: &'a [TypedName],
    /// Bound B names (quantified variables, comprehension variables, LET names) → SMT terms.
    scope: Vec<(Name, String)>,
    sorts: Sorts,
    fresh: usize,
    frames: Vec<Vec<Hoist>>,
    /// The carriers of the problem's set variables (`card` of such a variable is a finite sum).
    carriers: FxHashMap<Name, Vec<Value>>,
    /// The problem's variables encoded as sequences.
    sequences: FxHashMap<Name, SequenceVariable>,
    /// Sort → an unconstrained constant of it (`sequences::unspecified`).
    unspecified: FxHashMap<String, String>,
    /// The declarations of those constants.
    sequence_decls: String,
}

fn and(parts: &[String]) -> String {
    connective("and", "true", "false", parts)
}

fn or(parts: &[String]) -> String {
    connective("or", "false", "true", parts)
}

/// `(op p1 .. pn)` without its `unit` operands; `absorbing` when one operand is; the unit when none is
/// left, the one operand when one is.
fn connective(op: &str, unit: &str, absorbing: &str, parts: &[String]) -> String {
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| *p != unit)
        .collect();
    if parts.contains(&absorbing) {
        return absorbing.into();
    }
    match parts.as_slice() {
        [] => unit.into(),
        [one] => (*one).into(),
        _ => format!("({op} {})", parts.join(" ")),
    }
}

fn not(p: &str) -> String {
    match p {
        "true" => "false".into(),
        "false" => "true".into(),
        _ => format!("(not {p})"),
    }
}

fn implies(a: &str, b: &str) -> String {
    or(&[not(a), b.to_string()])
}

fn int_literal(i: &BigInt) -> String {
    if i.sign() == num_bigint::Sign::Minus {
        format!("(- {})", -i)
    } else {
        i.to_string()
    }
}

fn quantified(q: &str, vars: &[(String, String)], body: String) -> String {
    if vars.is_empty() || body == "true" || body == "false" {
        return body;
    }
    let decls: Vec<String> = vars.iter().map(|(v, s)| format!("({v} {s})")).collect();
    format!("({q} ({}) {body})", decls.join(" "))
}

impl Tr<'_> {
    fn fresh(&mut self, hint: &str) -> String {
        self.fresh += 1;
        format!("{hint}!{}", self.fresh)
    }

    // ---- sorts and carriers ----

    fn sort(&mut self, ty: &Type, span: Span) -> R<String> {
        self.sorts.sort(self.ctx, ty, span)
    }

    fn pair_sort(&mut self, a: &Type, b: &Type, span: Span) -> R<String> {
        self.sort(&Type::pair(a.clone(), b.clone()), span)
    }

    /// All values of a finite type with at most `limit` of them.
    fn carrier(&self, ty: &Type, limit: usize) -> Option<Vec<Value>> {
        let c: Vec<Value> = match ty {
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Given(n) if self.sorts.is_uninterpreted(n) => return None,
            Type::Given(n) => self.ctx.given_set(n, Span::default()).ok()?.to_vec(),
            Type::Pair(a, b) => {
                let (a, b) = (self.carrier(a, limit)?, self.carrier(b, limit)?);
                if a.len().saturating_mul(b.len()) > limit {
                    return None;
                }
                a.iter()
                    .flat_map(|x| b.iter().map(|y| Value::pair(x.clone(), y.clone())))
                    .collect()
            }
            _ => return None,
        };
        (c.len() <= limit).then_some(c)
    }

    // ---- values ----

    fn value(&mut self, v: &Value, ty: &Type, span: Span) -> R<String> {
        self.sorts.literal(self.ctx, v, ty, span)
    }

    // ---- predicates: (truth, definedness) ----

    fn pred(&mut self, p: &Pred) -> R<(String, String)> {
        self.ctx.check_deadline(p.span)?;
        Ok(match &p.kind {
            PredKind::True => ("true".into(), "true".into()),
            PredKind::False => ("false".into(), "true".into()),
            PredKind::And(ps) | PredKind::Or(ps) => {
                let conj = matches!(p.kind, PredKind::And(_));
                let parts = ps.iter().map(|q| self.pred(q)).collect::<R<Vec<_>>>()?;
                let truths: Vec<String> = parts.iter().map(|(t, _)| t.clone()).collect();
                let mut d = "true".to_string();
                for (t, dq) in parts.iter().rev() {
                    // Left to right: the rest is evaluated only when this part does not decide.
                    let rest = if conj {
                        implies(t, &d)
                    } else {
                        or(&[t.clone(), d])
                    };
                    d = and(&[dq.clone(), rest]);
                }
                let t = if conj { and(&truths) } else { or(&truths) };
                (t, d)
            }
            PredKind::Implies(a, b) => {
                let (ta, da) = self.pred(a)?;
                let (tb, db) = self.pred(b)?;
                (implies(&ta, &tb), and(&[da, implies(&ta, &db)]))
            }
            PredKind::Equiv(a, b) => {
                let (ta, da) = self.pred(a)?;
                let (tb, db) = self.pred(b)?;
                (format!("(= {ta} {tb})"), and(&[da, db]))
            }
            PredKind::Not(a) => {
                let (t, d) = self.pred(a)?;
                (not(&t), d)
            }
            PredKind::Forall(xs, body) | PredKind::Exists(xs, body) => {
                let decls = self.bind(xs)?;
                let r = self.pred(body);
                self.unbind(xs.len());
                let (t, _) = r?;
                let q = if matches!(p.kind, PredKind::Forall(..)) {
                    "forall"
                } else {
                    "exists"
                };
                (quantified(q, &decls, t), "true".into())
            }
            PredKind::If(c, a, b) => {
                let (tc, dc) = self.pred(c)?;
                let (ta, da) = self.pred(a)?;
                let (tb, db) = self.pred(b)?;
                (
                    format!("(ite {tc} {ta} {tb})"),
                    and(&[dc, format!("(ite {tc} {da} {db})")]),
                )
            }
            PredKind::Let(bindings, body) => {
                self.frames.push(Vec::new());
                let n = bindings.len();
                let result = self.let_bindings(bindings).and_then(|()| self.pred(body));
                self.unbind(n.min(self.scope.len()));
                let hoisted = self.frames.pop().unwrap_or_default();
                let (t, d) = result?;
                let (vars, guard) = merge(hoisted);
                (
                    quantified("exists", &vars, and(&[guard.clone(), t])),
                    quantified("exists", &vars, and(&[guard, d])),
                )
            }
            PredKind::Compare(op, a, b) => {
                self.frames.push(Vec::new());
                let atom = self.compare(*op, a, b, p.span);
                let hoisted = self.frames.pop().unwrap_or_default();
                let atom = atom?;
                let (vars, guard) = merge(hoisted);
                (
                    quantified("exists", &vars, and(&[guard.clone(), atom])),
                    quantified("exists", &vars, guard),
                )
            }
        })
    }

    fn let_bindings(&mut self, bindings: &[(TypedName, Expr)]) -> R<()> {
        for (x, e) in bindings {
            if matches!(x.ty, Type::Set(_)) {
                self.scope.push((x.name.clone(), String::new()));
                return Err(unsupported(x.span, "SMT backend: a set-valued LET"));
            }
            let t = self.term(e)?;
            self.scope.push((x.name.clone(), t));
        }
        Ok(())
    }

    /// Binds quantified names to fresh SMT variables; returns their declarations.
    fn bind(&mut self, xs: &[TypedName]) -> R<Vec<(String, String)>> {
        let mut decls = Vec::new();
        for x in xs {
            let sort = self.sort(&x.ty, x.span)?;
            let v = self.fresh(&symbol("b.", &x.name));
            decls.push((v.clone(), sort));
        }
        for (x, (v, _)) in xs.iter().zip(&decls) {
            self.scope.push((x.name.clone(), v.clone()));
        }
        Ok(decls)
    }

    fn unbind(&mut self, n: usize) {
        let len = self.scope.len();
        self.scope.truncate(len.saturating_sub(n));
    }

    /// Translates `body` in a frame of its own: applications hoisted inside it stay inside (they may
    /// mention variables bound around it). The result is `#ys.(guards & body)`.
    fn framed(&mut self, body: impl FnOnce(&mut Self) -> R<String>) -> R<String> {
        self.frames.push(Vec::new());
        let result = body(self);
        let hoisted = self.frames.pop().unwrap_or_default();
        let (vars, guard) = merge(hoisted);
        Ok(quantified("exists", &vars, and(&[guard, result?])))
    }

    fn compare(&mut self, op: CompareOp, a: &Expr, b: &Expr, span: Span) -> R<String> {
        Ok(match op {
            CompareOp::Eq | CompareOp::NotEq => {
                let eq = if self.is_native_sequence(a) && self.is_native_sequence(b) {
                    self.sequence_eq(a, b)?
                } else if let Type::Set(elem) = &a.ty {
                    self.set_relation(elem, a, b, true, span)?
                } else {
                    let (x, y) = (self.term(a)?, self.term(b)?);
                    format!("(= {x} {y})")
                };
                if op == CompareOp::Eq { eq } else { not(&eq) }
            }
            CompareOp::Lt | CompareOp::Le => {
                let (x, y) = (self.term(a)?, self.term(b)?);
                let o = if op == CompareOp::Lt { "<" } else { "<=" };
                format!("({o} {x} {y})")
            }
            CompareOp::In => match &b.kind {
                ExprKind::Unary(
                    op @ (UnaryOp::Seq
                    | UnaryOp::Seq1
                    | UnaryOp::Iseq
                    | UnaryOp::Iseq1
                    | UnaryOp::Perm),
                    set,
                ) if self.is_native_sequence(a) => self.sequence_membership(a, *op, set)?,
                _ => {
                    let x = self.term(a)?;
                    self.mem(&x, b)?
                }
            },
            CompareOp::Subset | CompareOp::StrictSubset => {
                let elem = a.ty.element().cloned().unwrap_or(Type::Integer);
                let sub = self.set_relation(&elem, a, b, false, span)?;
                if op == CompareOp::Subset {
                    sub
                } else {
                    let sup = self.set_relation(&elem, b, a, false, span)?;
                    and(&[sub, not(&sup)])
                }
            }
        })
    }

    /// `a = b` (`eq`) or `a <: b` for sets of `elem`: over the carrier when small, else quantified.
    fn set_relation(&mut self, elem: &Type, a: &Expr, b: &Expr, eq: bool, span: Span) -> R<String> {
        let link = |x: String, y: String| {
            if eq {
                format!("(= {x} {y})")
            } else {
                implies(&x, &y)
            }
        };
        if let Some(carrier) = self.carrier(elem, EXPAND_LIMIT) {
            let mut parts = Vec::new();
            for c in &carrier {
                let x = self.value(c, elem, span)?;
                let (ma, mb) = (self.mem(&x, a)?, self.mem(&x, b)?);
                parts.push(link(ma, mb));
            }
            return Ok(and(&parts));
        }
        let sort = self.sort(elem, span)?;
        let q = self.fresh("q");
        let (ma, mb) = (self.mem(&q, a)?, self.mem(&q, b)?);
        Ok(quantified("forall", &[(q, sort)], link(ma, mb)))
    }

    // ---- membership: `x : set` as a formula ----

    fn mem(&mut self, x: &str, set: &Expr) -> R<String> {
        let span = set.span;
        let elem =
            set.ty.element().cloned().ok_or_else(|| {
                unsupported(span, "SMT backend: membership in a non-set expression")
            })?;
        if self.is_native_sequence(set) && !matches!(set.kind, ExprKind::SeqEnum(_)) {
            return self.sequence_mem(x, set, &elem);
        }
        Ok(match &set.kind {
            ExprKind::Var(name) => {
                if let Some(t) = self.lookup(name) {
                    format!("(select {t} {x})")
                } else if self.vars.iter().any(|v| v.name == *name) {
                    format!("(select {} {x})", var_symbol(name))
                } else if let Some(v) = self.env_value(name, span)? {
                    self.mem_value(x, &v, &elem, span)?
                } else if self.ctx.is_global(name) {
                    // A given set: every element of its sort.
                    "true".into()
                } else {
                    return Err(unsupported(
                        span,
                        format!("SMT backend: unknown name {name}"),
                    ));
                }
            }
            ExprKind::Const(c) => {
                let (min, max) = (
                    int_literal(&self.ctx.settings().minint),
                    int_literal(&self.ctx.settings().maxint),
                );
                match c {
                    ExprConst::Integer | ExprConst::BoolSet | ExprConst::StringSet => "true".into(),
                    ExprConst::Natural => format!("(<= 0 {x})"),
                    ExprConst::Natural1 => format!("(<= 1 {x})"),
                    ExprConst::Int => format!("(and (<= {min} {x}) (<= {x} {max}))"),
                    ExprConst::Nat => format!("(and (<= 0 {x}) (<= {x} {max}))"),
                    ExprConst::Nat1 => format!("(and (<= 1 {x}) (<= {x} {max}))"),
                    ExprConst::MaxInt | ExprConst::MinInt => {
                        return Err(unsupported(span, "SMT backend: a number used as a set"));
                    }
                }
            }
            ExprKind::SetEnum(items) => {
                let mut parts = Vec::new();
                for i in items {
                    let t = self.term(i)?;
                    parts.push(format!("(= {x} {t})"));
                }
                or(&parts)
            }
            ExprKind::SeqEnum(items) => {
                let Type::Pair(_, b) = &elem else {
                    return Err(unsupported(span, "SMT backend: a sequence of this type"));
                };
                let sort = self.pair_sort(&Type::Integer, b, span)?;
                let mut parts = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let t = self.term(item)?;
                    parts.push(format!("(= {x} (mk.{sort} {} {t}))", i + 1));
                }
                or(&parts)
            }
            ExprKind::Comprehension(xs, body) => {
                let parts = self.components(x, &elem, xs.len(), span)?;
                for (v, t) in xs.iter().zip(&parts) {
                    self.scope.push((v.name.clone(), t.clone()));
                }
                let r = self.pred(body);
                self.unbind(xs.len());
                r?.0
            }
            ExprKind::Binder(kind, xs, cond, body) => {
                self.mem_binder(x, &elem, *kind, xs, cond, body, span)?
            }
            ExprKind::If(c, a, b) => {
                let (tc, _) = self.pred(c)?;
                let (ma, mb) = (self.mem(x, a)?, self.mem(x, b)?);
                format!("(ite {tc} {ma} {mb})")
            }
            ExprKind::Unary(op, a) => self.mem_unary(x, &elem, *op, a, span)?,
            ExprKind::Binary(op, a, b) => self.mem_binary(x, &elem, *op, a, b, span)?,
            ExprKind::Let(..) | ExprKind::Field(..) => {
                let t = self.term(set)?;
                format!("(select {t} {x})")
            }
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Record(_)
            | ExprKind::Struct(_)
            | ExprKind::BoolOf(_) => {
                return Err(unsupported(span, "SMT backend: this set expression"));
            }
        })
    }

    fn mem_value(&mut self, x: &str, v: &Value, elem: &Type, span: Span) -> R<String> {
        match v {
            Value::Set(items) if items.len() <= 64 => {
                let mut parts = Vec::new();
                for i in items.iter() {
                    let t = self.value(i, elem, span)?;
                    parts.push(format!("(= {x} {t})"));
                }
                Ok(or(&parts))
            }
            _ => {
                let t = self.value(v, &Type::set(elem.clone()), span)?;
                Ok(format!("(select {t} {x})"))
            }
        }
    }

    /// The SMT terms of the components of a tuple `x` of `n` nested pairs (`((a, b), c)` for 3).
    fn components(&mut self, x: &str, ty: &Type, n: usize, span: Span) -> R<Vec<String>> {
        if n <= 1 {
            return Ok(vec![x.to_string()]);
        }
        let Type::Pair(a, b) = ty else {
            return Err(unsupported(span, "SMT backend: a tuple of unexpected type"));
        };
        let sort = self.pair_sort(a, b, span)?;
        let mut parts = self.components(&format!("(fst.{sort} {x})"), a, n - 1, span)?;
        parts.push(format!("(snd.{sort} {x})"));
        Ok(parts)
    }

    #[allow(clippy::too_many_arguments)]
    fn mem_binder(
        &mut self,
        x: &str,
        elem: &Type,
        kind: BinderKind,
        xs: &[TypedName],
        cond: &Pred,
        body: &Expr,
        span: Span,
    ) -> R<String> {
        match kind {
            BinderKind::Lambda => {
                let Type::Pair(arg, _) = elem else {
                    return Err(unsupported(
                        span,
                        "SMT backend: a lambda of unexpected type",
                    ));
                };
                let (a, b) = self.split(x, elem, span)?;
                let parts = self.components(&a, arg, xs.len(), span)?;
                for (v, t) in xs.iter().zip(&parts) {
                    self.scope.push((v.name.clone(), t.clone()));
                }
                let r = (|| {
                    let (tc, _) = self.pred(cond)?;
                    let eq = self.framed(|tr| {
                        let t = tr.value_eq(&b, body)?;
                        Ok(t)
                    })?;
                    Ok(and(&[tc, eq]))
                })();
                self.unbind(xs.len());
                r
            }
            BinderKind::Image | BinderKind::Union | BinderKind::Inter => {
                let decls = self.bind(xs)?;
                let r = (|| {
                    let (tc, _) = self.pred(cond)?;
                    let inner = if kind == BinderKind::Image {
                        self.framed(|tr| tr.value_eq(x, body))?
                    } else {
                        self.framed(|tr| tr.mem(x, body))?
                    };
                    Ok((tc, inner))
                })();
                self.unbind(xs.len());
                let (tc, inner) = r?;
                Ok(if kind == BinderKind::Inter {
                    quantified("forall", &decls, implies(&tc, &inner))
                } else {
                    quantified("exists", &decls, and(&[tc, inner]))
                })
            }
            BinderKind::Sigma | BinderKind::Pi => {
                Err(unsupported(span, "SMT backend: SIGMA/PI used as a set"))
            }
        }
    }

    /// `x = e` for an SMT term `x`, with sets compared by membership.
    fn value_eq(&mut self, x: &str, e: &Expr) -> R<String> {
        if let Type::Set(elem) = &e.ty {
            let sort = self.sort(elem, e.span)?;
            let q = self.fresh("q");
            let m = self.mem(&q, e)?;
            return Ok(quantified(
                "forall",
                &[(q.clone(), sort)],
                format!("(= (select {x} {q}) {m})"),
            ));
        }
        let t = self.term(e)?;
        Ok(format!("(= {x} {t})"))
    }

    /// The two components of a pair term.
    fn split(&mut self, x: &str, ty: &Type, span: Span) -> R<(String, String)> {
        let Type::Pair(a, b) = ty else {
            return Err(unsupported(span, "SMT backend: a pair of unexpected type"));
        };
        let sort = self.pair_sort(a, b, span)?;
        Ok((format!("(fst.{sort} {x})"), format!("(snd.{sort} {x})")))
    }

    fn pair_types(ty: &Type) -> Option<(Type, Type)> {
        match ty {
            Type::Set(p) => match &**p {
                Type::Pair(a, b) => Some(((**a).clone(), (**b).clone())),
                _ => None,
            },
            _ => None,
        }
    }

    fn mk_pair(&mut self, a: &Type, b: &Type, x: &str, y: &str, span: Span) -> R<String> {
        let sort = self.pair_sort(a, b, span)?;
        Ok(format!("(mk.{sort} {x} {y})"))
    }

    fn mem_unary(&mut self, x: &str, elem: &Type, op: UnaryOp, a: &Expr, span: Span) -> R<String> {
        let rel = Self::pair_types(&a.ty);
        if matches!(op, UnaryOp::Dom | UnaryOp::Ran) && self.is_native_sequence(a) {
            return self.sequence_projection_mem(x, a, op == UnaryOp::Ran);
        }
        Ok(match (op, rel) {
            (UnaryOp::Dom, Some((s, t))) => {
                let sort = self.sort(&t, span)?;
                let y = self.fresh("y");
                let p = self.mk_pair(&s, &t, x, &y, span)?;
                let m = self.mem(&p, a)?;
                quantified("exists", &[(y, sort)], m)
            }
            (UnaryOp::Ran, Some((s, t))) => {
                let sort = self.sort(&s, span)?;
                let y = self.fresh("y");
                let p = self.mk_pair(&s, &t, &y, x, span)?;
                let m = self.mem(&p, a)?;
                quantified("exists", &[(y, sort)], m)
            }
            (UnaryOp::Inverse, Some((s, t))) => {
                let (u, v) = self.split(x, elem, span)?;
                let p = self.mk_pair(&s, &t, &v, &u, span)?;
                self.mem(&p, a)?
            }
            (UnaryOp::Id, _) => {
                let (u, v) = self.split(x, elem, span)?;
                let m = self.mem(&u, a)?;
                and(&[format!("(= {u} {v})"), m])
            }
            (UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, _) => {
                let Type::Set(inner) = elem else {
                    return Err(unsupported(span, "SMT backend: POW of unexpected type"));
                };
                // FIN(S) is POW(S) when S is finite — over an uninterpreted sort too: every
                // instantiation the answer is about has a finite carrier.
                if matches!(op, UnaryOp::Fin | UnaryOp::Fin1)
                    && self.carrier(inner, usize::MAX).is_none()
                    && !self.sorts.finite_in_b(inner)
                    && self.term_carrier(a)?.is_none()
                {
                    return Err(unsupported(span, "SMT backend: FIN of an infinite type"));
                }
                let sort = self.sort(inner, span)?;
                let q = self.fresh("q");
                let m = self.mem(&q, a)?;
                let sub = quantified(
                    "forall",
                    &[(q.clone(), sort.clone())],
                    implies(&format!("(select {x} {q})"), &m),
                );
                if matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1) {
                    let ne =
                        quantified("exists", &[(q.clone(), sort)], format!("(select {x} {q})"));
                    and(&[sub, ne])
                } else {
                    sub
                }
            }
            (UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm, _) => {
                self.mem_seq(x, elem, op, a, span)?
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!(
                        "SMT backend: the operator {op:?} (no translation; closures are never given to the solver's transitive-closure operator)"
                    ),
                ));
            }
        })
    }

    /// `x : seq(a)` (and `seq1`, `iseq`, `iseq1`, `perm`): `x` is a function from `1..n` to `a` for some
    /// `n`, non-empty, injective, onto `a` as the operator requires.
    fn mem_seq(&mut self, x: &str, elem: &Type, op: UnaryOp, a: &Expr, span: Span) -> R<String> {
        let Some(Type::Pair(_, t)) = elem.element() else {
            return Err(unsupported(
                span,
                "SMT backend: a sequence of unexpected type",
            ));
        };
        let t = (**t).clone();
        let n = self.fresh("n");
        let mut parts = vec![self.is_sequence(x, &t, &n, span)?];
        if matches!(op, UnaryOp::Seq1 | UnaryOp::Iseq1) {
            parts.push(format!("(<= 1 {n})"));
        }
        let (ts, psort) = (
            self.sort(&t, span)?,
            self.pair_sort(&Type::Integer, &t, span)?,
        );
        let (i, j, v) = (self.fresh("i"), self.fresh("j"), self.fresh("v"));
        let has = |k: &str, w: &str| format!("(select {x} (mk.{psort} {k} {w}))");
        let in_a = self.mem(&v, a)?;
        parts.push(quantified(
            "forall",
            &[(i.clone(), "Int".into()), (v.clone(), ts.clone())],
            implies(&has(&i, &v), &in_a),
        ));
        if matches!(op, UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm) {
            parts.push(quantified(
                "forall",
                &[
                    (i.clone(), "Int".into()),
                    (j.clone(), "Int".into()),
                    (v.clone(), ts.clone()),
                ],
                implies(&and(&[has(&i, &v), has(&j, &v)]), &format!("(= {i} {j})")),
            ));
        }
        if op == UnaryOp::Perm {
            let some = quantified("exists", &[(i.clone(), "Int".into())], has(&i, &v));
            parts.push(quantified("forall", &[(v, ts)], implies(&in_a, &some)));
        }
        Ok(quantified("exists", &[(n, "Int".into())], and(&parts)))
    }

    /// `x` is a sequence of `t` of length `n` (the interpreter's sequences: functional, domain `1..n`).
    fn is_sequence(&mut self, x: &str, t: &Type, n: &str, span: Span) -> R<String> {
        let (ts, psort) = (
            self.sort(t, span)?,
            self.pair_sort(&Type::Integer, t, span)?,
        );
        let (i, v, w) = (self.fresh("i"), self.fresh("v"), self.fresh("w"));
        let has = |k: &str, u: &str| format!("(select {x} (mk.{psort} {k} {u}))");
        let in_dom = format!("(and (<= 1 {i}) (<= {i} {n}))");
        let some = quantified("exists", &[(v.clone(), ts.clone())], has(&i, &v));
        Ok(and(&[
            format!("(<= 0 {n})"),
            quantified(
                "forall",
                &[(i.clone(), "Int".into())],
                format!("(= {in_dom} {some})"),
            ),
            quantified(
                "forall",
                &[
                    (i.clone(), "Int".into()),
                    (v.clone(), ts.clone()),
                    (w.clone(), ts),
                ],
                implies(&and(&[has(&i, &v), has(&i, &w)]), &format!("(= {v} {w})")),
            ),
        ]))
    }

    #[allow(clippy::too_many_arguments)]
    fn mem_binary(
        &mut self,
        x: &str,
        elem: &Type,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> R<String> {
        Ok(match op {
            BinaryOp::Interval => {
                let (lo, hi) = (self.term(a)?, self.term(b)?);
                format!("(and (<= {lo} {x}) (<= {x} {hi}))")
            }
            BinaryOp::Union => or(&[self.mem(x, a)?, self.mem(x, b)?]),
            BinaryOp::Inter => and(&[self.mem(x, a)?, self.mem(x, b)?]),
            BinaryOp::SetMinus => and(&[self.mem(x, a)?, not(&self.mem(x, b)?)]),
            BinaryOp::Product => {
                let (u, v) = self.split(x, elem, span)?;
                and(&[self.mem(&u, a)?, self.mem(&v, b)?])
            }
            BinaryOp::DomRestrict | BinaryOp::DomSubtract => {
                let (u, _) = self.split(x, elem, span)?;
                let s = self.mem(&u, a)?;
                let s = if op == BinaryOp::DomRestrict {
                    s
                } else {
                    not(&s)
                };
                and(&[s, self.mem(x, b)?])
            }
            BinaryOp::RanRestrict | BinaryOp::RanSubtract => {
                let (_, v) = self.split(x, elem, span)?;
                let s = self.mem(&v, b)?;
                let s = if op == BinaryOp::RanRestrict {
                    s
                } else {
                    not(&s)
                };
                and(&[self.mem(x, a)?, s])
            }
            BinaryOp::Override => {
                let (u, _) = self.split(x, elem, span)?;
                let in_b = self.mem(x, b)?;
                let in_a = self.mem(x, a)?;
                let Type::Pair(s, t) = elem else {
                    return Err(unsupported(span, "SMT backend: <+ of unexpected type"));
                };
                let sort = self.sort(t, span)?;
                let y = self.fresh("y");
                let p = self.mk_pair(s, t, &u, &y, span)?;
                let in_dom_b = quantified("exists", &[(y, sort)], self.mem(&p, b)?);
                or(&[in_b, and(&[in_a, not(&in_dom_b)])])
            }
            BinaryOp::Image => {
                let Some((s, t)) = Self::pair_types(&a.ty) else {
                    return Err(unsupported(span, "SMT backend: image of unexpected type"));
                };
                let sort = self.sort(&s, span)?;
                let y = self.fresh("y");
                let p = self.mk_pair(&s, &t, &y, x, span)?;
                let body = and(&[self.mem(&y, b)?, self.mem(&p, a)?]);
                quantified("exists", &[(y, sort)], body)
            }
            BinaryOp::Composition => {
                let (Some((s, m)), Some((_, t))) =
                    (Self::pair_types(&a.ty), Self::pair_types(&b.ty))
                else {
                    return Err(unsupported(span, "SMT backend: ; of unexpected type"));
                };
                let (u, v) = self.split(x, elem, span)?;
                let sort = self.sort(&m, span)?;
                let y = self.fresh("y");
                let p1 = self.mk_pair(&s, &m, &u, &y, span)?;
                let p2 = self.mk_pair(&m, &t, &y, &v, span)?;
                let body = and(&[self.mem(&p1, a)?, self.mem(&p2, b)?]);
                quantified("exists", &[(y, sort)], body)
            }
            BinaryOp::Apply => {
                let t = self.term_apply(a, b, &Type::set(elem.clone()), span)?;
                format!("(select {t} {x})")
            }
            op if op.is_arrow() => self.mem_arrow(x, elem, op, a, b, span)?,
            BinaryOp::DirectProduct => {
                // (u, (v, w)) with (u, v) : a and (u, w) : b.
                let (Some((s, t)), Some((_, w_ty))) =
                    (Self::pair_types(&a.ty), Self::pair_types(&b.ty))
                else {
                    return Err(unsupported(span, "SMT backend: >< of unexpected type"));
                };
                let (u, vw) = self.split(x, elem, span)?;
                let (v, w) = self.split(&vw, &Type::pair(t.clone(), w_ty.clone()), span)?;
                let p = self.mk_pair(&s, &t, &u, &v, span)?;
                let q = self.mk_pair(&s, &w_ty, &u, &w, span)?;
                and(&[self.mem(&p, a)?, self.mem(&q, b)?])
            }
            BinaryOp::ParallelProduct => {
                // ((u, v), (w, z)) with (u, w) : a and (v, z) : b.
                let (Some((s, t)), Some((s2, t2))) =
                    (Self::pair_types(&a.ty), Self::pair_types(&b.ty))
                else {
                    return Err(unsupported(span, "SMT backend: || of unexpected type"));
                };
                let (uv, wz) = self.split(x, elem, span)?;
                let (u, v) = self.split(&uv, &Type::pair(s.clone(), s2.clone()), span)?;
                let (w, z) = self.split(&wz, &Type::pair(t.clone(), t2.clone()), span)?;
                let p = self.mk_pair(&s, &t, &u, &w, span)?;
                let q = self.mk_pair(&s2, &t2, &v, &z, span)?;
                and(&[self.mem(&p, a)?, self.mem(&q, b)?])
            }
            BinaryOp::Prj1 | BinaryOp::Prj2 => {
                // ((u, v), w) with u : a, v : b and w the projected component.
                let Type::Pair(uv_ty, _) = elem else {
                    return Err(unsupported(
                        span,
                        "SMT backend: a projection of unexpected type",
                    ));
                };
                let (uv, w) = self.split(x, elem, span)?;
                let (u, v) = self.split(&uv, uv_ty, span)?;
                let r = if op == BinaryOp::Prj1 { &u } else { &v };
                let same = format!("(= {w} {r})");
                and(&[self.mem(&u, a)?, self.mem(&v, b)?, same])
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("SMT backend: the set operator {op:?}"),
                ));
            }
        })
    }

    /// `x : A op B` for a relation or function arrow: x is a set of pairs (an array term).
    fn mem_arrow(
        &mut self,
        x: &str,
        elem: &Type,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> R<String> {
        let Type::Set(p) = elem else {
            return Err(unsupported(
                span,
                "SMT backend: an arrow of unexpected type",
            ));
        };
        let Type::Pair(s, t) = &**p else {
            return Err(unsupported(
                span,
                "SMT backend: an arrow of unexpected type",
            ));
        };
        let (ss, ts) = (self.sort(s, span)?, self.sort(t, span)?);
        let psort = self.pair_sort(s, t, span)?;
        let (u, v, w) = (self.fresh("u"), self.fresh("v"), self.fresh("w"));
        let has = |l: &str, r: &str| format!("(select {x} (mk.{psort} {l} {r}))");
        // Every pair of x is in A * B.
        let (in_a, in_b) = (self.mem(&u, a)?, self.mem(&v, b)?);
        let mut parts = vec![quantified(
            "forall",
            &[(u.clone(), ss.clone()), (v.clone(), ts.clone())],
            implies(&has(&u, &v), &and(&[in_a.clone(), in_b.clone()])),
        )];
        let Some(ArrowProperties {
            functional,
            total,
            injective,
            surjective,
        }) = op.arrow_properties()
        else {
            return Err(unsupported(
                span,
                format!("SMT backend: {op:?} as an arrow"),
            ));
        };
        if functional {
            parts.push(quantified(
                "forall",
                &[
                    (u.clone(), ss.clone()),
                    (v.clone(), ts.clone()),
                    (w.clone(), ts.clone()),
                ],
                implies(&and(&[has(&u, &v), has(&u, &w)]), &format!("(= {v} {w})")),
            ));
        }
        if injective {
            parts.push(quantified(
                "forall",
                &[
                    (u.clone(), ss.clone()),
                    (w.clone(), ss.clone()),
                    (v.clone(), ts.clone()),
                ],
                implies(&and(&[has(&u, &v), has(&w, &v)]), &format!("(= {u} {w})")),
            ));
        }
        if total {
            let some = quantified("exists", &[(v.clone(), ts.clone())], has(&u, &v));
            parts.push(quantified(
                "forall",
                &[(u.clone(), ss.clone())],
                implies(&in_a, &some),
            ));
        }
        if surjective {
            let some = quantified("exists", &[(u.clone(), ss.clone())], has(&u, &v));
            parts.push(quantified(
                "forall",
                &[(v.clone(), ts)],
                implies(&in_b, &some),
            ));
        }
        Ok(and(&parts))
    }

    // ---- terms ----

    fn lookup(&self, name: &str) -> Option<String> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, t)| t.clone())
    }

    fn env_value(&self, name: &str, span: Span) -> R<Option<Value>> {
        match self.env.get(name) {
            Some(Val::Value(v)) => Ok(Some(v.clone())),
            Some(Val::Sym(_)) => Err(unsupported(
                span,
                format!("SMT backend: the symbolic set {name}"),
            )),
            None => Ok(None),
        }
    }

    fn hoist(&mut self, vars: Vec<(String, String)>, guard: String) {
        if let Some(f) = self.frames.last_mut() {
            f.push(Hoist { vars, guard });
        }
    }

    fn term(&mut self, e: &Expr) -> R<String> {
        let span = e.span;
        if let Type::Set(elem) = &e.ty
            && !matches!(
                e.kind,
                ExprKind::Var(_)
                    | ExprKind::Binary(BinaryOp::Apply, ..)
                    | ExprKind::Field(..)
                    | ExprKind::If(..)
                    | ExprKind::Let(..)
            )
        {
            // A set used as a value: its characteristic function.
            let sort = self.sort(elem, span)?;
            let q = self.fresh("q");
            let m = self.mem(&q, e)?;
            return Ok(format!("(lambda (({q} {sort})) {m})"));
        }
        Ok(match &e.kind {
            ExprKind::Var(name) => {
                if let Some(t) = self.lookup(name) {
                    t
                } else if self.sequences.contains_key(name) {
                    self.sequence_relation(e)?
                } else if self.vars.iter().any(|v| v.name == *name) {
                    var_symbol(name)
                } else if let Some(v) = self.env_value(name, span)? {
                    self.value(&v, &e.ty, span)?
                } else if self.sorts.is_uninterpreted(name) {
                    // The whole sort.
                    let sort = self.sort(&e.ty, span)?;
                    format!("((as const {sort}) true)")
                } else if let Some(Val::Value(v)) = self.ctx.global(name) {
                    let v = v.clone();
                    self.value(&v, &e.ty, span)?
                } else {
                    return Err(unsupported(
                        span,
                        format!("SMT backend: unknown name {name}"),
                    ));
                }
            }
            ExprKind::Int(i) => int_literal(i),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Str(s) => string_literal(s, span)?,
            ExprKind::Const(ExprConst::MaxInt) => int_literal(&self.ctx.settings().maxint),
            ExprKind::Const(ExprConst::MinInt) => int_literal(&self.ctx.settings().minint),
            ExprKind::Const(_) => {
                return Err(unsupported(span, "SMT backend: a set constant as a value"));
            }
            ExprKind::Unary(op, a) => self.term_unary(*op, a, span)?,
            ExprKind::Binary(op, a, b) => self.term_binary(*op, a, b, &e.ty, span)?,
            ExprKind::Record(fields) => {
                let sort = self.sort(&e.ty, span)?;
                let args = fields
                    .iter()
                    .map(|(_, x)| self.term(x))
                    .collect::<R<Vec<_>>>()?;
                format!("(mk.{sort} {})", args.join(" "))
            }
            ExprKind::Field(r, f) => {
                let sort = self.sort(&r.ty, span)?;
                let t = self.term(r)?;
                format!("({} {t})", symbol(&format!("{sort}."), f))
            }
            ExprKind::BoolOf(p) => self.pred(p)?.0,
            ExprKind::If(c, a, b) => {
                let (tc, _) = self.pred(c)?;
                // Applications in a branch are guarded by the branch's condition.
                let ta = self.branch(&tc, a)?;
                let tb = self.branch(&not(&tc), b)?;
                format!("(ite {tc} {ta} {tb})")
            }
            ExprKind::Let(bindings, body) => {
                let n = bindings.len();
                let r = self.let_bindings(bindings).and_then(|()| self.term(body));
                self.unbind(n.min(self.scope.len()));
                r?
            }
            ExprKind::Binder(kind @ (BinderKind::Sigma | BinderKind::Pi), xs, cond, body) => {
                self.sigma(*kind, xs, cond, body, span)?
            }
            ExprKind::SetEnum(_)
            | ExprKind::SeqEnum(_)
            | ExprKind::Comprehension(..)
            | ExprKind::Binder(..)
            | ExprKind::Struct(_) => {
                return Err(unsupported(span, "SMT backend: this expression"));
            }
        })
    }

    /// A branch of an IF expression: what it hoists is required only when `cond` holds.
    fn branch(&mut self, cond: &str, e: &Expr) -> R<String> {
        self.frames.push(Vec::new());
        let t = self.term(e);
        let hoisted = self.frames.pop().unwrap_or_default();
        for h in hoisted {
            self.hoist(h.vars, implies(cond, &h.guard));
        }
        t
    }

    fn term_unary(&mut self, op: UnaryOp, a: &Expr, span: Span) -> R<String> {
        Ok(match op {
            UnaryOp::Neg => format!("(- {})", self.term(a)?),
            UnaryOp::Succ => format!("(+ {} 1)", self.term(a)?),
            UnaryOp::Pred => format!("(- {} 1)", self.term(a)?),
            UnaryOp::PairFirst | UnaryOp::PairSecond => {
                let t = self.term(a)?;
                let (f, s) = self.split(&t, &a.ty, span)?;
                if op == UnaryOp::PairFirst { f } else { s }
            }
            UnaryOp::Card if self.is_native_sequence(a) => self.sequence_read(UnaryOp::Size, a)?,
            UnaryOp::Card => self.card(a, span)?,
            UnaryOp::Size if a.ty == Type::String => format!("(str.len {})", self.term(a)?),
            UnaryOp::Size | UnaryOp::First | UnaryOp::Last => self.sequence_read(op, a)?,
            UnaryOp::Min | UnaryOp::Max => {
                let o = if op == UnaryOp::Min { "<=" } else { ">=" };
                match &a.kind {
                    ExprKind::SetEnum(items) if !items.is_empty() => {
                        let ts = items.iter().map(|i| self.term(i)).collect::<R<Vec<_>>>()?;
                        let mut acc = ts[0].clone();
                        for t in &ts[1..] {
                            acc = format!("(ite ({o} {acc} {t}) {acc} {t})");
                        }
                        acc
                    }
                    ExprKind::Binary(BinaryOp::Interval, lo, hi) => {
                        let (l, h) = (self.term(lo)?, self.term(hi)?);
                        self.hoist(vec![], format!("(<= {l} {h})"));
                        if op == UnaryOp::Min { l } else { h }
                    }
                    _ => {
                        // A hoisted m: a member of the set, below (above) every member.
                        let sort = self.sort(&Type::Integer, span)?;
                        let m = self.fresh("m");
                        let member = self.mem(&m, a)?;
                        let bound = match self.term_carrier(a)? {
                            Some(ts) => {
                                let mut parts = Vec::new();
                                for (t, _) in ts {
                                    let inside = self.mem(&t, a)?;
                                    parts.push(implies(&inside, &format!("({o} {m} {t})")));
                                }
                                and(&parts)
                            }
                            None => {
                                let z = self.fresh("z");
                                let inside = self.mem(&z, a)?;
                                quantified(
                                    "forall",
                                    &[(z.clone(), sort.clone())],
                                    implies(&inside, &format!("({o} {m} {z})")),
                                )
                            }
                        };
                        self.hoist(vec![(m.clone(), sort)], and(&[member, bound]));
                        m
                    }
                }
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("SMT backend: the operator {op:?}"),
                ));
            }
        })
    }

    fn card(&mut self, a: &Expr, span: Span) -> R<String> {
        match &a.kind {
            ExprKind::SetEnum(items) => {
                // The number of distinct items.
                let ts = items.iter().map(|i| self.term(i)).collect::<R<Vec<_>>>()?;
                let mut parts = Vec::new();
                for (i, t) in ts.iter().enumerate() {
                    let new: Vec<String> = ts[..i]
                        .iter()
                        .map(|u| format!("(distinct {t} {u})"))
                        .collect();
                    parts.push(format!("(ite {} 1 0)", and(&new)));
                }
                return Ok(sum(&parts));
            }
            ExprKind::Binary(BinaryOp::Interval, lo, hi) => {
                let (l, h) = (self.term(lo)?, self.term(hi)?);
                return Ok(format!("(ite (<= {l} {h}) (+ (- {h} {l}) 1) 0)"));
            }
            _ => {}
        }
        let Some(ts) = self.term_carrier(a)? else {
            return Err(unsupported(
                span,
                "SMT backend: card of a set without a small finite carrier",
            ));
        };
        let mut parts = Vec::new();
        for (i, (t, _)) in ts.iter().enumerate() {
            let inside = self.mem(t, a)?;
            let new = first_occurrence(&ts, i);
            parts.push(format!("(ite {} 1 0)", and(&[inside, new])));
        }
        Ok(sum(&parts))
    }

    /// SMT terms that include every member of a finite set (`true` marks canonical literals, distinct
    /// when their texts differ): the carrier of a small finite element type, the items of an
    /// enumeration, an interval with constant bounds, a variable's carrier, and what unions,
    /// intersections, differences and restrictions of those keep. `None` when no small one is known.
    fn term_carrier(&mut self, a: &Expr) -> R<Option<Vec<(String, bool)>>> {
        let span = a.span;
        let elem = a.ty.element().cloned().unwrap_or(Type::Integer);
        if let Some(c) = self.carrier(&elem, EXPAND_LIMIT) {
            return self.literals(&c, &elem, span).map(Some);
        }
        let found = match &a.kind {
            ExprKind::SetEnum(items) => Some(
                items
                    .iter()
                    .map(|i| Ok((self.term(i)?, false)))
                    .collect::<R<Vec<_>>>()?,
            ),
            ExprKind::Binary(BinaryOp::Interval, lo, hi) => {
                match (self.int_const(lo), self.int_const(hi)) {
                    (Some(l), Some(h)) if &h - &l < BigInt::from(EXPAND_LIMIT) => {
                        let mut out = Vec::new();
                        let mut k = l;
                        while k <= h {
                            out.push((int_literal(&k), true));
                            k += 1;
                        }
                        Some(out)
                    }
                    _ => None,
                }
            }
            ExprKind::Var(name) if self.lookup(name).is_none() => {
                let values = match self.carriers.get(name) {
                    Some(c) => Some(c.clone()),
                    None => match self.env_value(name, span)? {
                        Some(Value::Set(items)) if items.len() <= EXPAND_LIMIT => {
                            Some(items.to_vec())
                        }
                        _ => None,
                    },
                };
                match values {
                    Some(v) if v.len() <= EXPAND_LIMIT => Some(self.literals(&v, &elem, span)?),
                    _ => None,
                }
            }
            ExprKind::Binary(BinaryOp::Union, x, y) | ExprKind::If(_, x, y) => {
                match (self.term_carrier(x)?, self.term_carrier(y)?) {
                    (Some(mut p), Some(q)) => {
                        p.extend(q);
                        Some(p)
                    }
                    _ => None,
                }
            }
            ExprKind::Binary(BinaryOp::Inter, x, y) => match self.term_carrier(x)? {
                Some(p) => Some(p),
                None => self.term_carrier(y)?,
            },
            ExprKind::Binary(
                BinaryOp::SetMinus | BinaryOp::RanRestrict | BinaryOp::RanSubtract,
                x,
                _,
            ) => self.term_carrier(x)?,
            ExprKind::Binary(BinaryOp::DomRestrict | BinaryOp::DomSubtract, _, y) => {
                self.term_carrier(y)?
            }
            // Second (first) components of the pairs a relation with a known carrier may hold.
            ExprKind::Binary(BinaryOp::Image, r, _) | ExprKind::Unary(UnaryOp::Ran, r) => {
                match self.relation_carrier(r, span)? {
                    Some(pairs) => Some(self.projected(&pairs, false, &elem, span)?),
                    None => None,
                }
            }
            ExprKind::Unary(UnaryOp::Dom, r) => match self.relation_carrier(r, span)? {
                Some(pairs) => Some(self.projected(&pairs, true, &elem, span)?),
                None => None,
            },
            _ => None,
        };
        Ok(found.filter(|ts| ts.len() <= EXPAND_LIMIT))
    }

    /// The pairs a relation may hold, as values: a variable's carrier or a known value, and their
    /// inverses.
    fn relation_carrier(&mut self, r: &Expr, span: Span) -> R<Option<Vec<Value>>> {
        Ok(match &r.kind {
            ExprKind::Var(name) if self.lookup(name).is_none() => match self.carriers.get(name) {
                Some(c) => Some(c.clone()),
                None => match self.env_value(name, span)? {
                    Some(Value::Set(items)) => Some(items.to_vec()),
                    _ => None,
                },
            },
            ExprKind::Unary(UnaryOp::Inverse, x) => self.relation_carrier(x, span)?.map(|pairs| {
                pairs
                    .iter()
                    .filter_map(|p| p.as_pair().map(|(a, b)| Value::pair(b.clone(), a.clone())))
                    .collect()
            }),
            _ => None,
        })
    }

    /// The distinct first (`first`) or second components of `pairs`, as literals of type `elem`.
    fn projected(
        &mut self,
        pairs: &[Value],
        first: bool,
        elem: &Type,
        span: Span,
    ) -> R<Vec<(String, bool)>> {
        let mut parts: Vec<Value> = pairs
            .iter()
            .filter_map(|p| p.as_pair().map(|(a, b)| if first { a } else { b }.clone()))
            .collect();
        parts.sort();
        parts.dedup();
        self.literals(&parts, elem, span)
    }

    fn literals(&mut self, values: &[Value], ty: &Type, span: Span) -> R<Vec<(String, bool)>> {
        values
            .iter()
            .map(|v| Ok((self.value(v, ty, span)?, true)))
            .collect()
    }

    fn int_const(&self, e: &Expr) -> Option<BigInt> {
        match &e.kind {
            ExprKind::Int(i) => Some(i.clone()),
            ExprKind::Unary(UnaryOp::Neg, x) => self.int_const(x).map(|i| -i),
            ExprKind::Const(ExprConst::MaxInt) => Some(self.ctx.settings().maxint.clone()),
            ExprKind::Const(ExprConst::MinInt) => Some(self.ctx.settings().minint.clone()),
            _ => None,
        }
    }

    /// `SIGMA(x).(x : S & P | E)` / `PI`: a sum (product) over a finite carrier of x.
    fn sigma(
        &mut self,
        kind: BinderKind,
        xs: &[TypedName],
        cond: &Pred,
        body: &Expr,
        span: Span,
    ) -> R<String> {
        let [x] = xs else {
            return Err(unsupported(
                span,
                "SMT backend: SIGMA/PI over several variables",
            ));
        };
        let carrier = match self.carrier(&x.ty, EXPAND_LIMIT) {
            Some(c) => Some(self.literals(&c, &x.ty, span)?),
            None => match cond.conjuncts().first().map(|c| &c.kind) {
                Some(PredKind::Compare(CompareOp::In, v, set)) if matches!(&v.kind, ExprKind::Var(n) if *n == x.name) => {
                    self.term_carrier(set)?
                }
                _ => None,
            },
        };
        let Some(ts) = carrier else {
            return Err(unsupported(
                span,
                "SMT backend: SIGMA/PI without a small finite domain",
            ));
        };
        let mut parts = Vec::new();
        for (i, (t, _)) in ts.iter().enumerate() {
            self.scope.push((x.name.clone(), t.clone()));
            let r = (|| {
                let (tc, _) = self.pred(cond)?;
                let chosen = and(&[tc, first_occurrence(&ts, i)]);
                let e = self.branch(&chosen, body)?;
                Ok((chosen, e))
            })();
            self.unbind(1);
            let (chosen, e) = r?;
            let neutral = if kind == BinderKind::Sigma { 0 } else { 1 };
            parts.push(format!("(ite {chosen} {e} {neutral})"));
        }
        Ok(if kind == BinderKind::Sigma {
            sum(&parts)
        } else if parts.is_empty() {
            "1".into()
        } else if parts.len() == 1 {
            parts[0].clone()
        } else {
            format!("(* {})", parts.join(" "))
        })
    }

    fn term_binary(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        ty: &Type,
        span: Span,
    ) -> R<String> {
        Ok(match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => {
                let o = match op {
                    BinaryOp::Add => "+",
                    BinaryOp::Sub => "-",
                    _ => "*",
                };
                format!("({o} {} {})", self.term(a)?, self.term(b)?)
            }
            BinaryOp::Div | BinaryOp::Mod => {
                let (x, y) = (self.term(a)?, self.term(b)?);
                self.hoist(vec![], format!("(not (= {y} 0))"));
                if op == BinaryOp::Div {
                    // Truncation toward zero.
                    format!(
                        "(ite (= (>= {x} 0) (> {y} 0)) (div (abs {x}) (abs {y})) (- (div (abs {x}) (abs {y}))))"
                    )
                } else {
                    // Floored: the sign of the divisor.
                    format!(
                        "(ite (or (>= {y} 0) (= (mod {x} {y}) 0)) (mod {x} {y}) (+ (mod {x} {y}) {y}))"
                    )
                }
            }
            BinaryOp::Power => {
                let ExprKind::Int(n) = &b.kind else {
                    return Err(unsupported(
                        span,
                        "SMT backend: ** with a non-literal exponent",
                    ));
                };
                let n = u32::try_from(n).ok().filter(|n| *n <= 64).ok_or_else(|| {
                    unsupported(span, "SMT backend: ** with a large or negative exponent")
                })?;
                let x = self.term(a)?;
                match n {
                    0 => "1".into(),
                    1 => x,
                    _ => format!("(* {})", vec![x; n as usize].join(" ")),
                }
            }
            BinaryOp::Maplet => {
                let (x, y) = (self.term(a)?, self.term(b)?);
                self.mk_pair(&a.ty, &b.ty, &x, &y, span)?
            }
            BinaryOp::Apply => self.term_apply(a, b, ty, span)?,
            _ => {
                return Err(unsupported(
                    span,
                    format!("SMT backend: the operator {op:?}"),
                ));
            }
        })
    }

    /// `f(x)`: a lambda is applied by substitution (defined where its condition holds); any other
    /// relation through a hoisted variable `y` with `(x, y) : f` and `f` functional at `x`.
    fn term_apply(&mut self, f: &Expr, arg: &Expr, ty: &Type, span: Span) -> R<String> {
        if self.is_native_sequence(f) {
            return self.sequence_apply(f, arg);
        }
        let x = self.term(arg)?;
        if let ExprKind::Binder(BinderKind::Lambda, xs, cond, body) = &f.kind {
            let parts = self.components(&x, &arg.ty, xs.len(), span)?;
            for (v, t) in xs.iter().zip(&parts) {
                self.scope.push((v.name.clone(), t.clone()));
            }
            let r = (|| {
                let (tc, _) = self.pred(cond)?;
                self.hoist(vec![], tc);
                self.term(body)
            })();
            self.unbind(xs.len());
            return r;
        }
        let sort = self.sort(ty, span)?;
        let (y, y2) = (self.fresh("y"), self.fresh("y"));
        let p = self.mk_pair(&arg.ty, ty, &x, &y, span)?;
        let p2 = self.mk_pair(&arg.ty, ty, &x, &y2, span)?;
        let (m, m2) = (self.mem(&p, f)?, self.mem(&p2, f)?);
        let unique = quantified(
            "forall",
            &[(y2.clone(), sort.clone())],
            implies(&m2, &format!("(= {y2} {y})")),
        );
        self.hoist(vec![(y.clone(), sort)], and(&[m, unique]));
        Ok(y)
    }
}

/// Whether the `i`-th carrier term differs from every earlier one.
fn first_occurrence(ts: &[(String, bool)], i: usize) -> String {
    let (t, lit) = &ts[i];
    let mut parts = Vec::new();
    for (u, ulit) in &ts[..i] {
        if u == t {
            return "false".into();
        }
        if !(*lit && *ulit) {
            parts.push(format!("(distinct {t} {u})"));
        }
    }
    and(&parts)
}

fn sum(parts: &[String]) -> String {
    match parts {
        [] => "0".into(),
        [one] => one.clone(),
        _ => format!("(+ {})", parts.join(" ")),
    }
}

fn merge(hoisted: Vec<Hoist>) -> (Vec<(String, String)>, String) {
    let mut vars = Vec::new();
    let mut guards = Vec::new();
    for h in hoisted {
        vars.extend(h.vars);
        guards.push(h.guard);
    }
    (vars, and(&guards))
}

pub(crate) fn element_symbol(v: &Value) -> String {
    match v {
        Value::Elem(e) => symbol("e.", &e.name),
        _ => String::new(),
    }
}

fn string_literal(s: &str, span: Span) -> R<String> {
    if !s.chars().all(|c| (' '..='~').contains(&c)) {
        return Err(unsupported(
            span,
            "SMT backend: a string with non-ASCII or control characters",
        ));
    }
    Ok(format!("\"{}\"", s.replace('"', "\"\"")))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diag::register_source;
    use crate::eval::Settings;
    use crate::types::Formula;

    /// A machine with the deferred set S (default size 2), the deferred set F of fixed size 3 and the
    /// enumerated set E.
    pub(crate) const MACHINE: &str = "MACHINE M SETS S; F; E = {e1, e2}
        DEFINITIONS SET_PREF_DEFAULT_SETSIZE == 2
        PROPERTIES card(F) = 3 END";

    /// The context of `MACHINE` and `text` typed in it (its free identifiers are the variables).
    pub(crate) fn formula(text: &str) -> (Context, Vec<TypedName>, Pred) {
        let ast = crate::machine::load_text("<smt test>", MACHINE, std::path::Path::new("."))
            .unwrap_or_else(|d| panic!("{}", d.render()));
        let m = crate::types::check_machine(&ast).unwrap_or_else(|d| panic!("{}", d.render()));
        let settings = Settings::for_machine(&m, &[]).expect("settings");
        let ctx = Context::new(m, settings, crate::solve::Solver::shared())
            .unwrap_or_else(|d| panic!("{}", d.render()));
        let file = register_source("<smt test>", text);
        let term =
            crate::syntax::parse_term(file, text).unwrap_or_else(|d| panic!("{}", d.render()));
        match crate::types::check_formula(&ast, ctx.machine(), &term)
            .unwrap_or_else(|d| panic!("{}", d.render()))
        {
            Formula::Pred(pred, vars) => (ctx, vars, pred),
            Formula::Expr(..) => panic!("`{text}` is an expression"),
        }
    }

    fn script(text: &str, mode: Mode) -> R<String> {
        let (ctx, vars, pred) = formula(text);
        translate(&ctx, &vars, &pred, &Env::new(), mode).map(|s| s.text)
    }

    #[test]
    fn default_sized_sets_become_uninterpreted_sorts() {
        let any = script("x : S & y : F & z : E & not(x : S)", Mode::AnySize).expect("translates");
        assert!(any.contains("(declare-sort G.S 0)"), "{any}");
        // Sets of a fixed size, and enumerated ones, keep their elements.
        assert!(any.contains("(declare-datatypes ((G.F 0))"), "{any}");
        assert!(any.contains("(declare-datatypes ((G.E 0))"), "{any}");
        let exact = script("x : S & not(x : S)", Mode::Exact).expect("translates");
        assert!(exact.contains("(declare-datatypes ((G.S 0))"), "{exact}");
        assert!(!exact.contains("declare-sort"), "{exact}");
        // The set itself as a value: all of the sort.
        let any = script("p = (S |-> 1)", Mode::AnySize).expect("translates");
        assert!(any.contains("((as const (Array G.S Bool)) true)"), "{any}");
    }

    #[test]
    fn sequences_are_a_length_and_an_element_array() {
        // Typed as sequences, or defined by sequence operators: no quantifier, no lambda, when the
        // lengths are bounded.
        let bounded = script(
            "s : seq(E) & size(s) <= 3 & t = tail(s) <- e1 & u = rev(t) ^ [e2] & first(u) /= last(s) \
             & u(2) : ran(s) & s /= t & s : iseq(E) & size(u /|\\ 2) = 2",
            Mode::Exact,
        )
        .expect("translates");
        assert!(bounded.contains("(declare-const l.s Int)"), "{bounded}");
        assert!(
            bounded.contains("(declare-const s.u (Array Int G.E))"),
            "{bounded}"
        );
        for q in ["forall", "exists", "lambda"] {
            assert!(!bounded.contains(q), "{q}: {bounded}");
        }
        // Unbounded: quantifiers over 1..size only.
        let unbounded = script(
            "s : seq(INTEGER) & t = s <- 1 & t : seq(NATURAL)",
            Mode::Exact,
        )
        .expect("translates");
        assert!(unbounded.contains("(declare-const l.t Int)"), "{unbounded}");
        assert!(!unbounded.contains("exists"), "{unbounded}");
        // A relational operator gets the characteristic lambda of the pairs.
        let relational = script("s : seq(E) & s : 1..2 --> E", Mode::Exact).expect("translates");
        assert!(relational.contains("(lambda"), "{relational}");
        // Not known to be a sequence in every solution: a relation, as before.
        let relation = script("s : seq(E) or s = {(2, e1)}", Mode::Exact).expect("translates");
        assert!(relation.contains("(declare-const v.s (Array"), "{relation}");
    }

    #[test]
    fn what_depends_on_the_size_is_unsupported_over_a_sort() {
        for text in [
            "card(S) = 3",
            "x <: S & card(x) = 2",
            "SIGMA(z).(z : S | 1) = 2",
        ] {
            let err = script(text, Mode::AnySize).expect_err(text);
            assert!(err.to_string().contains("SMT backend"), "{text}: {err}");
            // The default size makes them translatable.
            script(text, Mode::Exact).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        // The number of distinct items of an enumeration needs no carrier.
        script("a : S & b : S & card({a, b}) = 2", Mode::AnySize).expect("translates");
        // FIN of a finite type is its POW: S is finite in every instantiation.
        script("x : FIN(S) & y : FIN1(S * BOOL)", Mode::AnySize).expect("translates");
        // So does a quantifier over the sort.
        script("!x.(x : S => x = a) & b : S & b /= a", Mode::AnySize).expect("translates");
    }
}
