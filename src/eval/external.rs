//! Evaluation of the ProB external functions bsolve provides (see `types::external` for how their calls are
//! typed and lowered), with the semantics ProB documents:
//!
//! * `STRING_LENGTH(s)`: the number of characters of `s`;
//! * `STRING_APPEND(a, b)`: the concatenation of `a` and `b`;
//! * `STRING_CONC(ss)`: the concatenation of the strings of the sequence `ss` (`""` for `[]`);
//! * `STRING_CHARS(s)`: the sequence of the one-character strings of `s`;
//! * `STRING_CODES(s)`: the sequence of the Unicode code points of the characters of `s`;
//! * `INT_TO_STRING(i)`: the decimal notation of `i` (`-` before a negative number);
//! * `FORMAT_TO_STRING(f, [v1, ...])`: `f` with each `~w` replaced by the next value (a string by its
//!   characters, anything else as B prints it), `~n` by a newline and `~~` by `~`;
//! * `CHOOSE(S)`: ProB's Hilbert choice, one designated member of `S` (the least in the value order);
//! * `ASSERT_TRUE(b, msg)`: TRUE when `b` is, and ill-defined ("assertion failed: msg") otherwise (TLC's
//!   `Assert`: the evaluation stops with an error);
//! * `MAXIMIZE(S)`: the greatest member of `S` in the value order (integers by value, tuples by their first
//!   component first), so over `{c, x | P}` a solution `c |-> x` of P with the greatest `c`.

use super::symbolic::SymbolicSet;
use super::trees;
use super::{Context, Env, EvalError, Val, internal_error, unsupported, wd_error};
use crate::diag::Span;
use crate::ir::Expr;
use crate::value::Value;
use std::sync::Arc;

impl Context {
    /// `F(arg)` for the external function `name`: the hook of function application in `expr`.
    pub(super) fn apply_external(
        &self,
        name: &str,
        arg: &Expr,
        span: Span,
        env: &mut Env,
    ) -> Result<Val, EvalError> {
        let string = |v: &Value| match v {
            Value::Str(s) => Ok(s.clone()),
            _ => Err(internal_error(span, format!("{name}: expected a string"))),
        };
        let result = match name {
            "STRING_LENGTH" => {
                let s = string(&self.eval_value(arg, env)?)?;
                Value::int(s.chars().count() as i64)
            }
            "STRING_APPEND" => {
                let v = self.eval_value(arg, env)?;
                let Some((a, b)) = v.as_pair() else {
                    return Err(internal_error(span, "STRING_APPEND: expected two strings"));
                };
                Value::Str(format!("{}{}", string(a)?, string(b)?).into())
            }
            "STRING_CONC" => {
                let v = self.eval_value(arg, env)?;
                let Some(items) = v.as_sequence() else {
                    return Err(internal_error(span, "STRING_CONC: expected a sequence"));
                };
                let mut out = String::new();
                for item in &items {
                    out.push_str(&string(item)?);
                }
                Value::Str(out.into())
            }
            "STRING_CHARS" | "STRING_CODES" => {
                let s = string(&self.eval_value(arg, env)?)?;
                let items = s
                    .chars()
                    .map(|c| match name {
                        "STRING_CHARS" => Value::Str(c.to_string().into()),
                        _ => Value::int(i64::from(u32::from(c))),
                    })
                    .collect();
                Value::sequence(items)
            }
            "INT_TO_STRING" => match self.eval_value(arg, env)?.as_int() {
                Some(i) => Value::Str(i.to_string().into()),
                None => return Err(internal_error(span, "INT_TO_STRING: expected an integer")),
            },
            "FORMAT_TO_STRING" => {
                let v = self.eval_value(arg, env)?;
                let Some((format, values)) = v.as_pair() else {
                    return Err(internal_error(
                        span,
                        "FORMAT_TO_STRING: expected two arguments",
                    ));
                };
                let Some(values) = values.as_sequence() else {
                    return Err(internal_error(
                        span,
                        "FORMAT_TO_STRING: expected a sequence",
                    ));
                };
                Value::Str(format_to_string(&string(format)?, &values, span)?.into())
            }
            "ASSERT_TRUE" => {
                let v = self.eval_value(arg, env)?;
                match v.as_pair() {
                    Some((Value::Bool(true), _)) => Value::Bool(true),
                    Some((Value::Bool(false), msg)) => {
                        return Err(wd_error(
                            span,
                            format!("assertion failed: {}", string(msg)?),
                        ));
                    }
                    _ => {
                        return Err(internal_error(
                            span,
                            "ASSERT_TRUE: expected a boolean and a string",
                        ));
                    }
                }
            }
            "CHOOSE" | "MAXIMIZE" => {
                let items = self.members(&self.eval(arg, env)?, span)?;
                let chosen = if name == "CHOOSE" {
                    items.first()
                } else {
                    items.last()
                };
                match chosen {
                    Some(v) => v.clone(),
                    None => return Err(wd_error(span, format!("{name} of the empty set"))),
                }
            }
            "tree" | "btree" => {
                let base = self.eval(arg, env)?;
                return Ok(Val::Sym(Arc::new(SymbolicSet::Trees {
                    base,
                    binary: name == "btree",
                })));
            }
            _ => {
                let v = self.eval_value(arg, env)?;
                self.tree_operator(name, v, span)?
            }
        };
        Ok(Val::Value(result))
    }

