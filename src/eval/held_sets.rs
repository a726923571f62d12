//! State variables whose value is a set that cannot be listed: `setX := STRING`, `xs := NATURAL - {0}`
//! (B/Laws/FunLawsStrings.mch keeps STRING in a variable). As ProB keeps such values symbolic, a state
//! holds a placeholder element for them, and the environments built from the state bind the symbolic set
//! itself, so that memberships, inclusions and the operators of `symbolic` evaluate it on demand.
//!
//! The placeholder stands for one set: equal sets (by structure) get the same placeholder, so states
//! compare and hash as before. Only sets without closures are held: a comprehension or lambda carries
//! its environment, which has no canonical form, and stays an error ("cannot enumerate").

use super::symbolic::SymbolicSet;
use super::{Context, Env, EvalError, Val};
use crate::diag::Span;
use crate::ir::{BinaryOp, UnaryOp};
use crate::syntax::ast::Name;
use crate::value::{Element, Value};
use std::sync::Arc;

/// The `Element::set` of the placeholder a state holds for a held set.
const HELD_SET: &str = "<held set>";

/// The held sets of a context: each with its canonical key (position = placeholder index).
#[derive(Debug, Default)]
pub(crate) struct HeldSets {
    sets: std::sync::RwLock<Vec<(String, Val)>>,
}

impl Context {
    /// The value a state variable holds for `v`: `v` itself, listed when it can be, else the placeholder
    /// of a set kept symbolic. The error of listing it when it cannot be held.
    pub(crate) fn hold(&self, v: Val, span: Span) -> Result<Value, EvalError> {
        if matches!(v, Val::Value(_)) {
            return self.to_value(v, span);
        }
        if !self.is_infinite(&v) {
            match self.materialize(&v, span) {
                Ok(items) => return Ok(Value::Set(items)),
                Err(e @ EvalError::Limit(_)) if !e.is_timeout() && closure_free(&v) => {}
                Err(e) => return Err(e),
            }
        } else if !closure_free(&v) {
            return Err(super::limit_error(span, "cannot enumerate an infinite set"));
        }
        let v = self.canonical(v, span)?;
        let key = match &v {
            Val::Sym(sym) => format!("{sym:?}"),
            Val::Value(x) => return Ok(x.clone()),
        };
        let held = &self.held_sets().sets;
        let index = {
            let known = held.read().expect("held sets lock");
            known.iter().position(|(k, _)| *k == key)
        };
        let index = match index {
            Some(i) => i,
            None => {
                let mut sets = held.write().expect("held sets lock");
                match sets.iter().position(|(k, _)| *k == key) {
                    Some(i) => i,
                    None => {
                        sets.push((key, v.clone()));
                        sets.len() - 1
                    }
                }
            }
        };
        Ok(Value::Elem(Arc::new(Element {
            set: HELD_SET.into(),
            index: index as u32,
            name: describe(&v).into(),
        })))
    }

    /// One form for the sets that the usual updates make equal (so that equal states are one state): a
    /// set built from a core by adding and removing finitely many elements is `(core \/ A) - R` with A
    /// the elements added that are not in the core and R those removed that were in it (`((S - {a})
    /// \/ {a}) - {b}` is `S - {b}` when a and b are in S), and a core of integers that is an interval
    /// is written as that interval (`{x | x > 0}` is NATURAL1). The whole set is not rewritten as an
    /// interval: `(NATURAL - {0}) \/ {0}` must come back to NATURAL, not to `NATURAL1 \/ {0}`.
    fn canonical(&self, v: Val, span: Span) -> Result<Val, EvalError> {
        let (core, added, removed) = self.edits(&v, span)?;
        let core = match self.integer_range(&core) {
            Some(range) => Val::Sym(Arc::new(SymbolicSet::Interval(range.lo, range.hi))),
            None => core,
        };
        let mut set = core;
        if !added.is_empty() {
            let added = Val::Value(Value::set_from_sorted(added));
            set = Val::Sym(Arc::new(SymbolicSet::Union(set, added)));
        }
        if !removed.is_empty() {
            let removed = Val::Value(Value::set_from_sorted(removed));
            set = Val::Sym(Arc::new(SymbolicSet::Minus(set, removed)));
        }
        Ok(set)
    }

    /// `v` as `(core \/ added) - removed`: added disjoint from the core, removed within the core or
    /// added, the two disjoint (an element added then removed, or removed then added, is neither unless
    /// the core has it). Sorted element lists.
    fn edits(&self, v: &Val, span: Span) -> Result<(Val, Vec<Value>, Vec<Value>), EvalError> {
        let edit = match v {
            Val::Sym(sym) => match &**sym {
                SymbolicSet::Minus(a, Val::Value(Value::Set(x))) => Some((a, x, true)),
                SymbolicSet::Union(a, Val::Value(Value::Set(x)))
                | SymbolicSet::Union(Val::Value(Value::Set(x)), a) => Some((a, x, false)),
                _ => None,
            },
            Val::Value(_) => None,
        };
        let Some((inner, listed, removing)) = edit else {
            return Ok((v.clone(), Vec::new(), Vec::new()));
        };
        let (core, mut added, mut removed) = self.edits(inner, span)?;
        for x in listed.iter() {
            let in_core = self.contains(&core, x, span)?;
            if removing {
                added.retain(|a| a != x);
                if in_core && !removed.contains(x) {
                    removed.push(x.clone());
                }
            } else {
                removed.retain(|r| r != x);
                if !in_core && !added.contains(x) {
                    added.push(x.clone());
                }
            }
        }
        added.sort_unstable();
        removed.sort_unstable();
        Ok((core, added, removed))
    }

