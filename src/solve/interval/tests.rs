use super::*;
use crate::analysis::test_formula::Formula;

fn analysed(text: &str) -> (Formula, Analysis) {
    let f = Formula::parse(text);
    let a = analyse(&f.model.context, &f.vars, &f.conjuncts(), &Env::new());
    (f, a)
}

fn info(text: &str, var: &str) -> VarInfo {
    let (f, a) = analysed(text);
    assert_eq!(a.contradiction, None, "{text}");
    a.vars[f.var_index(var)].clone()
}

fn int(text: &str, var: &str) -> Range {
    info(text, var).int
}

fn contradiction(text: &str) -> Option<usize> {
    analysed(text).1.contradiction
}

fn r(lo: i64, hi: i64) -> Range {
    Range::new(lo, hi)
}

#[test]
fn memberships() {
    assert_eq!(int("x : 1..3", "x"), r(1, 3));
    // Default MAXINT 3, MININT -1.
    assert_eq!(int("x : NAT", "x"), r(0, 3));
    assert_eq!(int("x : NAT1", "x"), r(1, 3));
    assert_eq!(int("x : INT", "x"), r(-1, 3));
    assert_eq!(int("x : NATURAL1", "x"), Range::at_least(1));
    assert_eq!(int("x : INTEGER", "x"), Range::full());
    assert_eq!(int("x : {2, 9, 5}", "x"), r(2, 9));
    assert_eq!(int("x : 1..3 \\/ 7..8", "x"), r(1, 8));
    assert_eq!(int("x : (1..10) /\\ (5..20)", "x"), r(5, 10));
    assert_eq!(int("x /: 1..3 & x : 0..4", "x"), r(0, 4));
}

#[test]
fn comparisons_and_linear_expressions() {
    assert_eq!(int("x > 2 & x < 10 & x /= 9", "x"), r(3, 8));
    assert_eq!(int("x >= 2 & 10 >= x & x /= 2", "x"), r(3, 10));
    assert_eq!(int("x + y = 10 & x : 1..3 & y : 0..100", "y"), r(7, 9));
    assert_eq!(int("2 * x + 1 <= 9 & x : NATURAL", "x"), r(0, 4));
    assert_eq!(int("x = -y & y : 1..3", "x"), r(-3, -1));
    assert_eq!(int("x - y = 1 & y : 1..3", "x"), r(2, 4));
    assert_eq!(int("x - y = 1 & x : 1..3", "y"), r(0, 2));
    assert_eq!(int("x = y * z & y : 1..3 & z : -2..2", "x"), r(-6, 6));
    assert_eq!(int("x = y / 2 & y : 1..9", "x"), r(0, 4));
    assert_eq!(int("x = y mod 4 & y : NATURAL", "x"), r(0, 3));
    assert_eq!(int("x = MAXINT - 1", "x"), Range::point(2));
    assert_eq!(int("x * 3 = 12", "x"), Range::point(4));
    assert_eq!(int("not(x < 3) & not(x >= 7)", "x"), r(3, 6));
    assert_eq!(int("x = succ(y) & y : 1..2", "x"), r(2, 3));
    assert_eq!(int("x : 1..n & n <= 5", "n"), r(1, 5));
    assert_eq!(int("x = {1 |-> 7, 2 |-> 9, 3 |-> 4}(y)", "x"), r(4, 9));
    assert_eq!(int("{1 |-> 7, 2 |-> 9, 3 |-> 4}(y) > 5", "y"), r(1, 2));
    assert_eq!(
        int("f : 1..3 --> BOOL & x = card({f(y)})", "y"),
        Range::full()
    );
    assert_eq!(int("f : 1..3 --> 1..9 & f(y) > 2", "y"), r(1, 3));
}

#[test]
fn propagation_reaches_a_fixpoint_across_conjuncts() {
    let text = "x < y & y < z & z <= 5 & x >= 1";
    assert_eq!(int(text, "x"), r(1, 3));
    assert_eq!(int(text, "y"), r(2, 4));
    assert_eq!(int(text, "z"), r(3, 5));
}

