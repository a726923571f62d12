//! Interpreter tests on hand-built IR (the full text pipeline is tested in `tests/operators.rs`).

use super::*;
use crate::diag::{DiagKind, Span};
use crate::ir::{
    AssignTarget, BinaryOp as B, BinderKind, CompareOp as C, Expr, ExprConst, ExprKind, GivenSet,
    Machine, Pred, PredKind, Subst, SubstKind, TypedName, UnaryOp as U,
};
use crate::types::Type;

fn sp() -> Span {
    Span::default()
}
fn int(i: i64) -> Expr {
    Expr::new(ExprKind::Int(i.into()), Type::Integer, sp())
}
fn ity() -> Type {
    Type::Integer
}
fn iset() -> Type {
    Type::set(Type::Integer)
}
fn irel() -> Type {
    Type::relation(Type::Integer, Type::Integer)
}
fn var(n: &str, ty: Type) -> Expr {
    Expr::new(ExprKind::Var(n.into()), ty, sp())
}
fn konst(c: ExprConst) -> Expr {
    let ty = match c {
        ExprConst::MaxInt | ExprConst::MinInt => ity(),
        ExprConst::BoolSet => Type::set(Type::Bool),
        ExprConst::StringSet => Type::set(Type::String),
        _ => iset(),
    };
    Expr::new(ExprKind::Const(c), ty, sp())
}
fn un(op: U, a: Expr, ty: Type) -> Expr {
    Expr::new(ExprKind::Unary(op, Box::new(a)), ty, sp())
}
fn bin(op: B, a: Expr, b: Expr, ty: Type) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, sp())
}
fn setof(items: Vec<Expr>, ty: Type) -> Expr {
    Expr::new(ExprKind::SetEnum(items), ty, sp())
}
fn ints(items: &[i64]) -> Expr {
    setof(items.iter().map(|&i| int(i)).collect(), iset())
}
fn mp(a: Expr, b: Expr) -> Expr {
    let ty = Type::pair(a.ty.clone(), b.ty.clone());
    bin(B::Maplet, a, b, ty)
}
fn rel(pairs: &[(i64, i64)]) -> Expr {
    setof(
        pairs.iter().map(|&(a, b)| mp(int(a), int(b))).collect(),
        irel(),
    )
}
fn seq(items: &[i64]) -> Expr {
    Expr::new(
        ExprKind::SeqEnum(items.iter().map(|&i| int(i)).collect()),
        irel(),
        sp(),
    )
}
fn tn(n: &str, ty: Type) -> TypedName {
    TypedName {
        name: n.into(),
        ty,
        span: sp(),
    }
}
fn cmp(op: C, a: Expr, b: Expr) -> Pred {
    Pred::new(PredKind::Compare(op, Box::new(a), Box::new(b)), sp())
}
fn and(ps: Vec<Pred>) -> Pred {
    Pred::new(PredKind::And(ps), sp())
}
fn implies(a: Pred, b: Pred) -> Pred {
    Pred::new(PredKind::Implies(Box::new(a), Box::new(b)), sp())
}
fn x() -> Expr {
    var("x", ity())
}
fn lambda(vars: Vec<TypedName>, p: Pred, body: Expr) -> Expr {
    Expr::new(
        ExprKind::Binder(
            BinderKind::Lambda,
            Arc::new(vars),
            Arc::new(p),
            Arc::new(body),
        ),
        irel(),
        sp(),
    )
}
fn square_lambda(domain: Expr) -> Expr {
    lambda(
        vec![tn("x", ity())],
        cmp(C::In, x(), domain),
        bin(B::Mul, x(), x(), ity()),
    )
}

fn machine() -> Machine {
    Machine {
        name: "M".into(),
        span: sp(),
        params: vec![],
        sets: vec![
            GivenSet {
                name: "D".into(),
                span: sp(),
                elements: None,
            },
            GivenSet {
                name: "Colour".into(),
                span: sp(),
                elements: Some(vec!["red".into(), "green".into()]),
            },
        ],
        constants: vec![],
        variables: vec![],
        constraints: Pred::truth(sp()),
        properties: cmp(
            C::Eq,
            un(U::Card, var("D", Type::set(Type::Given("D".into()))), ity()),
            int(6),
        ),
        invariant: Pred::truth(sp()),
        assertions: vec![],
        initialisation: Subst {
            kind: SubstKind::Skip,
            span: sp(),
        },
        operations: vec![],
        settings: vec![],
        goal: None,
        scope: None,
        state_constraint: None,
    }
}

fn ctx() -> Context {
    Context::new(
        machine(),
        Settings::default(),
        crate::solve::Solver::shared(),
    )
    .expect("context")
}

fn show(e: &Expr) -> String {
    match ctx().eval_expr(e, &Env::new()) {
        Ok(v) => v.to_string(),
        Err(EvalError::WellDefinedness(_)) => "WD".into(),
        Err(EvalError::Limit(_)) => "LIMIT".into(),
        Err(EvalError::Unsupported(d)) => format!("UNSUPPORTED {}", d.message),
    }
}

fn holds(p: &Pred) -> Result<bool, String> {
    ctx().eval_pred(p, &Env::new()).map_err(|e| match e {
        EvalError::WellDefinedness(_) => "WD".to_string(),
        EvalError::Limit(_) => "LIMIT".to_string(),
        EvalError::Unsupported(d) => d.message,
    })
}

#[test]
fn arithmetic_and_wd_errors() {
    let cases: Vec<(Expr, &str)> = vec![
        (bin(B::Add, int(2), int(3), ity()), "5"),
        (bin(B::Sub, int(2), int(3), ity()), "-1"),
        (bin(B::Mul, int(-4), int(3), ity()), "-12"),
        (bin(B::Div, int(-7), int(2), ity()), "-3"),
        (bin(B::Mod, int(-7), int(2), ity()), "1"),
        (
            bin(B::Power, int(2), int(70), ity()),
            "1180591620717411303424",
        ),
        (bin(B::Div, int(1), int(0), ity()), "WD"),
        (bin(B::Mod, int(1), int(0), ity()), "WD"),
        (bin(B::Power, int(2), int(-1), ity()), "WD"),
        (un(U::Neg, int(5), ity()), "-5"),
        (un(U::Succ, int(5), ity()), "6"),
        (un(U::Pred, int(5), ity()), "4"),
        (konst(ExprConst::MaxInt), "3"),
        (konst(ExprConst::MinInt), "-1"),
        (konst(ExprConst::Nat), "{0,1,2,3}"),
        (konst(ExprConst::Nat1), "{1,2,3}"),
        (konst(ExprConst::Int), "{-1,0,1,2,3}"),
        (konst(ExprConst::BoolSet), "{FALSE,TRUE}"),
        (konst(ExprConst::Natural), "LIMIT"),
    ];
    for (e, want) in cases {
        assert_eq!(show(&e), want, "{e:?}");
    }
}