    /// A tree operator (`eval::trees`) applied to the tuple of its arguments `arg`.
    fn tree_operator(&self, name: &str, arg: Value, span: Span) -> Result<Value, EvalError> {
        let parts = |n: usize| {
            super::symbolic::destructure(&arg, n)
                .ok_or_else(|| internal_error(span, format!("{name}: expected {n} arguments")))
        };
        let tree_of = |t: &Value, binary: bool| {
            trees::decode(t, binary).ok_or_else(|| {
                let what = if binary { "a binary tree" } else { "a tree" };
                wd_error(span, format!("{name}: {t} is not {what}"))
            })
        };
        let seq = |vs: Vec<Value>| Value::sequence(vs);
        Ok(match name {
            "const" => {
                let [x, q] = <[Value; 2]>::try_from(parts(2)?).expect("two parts");
                let Some(sons) = q.as_sequence() else {
                    return Err(internal_error(span, "const: expected a sequence of trees"));
                };
                let sons: Vec<trees::Nodes> = sons
                    .iter()
                    .map(|t| tree_of(t, false))
                    .collect::<Result<_, _>>()?;
                trees::encode(trees::with_sons(x, &sons))
            }
            "top" => tree_of(&arg, false)?.remove(&Vec::new()).expect("a root"),
            "sons" => seq(trees::sons(&tree_of(&arg, false)?)
                .into_iter()
                .map(trees::encode)
                .collect()),
            "prefix" | "postfix" => {
                seq(trees::traversal(&tree_of(&arg, false)?, name == "postfix"))
            }
            "infix" => seq(trees::infix(&tree_of(&arg, true)?)),
            "sizet" => Value::int(tree_of(&arg, false)?.len() as i64),
            "mirror" => trees::encode(trees::mirror(&tree_of(&arg, false)?)),
            "left" | "right" => {
                let nodes = tree_of(&arg, true)?;
                if trees::arity(&nodes, &[]) != 2 {
                    return Err(wd_error(span, format!("{name} of a leaf")));
                }
                trees::encode(trees::subtree(
                    &nodes,
                    &[if name == "left" { 1 } else { 2 }],
                ))
            }
            "bin" => trees::encode(trees::with_sons(arg, &[])),
            "bin3" => {
                let [l, x, r] = <[Value; 3]>::try_from(parts(3)?).expect("three parts");
                let (l, r) = (tree_of(&l, true)?, tree_of(&r, true)?);
                trees::encode(trees::with_sons(x, &[l, r]))
            }
            "rank" | "father" | "subtree" | "arity" => {
                let [t, n] = <[Value; 2]>::try_from(parts(2)?).expect("two parts");
                let nodes = tree_of(&t, false)?;
                let path = trees::node(&nodes, &n, name, span)?;
                match name {
                    "arity" => Value::int(trees::arity(&nodes, &path) as i64),
                    "subtree" => trees::encode(trees::subtree(&nodes, &path)),
                    _ => match path.split_last() {
                        Some((&last, _)) if name == "rank" => Value::int(last),
                        Some((_, father)) => trees::path_value(father),
                        None => return Err(wd_error(span, format!("{name} of the root"))),
                    },
                }
            }
            "son" => {
                let [t, n, i] = <[Value; 3]>::try_from(parts(3)?).expect("three parts");
                let nodes = tree_of(&t, false)?;
                let mut path = trees::node(&nodes, &n, name, span)?;
                let i = i.as_int().and_then(|i| i.to_i64()).unwrap_or(0);
                if i < 1 || i as usize > trees::arity(&nodes, &path) {
                    return Err(wd_error(span, format!("son: node {path:?} has no son {i}")));
                }
                path.push(i);
                trees::path_value(&path)
            }
            _ => return Err(unsupported(span, format!("external function `{name}`"))),
        })
    }
}