#[test]
fn contradictions() {
    assert_eq!(contradiction("x : 1..3 & x > 5"), Some(1));
    assert_eq!(contradiction("x : 1..3 & y : 1..3 & x + y = 7"), Some(2));
    assert_eq!(contradiction("1 = 2 & x = 1"), Some(0));
    assert_eq!(contradiction("x : {} & x = 1 & y = 1"), Some(0));
    // Found in the second round, on the first conjunct that empties a range.
    assert_eq!(contradiction("x : 1..3 & x < y & y < x"), Some(1));
    assert_eq!(contradiction("S <: 1..3 & card(S) = 4"), Some(1));
    assert_eq!(contradiction("f : 1..5 >-> 1..3"), Some(0));
    assert_eq!(contradiction("f : 1..2 --> BOOL - BOOL"), Some(0));
    assert_eq!(contradiction("x : NAT1 & x <= 0"), Some(1));
    assert_eq!(contradiction("x : 1..3 & x > 2"), None);
}

#[test]
fn an_existential_body_bounds_the_outer_variables() {
    // A parameter's range bounds the after-state it is added to.
    assert_eq!(int("x : 0..5 & #v.(v : 1..10 & y = x + v)", "y"), r(1, 15));
    // Inside each branch of a disjunction, as BMC's unrolled relation asks operations.
    // (The second branch's y = x - w is 0, but intervals do not relate w to x: -5..5.)
    let text = "x : 0..5 & (#v.(v : 1..3 & y = x + v) or #w.(w = x & y = x - w))";
    assert_eq!(int(text, "y"), r(-5, 8));
    // A bound name shadowing an analysed variable: the body is not read.
    assert_eq!(
        int("x : 0..5 & #x.(x : 100..200 & y = x)", "y"),
        Range::full()
    );
    assert_eq!(int("x : 0..5 & #x.(x : 100..200 & y = x)", "x"), r(0, 5));
    // No value of the bound variable satisfies the body: no solution.
    assert!(contradiction("x : 0..5 & #v.(v : 1..3 & x = v + 10)").is_some());
}

#[test]
fn cyclic_constraints_terminate_without_a_false_verdict() {
    let (_, a) = analysed("x < y & y < x");
    assert_eq!(a.contradiction, None);
    // Over the naturals the lower bounds climb each round; the round limit stops them.
    let (f, a) = analysed("x : NATURAL & x < y & y < x");
    assert_eq!(a.contradiction, None);
    let x = &a.vars[f.var_index("x")].int;
    assert!(x.hi.is_none() && x.lo.as_ref().is_some_and(|l| l > &BigInt::from(5)));
}

#[test]
fn cardinalities_and_elements() {
    // The example of Plagge & Leuschel §3.4.
    let a = info("A <: 3..6 & card(A) > 1", "A");
    assert_eq!((a.card, a.elem), (r(2, 4), r(3, 6)));
    let s = info("card(S) = 2 & S <: 1..10", "S");
    assert_eq!(s.card, Range::point(2));
    let s = info("S = T & T <: 1..4", "S");
    assert_eq!((s.card, s.elem), (r(0, 4), r(1, 4)));
    let s = info("S : POW(1..3)", "S");
    assert_eq!((s.card, s.elem), (r(0, 3), r(1, 3)));
    assert_eq!(info("S : POW1(1..3)", "S").card, r(1, 3));
    assert_eq!(info("S : FIN(BOOL)", "S").card, r(0, 2));
    assert_eq!(info("S /= {} & S <: {4}", "S").card, Range::point(1));
    assert_eq!(info("S <<: 1..3", "S").card, r(0, 2));
    assert_eq!(info("x : S & S <: 1..3", "S").card, r(1, 3));
    assert_eq!(int("x : S & S <: 1..3", "x"), r(1, 3));
    assert_eq!(int("x = max(S) & S <: 2..5", "x"), r(2, 5));
    let s = info("max(S) <= 4 & min(S) >= 2", "S");
    assert_eq!((s.card, s.elem), (r(1, 3), r(2, 4)));
    assert_eq!(int("x = card(S) & S <: 1..3", "x"), r(0, 3));
    assert_eq!(info("{1, 2, 3} = S \\/ T", "T").elem, r(1, 3));
    let s = info("S : {{1, 2}, {7}}", "S");
    assert_eq!((s.card, s.elem), (r(1, 2), r(1, 7)));
    // A set of a finite type is bounded by the type.
    assert_eq!(info("S <: BOOL", "S").card, r(0, 2));
}

#[test]
fn sets_of_variables() {
    assert_eq!(int("{x, y} <: 2..4", "y"), r(2, 4));
    assert_eq!(int("{x |-> 1} <: (1..3) * {1}", "x"), r(1, 3));
}

