//! What a value of the typed IR was before lowering, for printing it back: a tuple, a sequence, a
//! function, a set, a record, or a scalar.
//!
//! A B relation `POW(A*B)` is several TLA+ things: a sequence (domain `1..n`), a function, or a set of
//! 2-tuples (`Procs \X {"ECHO"}`). The values cannot tell a function from a set of tuples, so the machine
//! is asked: a relation type is a function type when some expression of that type is applied, has its
//! domain taken or is overridden (`f[x]`, `DOMAIN f`, `[f EXCEPT ![x] = v]`), is built by a lambda
//! (`[x \in S |-> e]`), or is a sequence (`<<a, b>>` lowered to a sequence, `Len`, `Append`, ...). A
//! specification that uses one relation type both ways prints both as functions (where they are
//! functional). B machines have no functions apart from relations: their relations are sets of pairs,
//! sequences aside.

use crate::ir::visit::{Node, visit_expr, visit_pred};
use crate::ir::{AssignTarget, BinaryOp, BinderKind, ExprKind, Machine, Subst, SubstKind, UnaryOp};
use crate::types::Type;
use crate::value::Value;
use crate::value::set::is_function;

/// How values are read back: as TLA+ (with the relation types the machine uses as functions) or as B.
pub struct Reading {
    /// `None` for a B machine.
    function_types: Option<Vec<Type>>,
}