#[test]
fn set_operators() {
    let a = ints(&[1, 2, 3]);
    let b = ints(&[3, 4]);
    let sets = Type::set(iset());
    let cases: Vec<(Expr, &str)> = vec![
        (bin(B::Union, a.clone(), b.clone(), iset()), "{1,2,3,4}"),
        (bin(B::Inter, a.clone(), b.clone(), iset()), "{3}"),
        (bin(B::SetMinus, a.clone(), b.clone(), iset()), "{1,2}"),
        (
            bin(B::Product, ints(&[1]), b.clone(), irel()),
            "{1|->3,1|->4}",
        ),
        (bin(B::Interval, int(2), int(4), iset()), "{2,3,4}"),
        (bin(B::Interval, int(4), int(2), iset()), "{}"),
        (un(U::Card, a.clone(), ity()), "3"),
        (un(U::Card, un(U::Pow, a.clone(), sets.clone()), ity()), "8"),
        (
            un(U::Card, un(U::Pow1, a.clone(), sets.clone()), ity()),
            "7",
        ),
        (
            un(U::Pow, ints(&[1, 2]), sets.clone()),
            "{{},{1},{1,2},{2}}",
        ),
        (un(U::Fin1, ints(&[1]), sets.clone()), "{{1}}"),
        (un(U::Card, konst(ExprConst::Integer), ity()), "WD"),
        (un(U::Max, a.clone(), ity()), "3"),
        (un(U::Min, a.clone(), ity()), "1"),
        (un(U::Max, ints(&[]), ity()), "WD"),
        (un(U::Min, konst(ExprConst::Natural), ity()), "0"),
        (un(U::Max, konst(ExprConst::Natural), ity()), "WD"),
        (
            un(
                U::GenUnion,
                setof(vec![a.clone(), b.clone()], sets.clone()),
                iset(),
            ),
            "{1,2,3,4}",
        ),
        (
            un(
                U::GenInter,
                setof(vec![a.clone(), b.clone()], sets.clone()),
                iset(),
            ),
            "{3}",
        ),
        (un(U::GenInter, setof(vec![], sets.clone()), iset()), "WD"),
        (
            bin(
                B::Inter,
                konst(ExprConst::Natural),
                ints(&[-1, 0, 5]),
                iset(),
            ),
            "{0,5}",
        ),
        (
            un(
                U::Card,
                bin(B::Interval, int(1), int(1_000_000_000), iset()),
                ity(),
            ),
            "1000000000",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(show(&e), want, "{e:?}");
    }
}

#[test]
fn relation_operators() {
    let r = rel(&[(1, 2), (2, 3), (3, 3)]);
    let cases: Vec<(Expr, &str)> = vec![
        (un(U::Dom, r.clone(), iset()), "{1,2,3}"),
        (un(U::Ran, r.clone(), iset()), "{2,3}"),
        (un(U::Id, ints(&[1, 2]), irel()), "{1|->1,2|->2}"),
        (un(U::Inverse, r.clone(), irel()), "{2|->1,3|->2,3|->3}"),
        (
            bin(B::DomRestrict, ints(&[1, 3]), r.clone(), irel()),
            "{1|->2,3|->3}",
        ),
        (
            bin(B::DomSubtract, ints(&[1, 3]), r.clone(), irel()),
            "{2|->3}",
        ),
        (
            bin(B::RanRestrict, r.clone(), ints(&[2]), irel()),
            "{1|->2}",
        ),
        (
            bin(B::RanSubtract, r.clone(), ints(&[2]), irel()),
            "{2|->3,3|->3}",
        ),
        (bin(B::Image, r.clone(), ints(&[1, 2]), iset()), "{2,3}"),
        (bin(B::Apply, r.clone(), int(2), ity()), "3"),
        (bin(B::Apply, r.clone(), int(7), ity()), "WD"),
        (bin(B::Apply, rel(&[(1, 2), (1, 3)]), int(1), ity()), "WD"),
        (
            bin(B::Override, r.clone(), rel(&[(1, 9), (5, 5)]), irel()),
            "{1|->9,2|->3,3|->3,5|->5}",
        ),
        (
            bin(
                B::DirectProduct,
                rel(&[(1, 2)]),
                rel(&[(1, 3), (1, 4)]),
                irel(),
            ),
            "{1|->(2|->3),1|->(2|->4)}",
        ),
        (
            bin(B::Composition, r.clone(), rel(&[(3, 7)]), irel()),
            "{2|->7,3|->7}",
        ),
        (
            bin(B::ParallelProduct, rel(&[(1, 2)]), rel(&[(3, 4)]), irel()),
            "{1|->3|->(2|->4)}",
        ),
        (
            bin(B::Prj1, ints(&[1]), ints(&[2, 3]), irel()),
            "{1|->2|->1,1|->3|->1}",
        ),
        (
            bin(B::Prj2, ints(&[1]), ints(&[2, 3]), irel()),
            "{1|->2|->2,1|->3|->3}",
        ),
        (
            un(U::Closure1, rel(&[(1, 2), (2, 3)]), irel()),
            "{1|->2,1|->3,2|->3}",
        ),
        (
            bin(B::Iterate, rel(&[(1, 2), (2, 3)]), int(2), irel()),
            "{1|->3}",
        ),
        (bin(B::Iterate, rel(&[(1, 2)]), int(-1), irel()), "WD"),
        (un(U::Fnc, rel(&[(1, 2), (1, 3)]), irel()), "{1|->{2,3}}"),
        (
            un(
                U::Rel,
                setof(vec![mp(int(1), ints(&[2, 3]))], irel()),
                irel(),
            ),
            "{1|->2,1|->3}",
        ),
        (un(U::PairFirst, mp(int(1), int(2)), ity()), "1"),
        (un(U::PairSecond, mp(int(1), int(2)), ity()), "2"),
        // closure over BOOL: id(BOOL) plus the transitive closure.
        (
            un(
                U::Closure,
                setof(
                    vec![mp(
                        Expr::new(ExprKind::Bool(true), Type::Bool, sp()),
                        Expr::new(ExprKind::Bool(false), Type::Bool, sp()),
                    )],
                    Type::relation(Type::Bool, Type::Bool),
                ),
                Type::relation(Type::Bool, Type::Bool),
            ),
            "{FALSE|->FALSE,TRUE|->FALSE,TRUE|->TRUE}",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(show(&e), want, "{e:?}");
    }
}

#[test]
fn function_arrows_by_membership_and_enumeration() {
    let a = ints(&[1, 2]);
    let b = ints(&[3, 4]);
    let arrow = |op| bin(op, a.clone(), b.clone(), Type::set(irel()));
    let card = |op| show(&un(U::Card, arrow(op), ity()));
    assert_eq!(card(B::Relation), "16");
    assert_eq!(card(B::TotalRelation), "9");
    assert_eq!(card(B::SurjRelation), "9");
    assert_eq!(card(B::TotalSurjRelation), "7");
    assert_eq!(card(B::PartialFunction), "9");
    assert_eq!(card(B::TotalFunction), "4");
    assert_eq!(card(B::PartialInjection), "7");
    assert_eq!(card(B::TotalInjection), "2");
    assert_eq!(card(B::PartialSurjection), "2");
    assert_eq!(card(B::TotalSurjection), "2");
    assert_eq!(card(B::PartialBijection), "2");
    assert_eq!(card(B::TotalBijection), "2");
    let member = |f: Expr, op| holds(&cmp(C::In, f, arrow(op)));
    assert_eq!(member(rel(&[(1, 3), (2, 3)]), B::TotalFunction), Ok(true));
    assert_eq!(member(rel(&[(1, 3), (2, 3)]), B::TotalInjection), Ok(false));
    assert_eq!(
        member(rel(&[(1, 3), (1, 4)]), B::PartialFunction),
        Ok(false)
    );
    assert_eq!(member(rel(&[(1, 3)]), B::TotalFunction), Ok(false));
    // Membership in an arrow between infinite sets needs no enumeration.
    let nat_to_int = bin(
        B::PartialFunction,
        konst(ExprConst::Natural),
        konst(ExprConst::Integer),
        Type::set(irel()),
    );
    assert_eq!(
        holds(&cmp(C::In, rel(&[(1, -3), (2, 3)]), nat_to_int)),
        Ok(true)
    );
    let total_nat = bin(
        B::TotalFunction,
        konst(ExprConst::Natural),
        konst(ExprConst::Integer),
        Type::set(irel()),
    );
    assert_eq!(holds(&cmp(C::In, rel(&[(1, 3)]), total_nat)), Ok(false));
}

#[test]
fn sequence_operators() {
    let s = seq(&[5, 6, 7]);
    let seqs = Type::set(irel());
    let cases: Vec<(Expr, &str)> = vec![
        (un(U::Size, s.clone(), ity()), "3"),
        (un(U::Rev, s.clone(), irel()), "{1|->7,2|->6,3|->5}"),
        (un(U::First, s.clone(), ity()), "5"),
        (un(U::Last, s.clone(), ity()), "7"),
        (un(U::Front, s.clone(), irel()), "{1|->5,2|->6}"),
        (un(U::Tail, s.clone(), irel()), "{1|->6,2|->7}"),
        (un(U::First, seq(&[]), ity()), "WD"),
        (un(U::Tail, seq(&[]), irel()), "WD"),
        (
            bin(B::Concat, seq(&[1]), seq(&[2]), irel()),
            "{1|->1,2|->2}",
        ),
        (bin(B::Prepend, int(0), seq(&[1]), irel()), "{1|->0,2|->1}"),
        (bin(B::Append, seq(&[1]), int(0), irel()), "{1|->1,2|->0}"),
        (bin(B::Take, s.clone(), int(2), irel()), "{1|->5,2|->6}"),
        (bin(B::Drop, s.clone(), int(2), irel()), "{1|->7}"),
        (bin(B::Take, s.clone(), int(4), irel()), "WD"),
        (
            un(
                U::Conc,
                Expr::new(
                    ExprKind::SeqEnum(vec![seq(&[1]), seq(&[2, 3])]),
                    Type::seq(irel()),
                    sp(),
                ),
                irel(),
            ),
            "{1|->1,2|->2,3|->3}",
        ),
        (
            un(U::Card, un(U::Iseq, ints(&[1, 2]), seqs.clone()), ity()),
            "5",
        ),
        (
            un(U::Card, un(U::Iseq1, ints(&[1, 2]), seqs.clone()), ity()),
            "4",
        ),
        (
            un(U::Card, un(U::Perm, ints(&[1, 2, 3]), seqs.clone()), ity()),
            "6",
        ),
        (
            un(U::Card, un(U::Seq, ints(&[1]), seqs.clone()), ity()),
            "WD",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(show(&e), want, "{e:?}");
    }
    let seq_nat = un(U::Seq, konst(ExprConst::Natural), seqs.clone());
    assert_eq!(holds(&cmp(C::In, s.clone(), seq_nat.clone())), Ok(true));
    assert_eq!(holds(&cmp(C::In, rel(&[(2, 1)]), seq_nat)), Ok(false));
    let seq1 = un(U::Seq1, ints(&[5, 6, 7]), seqs.clone());
    assert_eq!(holds(&cmp(C::In, seq(&[]), seq1)), Ok(false));
    let perm = un(U::Perm, ints(&[5, 6, 7]), seqs);
    assert_eq!(holds(&cmp(C::In, s, perm)), Ok(true));
}

#[test]
fn symbolic_sets_are_not_enumerated() {
    assert_eq!(
        holds(&cmp(C::In, int(5), konst(ExprConst::Natural))),
        Ok(true)
    );
    assert_eq!(
        holds(&cmp(C::In, int(-5), konst(ExprConst::Natural))),
        Ok(false)
    );
    assert_eq!(
        holds(&cmp(C::In, int(0), konst(ExprConst::Natural1))),
        Ok(false)
    );
    let big = bin(B::Interval, int(1), int(1_000_000_000), iset());
    assert_eq!(holds(&cmp(C::In, int(999_999_999), big.clone())), Ok(true));
    assert_eq!(
        holds(&cmp(
            C::Subset,
            konst(ExprConst::Natural),
            konst(ExprConst::Integer)
        )),
        Ok(true)
    );
    assert_eq!(
        holds(&cmp(
            C::Subset,
            konst(ExprConst::Integer),
            konst(ExprConst::Natural)
        )),
        Ok(false)
    );
    assert_eq!(
        holds(&cmp(C::Subset, big, konst(ExprConst::Natural1))),
        Ok(true)
    );
    // {y | y mod 2 = 0}
    let evens = Expr::new(
        ExprKind::Comprehension(
            Arc::new(vec![tn("y", ity())]),
            Arc::new(cmp(
                C::Eq,
                bin(B::Mod, var("y", ity()), int(2), ity()),
                int(0),
            )),
        ),
        iset(),
        sp(),
    );
    assert_eq!(holds(&cmp(C::In, int(1_000_000), evens.clone())), Ok(true));
    assert_eq!(holds(&cmp(C::In, int(7), evens.clone())), Ok(false));
    assert_eq!(show(&un(U::Card, evens, ity())), "LIMIT");
    let sq = square_lambda(konst(ExprConst::Natural));
    assert_eq!(show(&bin(B::Apply, sq.clone(), int(5), ity())), "25");
    assert_eq!(show(&bin(B::Apply, sq.clone(), int(-5), ity())), "WD");
    assert_eq!(
        show(&bin(B::Image, sq.clone(), ints(&[1, 2]), iset())),
        "{1,4}"
    );
    assert_eq!(holds(&cmp(C::In, mp(int(3), int(9)), sq.clone())), Ok(true));
    assert_eq!(show(&un(U::Dom, sq.clone(), iset())), "LIMIT");
    assert_eq!(
        show(&un(
            U::Card,
            square_lambda(bin(B::Interval, int(1), int(10), iset())),
            ity()
        )),
        "10"
    );
    assert_eq!(
        show(&bin(B::Composition, rel(&[(1, 2), (2, 3)]), sq, irel())),
        "{1|->4,2|->9}"
    );
    assert_eq!(
        holds(&cmp(C::Eq, konst(ExprConst::Natural), ints(&[1]))),
        Ok(false)
    );
}

#[test]
fn quantifiers_and_binders() {
    let in_range = |lo, hi| cmp(C::In, x(), bin(B::Interval, int(lo), int(hi), iset()));
    let exists = |vars, p| Pred::new(PredKind::Exists(vars, Box::new(p)), sp());
    let forall = |vars, p| Pred::new(PredKind::Forall(vars, Box::new(p)), sp());
    let xs = || vec![tn("x", ity())];
    let sq_is = |n| cmp(C::Eq, bin(B::Mul, x(), x(), ity()), int(n));
    assert_eq!(
        holds(&exists(xs(), and(vec![in_range(1, 10), sq_is(49)]))),
        Ok(true)
    );
    assert_eq!(
        holds(&exists(xs(), and(vec![in_range(1, 10), sq_is(50)]))),
        Ok(false)
    );
    assert_eq!(
        holds(&forall(
            xs(),
            implies(in_range(1, 5), cmp(C::Lt, x(), int(6)))
        )),
        Ok(true)
    );
    assert_eq!(
        holds(&forall(
            xs(),
            implies(in_range(1, 5), cmp(C::Lt, x(), int(5)))
        )),
        Ok(false)
    );
    // Unbounded: found within MININT..MAXINT is fine, a universal claim is not decidable.
    let x_int = cmp(C::In, x(), konst(ExprConst::Integer));
    assert_eq!(
        holds(&exists(xs(), and(vec![x_int.clone(), sq_is(4)]))),
        Ok(true)
    );
    // A square's bounds narrow x to -7..7 (exact, so complete): found, and 50 has no root.
    assert_eq!(
        holds(&exists(xs(), and(vec![x_int.clone(), sq_is(49)]))),
        Ok(true)
    );
    assert_eq!(
        holds(&exists(xs(), and(vec![x_int.clone(), sq_is(50)]))),
        Ok(false)
    );
    // A cube's root 7 lies beyond MININT..MAXINT: the integer roots of the polynomial equation are
    // computed exactly (`polynomials`), by the oracle too.
    let cube_is = |n| {
        cmp(
            C::Eq,
            bin(B::Mul, bin(B::Mul, x(), x(), ity()), x(), ity()),
            int(n),
        )
    };
    assert_eq!(
        holds(&exists(xs(), and(vec![x_int.clone(), cube_is(343)]))),
        Ok(true)
    );
    assert_eq!(
        holds(&exists(xs(), and(vec![x_int.clone(), cube_is(344)]))),
        Ok(false)
    );
    let brute = Context::new(
        machine(),
        Settings {
            backend: crate::solve::Backend::Brute,
            ..Settings::default()
        },
        crate::solve::Solver::shared(),
    )
    .expect("context");
    assert_eq!(
        brute.eval_pred(
            &exists(xs(), and(vec![x_int.clone(), cube_is(343)])),
            &Env::new()
        ),
        Ok(true)
    );
    // Not a polynomial (a division): the enumeration decides nothing beyond MININT..MAXINT, and the
    // oracle (`--backend brute`) asks no solver, so it stays undecided; the SMT solver finds x = 7
    // over unbounded integers.
    let cube_and_half = cmp(
        C::Eq,
        bin(
            B::Add,
            bin(B::Mul, bin(B::Mul, x(), x(), ity()), x(), ity()),
            bin(B::Div, x(), int(2), ity()),
            ity(),
        ),
        int(346),
    );
    assert!(matches!(
        brute.eval_pred(
            &exists(xs(), and(vec![x_int.clone(), cube_and_half.clone()])),
            &Env::new()
        ),
        Err(EvalError::Limit(_))
    ));
    let solved = holds(&exists(xs(), and(vec![x_int.clone(), cube_and_half])));
    let law = holds(&forall(
        xs(),
        implies(
            x_int.clone(),
            cmp(C::Eq, bin(B::Add, x(), int(0), ity()), x()),
        ),
    ));
    if crate::solve::smt::available_for_test("quantifiers_and_binders (over unbounded integers)") {
        assert_eq!(solved, Ok(true));
        assert_eq!(law, Ok(true));
    } else {
        // Without z3 neither is decided: never a guess.
        assert!(solved.is_err(), "{solved:?}");
        assert!(law.is_err(), "{law:?}");
    }
    // Bounds from comparisons make the domain finite.
    let bounded = and(vec![
        x_int.clone(),
        cmp(C::Lt, int(100), x()),
        cmp(C::Le, x(), int(200)),
        sq_is(144 * 100),
    ]);
    assert_eq!(holds(&exists(xs(), bounded)), Ok(true));
    let binder = |k, p, body, ty| {
        Expr::new(
            ExprKind::Binder(k, Arc::new(xs()), Arc::new(p), Arc::new(body)),
            ty,
            sp(),
        )
    };
    assert_eq!(
        show(&binder(BinderKind::Sigma, in_range(1, 4), x(), ity())),
        "10"
    );
    assert_eq!(
        show(&binder(BinderKind::Pi, in_range(1, 4), x(), ity())),
        "24"
    );
    assert_eq!(
        show(&binder(
            BinderKind::Image,
            in_range(1, 3),
            bin(B::Mul, x(), int(2), ity()),
            iset()
        )),
        "{2,4,6}"
    );
    assert_eq!(
        show(&binder(
            BinderKind::Union,
            in_range(1, 3),
            bin(B::Interval, int(0), x(), iset()),
            iset()
        )),
        "{0,1,2,3}"
    );
    assert_eq!(
        show(&binder(
            BinderKind::Inter,
            in_range(1, 3),
            bin(B::Interval, int(0), x(), iset()),
            iset()
        )),
        "{0,1}"
    );
    assert_eq!(
        show(&binder(BinderKind::Inter, in_range(3, 1), x(), iset())),
        "WD"
    );
    let comp = Expr::new(
        ExprKind::Comprehension(
            Arc::new(xs()),
            Arc::new(and(vec![
                in_range(1, 10),
                cmp(C::Eq, bin(B::Mod, x(), int(3), ity()), int(0)),
            ])),
        ),
        iset(),
        sp(),
    );
    assert_eq!(show(&comp), "{3,6,9}");
    // Pairs of variables drawn from a relation.
    let pair_comp = Expr::new(
        ExprKind::Comprehension(
            Arc::new(vec![tn("a", ity()), tn("b", ity())]),
            Arc::new(and(vec![
                cmp(
                    C::In,
                    mp(var("a", ity()), var("b", ity())),
                    rel(&[(1, 2), (3, 1)]),
                ),
                cmp(C::Lt, var("a", ity()), var("b", ity())),
            ])),
        ),
        irel(),
        sp(),
    );
    assert_eq!(show(&pair_comp), "{1|->2}");
    // L-system: the guard protects the division.
    let guarded = and(vec![
        cmp(C::Lt, int(0), int(0)),
        cmp(C::Eq, bin(B::Div, int(1), int(0), ity()), int(1)),
    ]);
    assert_eq!(holds(&guarded), Ok(false));
}

#[test]
fn oracle_counts_all_deferred_set_solutions() {
    let c = ctx();
    let d = Type::Given("D".into());
    let dset = var("D", Type::set(d.clone()));
    let v = |n: &str| var(n, d.clone());
    let vars: Vec<TypedName> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| tn(n, d.clone()))
        .collect();
    let p = and(vec![
        cmp(C::In, v("a"), dset.clone()),
        cmp(C::In, v("b"), dset.clone()),
        Pred::new(PredKind::Not(Box::new(cmp(C::Eq, v("a"), v("b")))), sp()),
        cmp(C::In, v("c"), dset.clone()),
        cmp(C::In, v("d"), dset),
    ]);
    let sols = c
        .solve_by_enumeration(&vars, &p, &Env::new(), 10_000)
        .expect("enumerate");
    assert_eq!(sols.solutions.len(), 1080);
    assert!(sols.complete);
    let cut = c
        .solve_by_enumeration(&vars, &p, &Env::new(), 100)
        .expect("enumerate");
    assert_eq!(cut.solutions.len(), 100);
    assert!(!cut.complete);
    assert_eq!(c.given_set("D", sp()).expect("D").len(), 6);
    assert_eq!(c.given_set("Colour", sp()).expect("Colour").len(), 2);
}

#[test]
fn oracle_marks_integer_enumeration_incomplete() {
    let c = ctx();
    let vars = vec![tn("x", ity())];
    let x_int = cmp(C::In, x(), konst(ExprConst::Integer));
    let above5 = and(vec![x_int.clone(), cmp(C::Lt, int(5), x())]);
    let r = c
        .solve_by_enumeration(&vars, &above5, &Env::new(), 10)
        .expect("enumerate");
    // Beyond MAXINT, a window of MAXINT-MININT+1 values starting at the bound is tried.
    let width: num_bigint::BigInt = &c.settings().maxint - &c.settings().minint;
    assert_eq!(r.solutions.first(), Some(&vec![Value::int(6)]));
    assert_eq!(num_bigint::BigInt::from(r.solutions.len()), width + 1u32);
    assert!(!r.complete, "x > 5 was only explored in a window");
    let squares = and(vec![
        x_int.clone(),
        cmp(C::Le, bin(B::Mul, x(), x(), ity()), int(1)),
        cmp(C::NotEq, x(), int(0)),
    ]);
    let r = c
        .solve_by_enumeration(&vars, &squares, &Env::new(), 10)
        .expect("enumerate");
    assert_eq!(r.solutions, vec![vec![Value::int(-1)], vec![Value::int(1)]]);
    assert!(!r.complete);
    let empty_range = and(vec![
        x_int.clone(),
        cmp(C::Lt, int(5), x()),
        cmp(C::Lt, x(), int(4)),
    ]);
    let r = c
        .solve_by_enumeration(&vars, &empty_range, &Env::new(), 10)
        .expect("enumerate");
    assert!(r.solutions.is_empty());
    assert!(r.complete, "the bounds alone show there is no solution");
    let fixed = and(vec![
        cmp(C::In, x(), konst(ExprConst::Natural)),
        cmp(C::Eq, x(), int(55)),
    ]);
    let r = c
        .solve_by_enumeration(&vars, &fixed, &Env::new(), 10)
        .expect("enumerate");
    assert_eq!(r.solutions, vec![vec![Value::int(55)]]);
    assert!(r.complete, "values fixed by equations are never clipped");
}

fn subst(kind: SubstKind) -> Subst {
    Subst { kind, span: sp() }
}
fn assign(n: &str, e: Expr) -> Subst {
    subst(SubstKind::Assign(vec![(
        AssignTarget::Var(tn(n, e.ty.clone())),
        e,
    )]))
}
fn run(s: &Subst, env: &Env) -> Result<Vec<String>, EvalError> {
    Ok(ctx()
        .execute(s, env)?
        .into_iter()
        .map(|u| {
            u.iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect())
}

#[test]
fn substitutions() {
    let env = Env::new().with("x".into(), Value::int(1)).with(
        "f".into(),
        Value::set_from_vec(vec![Value::pair(Value::int(1), Value::int(1))]),
    );
    let xv = || var("x", ity());
    let inc = assign("x", bin(B::Add, xv(), int(1), ity()));
    let ok = |s: Subst| run(&s, &env).expect("executes");
    assert_eq!(ok(subst(SubstKind::Skip)), vec![""]);
    assert_eq!(ok(inc.clone()), vec!["x=2"]);
    assert_eq!(
        ok(subst(SubstKind::Sequence(vec![inc.clone(), inc.clone()]))),
        vec!["x=3"]
    );
    assert_eq!(
        ok(subst(SubstKind::Parallel(vec![
            inc.clone(),
            assign("y", xv())
        ]))),
        vec!["x=2,y=1"]
    );
    assert_eq!(
        ok(subst(SubstKind::Choice(vec![
            inc.clone(),
            assign("x", int(7))
        ]))),
        vec!["x=2", "x=7"]
    );
    assert_eq!(
        ok(subst(SubstKind::BecomesElementOf(
            vec![tn("x", ity())],
            ints(&[4, 5])
        ))),
        vec!["x=4", "x=5"]
    );
    // An infinite set is searched within MININT..MAXINT (-1..3), as `x : (x : S)` is.
    assert_eq!(
        ok(subst(SubstKind::BecomesElementOf(
            vec![tn("x", ity())],
            konst(ExprConst::Natural)
        ))),
        vec!["x=0", "x=1", "x=2", "x=3"]
    );
    let such_that = cmp(C::Eq, xv(), bin(B::Add, var("x$0", ity()), int(10), ity()));
    assert_eq!(
        ok(subst(SubstKind::BecomesSuchThat(
            vec![tn("x", ity())],
            such_that
        ))),
        vec!["x=11"]
    );
    let y_in = cmp(C::In, var("y", ity()), ints(&[2, 3]));
    assert_eq!(
        ok(subst(SubstKind::Any(
            vec![tn("y", ity())],
            y_in.clone(),
            Box::new(assign("x", var("y", ity())))
        ))),
        vec!["x=2", "x=3"]
    );
    let fls = cmp(C::Lt, int(1), int(0));
    let tru = cmp(C::Lt, int(0), int(1));
    assert!(ok(subst(SubstKind::Pre(fls.clone(), Box::new(inc.clone())))).is_empty());
    assert_eq!(
        ok(subst(SubstKind::Pre(tru.clone(), Box::new(inc.clone())))),
        vec!["x=2"]
    );
    assert!(matches!(
        run(
            &subst(SubstKind::Assert(fls.clone(), Box::new(inc.clone()))),
            &env
        ),
        Err(EvalError::WellDefinedness(_))
    ));
    assert_eq!(
        ok(subst(SubstKind::If(vec![(fls.clone(), inc.clone())], None))),
        vec![""]
    );
    assert_eq!(
        ok(subst(SubstKind::If(
            vec![
                (fls.clone(), inc.clone()),
                (tru.clone(), assign("x", int(9)))
            ],
            Some(Box::new(assign("x", int(0))))
        ))),
        vec!["x=9"]
    );
    assert!(
        ok(subst(SubstKind::Select(
            vec![(fls.clone(), inc.clone())],
            None
        )))
        .is_empty()
    );
    assert_eq!(
        ok(subst(SubstKind::Select(
            vec![
                (tru.clone(), inc.clone()),
                (tru.clone(), assign("x", int(5)))
            ],
            None
        ))),
        vec!["x=2", "x=5"]
    );
    assert_eq!(
        ok(subst(SubstKind::Select(
            vec![(fls.clone(), inc.clone())],
            Some(Box::new(assign("x", int(0))))
        ))),
        vec!["x=0"]
    );
    let case = |v| {
        subst(SubstKind::Case(
            int(v),
            vec![
                (vec![int(1), int(2)], assign("x", int(12))),
                (vec![int(3)], assign("x", int(3))),
            ],
            None,
        ))
    };
    assert_eq!(ok(case(2)), vec!["x=12"]);
    // No matching branch and no ELSE: skip (one outcome changing nothing), not blocked.
    assert_eq!(ok(case(4)), ok(subst(SubstKind::Skip)));
    assert_eq!(ok(case(4)).len(), 1);
    assert_eq!(
        ok(subst(SubstKind::Let(
            vec![(tn("k", ity()), int(4))],
            Box::new(assign("x", var("k", ity())))
        ))),
        vec!["x=4"]
    );
    assert_eq!(
        ok(subst(SubstKind::Var(
            vec![tn("t", ity())],
            Box::new(subst(SubstKind::Sequence(vec![
                assign("t", int(6)),
                assign("x", var("t", ity()))
            ])))
        ))),
        vec!["x=6"]
    );
    // f(2) := 5 overrides the function.
    let fty = irel();
    let f_assign = subst(SubstKind::Assign(vec![(
        AssignTarget::Apply(Box::new(AssignTarget::Var(tn("f", fty))), int(2)),
        int(5),
    )]));
    assert_eq!(ok(f_assign), vec!["f={1|->1,2|->5}"]);
    // WHILE x < 5 DO x := x + 1 INVARIANT x <= 5 VARIANT 5 - x END
    let wh = subst(SubstKind::While {
        cond: cmp(C::Lt, xv(), int(5)),
        body: Box::new(inc.clone()),
        invariant: cmp(C::Le, xv(), int(5)),
        variant: bin(B::Sub, int(5), xv(), ity()),
    });
    assert_eq!(ok(wh), vec!["x=5"]);
    let bad_variant = subst(SubstKind::While {
        cond: cmp(C::Lt, xv(), int(5)),
        body: Box::new(inc),
        invariant: tru,
        variant: xv(),
    });
    assert!(matches!(
        run(&bad_variant, &env),
        Err(EvalError::WellDefinedness(_))
    ));
}

#[test]
fn deferred_set_sizes_follow_priorities() {
    let mut m = machine();
    m.properties = Pred::truth(sp());
    m.settings = vec![(
        "scope_D".into(),
        crate::ir::SettingValue::Int(3.into()),
        sp(),
    )];
    let c = Context::new(
        m.clone(),
        Settings::default(),
        crate::solve::Solver::shared(),
    )
    .expect("context");
    assert_eq!(c.given_set("D", sp()).expect("D").len(), 3);
    m.settings.clear();
    let s = Settings {
        set_sizes: vec![("D".into(), 4)],
        ..Settings::default()
    };
    let c = Context::new(m.clone(), s, crate::solve::Solver::shared()).expect("context");
    assert_eq!(c.given_set("D", sp()).expect("D").len(), 4);
    let c = Context::new(m, Settings::default(), crate::solve::Solver::shared()).expect("context");
    let d = c.given_set("D", sp()).expect("D");
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].to_string(), "D1");
}

#[test]
fn settings_come_from_defaults_machine_and_overrides() {
    let mut m = machine();
    m.settings = vec![
        (
            "SET_PREF_MAXINT".into(),
            crate::ir::SettingValue::Int(255.into()),
            sp(),
        ),
        (
            "SET_PREF_MININT".into(),
            crate::ir::SettingValue::Int((-5).into()),
            sp(),
        ),
        (
            "MAX_OPERATIONS_op".into(),
            crate::ir::SettingValue::Int(2.into()),
            sp(),
        ),
    ];
    let s = Settings::for_machine(&m, &[("MININT".into(), "-7".into())]).expect("settings");
    assert_eq!(s.maxint, 255.into());
    assert_eq!(s.minint, (-7).into());
    assert_eq!(s.default_setsize, 2);
    assert_eq!(s.operation_limits, vec![("op".into(), 2)]);
    let bad = Settings::for_machine(&m, &[("MAXINT".into(), "x".into())]).expect_err("bad value");
    assert_eq!(bad.kind, DiagKind::Usage);
}

#[test]
fn sieve_difference_with_lambda_range() {
    let limit = 100_000;
    let mut env = Env::new();
    env.bind("limit".into(), Value::int(limit));
    env.bind("cur".into(), Value::int(2));
    let n = || var("n", ity());
    let cur = || var("cur", ity());
    let lam = lambda(
        vec![tn("n", ity())],
        cmp(
            C::In,
            n(),
            bin(
                B::Interval,
                cur(),
                bin(B::Div, var("limit", ity()), cur(), ity()),
                iset(),
            ),
        ),
        bin(B::Mul, cur(), n(), ity()),
    );
    let numbers = bin(B::Interval, int(2), var("limit", ity()), iset());
    let e = bin(B::SetMinus, numbers, un(U::Ran, lam, iset()), iset());
    let v = ctx().eval_expr(&e, &env).expect("evaluates");
    assert_eq!(v.as_set().expect("set").len(), 50_000);
}

#[test]
fn transitions_of_a_counter_machine() {
    use crate::ir::Operation;
    let mut m = machine();
    let xv = || var("x", ity());
    let cv = || var("c", ity());
    m.constants = vec![tn("c", ity())];
    m.properties = and(vec![
        cmp(C::In, cv(), bin(B::Interval, int(1), int(3), iset())),
        cmp(C::Eq, bin(B::Mod, cv(), int(2), ity()), int(1)),
    ]);
    m.variables = vec![tn("x", ity())];
    m.initialisation = subst(SubstKind::BecomesElementOf(
        vec![tn("x", ity())],
        setof(vec![int(0), cv()], iset()),
    ));
    let op = |name: &str, params: Vec<TypedName>, outputs: Vec<TypedName>, body: Subst| Operation {
        name: name.into(),
        span: sp(),
        params,
        outputs,
        body,
    };
    m.operations = vec![
        op(
            "inc",
            vec![],
            vec![],
            subst(SubstKind::Pre(
                cmp(C::Lt, xv(), int(3)),
                Box::new(assign("x", bin(B::Add, xv(), int(1), ity()))),
            )),
        ),
        op(
            "set",
            vec![tn("v", ity())],
            vec![],
            subst(SubstKind::Pre(
                cmp(
                    C::In,
                    var("v", ity()),
                    bin(B::Interval, int(0), cv(), iset()),
                ),
                Box::new(assign("x", var("v", ity()))),
            )),
        ),
        op("get", vec![], vec![tn("out", ity())], assign("out", xv())),
    ];
    let c = Context::new(m, Settings::default(), crate::solve::Solver::shared()).expect("context");
    let setups = c
        .setup_constants(10, crate::solve::Symmetry::Expanded)
        .expect("setup");
    assert_eq!(
        setups.solutions,
        vec![vec![Value::int(1)], vec![Value::int(3)]]
    );
    assert!(setups.complete);
    let consts = &setups.solutions[1];
    let inits = c.initial_states(consts, 10).expect("init");
    assert_eq!(inits.len(), 2);
    let s0 = State {
        values: vec![Value::int(3)],
    };
    assert!(inits.contains(&s0));
    let succ = c.successors(consts, &s0, 10).expect("successors");
    let described: Vec<String> = succ
        .iter()
        .map(|t| {
            format!(
                "{}({:?})->{:?} out {:?}",
                t.operation,
                t.params.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
                t.target
                    .values
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>(),
                t.outputs.iter().map(|v| v.to_string()).collect::<Vec<_>>()
            )
        })
        .collect();
    assert_eq!(
        described,
        vec![
            "1([\"0\"])->[\"0\"] out []",
            "1([\"1\"])->[\"1\"] out []",
            "1([\"2\"])->[\"2\"] out []",
            "1([\"3\"])->[\"3\"] out []",
            "2([])->[\"3\"] out [\"3\"]",
        ]
    );
    assert_eq!(c.successors(consts, &s0, 2).expect("capped").len(), 3);
    let (all, complete) = c.successors_with_completeness(consts, &s0, 4).expect("all");
    assert_eq!(all.len(), 5);
    assert!(complete, "exactly 4 `set` transitions exist");
    let (_, complete) = c
        .successors_with_completeness(consts, &s0, 3)
        .expect("capped");
    assert!(!complete);
}

#[test]
fn linear_equations_bind_variables_without_enumeration() {
    // {n | n : 3..limit & #y.(y : 2..limit & n = y + y)} with limit = 20000.
    let limit = 20_000;
    let n = || var("n", ity());
    let y = || var("y", ity());
    let range = |lo| bin(B::Interval, int(lo), int(limit), iset());
    let exists = Pred::new(
        PredKind::Exists(
            vec![tn("y", ity())],
            Box::new(and(vec![
                cmp(C::In, y(), range(2)),
                cmp(C::Eq, n(), bin(B::Add, y(), y(), ity())),
            ])),
        ),
        sp(),
    );
    let comp = Expr::new(
        ExprKind::Comprehension(
            Arc::new(vec![tn("n", ity())]),
            Arc::new(and(vec![cmp(C::In, n(), range(3)), exists])),
        ),
        iset(),
        sp(),
    );
    let v = ctx()
        .eval_expr(&un(U::Card, comp, ity()), &Env::new())
        .expect("evaluates");
    assert_eq!(v, Value::int(limit / 2 - 1));
    // 2*x + 1 = 8 has no integer solution; 3 - x = 10 has one.
    let xs = vec![tn("x", ity())];
    let odd = cmp(
        C::Eq,
        bin(B::Add, bin(B::Mul, int(2), x(), ity()), int(1), ity()),
        int(8),
    );
    let r = ctx()
        .solve_by_enumeration(&xs, &odd, &Env::new(), 10)
        .expect("enumerate");
    assert!(r.solutions.is_empty() && r.complete);
    let minus = cmp(C::Eq, bin(B::Sub, int(3), x(), ity()), int(10));
    let r = ctx()
        .solve_by_enumeration(&xs, &minus, &Env::new(), 10)
        .expect("enumerate");
    assert_eq!(r.solutions, vec![vec![Value::int(-7)]]);
    assert!(r.complete);
}

#[test]
fn huge_integer_bounds_are_refused_not_enumerated() {
    let s = Settings {
        maxint: 2_147_483_647.into(),
        minint: (-2_147_483_647).into(),
        ..Settings::default()
    };
    let c = Context::new(machine(), s, crate::solve::Solver::shared()).expect("context");
    let vars = vec![tn("x", ity())];
    let p = and(vec![
        cmp(C::In, x(), konst(ExprConst::Integer)),
        cmp(C::Lt, int(5), x()),
    ]);
    let r = c.solve_by_enumeration(&vars, &p, &Env::new(), 10);
    assert!(matches!(r, Err(EvalError::Limit(_))), "{r:?}");
    let bounded = and(vec![p, cmp(C::Lt, x(), int(8))]);
    let r = c
        .solve_by_enumeration(&vars, &bounded, &Env::new(), 10)
        .expect("bounded");
    assert_eq!(r.solutions.len(), 2);
    assert!(r.complete);
}

#[test]
fn answers_depending_on_default_set_sizes_are_incomplete() {
    let mut m = machine();
    m.properties = Pred::truth(sp());
    let c = Context::new(m, Settings::default(), crate::solve::Solver::shared()).expect("context");
    assert_eq!(
        c.default_sized_sets(),
        &["D".into()] as &[crate::syntax::ast::Name]
    );
    let d = Type::Given("D".into());
    let vars: Vec<TypedName> = ["a", "b", "c"].iter().map(|n| tn(n, d.clone())).collect();
    let v = |n: &str| var(n, d.clone());
    let ne = |a, b| Pred::new(PredKind::Not(Box::new(cmp(C::Eq, a, b))), sp());
    let distinct = and(vec![
        ne(v("a"), v("b")),
        ne(v("a"), v("c")),
        ne(v("b"), v("c")),
    ]);
    let r = c
        .solve_by_enumeration(&vars, &distinct, &Env::new(), 10)
        .expect("enumerate");
    assert!(r.solutions.is_empty());
    assert!(!r.complete, "D has 2 elements only by default");
    let colours = vec![tn("x", Type::Given("Colour".into()))];
    let p = cmp(
        C::Eq,
        var("x", Type::Given("Colour".into())),
        var("red", Type::Given("Colour".into())),
    );
    let r = c
        .solve_by_enumeration(&colours, &p, &Env::new(), 10)
        .expect("enumerate");
    assert_eq!(r.solutions.len(), 1);
    assert!(r.complete);
}

#[test]
fn interpreter_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Context>();
    send_sync::<Env>();
    send_sync::<Val>();
    send_sync::<State>();
    send_sync::<EvalError>();
}

/// The context of a machine given as text (parsed, flattened, type-checked, settings applied).
fn text_ctx(text: &str) -> Context {
    let ast = crate::machine::load_text("<test>", text, std::path::Path::new("."))
        .unwrap_or_else(|d| panic!("{}", d.render()));
    let m = crate::types::check_machine(&ast).unwrap_or_else(|d| panic!("{}", d.render()));
    let settings = Settings::for_machine(&m, &[]).expect("settings");
    Context::new(m, settings, crate::solve::Solver::shared())
        .unwrap_or_else(|d| panic!("{}", d.render()))
}

/// Each ASSERTION of a constant-free machine, decided by the interpreter.
fn assertions(text: &str) -> Vec<Result<bool, String>> {
    let c = text_ctx(text);
    c.machine()
        .assertions
        .iter()
        .map(|a| c.eval_pred(a, &Env::new()).map_err(|e| format!("{e:?}")))
        .collect()
}

#[test]
fn deferred_set_sizes_inferred_from_properties() {
    let c = text_ctx(
        "MACHINE M SETS S; T; ID; U
         CONSTANTS n, m, a, b, p, q, r, s
         PROPERTIES n = 3 & m = n + 1 & card(S) = m &
           T = {a, b} & a /= b &
           p : ID & q : ID & r : ID & s : ID & p /= q & not(p = r) & q /= r & s /= p
         END",
    );
    let size = |s: &str| c.given_set(s, sp()).expect("set").len();
    // card(S) = m with m fixed by a chain of deterministic equations.
    assert_eq!(size("S"), 4);
    // T = {a, b} with a /= b: exactly two, not a default.
    assert_eq!(size("T"), 2);
    // p, q, r pairwise distinct: at least three (s /= p adds no larger clique).
    assert_eq!(size("ID"), 3);
    assert_eq!(size("U"), 2);
    let defaulted: Vec<&str> = c.default_sized_sets().iter().map(|n| &**n).collect();
    assert_eq!(defaulted, ["ID", "U"]);
    // `card({..}) = k` states pairwise distinctness too.
    let c = text_ctx(
        "MACHINE M SETS T CONSTANTS a, b, c
         PROPERTIES T = {a, b, c} & card({a, b, c}) = 3 END",
    );
    assert_eq!(c.given_set("T", sp()).expect("T").len(), 3);
    assert!(c.default_sized_sets().is_empty());
    // A union of enumerations, distinct by disjoint singletons and `/=`.
    let c = text_ctx(
        "MACHINE M SETS T; P CONSTANTS a, b, c, d, e
         PROPERTIES T = {a} \\/ {b} & {a} /\\ {b} = {} &
           P = {c} \\/ {d} \\/ {e} & {c} /\\ {d} = {} & c /= e & d /= e END",
    );
    assert_eq!(c.given_set("T", sp()).expect("T").len(), 2);
    assert_eq!(c.given_set("P", sp()).expect("P").len(), 3);
    assert!(c.default_sized_sets().is_empty());
    // Without distinctness `T = {a, b, c}` fixes nothing (a = b is allowed).
    let c = text_ctx("MACHINE M SETS T CONSTANTS a, b, c PROPERTIES T = {a, b, c} END");
    assert_eq!(c.default_sized_sets().len(), 1);
}

#[test]
fn concatenations_in_maplet_patterns_bind_the_rest_of_a_sequence() {
    let results = assertions(
        r#"MACHINE M ASSERTIONS
         {g | 1 |-> ([1] ^ g) : {1 |-> [1, 2, 3], 1 |-> [2], 2 |-> [1], 1 |-> [1]}} = {[2, 3], []};
         {g | 5 |-> (g ^ [3]) : {5 |-> [1, 2, 3], 5 |-> [3], 5 |-> [3, 2]}} = {[1, 2], []};
         {x, g | x : {1, 2, 3} & x |-> ([x] ^ g) : {1 |-> [1, 4], 2 |-> [1], 3 |-> [3]}} = {(1, [4]), (3, [])}
         END"#,
    );
    assert_eq!(results, vec![Ok(true); 3]);
}

#[test]
fn symbolic_decisions_without_enumeration() {
    let results = assertions(
        r#"MACHINE M ASSERTIONS
         !u.(u : INTEGER => (u >= 10 & u <= 20 => u > 5));
         not(!u.(u : INTEGER => (u >= 10 => (u <= 20 => u > 15))));
         !i.(i /= 0 => (1 + i, 2) /: {(1, 2), (3, 4)});
         not(!i.(i /= 0 => (1 + i, 4) /: {(1, 2), (3, 4)}));
         prj2(INTEGER, INTEGER)((1, 5)) = 5;
         prj1(NATURAL, STRING)((7, "x")) = 7;
         card({s | s <<: {1, 2, 3}}) = 7;
         {x | x = "a" or x = "b"} = {"b", "a"};
         card({z | z : seq({1, 2}) & size(z) <= 3}) = 15;
         card({z | z : seq1({1, 2}) & size(z) : 0..2}) = 6;
         card(1..3 --> 1..4) = 64;
         card(1..200 <-> BOOL) = 2**400;
         card(1..3 >-> 1..5) = 60;
         card(1..4 -->> 1..2) = 14;
         card(perm(1..5)) = 120;
         card(iseq(1..3)) = 16;
         card((1..2) * (1..3) || (1..4) * (1..5)) = 120
         END"#,
    );
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r, &Ok(true), "assertion {}", i + 1);
    }
    // A projection outside its domain is ill-defined, not a value.
    let c = text_ctx("MACHINE M ASSERTIONS prj1(NATURAL, INTEGER)((-1, 5)) = -1 END");
    assert!(matches!(
        c.eval_pred(&c.machine().assertions[0], &Env::new()),
        Err(EvalError::WellDefinedness(_))
    ));
}

