//! Inference and lowering tests through the parser (`machine::load_text`).

use super::{Formula, Type, check_formula, check_machine};
use crate::ir::{self, BinaryOp, ExprKind, PredKind};
use crate::machine::load_text;
use std::path::Path;

fn check(name: &str, text: &str) -> Result<ir::Machine, crate::diag::Diagnostic> {
    let m = load_text(name, text, Path::new("."))?;
    check_machine(&m)
}

fn type_of<'a>(names: &'a [ir::TypedName], n: &str) -> &'a Type {
    &names
        .iter()
        .find(|t| &*t.name == n)
        .unwrap_or_else(|| panic!("no `{n}`"))
        .ty
}

fn given(s: &str) -> Type {
    Type::Given(s.into())
}

#[test]
fn infers_types_of_constants_variables_and_operations() {
    let m = check(
        "infer_ok.mch",
        "MACHINE M
SETS S; COL = {red, green}
CONSTANTS f, n, r, q
PROPERTIES f : S --> 1..3 & n = card(S) & r = rec(b: TRUE, a: 1) & q = r'a
VARIABLES s, c
INVARIANT s : seq(BOOL) & c <: COL
INITIALISATION s := [] || c := {}
OPERATIONS
  out <-- get(i) = PRE i : 1..size(s) THEN out := s(i) END;
  put(x) = PRE x : COL THEN c := c \\/ {x} END
END",
    )
    .expect("checks");
    assert_eq!(
        *type_of(&m.constants, "f"),
        Type::relation(given("S"), Type::Integer)
    );
    assert_eq!(*type_of(&m.constants, "n"), Type::Integer);
    // Record fields are sorted by name whatever the source order.
    assert_eq!(
        *type_of(&m.constants, "r"),
        Type::Struct(vec![("a".into(), Type::Integer), ("b".into(), Type::Bool)])
    );
    assert_eq!(*type_of(&m.variables, "s"), Type::seq(Type::Bool));
    assert_eq!(*type_of(&m.variables, "c"), Type::set(given("COL")));
    let get = &m.operations[0];
    assert_eq!(get.params[0].ty, Type::Integer);
    assert_eq!(get.outputs[0].ty, Type::Bool);
    assert_eq!(m.operations[1].params[0].ty, given("COL"));
    assert_eq!(m.sets.len(), 2);
}

/// The first `Binary` operator found in an expression tree, pre-order.
fn first_binary(e: &ir::Expr) -> Option<BinaryOp> {
    match &e.kind {
        ExprKind::Binary(op, _, _) => Some(*op),
        _ => None,
    }
}

