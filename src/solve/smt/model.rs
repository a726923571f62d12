//! SMT models back to `Value`s, and the blocking clause that excludes a found solution.
//!
//! A set variable with a finite carrier is read element by element (`(get-value ((select s c) ...))`);
//! a sequence encoded as a length and an element array by its length, then its elements (`mod.rs`,
//! while the model is current); any other value is read from the solver's printed term: numerals, strings, constructors, and for an
//! array of integers the `const`/`store` chains and the one-variable `lambda`s z3 prints (evaluated on
//! the breakpoints of their comparisons: such a body is constant between consecutive literals).

use super::translate::{Output, Sorts};
use crate::diag::Span;
use crate::eval::{EvalError, limit_error};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use std::sync::Arc;

/// The largest set read from a lambda.
const MAX_ELEMENTS: i64 = 100_000;

/// A parsed S-expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Sexp {
    Atom(String),
    Str(String),
    List(Vec<Sexp>),
}

pub(crate) fn parse(text: &str) -> Result<Sexp, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    let s = parse_at(&chars, &mut pos)?;
    Ok(s)
}

impl std::fmt::Display for Sexp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sexp::Atom(a) => write!(f, "{a}"),
            Sexp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sexp::List(items) => {
                write!(f, "(")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, ")")
            }
        }
    }
}

fn parse_at(c: &[char], pos: &mut usize) -> Result<Sexp, String> {
    while *pos < c.len() && c[*pos].is_whitespace() {
        *pos += 1;
    }
    match c.get(*pos) {
        None => Err("unexpected end of the solver's answer".into()),
        Some('(') => {
            *pos += 1;
            let mut items = Vec::new();
            loop {
                while *pos < c.len() && c[*pos].is_whitespace() {
                    *pos += 1;
                }
                match c.get(*pos) {
                    None => return Err("unbalanced solver answer".into()),
                    Some(')') => {
                        *pos += 1;
                        return Ok(Sexp::List(items));
                    }
                    _ => items.push(parse_at(c, pos)?),
                }
            }
        }
        Some(')') => Err("unexpected `)` in the solver's answer".into()),
        Some('"') => {
            *pos += 1;
            let mut s = String::new();
            loop {
                match c.get(*pos) {
                    None => return Err("unterminated string in the solver's answer".into()),
                    Some('"') if c.get(*pos + 1) == Some(&'"') => {
                        s.push('"');
                        *pos += 2;
                    }
                    Some('"') => {
                        *pos += 1;
                        return Ok(Sexp::Str(s));
                    }
                    Some(ch) => {
                        s.push(*ch);
                        *pos += 1;
                    }
                }
            }
        }
        Some('|') => {
            let start = *pos;
            *pos += 1;
            while *pos < c.len() && c[*pos] != '|' {
                *pos += 1;
            }
            *pos += 1;
            Ok(Sexp::Atom(c[start..(*pos).min(c.len())].iter().collect()))
        }
        Some(_) => {
            let start = *pos;
            while *pos < c.len() && !c[*pos].is_whitespace() && c[*pos] != '(' && c[*pos] != ')' {
                *pos += 1;
            }
            Ok(Sexp::Atom(c[start..*pos].iter().collect()))
        }
    }
}

fn unreadable(what: impl std::fmt::Display) -> EvalError {
    limit_error(
        Span::default(),
        format!("SMT backend: cannot read the model: {what}"),
    )
}

/// The values of a `get-value` answer `((t1 v1) (t2 v2) ...)`, in order.
pub(crate) fn pairs(answer: &Sexp) -> Result<Vec<Sexp>, EvalError> {
    match answer {
        Sexp::List(items) if items.first() == Some(&Sexp::Atom("error".into())) => {
            Err(unreadable(format!("the solver reported {answer}")))
        }
        Sexp::List(items) => items
            .iter()
            .map(|i| match i {
                Sexp::List(kv) if kv.len() == 2 => Ok(kv[1].clone()),
                _ => Err(unreadable("a get-value entry")),
            })
            .collect(),
        _ => Err(unreadable(format!("{answer:?}"))),
    }
}

/// The B value of a model term of type `ty`.
pub(crate) fn value(term: &Sexp, ty: &Type, sorts: &Sorts) -> Result<Value, EvalError> {
    match (ty, term) {
        (Type::Integer, _) => int(term).map(Value::big),
        (Type::Bool, Sexp::Atom(a)) if a == "true" || a == "false" => Ok(Value::Bool(a == "true")),
        (Type::String, Sexp::Str(s)) => Ok(Value::Str(Arc::from(s.as_str()))),
        (Type::Given(_), Sexp::Atom(a)) => sorts
            .elements
            .get(a.as_str())
            .cloned()
            .ok_or_else(|| unreadable(format!("the element {a}"))),
        (Type::Pair(a, b), Sexp::List(items)) if items.len() == 3 => Ok(Value::pair(
            value(&items[1], a, sorts)?,
            value(&items[2], b, sorts)?,
        )),
        (Type::Struct(fields), Sexp::List(items)) if items.len() == fields.len() + 1 => {
            let mut out = Vec::new();
            for ((name, t), item) in fields.iter().zip(&items[1..]) {
                out.push((Arc::from(&**name), value(item, t, sorts)?));
            }
            Ok(Value::Record(Arc::new(out)))
        }
        (Type::Struct(fields), Sexp::Atom(_)) if fields.is_empty() => {
            Ok(Value::Record(Arc::new(Vec::new())))
        }
        (Type::Set(elem), _) => {
            let mut members = Vec::new();
            array(term, elem, sorts, &mut members)?;
            Ok(set_of(members))
        }
        _ => Err(unreadable(format!("{term:?} as a value of type {ty}"))),
    }
}