#[test]
fn stage_deadlines_are_per_thread_and_never_move_the_shared_one() {
    use std::time::{Duration, Instant};
    let c = ctx();
    let far = Instant::now() + Duration::from_secs(3600);
    c.set_deadline(Some(far));
    // Two threads keep entering short stages, as the model checker's workers do through the portfolio:
    // the shared deadline must come out unchanged.
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for _ in 0..2000 {
                    let until = Instant::now() + Duration::from_millis(1);
                    c.with_stage_deadline(Some(until), || {
                        assert!(c.deadline().expect("a deadline") <= until);
                    });
                }
            });
        }
    });
    let shared = c.deadline().expect("still set");
    assert!(
        shared.duration_since(far) < Duration::from_millis(1)
            && far.duration_since(shared) < Duration::from_millis(1)
    );
    // A passed stage deadline stops searches in its thread only.
    let past = Some(Instant::now() - Duration::from_millis(1));
    assert!(c.with_stage_deadline(past, || c.check_deadline(sp()).is_err()));
    assert!(c.check_deadline(sp()).is_ok());
}

/// Evaluation nested deeper than the stack allows ends in a limit error, never in a stack overflow:
/// 1 + (1 + (1 + ...)) a million deep, on a thread with a 16 MiB stack.
#[test]
fn evaluation_deeper_than_the_stack_is_a_limit_error() {
    let result = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let mut e = int(0);
            for _ in 0..1_000_000 {
                e = bin(B::Add, int(1), e, ity());
            }
            let result = ctx()
                .eval_expr(&e, &Env::new())
                .map_err(|err| err.to_string());
            // Dropping the nested term recurses once per level too: leak it.
            std::mem::forget(e);
            result
        })
        .expect("spawns")
        .join()
        .expect("no crash");
    let err = result.expect_err("too deep to evaluate");
    assert!(err.contains("nested too deeply"), "{err}");
}

#[test]
fn a_solution_is_delivered_under_its_callers_limits() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;
    let c = ctx();
    let cancelled = Arc::new(AtomicBool::new(true));
    c.with_cancel(cancelled, || {
        c.with_first_solution_deadline(Instant::now(), || {
            c.with_stage_deadline(Some(Instant::now()), || {
                assert!(c.check_deadline(sp()).is_err(), "the search stops");
                assert!(
                    c.as_caller(None, || c.check_deadline(sp())).is_ok(),
                    "the caller's re-check of a solution found before is not cut"
                );
                assert!(
                    c.check_deadline(sp()).is_err(),
                    "the limits are back after it"
                );
            })
        })
    });
    assert!(c.check_deadline(sp()).is_ok());
}

#[test]
fn a_panic_leaves_no_cancellation_or_stage_deadline_on_its_thread() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;
    let c = ctx();
    // As a lane does: its panic is caught, and its thread then asks the next question.
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        c.with_cancel(Arc::new(AtomicBool::new(true)), || {
            c.with_stage_deadline(Some(Instant::now()), || -> () { panic!("a lane's bug") })
        })
    }));
    assert!(caught.is_err());
    assert!(c.check_deadline(sp()).is_ok());
    assert_eq!(c.deadline(), None);
}