#[test]
fn functions_and_relations() {
    let f = info("f : 1..3 --> 5..7", "f");
    assert_eq!((f.card, f.elem), (Range::point(3), r(1, 3)));
    assert_eq!(int("f : 1..3 --> 5..7 & x : dom(f)", "x"), r(1, 3));
    assert_eq!(info("f : 1..3 +-> BOOL", "f").card, r(0, 3));
    assert_eq!(info("f : 1..3 >+> BOOL", "f").card, r(0, 2));
    assert_eq!(info("r : 1..2 <-> BOOL", "r").card, r(0, 4));
    assert_eq!(info("f : 1..5 -->> 1..3", "f").card, Range::point(5));
    assert_eq!(
        info("r : (1..3) <-> (1..3) & dom(r) = 1..2", "r").elem,
        r(1, 2)
    );
    // The domain of a partial function in 2..4 bounds its size (interval → cardinality).
    assert_eq!(
        info("f : INTEGER +-> BOOL & dom(f) <: 2..4", "f").card,
        r(0, 3)
    );
    // Not for a relation: several pairs may share a first component.
    assert_eq!(
        info("r : INTEGER <-> BOOL & dom(r) <: 2..4", "r").card,
        Range::at_least(0)
    );
}

#[test]
fn sequences() {
    let s = info("s : seq(INTEGER) & size(s) = 3", "s");
    assert_eq!((s.card, s.elem), (Range::point(3), r(1, 3)));
    let s = info("s : seq(BOOL) & size(s) <= 4", "s");
    assert_eq!((s.card, s.elem), (r(0, 4), r(1, 4)));
    assert_eq!(info("s : iseq(1..3)", "s").card, r(0, 3));
    assert_eq!(info("s : perm(1..3)", "s").card, Range::point(3));
    assert_eq!(info("s : seq1(BOOL) & s = t", "t").card, Range::at_least(1));
    assert_eq!(info("s = [4, 5]", "s").elem, r(1, 2));
}

#[test]
fn disjunctions_give_hulls_other_connectives_nothing() {
    assert_eq!(int("x = 1 or x = 2 or x = 7", "x"), r(1, 7));
    assert_eq!(int("(x = 1 or x = 5) & x : 2..6", "x"), Range::point(5));
    assert_eq!(int("(x = 1 or y = 5) & x : 2..6", "y"), Range::point(5));
    assert_eq!(int("x = 1 or y = 2", "x"), Range::full());
    assert_eq!(contradiction("(x < 0 or x > 10) & x : 1..5"), Some(0));
    // A fact of one branch (f is a function) does not leak out of it.
    assert_eq!(
        info("(f : 1..3 +-> BOOL or x = 1) & dom(f) <: 1..2", "f").card,
        Range::at_least(0)
    );
    assert_eq!(int("x : 1..3 => x = 5", "x"), Range::full());
    assert_eq!(int("not(x : 1..3)", "x"), Range::full());
    assert_eq!(int("!y.(y : 1..3 => x > y)", "x"), Range::full());
    // An existential's body does say something (an_existential_body_bounds_the_outer_variables).
    assert_eq!(int("#y.(y : 1..3 & x = y)", "x"), r(1, 3));
    // A bound x is not the search variable x: the comprehension is a known set of 5 elements.
    assert_eq!(int("x = card({x | x : 1..5})", "x"), Range::point(5));
    // A quantified y is not the search variable y.
    assert_eq!(int("#y.(y = 5) & y : 1..2", "y"), r(1, 2));
}

#[test]
fn known_names_come_from_the_environment() {
    let f = Formula::parse("x : 1..n & y = n * 2");
    let vars: Vec<TypedName> = f.vars.iter().filter(|v| &*v.name != "n").cloned().collect();
    let env = Env::new().with("n".into(), Value::int(4));
    let a = analyse(&f.model.context, &vars, &f.conjuncts(), &env);
    let x = vars.iter().position(|v| &*v.name == "x").expect("x");
    let y = vars.iter().position(|v| &*v.name == "y").expect("y");
    assert_eq!(a.vars[x].int, r(1, 4));
    assert_eq!(a.vars[y].int, Range::point(8));
    // An unbound name gives no information (and no error).
    let a = analyse(&f.model.context, &vars, &f.conjuncts(), &Env::new());
    assert_eq!(a.vars[x].int, Range::at_least(1));
    assert_eq!(a.vars[y].int, Range::full());
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn lit(&mut self) -> i64 {
        self.below(7) as i64 - 3
    }
    fn nonzero(&mut self) -> i64 {
        [-3, -2, -1, 1, 2, 3][self.below(6)]
    }
}

