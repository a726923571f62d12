//! Printing values in B syntax the parser reads back: `{1,2}`, `(1|->2)`, `TRUE`, `"text"`, `rec(a:1)`.
//!
//! A pair is parenthesised at the top level and wherever a pair nests on the right; inside set braces
//! the left-associative `|->` needs no parentheses (`{1|->2|->3}` is `{(1|->2)|->3}`).
//! `display_with_type` additionally prints sequences (type `POW(INTEGER*T)`, domain `1..n`) as `[a,b]`.

use super::Value;
use crate::types::Type;
use std::fmt::{self, Write};

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self, None, true)
    }
}

/// The value in B syntax, printing sequences as `[a,b]` where the type says the value is a relation from
/// INTEGER and its domain is `1..n` (n > 0).
pub fn display_with_type(v: &Value, ty: &Type) -> String {
    let mut out = String::new();
    write_value(&mut out, v, Some(ty), true).expect("writing to a String cannot fail");
    out
}

fn write_value(out: &mut dyn Write, v: &Value, ty: Option<&Type>, top: bool) -> fmt::Result {
    match v {
        Value::Int(i) => write!(out, "{i}"),
        Value::Bool(true) => out.write_str("TRUE"),
        Value::Bool(false) => out.write_str("FALSE"),
        Value::Str(s) => write_string(out, s),
        Value::Elem(e) => out.write_str(&e.name),
        Value::Pair(p) => {
            let (ta, tb) = match ty {
                Some(Type::Pair(a, b)) => (Some(&**a), Some(&**b)),
                _ => (None, None),
            };
            if top {
                out.write_char('(')?;
            }
            write_value(out, &p.0, ta, false)?;
            out.write_str("|->")?;
            let right_pair = matches!(p.1, Value::Pair(_));
            if right_pair {
                out.write_char('(')?;
            }
            write_value(out, &p.1, tb, false)?;
            if right_pair {
                out.write_char(')')?;
            }
            if top {
                out.write_char(')')?;
            }
            Ok(())
        }
        Value::Set(items) => {
            let elem_ty = ty.and_then(Type::element);
            if let Some(Type::Pair(a, b)) = elem_ty
                && **a == Type::Integer
                && !items.is_empty()
                && let Some(seq) = v.as_sequence()
            {
                return write_list(out, "[", &seq, Some(b), "]");
            }
            write_list(out, "{", items, elem_ty, "}")
        }
        Value::Record(fields) => {
            out.write_str("rec(")?;
            for (i, (name, val)) in fields.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write!(out, "{name}:")?;
                let fty = match ty {
                    Some(Type::Struct(fs)) => fs.iter().find(|(n, _)| n == name).map(|(_, t)| t),
                    _ => None,
                };
                write_value(out, val, fty, true)?;
            }
            out.write_char(')')
        }
    }
}

fn write_list(
    out: &mut dyn Write,
    open: &str,
    items: &[Value],
    ty: Option<&Type>,
    close: &str,
) -> fmt::Result {
    out.write_str(open)?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        write_value(out, x, ty, false)?;
    }
    out.write_str(close)
}

fn write_string(out: &mut dyn Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Element;
    use std::sync::Arc;

    #[test]
    fn prints_b_syntax() {
        let p = Value::pair(Value::int(1), Value::int(-2));
        assert_eq!(p.to_string(), "(1|->-2)");
        let nested = Value::pair(p.clone(), Value::pair(Value::int(3), Value::Bool(true)));
        assert_eq!(nested.to_string(), "(1|->-2|->(3|->TRUE))");
        let set = Value::set_from_vec(vec![p.clone(), Value::pair(Value::int(0), Value::int(0))]);
        assert_eq!(set.to_string(), "{0|->0,1|->-2}");
        assert_eq!(Value::empty_set().to_string(), "{}");
        assert_eq!(Value::Str("a\"b\n".into()).to_string(), "\"a\\\"b\\n\"");
        let e = Value::Elem(Arc::new(Element {
            set: "D".into(),
            index: 0,
            name: "D1".into(),
        }));
        let rec = Value::Record(Arc::new(vec![
            ("a".into(), e),
            ("b".into(), Value::Bool(false)),
        ]));
        assert_eq!(rec.to_string(), "rec(a:D1,b:FALSE)");
    }

    #[test]
    fn sequences_print_as_lists_only_with_their_type() {
        let sq = Value::sequence(vec![Value::int(5), Value::int(4)]);
        assert_eq!(sq.to_string(), "{1|->5,2|->4}");
        let ty = Type::seq(Type::Integer);
        assert_eq!(display_with_type(&sq, &ty), "[5,4]");
        assert_eq!(display_with_type(&Value::empty_set(), &ty), "{}");
        let not_seq = Value::set_from_vec(vec![Value::pair(Value::int(2), Value::int(1))]);
        assert_eq!(display_with_type(&not_seq, &ty), "{2|->1}");
    }
}