    /// Binds a state variable's value, a held set's placeholder to the set it stands for.
    pub(crate) fn bind_held(&self, env: &mut Env, name: Name, value: &Value) {
        env.bind_val(name, self.held_val(value.clone()));
    }

    /// What a variable holding `value` is bound to: the set a held set stands for, else the value.
    pub(crate) fn held_val(&self, value: Value) -> Val {
        if let Value::Elem(e) = &value
            && &*e.set == HELD_SET
            && let Some((_, set)) = self
                .held_sets()
                .sets
                .read()
                .expect("held sets lock")
                .get(e.index as usize)
        {
            return set.clone();
        }
        Val::Value(value)
    }

    /// Binds the machine's variables to a state's values (see `bind_held`).
    pub fn bind_variables(&self, env: &mut Env, values: &[Value]) {
        for (v, value) in self.machine().variables.iter().zip(values) {
            self.bind_held(env, v.name.clone(), value);
        }
    }
}

/// Whether the set is built without closures (whose environments have no canonical form).
fn closure_free(v: &Val) -> bool {
    let Val::Sym(sym) = v else {
        return true;
    };
    match &**sym {
        SymbolicSet::Interval(..) | SymbolicSet::Strings => true,
        SymbolicSet::PowerSet { base, .. }
        | SymbolicSet::Sequences(_, base)
        | SymbolicSet::Identity(base)
        | SymbolicSet::Trees { base, .. } => closure_free(base),
        SymbolicSet::Arrow(_, a, b)
        | SymbolicSet::Union(a, b)
        | SymbolicSet::Inter(a, b)
        | SymbolicSet::Minus(a, b)
        | SymbolicSet::Product(a, b) => closure_free(a) && closure_free(b),
        SymbolicSet::Struct(fields) => fields.iter().all(|(_, f)| closure_free(f)),
        SymbolicSet::Comprehension { .. } | SymbolicSet::Lambda { .. } => false,
    }
}

/// A closure-free set in B syntax, for printing states.
fn describe(v: &Val) -> String {
    let sym = match v {
        Val::Value(x) => return x.to_string(),
        Val::Sym(sym) => sym,
    };
    match &**sym {
        SymbolicSet::Interval(None, None) => "INTEGER".to_string(),
        SymbolicSet::Interval(Some(lo), None) if lo.is_zero() => "NATURAL".to_string(),
        SymbolicSet::Interval(Some(lo), None) if lo.to_i64() == Some(1) => "NATURAL1".to_string(),
        SymbolicSet::Interval(Some(lo), Some(hi)) => format!("{lo}..{hi}"),
        SymbolicSet::Interval(Some(lo), None) => format!("{{x | x >= {lo}}}"),
        SymbolicSet::Interval(None, Some(hi)) => format!("{{x | x <= {hi}}}"),
        SymbolicSet::Strings => "STRING".to_string(),
        SymbolicSet::PowerSet { base, non_empty } => {
            let pow = if *non_empty { "POW1" } else { "POW" };
            format!("{pow}({})", describe(base))
        }
        SymbolicSet::Arrow(op, a, b) => {
            format!("({} {} {})", describe(a), arrow_symbol(*op), describe(b))
        }
        SymbolicSet::Sequences(op, base) => {
            let name = match op {
                UnaryOp::Seq1 => "seq1",
                UnaryOp::Iseq => "iseq",
                UnaryOp::Iseq1 => "iseq1",
                UnaryOp::Perm => "perm",
                _ => "seq",
            };
            format!("{name}({})", describe(base))
        }
        SymbolicSet::Union(a, b) => format!("({} \\/ {})", describe(a), describe(b)),
        SymbolicSet::Inter(a, b) => format!("({} /\\ {})", describe(a), describe(b)),
        SymbolicSet::Minus(a, b) => format!("({} - {})", describe(a), describe(b)),
        SymbolicSet::Product(a, b) => format!("({} * {})", describe(a), describe(b)),
        SymbolicSet::Identity(a) => format!("id({})", describe(a)),
        SymbolicSet::Trees { base, binary } => {
            let name = if *binary { "btree" } else { "tree" };
            format!("{name}({})", describe(base))
        }
        SymbolicSet::Struct(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(n, f)| format!("{n}: {}", describe(f)))
                .collect();
            format!("struct({})", fields.join(", "))
        }
        SymbolicSet::Comprehension { .. } | SymbolicSet::Lambda { .. } => "<closure>".to_string(),
    }
}

fn arrow_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::TotalRelation => "<<->",
        BinaryOp::SurjRelation => "<->>",
        BinaryOp::TotalSurjRelation => "<<->>",
        BinaryOp::PartialFunction => "+->",
        BinaryOp::TotalFunction => "-->",
        BinaryOp::PartialInjection => ">+>",
        BinaryOp::TotalInjection => ">->",
        BinaryOp::PartialSurjection => "+->>",
        BinaryOp::TotalSurjection => "-->>",
        BinaryOp::PartialBijection => ">+>>",
        BinaryOp::TotalBijection => ">->>",
        _ => "<->",
    }
}