fn int_term(rng: &mut Rng) -> String {
    let v = rng.pick(&["x", "y", "z"]);
    let w = rng.pick(&["x", "y", "z"]);
    match rng.below(11) {
        0 => rng.lit().to_string(),
        1 => format!("{v} + {w}"),
        2 => format!("{v} - {}", rng.lit()),
        3 => format!("{} * {v}", rng.lit()),
        4 => format!("-{v}"),
        5 => format!("{v} * {w}"),
        6 => format!("{v} / {}", rng.nonzero()),
        7 => format!("{v} mod {}", rng.below(3) + 1),
        8 => format!("card({{{v}, {w}}})"),
        9 => format!("{{-1 |-> 2, 0 |-> -3, 2 |-> 1, 3 |-> 2}}({v})"),
        _ => w.to_string(),
    }
}

fn int_conjunct(rng: &mut Rng) -> String {
    let v = rng.pick(&["x", "y", "z"]);
    match rng.below(8) {
        0 => {
            let a = rng.lit();
            format!("{v} : {a}..{}", a + rng.below(4) as i64)
        }
        1 => format!("{v} : {}", rng.pick(&["NAT", "NAT1", "INT", "NATURAL"])),
        2 => format!("{v} : {{{}, {}}}", rng.lit(), rng.lit()),
        3 => format!("not({v} {} {})", rng.pick(&["<", "<=", "="]), int_term(rng)),
        4 => format!(
            "({v} = {} or {} {} {})",
            rng.lit(),
            int_term(rng),
            rng.pick(&["<", "="]),
            int_term(rng)
        ),
        5 => format!(
            "max({{{v}, {}}}) {} {}",
            int_term(rng),
            rng.pick(&["<=", ">"]),
            rng.lit()
        ),
        _ => format!(
            "{} {} {}",
            int_term(rng),
            rng.pick(&["<", "<=", "=", "/=", ">", ">="]),
            int_term(rng)
        ),
    }
}

fn set_conjunct(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!(
            "card(S) {} {}",
            rng.pick(&["<", "<=", "=", ">"]),
            rng.below(4)
        ),
        1 => format!("{} : S", rng.pick(&["x", "y"])),
        2 => {
            let a = rng.lit();
            format!("S <: {a}..{}", a + rng.below(4) as i64)
        }
        3 => format!("max(S) {} {}", rng.pick(&["<", ">="]), rng.lit()),
        4 => format!("S /= {{}} & min(S) = {}", int_term(rng)),
        _ => int_conjunct(rng),
    }
}

fn relation_conjunct(rng: &mut Rng) -> String {
    let r = rng.pick(&["f", "s"]);
    let a = rng.lit();
    let b = a + rng.below(3) as i64;
    match rng.below(9) {
        0 => format!(
            "{r} : {a}..{b} {} {}",
            rng.pick(&[
                "<->", "<<->", "<->>", "+->", "-->", ">+>", ">->", "+->>", "-->>", ">+>>", ">->>"
            ]),
            rng.pick(&["BOOL", "{TRUE}", "BOOL - {TRUE}"])
        ),
        1 => format!(
            "card({r}) {} {}",
            rng.pick(&["<", "<=", "=", ">"]),
            rng.below(4)
        ),
        2 => format!(
            "size(s) {} {}",
            rng.pick(&["<", "<=", "=", ">="]),
            rng.below(4)
        ),
        3 => format!("x : dom({r})"),
        4 => format!("dom({r}) <: {a}..{b}"),
        5 => format!(
            "s : {}(BOOL)",
            rng.pick(&["seq", "seq1", "iseq", "iseq1", "perm"])
        ),
        6 => "f = s".to_string(),
        7 => format!("({r} /= {{}} or {r} : {a}..{b} +-> BOOL)"),
        _ => format!("x {} {}", rng.pick(&["<", "=", ">="]), rng.lit()),
    }
}