pub(crate) fn set_of(mut members: Vec<Value>) -> Value {
    members.sort();
    members.dedup();
    Value::Set(Arc::new(members))
}

fn int(term: &Sexp) -> Result<BigInt, EvalError> {
    match term {
        Sexp::Atom(a) => a
            .parse::<BigInt>()
            .map_err(|_| unreadable(format!("the integer {a}"))),
        Sexp::List(items) if items.len() == 2 && items[0] == Sexp::Atom("-".into()) => {
            Ok(-int(&items[1])?)
        }
        _ => Err(unreadable(format!("the integer {term:?}"))),
    }
}

/// The members of an array term read as a set.
fn array(term: &Sexp, elem: &Type, sorts: &Sorts, out: &mut Vec<Value>) -> Result<(), EvalError> {
    let Sexp::List(items) = term else {
        return Err(unreadable(format!("the set {term:?}")));
    };
    match items.as_slice() {
        // ((as const (Array T Bool)) b)
        [Sexp::List(head), default] if head.first() == Some(&Sexp::Atom("as".into())) => {
            if *default == Sexp::Atom("false".into()) {
                Ok(())
            } else {
                Err(unreadable("an infinite set"))
            }
        }
        [Sexp::Atom(store), inner, key, member] if store == "store" => {
            let mut rest = Vec::new();
            array(inner, elem, sorts, &mut rest)?;
            let k = value(key, elem, sorts)?;
            rest.retain(|x| *x != k);
            if *member == Sexp::Atom("true".into()) {
                rest.push(k);
            }
            out.extend(rest);
            Ok(())
        }
        [Sexp::Atom(lambda), Sexp::List(params), body]
            if lambda == "lambda" && *elem == Type::Integer =>
        {
            let [Sexp::List(param)] = params.as_slice() else {
                return Err(unreadable("a lambda of several parameters"));
            };
            let Some(Sexp::Atom(x)) = param.first() else {
                return Err(unreadable("a lambda parameter"));
            };
            lambda_members(x, body, out)
        }
        _ => Err(unreadable(format!("the set {term:?}"))),
    }
}

/// The integers where a one-variable lambda body is true: its value changes only at the literals it
/// compares with, so it is evaluated at each literal and between consecutive ones.
fn lambda_members(x: &str, body: &Sexp, out: &mut Vec<Value>) -> Result<(), EvalError> {
    let mut points = Vec::new();
    literals(body, &mut points);
    points.sort();
    points.dedup();
    let (Some(lo), Some(hi)) = (points.first().cloned(), points.last().cloned()) else {
        return if eval_bool(body, x, &BigInt::from(0))? {
            Err(unreadable("an infinite set"))
        } else {
            Ok(())
        };
    };
    if eval_bool(body, x, &(&lo - 1))? || eval_bool(body, x, &(&hi + 1))? {
        return Err(unreadable("an infinite set"));
    }
    for (i, p) in points.iter().enumerate() {
        if eval_bool(body, x, p)? {
            out.push(Value::big(p.clone()));
        }
        if let Some(next) = points.get(i + 1)
            && next - p > BigInt::from(1)
            && eval_bool(body, x, &(p + 1))?
        {
            let gap = next - p - 1;
            if gap > BigInt::from(MAX_ELEMENTS) {
                return Err(unreadable("a set too large"));
            }
            let mut k: BigInt = p + 1;
            while &k < next {
                out.push(Value::big(k.clone()));
                k += 1;
            }
        }
    }
    Ok(())
}

fn literals(body: &Sexp, out: &mut Vec<BigInt>) {
    match body {
        Sexp::Atom(a) => {
            if let Ok(i) = a.parse::<BigInt>() {
                out.push(i);
            }
        }
        Sexp::List(items) => {
            if let Ok(i) = int(body) {
                out.push(i);
            } else {
                items.iter().for_each(|i| literals(i, out));
            }
        }
        Sexp::Str(_) => {}
    }
}