impl Context {
    /// The members of a set; a comprehension too large to enumerate by its type (`{c, x | P}` over all
    /// labellings `x`) has its solutions found by the solver, as the interpreter does for ANY.
    fn members(&self, set: &Val, span: Span) -> Result<Arc<Vec<Value>>, EvalError> {
        let err = match self.materialize(set, span) {
            Ok(items) => return Ok(items),
            Err(e @ EvalError::Limit(_)) if !e.is_timeout() => e,
            Err(e) => return Err(e),
        };
        let Val::Sym(sym) = set else { return Err(err) };
        let SymbolicSet::Comprehension { vars, pred, env } = &**sym else {
            return Err(err);
        };
        let mut found = Vec::new();
        let mut env = env.clone();
        let complete = self.solve_for(vars, pred, &mut env, &mut |_, env| {
            let point: Option<Vec<Value>> = vars
                .iter()
                .map(|v| env.get_value(&v.name).cloned())
                .collect();
            if let Some(t) = point.and_then(|p| p.into_iter().reduce(Value::pair)) {
                found.push(t);
            }
            Ok(true)
        })?;
        if !complete {
            return Err(err);
        }
        found.sort_unstable();
        found.dedup();
        Ok(Arc::new(found))
    }
}

/// ProB's `FORMAT_TO_STRING`: the directives `~w` (next value), `~n` (newline) and `~~` (a tilde).
fn format_to_string(format: &str, values: &[Value], span: Span) -> Result<String, EvalError> {
    let mut out = String::new();
    let mut next = values.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => match next.next() {
                Some(Value::Str(s)) => out.push_str(s),
                Some(v) => out.push_str(&v.to_string()),
                None => {
                    return Err(wd_error(span, "FORMAT_TO_STRING: more `~w` than values"));
                }
            },
            Some('n') => out.push('\n'),
            Some('~') => out.push('~'),
            other => {
                return Err(unsupported(
                    span,
                    format!(
                        "FORMAT_TO_STRING directive `~{}`",
                        other.map(String::from).unwrap_or_default()
                    ),
                ));
            }
        }
    }
    if next.next().is_some() {
        return Err(wd_error(span, "FORMAT_TO_STRING: more values than `~w`"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::format_to_string;
    use crate::diag::Span;
    use crate::eval::{Context, Env, Settings};
    use crate::machine::load_text;
    use crate::types::check_machine;
    use crate::value::Value;
    use std::path::Path;

    /// The truth of each assertion of a machine without constants or variables.
    fn assertions(text: &str) -> Vec<bool> {
        let m = load_text("externals.mch", text, Path::new(".")).expect("parses");
        let c = Context::new(
            check_machine(&m).expect("type-checks"),
            Settings::default(),
            crate::solve::Solver::shared(),
        )
        .expect("context");
        let m = c.machine().clone();
        m.assertions
            .iter()
            .map(|a| c.eval_pred(a, &Env::new()).expect("evaluates"))
            .collect()
    }

    /// The last-but-one assertion's set (2^22 candidate functions) is too large to list by its type: its
    /// members come from the solver.
    #[test]
    fn library_and_declared_externals_evaluate_as_prob_documents() {
        let held = assertions(
            "MACHINE M
DEFINITIONS \"LibraryStrings.def\"; \"LibraryIO.def\";
  CHOOSE(X) == \"a member of X\"; EXTERNAL_FUNCTION_CHOOSE(T) == (POW(T) --> T);
  MAXIMIZE(x) == 1; EXTERNAL_FUNCTION_MAXIMIZE(T) == POW(T) --> T
ASSERTIONS
  STRING_LENGTH(\"abc\") = 3;
  STRING_APPEND(\"ab\", \"c\") = \"abc\";
  FORMAT_TO_STRING(\"<~w:~w>\", [\"x\", \"y\"]) = \"<x:y>\";
  CHOOSE({3, 1, 2}) = 1;
  MAXIMIZE({x, y | x : 1..3 & y = 10 - x}) = (3 |-> 7);
  MAXIMIZE({n, g | g : 1..22 --> BOOL & n = card(g~[{TRUE}]) & n < 2})
    = (1 |-> ({1 |-> TRUE} \\/ (2..22) * {FALSE}));
  observe(ARGC) & ARGC = 0;
  STRING_LENGTH(\"\") = 1
END",
        );
        assert_eq!(held, [true, true, true, true, true, true, true, false]);
    }

    #[test]
    fn format_to_string_replaces_directives() {
        let vals = [Value::Str("a\"b".into()), Value::int(3)];
        let s = format_to_string(" ~w-~w~n~~", &vals, Span::default()).expect("formats");
        assert_eq!(s, " a\"b-3\n~");
        assert!(format_to_string("~w", &[], Span::default()).is_err());
        assert!(format_to_string("x", &vals, Span::default()).is_err());
    }
}
