//! Test support: a predicate parsed from text and typed in an empty machine (its free identifiers are the
//! search variables), and the check that a value lies inside analysed ranges.

use crate::check::{Model, Options};
use crate::diag::register_source;
use crate::ir::{Pred, TypedName};
use crate::solve::interval::VarInfo;
use crate::types::{self, Formula as Typed};
use crate::value::Value;
use num_bigint::BigInt;

pub struct Formula {
    pub model: Model,
    pub pred: Pred,
    pub vars: Vec<TypedName>,
}

impl Formula {
    /// `text` with the default preferences (MAXINT 3, MININT -1).
    pub fn parse(text: &str) -> Formula {
        Formula::parse_with(text, &[])
    }

    /// `text` with preferences such as `("MAXINT", "10")`.
    pub fn parse_with(text: &str, prefs: &[(&str, &str)]) -> Formula {
        let options = Options {
            prefs: prefs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            ..Options::default()
        };
        let model = Model::empty(&options).unwrap_or_else(|d| panic!("{}", d.render()));
        let file = register_source("<analysis test>", text);
        let term =
            crate::syntax::parse_term(file, text).unwrap_or_else(|d| panic!("{}", d.render()));
        match types::check_formula(&model.ast, model.machine(), &term)
            .unwrap_or_else(|d| panic!("{}", d.render()))
        {
            Typed::Pred(pred, vars) => Formula { model, pred, vars },
            Typed::Expr(..) => panic!("`{text}` is an expression"),
        }
    }

    pub fn conjuncts(&self) -> Vec<&Pred> {
        self.pred.conjuncts()
    }

    pub fn var_index(&self, name: &str) -> usize {
        self.vars
            .iter()
            .position(|v| &*v.name == name)
            .unwrap_or_else(|| panic!("no variable {name}"))
    }
}

/// Whether a value lies inside the ranges (integers, set sizes, integer elements or first components).
pub fn inside(info: &VarInfo, value: &Value) -> bool {
    let first_int = |v: &Value| match v {
        Value::Int(n) => Some(n.to_bigint()),
        Value::Pair(p) => match &p.0 {
            Value::Int(n) => Some(n.to_bigint()),
            _ => None,
        },
        _ => None,
    };
    match value {
        Value::Int(n) => info.int.contains(&n.to_bigint()),
        Value::Set(items) => {
            info.card.contains(&BigInt::from(items.len()))
                && items
                    .iter()
                    .filter_map(first_int)
                    .all(|n| info.elem.contains(&n))
        }
        _ => true,
    }
}