/// A compound value as its source language sees it, with the types of its parts where known.
pub enum Compound<'v, 't> {
    Tuple(Vec<(&'v Value, Option<&'t Type>)>),
    Sequence(Vec<Value>, Option<&'t Type>),
    /// Pairs (key, value) in key order, with the key and value types.
    Function(
        Vec<(&'v Value, &'v Value)>,
        Option<&'t Type>,
        Option<&'t Type>,
    ),
    Set(&'v [Value], Option<&'t Type>),
    Record(Vec<(&'v str, &'v Value, Option<&'t Type>)>),
}

impl Reading {
    pub fn b() -> Reading {
        Reading {
            function_types: None,
        }
    }

    /// The reading of a machine lowered from TLA+.
    pub fn tla(m: &Machine) -> Reading {
        Reading::with_function_types(function_types(m))
    }

    /// The TLA+ reading where the relation types `types` (and no others) are function types.
    pub fn with_function_types(types: Vec<Type>) -> Reading {
        Reading {
            function_types: Some(types),
        }
    }

    pub fn is_tla(&self) -> bool {
        self.function_types.is_some()
    }

    /// `v` as a compound value, `None` for a scalar (integer, boolean, string, element).
    pub fn compound<'v, 't>(&self, v: &'v Value, ty: Option<&'t Type>) -> Option<Compound<'v, 't>> {
        match v {
            Value::Pair(p) => {
                let (ta, tb) = match ty {
                    Some(Type::Pair(a, b)) => (Some(&**a), Some(&**b)),
                    _ => (None, None),
                };
                Some(Compound::Tuple(vec![(&p.0, ta), (&p.1, tb)]))
            }
            Value::Record(fields) => {
                let field_type = |name: &str| match ty {
                    Some(Type::Struct(fs)) => fs.iter().find(|(n, _)| &**n == name).map(|(_, t)| t),
                    _ => None,
                };
                Some(Compound::Record(
                    fields
                        .iter()
                        .map(|(n, x)| (&**n, x, field_type(n)))
                        .collect(),
                ))
            }
            Value::Set(items) => Some(self.set(v, items, ty)),
            Value::Int(_) | Value::Bool(_) | Value::Str(_) | Value::Elem(_) => None,
        }
    }

    fn set<'v, 't>(
        &self,
        v: &'v Value,
        items: &'v [Value],
        ty: Option<&'t Type>,
    ) -> Compound<'v, 't> {
        let elem_ty = ty.and_then(Type::element);
        let (key_ty, val_ty) = match elem_ty {
            Some(Type::Pair(a, b)) => (Some(&**a), Some(&**b)),
            _ => (None, None),
        };
        // The type is unknown inside a TlaValue: the values decide then.
        let relation =
            key_ty.is_some() || (ty.is_none() && items.iter().all(|x| x.as_pair().is_some()));
        let integer_keys = key_ty.is_none_or(|k| *k == Type::Integer);
        let used_as_function = match (&self.function_types, ty) {
            (Some(types), Some(t)) => types.contains(t),
            _ => false,
        };
        if relation
            && integer_keys
            && (!items.is_empty() || used_as_function)
            && let Some(seq) = v.as_sequence()
        {
            return Compound::Sequence(seq, val_ty);
        }
        if relation && used_as_function && is_function(items) {
            let pairs = items.iter().filter_map(|x| x.as_pair()).collect::<Vec<_>>();
            return Compound::Function(pairs, key_ty, val_ty);
        }
        Compound::Set(items, elem_ty)
    }
}

/// The relation types some expression of the machine uses as a function.
fn function_types(m: &Machine) -> Vec<Type> {
    let mut types: Vec<Type> = Vec::new();
    let preds = [&m.invariant, &m.properties]
        .into_iter()
        .chain(&m.assertions);
    for p in preds {
        visit_pred(p, &mut |node| note_function_use(node, &mut types));
    }
    note_in_subst(&m.initialisation, &mut types);
    for op in &m.operations {
        note_in_subst(&op.body, &mut types);
    }
    types
}

/// Adds to `types` the type of the function `node` applies, overrides, takes the domain of or builds.
fn note_function_use(node: Node<'_>, types: &mut Vec<Type>) -> bool {
    if let Node::Expr(e) = node {
        // Sequences are functions too: the sequence operators and `<<a, b>>` (a sequence where type
        // inference made it one) say so.
        let function = match &e.kind {
            ExprKind::Binary(
                BinaryOp::Apply
                | BinaryOp::Override
                | BinaryOp::Concat
                | BinaryOp::Append
                | BinaryOp::Take
                | BinaryOp::Drop,
                f,
                _,
            ) => Some(&f.ty),
            ExprKind::Binary(BinaryOp::Prepend, _, s) => Some(&s.ty),
            ExprKind::Unary(
                UnaryOp::Dom
                | UnaryOp::Size
                | UnaryOp::Rev
                | UnaryOp::First
                | UnaryOp::Last
                | UnaryOp::Front
                | UnaryOp::Tail,
                f,
            ) => Some(&f.ty),
            ExprKind::Binder(BinderKind::Lambda, ..) | ExprKind::SeqEnum(_) => Some(&e.ty),
            _ => None,
        };
        if let Some(t) = function {
            note(t, types);
        }
    }
    true
}

fn note(t: &Type, types: &mut Vec<Type>) {
    if !types.contains(t) {
        types.push(t.clone());
    }
}

/// `note_function_use` over every predicate and expression of a substitution, and the function an
/// assignment `f(x) := e` overrides.
fn note_in_subst(s: &Subst, types: &mut Vec<Type>) {
    let in_pred = |p: &crate::ir::Pred, types: &mut Vec<Type>| {
        visit_pred(p, &mut |node| note_function_use(node, types))
    };
    let in_expr = |e: &crate::ir::Expr, types: &mut Vec<Type>| {
        visit_expr(e, &mut |node| note_function_use(node, types))
    };
    match &s.kind {
        SubstKind::Skip => {}
        SubstKind::Assign(pairs) => {
            for (target, value) in pairs {
                note_in_target(target, types);
                in_expr(value, types);
            }
        }
        SubstKind::BecomesElementOf(_, e) => in_expr(e, types),
        SubstKind::BecomesSuchThat(_, p) => in_pred(p, types),
        SubstKind::OpCall(_, _, args) => args.iter().for_each(|e| in_expr(e, types)),
        SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => {
            ss.iter().for_each(|s| note_in_subst(s, types))
        }
        SubstKind::Any(_, p, body) | SubstKind::Pre(p, body) | SubstKind::Assert(p, body) => {
            in_pred(p, types);
            note_in_subst(body, types);
        }
        SubstKind::Let(binds, body) => {
            binds.iter().for_each(|(_, e)| in_expr(e, types));
            note_in_subst(body, types);
        }
        SubstKind::Var(_, body) => note_in_subst(body, types),
        SubstKind::If(branches, other) | SubstKind::Select(branches, other) => {
            for (p, body) in branches {
                in_pred(p, types);
                note_in_subst(body, types);
            }
            other.iter().for_each(|s| note_in_subst(s, types));
        }
        SubstKind::Case(e, branches, other) => {
            in_expr(e, types);
            for (values, body) in branches {
                values.iter().for_each(|v| in_expr(v, types));
                note_in_subst(body, types);
            }
            other.iter().for_each(|s| note_in_subst(s, types));
        }
        SubstKind::While {
            cond,
            body,
            invariant,
            variant,
        } => {
            in_pred(cond, types);
            note_in_subst(body, types);
            in_pred(invariant, types);
            in_expr(variant, types);
        }
    }
}

/// The function an assignment target `f(x)` overrides (its type is noted), and its index expressions.
fn note_in_target(t: &AssignTarget, types: &mut Vec<Type>) -> Option<Type> {
    match t {
        AssignTarget::Var(name) => Some(name.ty.clone()),
        AssignTarget::Apply(inner, index) => {
            if let Some(f) = note_in_target(inner, types) {
                note(&f, types);
            }
            visit_expr(index, &mut |node| note_function_use(node, types));
            None
        }
        AssignTarget::Field(inner, _) => {
            note_in_target(inner, types);
            None
        }
    }
}
