//! Values in TLA+ syntax, as TLC prints them: `TRUE`, `-3`, `"abc"`, `{1, 2}`, `<<1, 2>>`,
//! `[a |-> 1, b |-> 2]`, functions `(k1 :> v1 @@ k2 :> v2)` (TLC's notation from the TLC module), model
//! values by their name. Functions on `1..n` are sequences, and the empty function is `<<>>`, as in TLC.
//! What each value was before lowering is `tla_shape`'s decision.

use super::tla_shape::{Compound, Reading};
use crate::types::Type;
use crate::value::Value;

/// `v` (of type `ty` where known) in TLA+ syntax.
pub fn tla_value(reading: &Reading, v: &Value, ty: Option<&Type>) -> String {
    let mut out = String::new();
    write_value(&mut out, reading, v, ty);
    out
}

fn write_value(out: &mut String, reading: &Reading, v: &Value, ty: Option<&Type>) {
    let Some(compound) = reading.compound(v, ty) else {
        write_scalar(out, v);
        return;
    };
    match compound {
        Compound::Tuple(parts) => {
            let items = parts.iter().map(|(x, t)| (*x, *t));
            write_list(out, reading, "<<", items, ">>");
        }
        Compound::Sequence(items, t) => {
            write_list(out, reading, "<<", items.iter().map(|x| (x, t)), ">>");
        }
        Compound::Function(pairs, _, _) if pairs.is_empty() => out.push_str("<<>>"),
        Compound::Function(pairs, key_ty, val_ty) => {
            out.push('(');
            for (i, (k, x)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(" @@ ");
                }
                write_value(out, reading, k, key_ty);
                out.push_str(" :> ");
                write_value(out, reading, x, val_ty);
            }
            out.push(')');
        }
        Compound::Set(items, t) => write_list(out, reading, "{", items.iter().map(|x| (x, t)), "}"),
        Compound::Record(fields) => {
            out.push('[');
            for (i, (name, x, t)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name);
                out.push_str(" |-> ");
                write_value(out, reading, x, *t);
            }
            out.push(']');
        }
    }
}

fn write_list<'a>(
    out: &mut String,
    reading: &Reading,
    open: &str,
    items: impl Iterator<Item = (&'a Value, Option<&'a Type>)>,
    close: &str,
) {
    out.push_str(open);
    for (i, (x, t)) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_value(out, reading, x, t);
    }
    out.push_str(close);
}

fn write_scalar(out: &mut String, v: &Value) {
    match v {
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Bool(true) => out.push_str("TRUE"),
        Value::Bool(false) => out.push_str("FALSE"),
        // TLA+ strings escape as B's do (`\"`, `\\`, `\n`, `\t`).
        Value::Str(_) => out.push_str(&v.to_string()),
        Value::Elem(e) => out.push_str(&e.name),
        Value::Pair(_) | Value::Set(_) | Value::Record(_) => {
            unreachable!("compound values are read by tla_shape")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Element;
    use std::sync::Arc;

    fn tla(v: &Value, ty: &Type) -> String {
        // No relation type is known as a function type.
        tla_value(&Reading::with_function_types(vec![]), v, Some(ty))
    }

    #[test]
    fn prints_each_kind_of_value() {
        let elem = Value::Elem(Arc::new(Element {
            set: "MODEL_VALUES".into(),
            index: 0,
            name: "p1".into(),
        }));
        assert_eq!(tla(&Value::int(-3), &Type::Integer), "-3");
        assert_eq!(tla(&Value::Bool(true), &Type::Bool), "TRUE");
        assert_eq!(tla(&Value::Str("a\"b".into()), &Type::String), "\"a\\\"b\"");
        assert_eq!(tla(&elem, &Type::Given("MODEL_VALUES".into())), "p1");
        let ints = Value::set_from_vec(vec![Value::int(2), Value::int(1)]);
        assert_eq!(tla(&ints, &Type::set(Type::Integer)), "{1, 2}");
        assert_eq!(tla(&Value::empty_set(), &Type::set(Type::Integer)), "{}");
        let pair_ty = Type::pair(Type::Given("MODEL_VALUES".into()), Type::String);
        let pair = Value::pair(elem.clone(), Value::Str("ECHO".into()));
        assert_eq!(tla(&pair, &pair_ty), "<<p1, \"ECHO\">>");
        let tuples = Value::set_from_vec(vec![pair]);
        assert_eq!(tla(&tuples, &Type::set(pair_ty)), "{<<p1, \"ECHO\">>}");
        let seq = Value::sequence(vec![Value::int(5), Value::int(4)]);
        assert_eq!(tla(&seq, &Type::seq(Type::Integer)), "<<5, 4>>");
        let rec = Value::Record(Arc::new(vec![
            ("a".into(), Value::int(1)),
            ("b".into(), Value::Bool(false)),
        ]));
        let rec_ty = Type::Struct(vec![("a".into(), Type::Integer), ("b".into(), Type::Bool)]);
        assert_eq!(tla(&rec, &rec_ty), "[a |-> 1, b |-> FALSE]");
    }

    #[test]
    fn relations_used_as_functions_print_as_functions() {
        let f_ty = Type::relation(Type::String, Type::Integer);
        let reading = Reading::with_function_types(vec![f_ty.clone()]);
        let f = Value::set_from_vec(vec![
            Value::pair(Value::Str("a".into()), Value::int(1)),
            Value::pair(Value::Str("b".into()), Value::int(2)),
        ]);
        assert_eq!(
            tla_value(&reading, &f, Some(&f_ty)),
            "(\"a\" :> 1 @@ \"b\" :> 2)"
        );
        assert_eq!(
            tla_value(&reading, &Value::empty_set(), Some(&f_ty)),
            "<<>>"
        );
        let seq_ty = Type::seq(Type::Integer);
        let reading = Reading::with_function_types(vec![seq_ty.clone()]);
        assert_eq!(
            tla_value(&reading, &Value::empty_set(), Some(&seq_ty)),
            "<<>>"
        );
    }
}