fn eval_bool(e: &Sexp, x: &str, at: &BigInt) -> Result<bool, EvalError> {
    let bad = || unreadable(format!("the lambda body {e:?}"));
    match e {
        Sexp::Atom(a) if a == "true" => Ok(true),
        Sexp::Atom(a) if a == "false" => Ok(false),
        Sexp::List(items) => {
            let Some(Sexp::Atom(op)) = items.first() else {
                return Err(bad());
            };
            let args = &items[1..];
            match op.as_str() {
                "and" => args
                    .iter()
                    .try_fold(true, |acc, a| Ok(acc & eval_bool(a, x, at)?)),
                "or" => args
                    .iter()
                    .try_fold(false, |acc, a| Ok(acc | eval_bool(a, x, at)?)),
                "not" if args.len() == 1 => Ok(!eval_bool(&args[0], x, at)?),
                "=>" if args.len() == 2 => {
                    Ok(!eval_bool(&args[0], x, at)? || eval_bool(&args[1], x, at)?)
                }
                "ite" if args.len() == 3 => {
                    if eval_bool(&args[0], x, at)? {
                        eval_bool(&args[1], x, at)
                    } else {
                        eval_bool(&args[2], x, at)
                    }
                }
                "=" | "<=" | "<" | ">=" | ">" if args.len() == 2 => {
                    let (a, b) = (eval_int(&args[0], x, at)?, eval_int(&args[1], x, at)?);
                    Ok(match op.as_str() {
                        "=" => a == b,
                        "<=" => a <= b,
                        "<" => a < b,
                        ">=" => a >= b,
                        _ => a > b,
                    })
                }
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

fn eval_int(e: &Sexp, x: &str, at: &BigInt) -> Result<BigInt, EvalError> {
    match e {
        Sexp::Atom(a) if a == x => Ok(at.clone()),
        Sexp::List(items) if items.len() == 3 && items[0] == Sexp::Atom("+".into()) => {
            Ok(eval_int(&items[1], x, at)? + eval_int(&items[2], x, at)?)
        }
        Sexp::List(items) if items.len() == 3 && items[0] == Sexp::Atom("-".into()) => {
            Ok(eval_int(&items[1], x, at)? - eval_int(&items[2], x, at)?)
        }
        _ => int(e),
    }
}

/// Every subterm of `term` that reads as a value of type `elem`: the candidates for the members of a
/// set the solver printed in a form `value` does not read.
pub(crate) fn ground_values(term: &Sexp, elem: &Type, sorts: &Sorts, out: &mut Vec<Value>) {
    if let Ok(v) = value(term, elem, sorts) {
        out.push(v);
        return;
    }
    if let Sexp::List(items) = term {
        items
            .iter()
            .for_each(|i| ground_values(i, elem, sorts, out));
    }
}

/// The values to ask for a variable: the variable itself, or one membership test per carrier element;
/// nothing for a sequence (read by length and elements while the model is current).
pub(crate) fn queries(
    o: &Output,
    literal: &mut dyn FnMut(&Value) -> Result<String, EvalError>,
) -> Result<Vec<String>, EvalError> {
    if o.sequence.is_some() {
        return Ok(Vec::new());
    }
    match &o.carrier {
        Some(c) => c
            .iter()
            .map(|v| Ok(format!("(select {} {})", o.symbol, literal(v)?)))
            .collect(),
        None => Ok(vec![o.symbol.clone()]),
    }
}

/// The value of a variable from the answers to its `queries`.
pub(crate) fn read(o: &Output, answers: &[Sexp], sorts: &Sorts) -> Result<Value, EvalError> {
    match &o.carrier {
        Some(c) => {
            let members = c
                .iter()
                .zip(answers)
                .filter(|(_, a)| **a == Sexp::Atom("true".into()))
                .map(|(v, _)| v.clone())
                .collect();
            Ok(set_of(members))
        }
        None => value(
            answers.first().ok_or_else(|| unreadable("no value"))?,
            &o.ty,
            sorts,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &Value) -> Vec<i64> {
        match v {
            Value::Set(s) => s.iter().map(|x| x.to_string().parse().unwrap()).collect(),
            _ => panic!("not a set"),
        }
    }

    #[test]
    fn arrays_printed_by_z3_are_read_as_sets() {
        let sorts = Sorts::default();
        let ty = Type::set(Type::Integer);
        let lambda = parse(
            "(lambda ((x!1 Int)) (or (and (<= 3 x!1) (<= 11 x!1) (not (<= 21 x!1))) (and (<= 3 x!1) (not (<= 11 x!1)))))",
        )
        .unwrap();
        assert_eq!(
            ints(&value(&lambda, &ty, &sorts).unwrap()),
            (3..=20).collect::<Vec<_>>()
        );
        let store =
            parse("(store (store ((as const (Array Int Bool)) false) 2 true) (- 5) true)").unwrap();
        assert_eq!(ints(&value(&store, &ty, &sorts).unwrap()), vec![-5, 2]);
        let all = parse("((as const (Array Int Bool)) true)").unwrap();
        assert!(value(&all, &ty, &sorts).is_err());
        let unbounded = parse("(lambda ((x Int)) (<= 3 x))").unwrap();
        assert!(value(&unbounded, &ty, &sorts).is_err());
    }

    #[test]
    fn scalars_are_read() {
        let sorts = Sorts::default();
        assert_eq!(
            value(&parse("(- 12)").unwrap(), &Type::Integer, &sorts).unwrap(),
            Value::int(-12)
        );
        assert_eq!(
            value(&parse("\"a\"\"b\"").unwrap(), &Type::String, &sorts).unwrap(),
            Value::Str(Arc::from("a\"b"))
        );
    }
}