/// Every solution the brute-force oracle finds lies inside the analysed ranges, and a contradiction is
/// only claimed when there is no solution. `None` when the oracle cannot enumerate the formula (an
/// ill-defined conjunct), otherwise whether the analysis claimed a contradiction.
fn check_sound(text: &str) -> Option<bool> {
    let f = Formula::parse_with(text, &[("MAXINT", "6"), ("MININT", "-6")]);
    let ctx = &f.model.context;
    let a = analyse(ctx, &f.vars, &f.conjuncts(), &Env::new());
    let found = ctx
        .solve_by_enumeration(&f.vars, &f.pred, &Env::new(), 100_000)
        .ok()?;
    if a.contradiction.is_some() {
        assert!(
            found.solutions.is_empty(),
            "{text}: wrong contradiction {a:?}"
        );
    }
    for solution in &found.solutions {
        for (i, value) in solution.iter().enumerate() {
            assert!(
                crate::analysis::test_formula::inside(&a.vars[i], value),
                "{text}: solution {solution:?} outside {:?} for {}",
                a.vars[i],
                f.vars[i].name
            );
        }
    }
    Some(a.contradiction.is_some())
}

/// Checks `count` formulas from `formula`; at least `min_checked` must be enumerable, and the analysis
/// must have found some contradictions (else the test would check little).
fn check_many(count: usize, min_checked: usize, mut formula: impl FnMut() -> String) {
    let (mut checked, mut contradictions) = (0, 0);
    for _ in 0..count {
        if let Some(contradiction) = check_sound(&formula()) {
            checked += 1;
            contradictions += usize::from(contradiction);
        }
    }
    assert!(
        checked >= min_checked,
        "only {checked} formulas could be enumerated"
    );
    assert!(
        contradictions >= 5,
        "only {contradictions} contradictions found"
    );
}

#[test]
fn random_integer_conjunctions_keep_every_solution() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    check_many(600, 500, || {
        let n = 1 + rng.below(4);
        // The first conjunct types every variable (a variable may occur only inside `card({..})`).
        std::iter::once("x : INTEGER & y : INTEGER & z : INTEGER".to_string())
            .chain((0..n).map(|_| int_conjunct(&mut rng)))
            .collect::<Vec<_>>()
            .join(" & ")
    });
}

#[test]
fn random_set_conjunctions_keep_every_solution() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // `min(S)`/`max(S)` of an empty S is ill-defined: the oracle stops with an error on some formulas.
    check_many(150, 90, || {
        let n = 1 + rng.below(3);
        // A first bound keeps the subsets of S enumerable.
        std::iter::once("S <: -3..3 & x : -4..4 & y : -4..4 & z : -4..4".to_string())
            .chain((0..n).map(|_| set_conjunct(&mut rng)))
            .collect::<Vec<_>>()
            .join(" & ")
    });
}

#[test]
fn random_relation_and_sequence_conjunctions_keep_every_solution() {
    let mut rng = Rng(0xd1b5_4a32_d192_ed03);
    check_many(150, 120, || {
        let n = 1 + rng.below(3);
        // f and s range over small finite sets so that the oracle can enumerate them.
        std::iter::once("f : -1..1 <-> BOOL & s : seq(BOOL) & size(s) <= 2 & x : -2..2".to_string())
            .chain((0..n).map(|_| relation_conjunct(&mut rng)))
            .collect::<Vec<_>>()
            .join(" & ")
    });
}

/// A disjunction of conjunctions, some with an existential: each branch narrows only the variables it
/// names (`State::disjunction` saves and joins only theirs).
fn disjunctive_conjunct(rng: &mut Rng) -> String {
    let branch = |rng: &mut Rng| match rng.below(3) {
        0 => format!("({} & {})", int_conjunct(rng), int_conjunct(rng)),
        1 => format!(
            "#w.(w : {}..{} & w + {} = {})",
            rng.lit(),
            rng.lit() + 3,
            rng.pick(&["x", "y", "z"]),
            int_term(rng)
        ),
        _ => int_conjunct(rng),
    };
    let n = 2 + rng.below(2);
    let branches: Vec<String> = (0..n).map(|_| branch(rng)).collect();
    format!("({})", branches.join(" or "))
}

#[test]
fn random_disjunctions_keep_every_solution() {
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    check_many(400, 250, || {
        let n = 1 + rng.below(3);
        std::iter::once("x : -4..4 & y : -4..4 & z : -4..4".to_string())
            .chain((0..n).map(|_| {
                if rng.below(2) == 0 {
                    disjunctive_conjunct(&mut rng)
                } else {
                    int_conjunct(&mut rng)
                }
            }))
            .collect::<Vec<_>>()
            .join(" & ")
    });
}
