//! Sequence operators on finite sequences (functions `1..n`), and their string counterparts.

use super::{EvalError, internal_error, wd_error};
use crate::diag::Span;
use crate::ir::{BinaryOp, UnaryOp};
use crate::value::Value;
use std::sync::Arc;

/// The elements of a sequence value in order.
pub(crate) fn elements(v: &Value, span: Span) -> Result<Vec<Value>, EvalError> {
    v.as_sequence()
        .ok_or_else(|| wd_error(span, format!("{v} is not a sequence")))
}

/// `size`, `rev`, `first`, `last`, `front`, `tail`, `conc` (on sequences, and `size`/`rev`/`conc` on strings).
pub(crate) fn unary(op: UnaryOp, v: &Value, span: Span) -> Result<Value, EvalError> {
    if let Value::Str(s) = v {
        return match op {
            UnaryOp::Size => Ok(Value::int(s.chars().count() as i64)),
            UnaryOp::Rev => Ok(Value::Str(s.chars().rev().collect::<String>().into())),
            _ => Err(internal_error(
                span,
                "sequence operator applied to a string",
            )),
        };
    }
    let seq = elements(v, span)?;
    let empty = || wd_error(span, "the sequence is empty");
    Ok(match op {
        UnaryOp::Size => Value::int(seq.len() as i64),
        UnaryOp::Rev => Value::sequence(seq.into_iter().rev().collect()),
        UnaryOp::First => seq.first().cloned().ok_or_else(empty)?,
        UnaryOp::Last => seq.last().cloned().ok_or_else(empty)?,
        UnaryOp::Front => {
            if seq.is_empty() {
                return Err(empty());
            }
            Value::sequence(seq[..seq.len() - 1].to_vec())
        }
        UnaryOp::Tail => {
            if seq.is_empty() {
                return Err(empty());
            }
            Value::sequence(seq[1..].to_vec())
        }
        UnaryOp::Conc => {
            if seq.iter().all(|x| matches!(x, Value::Str(_))) && !seq.is_empty() {
                let mut out = String::new();
                for x in &seq {
                    if let Value::Str(s) = x {
                        out.push_str(s);
                    }
                }
                return Ok(Value::Str(out.into()));
            }
            let mut out = Vec::new();
            for x in &seq {
                out.extend(elements(x, span)?);
            }
            Value::sequence(out)
        }
        _ => {
            return Err(internal_error(
                span,
                format!("{op:?} is not a sequence operator"),
            ));
        }
    })
}

/// `s ^ t`, `E -> s`, `s <- E`, `s /|\ n`, `s \|/ n`.
pub(crate) fn binary(op: BinaryOp, a: &Value, b: &Value, span: Span) -> Result<Value, EvalError> {
    if let (BinaryOp::Concat, Value::Str(x), Value::Str(y)) = (op, a, b) {
        return Ok(Value::Str(Arc::from(format!("{x}{y}"))));
    }
    Ok(match op {
        BinaryOp::Concat => {
            let mut s = elements(a, span)?;
            s.extend(elements(b, span)?);
            Value::sequence(s)
        }
        BinaryOp::Prepend => {
            let mut s = vec![a.clone()];
            s.extend(elements(b, span)?);
            Value::sequence(s)
        }
        BinaryOp::Append => {
            let mut s = elements(a, span)?;
            s.push(b.clone());
            Value::sequence(s)
        }
        BinaryOp::Take | BinaryOp::Drop => {
            let s = elements(a, span)?;
            let n = b
                .as_int()
                .ok_or_else(|| internal_error(span, "take/drop count is not an integer"))?;
            let k = match n.to_usize() {
                Some(k) if k <= s.len() => k,
                _ => {
                    return Err(wd_error(
                        span,
                        format!("{n} is outside 0..size of a sequence of size {}", s.len()),
                    ));
                }
            };
            if op == BinaryOp::Take {
                Value::sequence(s[..k].to_vec())
            } else {
                Value::sequence(s[k..].to_vec())
            }
        }
        _ => {
            return Err(internal_error(
                span,
                format!("{op:?} is not a sequence operator"),
            ));
        }
    })
}