#[test]
fn minus_and_times_follow_operand_types() {
    let m = check(
        "ambiguous.mch",
        "MACHINE M
CONSTANTS a, b, c, d, k
PROPERTIES c = a * b & a = {1} & b = {TRUE} & d = a - {2} & k = 2 * 3 - 1
END",
    )
    .expect("checks");
    assert_eq!(
        *type_of(&m.constants, "c"),
        Type::relation(Type::Integer, Type::Bool)
    );
    let ops: Vec<Option<BinaryOp>> = m
        .properties
        .conjuncts()
        .iter()
        .map(|p| match &p.kind {
            PredKind::Compare(_, _, rhs) => first_binary(rhs),
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        vec![
            Some(BinaryOp::Product),
            None,
            None,
            Some(BinaryOp::SetMinus),
            Some(BinaryOp::Sub)
        ]
    );
}

#[test]
fn sugar_is_removed() {
    let m = check(
        "sugar.mch",
        "MACHINE M
CONSTANTS x
PROPERTIES x > 1 & x /: {5} & (x = 2 or x = 3 or x = 4)
END",
    )
    .expect("checks");
    let c = m.properties.conjuncts();
    assert_eq!(c.len(), 3);
    // x > 1 becomes 1 < x.
    let PredKind::Compare(ir::CompareOp::Lt, lhs, _) = &c[0].kind else {
        panic!("{:?}", c[0].kind)
    };
    assert_eq!(lhs.kind, ExprKind::Int(1.into()));
    assert!(matches!(c[1].kind, PredKind::Not(_)));
    let PredKind::Or(parts) = &c[2].kind else {
        panic!("or")
    };
    assert_eq!(parts.len(), 3);
}

#[test]
fn reports_mismatch_with_types_and_position() {
    let text = "MACHINE M\nCONSTANTS x\nPROPERTIES x : INTEGER & x + {1} = 2\nEND";
    let err = check("mismatch.mch", text).expect_err("ill-typed");
    assert_eq!(
        err.message,
        "type mismatch: expected INTEGER, found POW(INTEGER) in `x + {1}`"
    );
    assert_eq!(
        err.to_string(),
        format!("mismatch.mch:3:26: {}", err.message)
    );
}

#[test]
fn reports_untyped_and_unknown_identifiers() {
    let err = check(
        "untyped.mch",
        "MACHINE M\nCONSTANTS c, d\nPROPERTIES d = 1 & c = c\nEND",
    )
    .expect_err("untyped");
    assert_eq!(
        err.to_string(),
        "untyped.mch:2:11: could not infer a type for constant `c`"
    );
    let err = check(
        "unknown.mch",
        "MACHINE M\nCONSTANTS c\nPROPERTIES c = foo + 1\nEND",
    )
    .expect_err("unknown");
    assert_eq!(
        err.to_string(),
        "unknown.mch:3:16: unknown identifier `foo`"
    );
    let err = check(
        "vars.mch",
        "MACHINE M\nCONSTANTS c\nPROPERTIES c = v\nVARIABLES v\nINVARIANT v = 1\nINITIALISATION v := 1\nEND",
    )
    .expect_err("variable in PROPERTIES");
    assert!(
        err.message.contains("variable `v` cannot be used here"),
        "{err}"
    );
}

#[test]
fn rejects_predicate_as_expression_and_back() {
    let err = check(
        "role.mch",
        "MACHINE M\nCONSTANTS c\nPROPERTIES c = (1 < 2)\nEND",
    )
    .expect_err("predicate in expression");
    assert!(
        err.message
            .starts_with("expected an expression, found a predicate"),
        "{err}"
    );
    assert_eq!(err.span.location().map(|l| (l.1, l.2)), Some((3, 16)));
    let err = check(
        "role2.mch",
        "MACHINE M\nCONSTANTS c\nPROPERTIES c = 1 & c\nEND",
    )
    .expect_err("expression as predicate");
    assert_eq!(
        err.to_string(),
        "role2.mch:3:20: expected a predicate, found an expression `c`"
    );
}

#[test]
fn types_binders_let_if_and_before_values() {
    let m = check(
        "binders.mch",
        "MACHINE M
CONSTANTS sq, t
PROPERTIES sq = %x.(x : 1..3 | x * x) & t = LET y BE y = 2 IN IF y > 1 THEN {y} ELSE {} END END
  & !z.(z : 1..2 => #w.(w : BOOL & bool(z > 1) = w))
VARIABLES v
INVARIANT v : NAT
INITIALISATION v := 0
OPERATIONS
  bump = v : (v > v$0)
END",
    )
    .expect("checks");
    assert_eq!(
        *type_of(&m.constants, "sq"),
        Type::relation(Type::Integer, Type::Integer)
    );
    assert_eq!(*type_of(&m.constants, "t"), Type::set(Type::Integer));
    let ir::SubstKind::BecomesSuchThat(names, _) = &m.operations[0].body.kind else {
        panic!("{:?}", m.operations[0].body.kind)
    };
    assert_eq!(names[0].ty, Type::Integer);
}

#[test]
fn definitions_and_settings_are_applied() {
    let m = check(
        "defs.mch",
        "MACHINE M
DEFINITIONS SQ(a) == a * a; LIM == SQ(3); SET_PREF_MAXINT == 2**8 - 1; scope_S == 1..4;
  GOAL == (v = LIM); ANIMATION_FUNCTION == {}
SETS S
VARIABLES v
INVARIANT v : 0..LIM
INITIALISATION v := 0
OPERATIONS inc = PRE v < LIM THEN v := v + 1 END
END",
    )
    .expect("checks");
    assert_eq!(m.settings.len(), 2);
    assert_eq!(&*m.settings[0].0, "SET_PREF_MAXINT");
    assert_eq!(m.settings[0].1, ir::SettingValue::Int(255.into()));
    assert_eq!(m.settings[1].1, ir::SettingValue::Range(1.into(), 4.into()));
    assert!(m.goal.is_some());
    let err = check(
        "rec.mch",
        "MACHINE M\nDEFINITIONS A == B + 1; B == A\nCONSTANTS c\nPROPERTIES c = A\nEND",
    )
    .expect_err("recursive");
    assert!(err.message.contains("deeper than 64"), "{err}");
}

#[test]
fn formulas_get_free_identifiers() {
    let text = "MACHINE M\nSETS S\nCONSTANTS k\nPROPERTIES k = 3\nEND";
    let ast = load_text("formula.mch", text, Path::new(".")).expect("loads");
    let m = check_machine(&ast).expect("checks");
    let file = crate::diag::register_source("<formula>", "y > k & z : S");
    let term = crate::syntax::parse_term(file, "y > k & z : S").expect("parses");
    let Formula::Pred(_, free) = check_formula(&ast, &m, &term).expect("types") else {
        panic!("a predicate")
    };
    assert_eq!(free.len(), 2);
    assert_eq!(*type_of(&free, "y"), Type::Integer);
    assert_eq!(*type_of(&free, "z"), given("S"));
    let file = crate::diag::register_source("<formula2>", "card(S) + k");
    let term = crate::syntax::parse_term(file, "card(S) + k").expect("parses");
    let Formula::Expr(e, free) = check_formula(&ast, &m, &term).expect("types") else {
        panic!("an expression")
    };
    assert!(free.is_empty());
    assert_eq!(e.ty, Type::Integer);
}

#[test]
fn only_variables_outputs_and_var_identifiers_are_assignable() {
    let err = check(
        "assign_param.mch",
        "MACHINE M\nVARIABLES v\nINVARIANT v : NAT\nINITIALISATION v := 0\nOPERATIONS\n  set(p) = PRE p : NAT THEN p := 1 END\nEND",
    )
    .expect_err("parameter assigned");
    assert_eq!(
        err.to_string(),
        "assign_param.mch:6:29: cannot assign to operation parameter `p`"
    );
    let err = check(
        "assign_const.mch",
        "MACHINE M\nCONSTANTS c\nPROPERTIES c = 1\nVARIABLES v\nINVARIANT v : NAT\nINITIALISATION c := 0\nEND",
    )
    .expect_err("constant assigned");
    assert!(
        err.message.contains("cannot assign to constant `c`"),
        "{err}"
    );
    check(
        "assign_ok.mch",
        "MACHINE M\nVARIABLES v\nINVARIANT v : NAT\nINITIALISATION v := 0\nOPERATIONS\n  r <-- op = VAR t IN t := v + 1; r := t END\nEND",
    )
    .expect("outputs and VAR identifiers are assignable");
}

/// A parameter may hide a variable (ProB accepts it); an output may not: `v := 1` would name both.
#[test]
fn an_output_named_like_a_variable_is_refused_a_parameter_hides_it() {
    let text = |op: &str| {
        format!(
            "MACHINE M\nVARIABLES v, w\nINVARIANT v : NAT & w : NAT\nINITIALISATION v, w := 0, 0\nOPERATIONS\n  {op}\nEND"
        )
    };
    let err = check("output_clash.mch", &text("v <-- get = BEGIN v := w END"))
        .expect_err("output named like a variable");
    assert_eq!(
        err.to_string(),
        "output_clash.mch:6:3: output `v` of operation `get` is named like a variable: \
         assigning it would name both"
    );
    check(
        "param_hides.mch",
        &text("set(v) = PRE v : NAT THEN w := v END"),
    )
    .expect("a parameter hides the variable");
}

#[test]
fn machine_parameters_are_typed_by_constraints_and_hidden_from_properties() {
    let m = check(
        "params.mch",
        "MACHINE M(n, ELEM)\nCONSTRAINTS n : NAT & card(ELEM) > n\nVARIABLES v\nINVARIANT v <: ELEM\nINITIALISATION v := {}\nEND",
    )
    .expect("checks");
    assert_eq!(m.params.len(), 1);
    assert_eq!(m.params[0].ty, Type::Integer);
    assert_eq!(&*m.sets[0].name, "ELEM");
    assert_eq!(m.variables[0].ty, Type::set(given("ELEM")));
    let err = check(
        "params_props.mch",
        "MACHINE M(n)\nCONSTRAINTS n : NAT\nCONSTANTS c\nPROPERTIES c = n\nEND",
    )
    .expect_err("parameter in PROPERTIES");
    assert_eq!(
        err.to_string(),
        "params_props.mch:4:16: machine parameter `n` cannot be used here"
    );
}

#[test]
fn prob_externals_are_lowered_only_where_the_machine_makes_them_available() {
    let m = check(
        "externals.mch",
        "MACHINE M
DEFINITIONS \"LibraryStrings.def\"; \"LibraryIO.def\"
CONSTANTS n
PROPERTIES n = STRING_LENGTH(\"ab\") & observe(n)
VARIABLES x
INVARIANT x : INTEGER
INITIALISATION x := ARGC
OPERATIONS show = PRINTF(\"~w~n\", [x])
END",
    )
    .expect("externals of the included libraries type-check");
    let PredKind::And(parts) = &m.properties.kind else {
        panic!("a conjunction: {:?}", m.properties.kind)
    };
    let PredKind::Compare(_, _, call) = &parts[0].kind else {
        panic!("n = STRING_LENGTH(..)")
    };
    let ExprKind::Binary(BinaryOp::Apply, f, _) = &call.kind else {
        panic!("an application")
    };
    assert!(matches!(&f.kind, ExprKind::Var(v) if &**v == "$external:STRING_LENGTH"));
    assert_eq!(parts[1].kind, PredKind::True);
    assert_eq!(m.operations[0].body.kind, ir::SubstKind::Skip);
    // Without the library, the same names are unknown; a definition not marked external is expanded.
    let err = check(
        "no_library.mch",
        "MACHINE M\nCONSTANTS n\nPROPERTIES n = STRING_LENGTH(\"ab\")\nEND",
    )
    .expect_err("STRING_LENGTH is not defined");
    assert!(err.message.contains("unknown identifier `STRING_LENGTH`"));
    let m = check(
        "plain_choose.mch",
        "MACHINE M\nDEFINITIONS CHOOSE(X) == 7\nCONSTANTS n\nPROPERTIES n = CHOOSE({1})\nEND",
    )
    .expect("an ordinary definition");
    assert!(format!("{:?}", m.properties).contains("Int(7)"));
}

#[test]
fn values_of_constants_join_the_properties_and_values_of_sets_are_skipped() {
    let m = check(
        "values.imp",
        "IMPLEMENTATION I\nSETS S\nCONCRETE_CONSTANTS c, d\nPROPERTIES c : INT & d : INT\n\
         VALUES c = -3; S = 1..4; d = c\nEND",
    )
    .expect("valuations type-check");
    let text = format!("{:?}", m.properties);
    assert!(text.contains("Int(-3)") || text.contains("Neg"), "{text}");
    let err = check(
        "values_bad.imp",
        "IMPLEMENTATION I\nCONCRETE_CONSTANTS c\nPROPERTIES c : INT\nVALUES c = TRUE\nEND",
    )
    .expect_err("a boolean for an integer constant");
    assert!(err.message.contains("type mismatch"), "{}", err.message);
    let err = check(
        "values_var.imp",
        "IMPLEMENTATION I\nCONCRETE_VARIABLES v\nINVARIANT v : INT\nINITIALISATION v := 0\nVALUES v = 1\nEND",
    )
    .expect_err("a variable has no valuation");
    assert!(
        err.message.contains("not a constant or a set"),
        "{}",
        err.message
    );
}

#[test]
fn let_definitions_are_equalities_for_the_let_identifiers_in_any_order_of_use() {
    check(
        "let_ok.mch",
        "MACHINE M\nOPERATIONS r <-- op = LET ii, jj BE ii = 2 + 2 & jj = ii + ii IN r := jj END\nEND",
    )
    .expect("each identifier defined once, the later ones using the earlier");
    let err = check(
        "let_bad.mch",
        "MACHINE M\nOPERATIONS r <-- op = LET ii, jj BE ii = 4 & jj = 8 & ii < jj IN r := jj END\nEND",
    )
    .expect_err("`ii < jj` is no definition");
    assert_eq!(err.kind, crate::diag::DiagKind::Type);
    assert!(err.message.contains("found `ii < jj`"), "{}", err.message);
}

#[test]
fn b_toolkit_true_as_a_predicate_is_explained() {
    let err = check(
        "pre_true.mch",
        "MACHINE M\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\n\
         OPERATIONS op = PRE true THEN x := 1 END\nEND",
    )
    .expect_err("`true` is no B predicate");
    assert!(err.message.contains("write `btrue`"), "{}", err.message);
}

#[test]
fn mixing_integer_and_string_is_a_b_type_error_and_a_tla_value() {
    let text = "MACHINE M\nVARIABLES x, s\nINVARIANT x = 1 or x = \"a\"\n\
                INITIALISATION x := 1 || s := {1, \"a\"}\nEND";
    let err = check("mixed.mch", text).expect_err("B keeps kinds apart");
    assert_eq!(
        err.to_string(),
        "mixed.mch:3:20: type mismatch: expected INTEGER, found STRING in `x = \"a\"`"
    );
    // The same machine lowered from TLA+ types both as TLA+ values of mixed kind.
    let mut m = load_text("mixed.mch", text, Path::new(".")).expect("parses");
    m.tla_values = true;
    let typed = check_machine(&m).expect("TLA+ values mix");
    assert_eq!(type_of(&typed.variables, "x"), &Type::TlaValue);
    assert_eq!(type_of(&typed.variables, "s"), &Type::set(Type::TlaValue));
}

#[test]
fn records_with_different_fields_are_a_b_type_error_and_a_tla_value() {
    let text = "MACHINE M\nVARIABLES s, t\n\
                INVARIANT s = {rec(a: 1)} \\/ {rec(a: 2, b: TRUE)} & t = rec(a: 1)\n\
                INITIALISATION s := {rec(a: 1)} || t := rec(a: 1)\nEND";
    let err = check("records.mch", text).expect_err("B records of one type have the same fields");
    assert!(err.to_string().contains("type mismatch"), "{err}");
    // From TLA+, the set holds records of either shape; a record alone keeps its record type.
    let mut m = load_text("records.mch", text, Path::new(".")).expect("parses");
    m.tla_values = true;
    let typed = check_machine(&m).expect("TLA+ records mix");
    assert_eq!(type_of(&typed.variables, "s"), &Type::set(Type::TlaValue));
    assert_eq!(
        type_of(&typed.variables, "t"),
        &Type::Struct(vec![("a".into(), Type::Integer)])
    );
}

#[test]
fn a_tla_tuple_is_a_pair_or_a_sequence_as_its_uses_say() {
    // `[a, b]` is a B sequence; from TLA+ (`<<a, b>>` lowers to the same term) it is a pair where a
    // product or mixed components say so, and a sequence where a sequence operator does.
    let text = "MACHINE M\nVARIABLES p, q, r\n\
                INVARIANT p : {1} * {TRUE} & size(q) = 2 & r(2) = \"a\"\n\
                INITIALISATION p := [1, TRUE] || q := [1, 2] || r := [1, \"a\"]\nEND";
    let err = check("tuples.mch", text).expect_err("a B sequence has one element type");
    assert!(err.to_string().contains("type mismatch"), "{err}");
    let mut m = load_text("tuples.mch", text, Path::new(".")).expect("parses");
    m.tla_values = true;
    let typed = check_machine(&m).expect("TLA+ tuples type");
    assert_eq!(
        type_of(&typed.variables, "p"),
        &Type::pair(Type::Integer, Type::Bool)
    );
    assert_eq!(type_of(&typed.variables, "q"), &Type::seq(Type::Integer));
    assert_eq!(
        type_of(&typed.variables, "r"),
        &Type::pair(Type::Integer, Type::String)
    );
}
