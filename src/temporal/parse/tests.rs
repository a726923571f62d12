use super::*;

const FILE: FileId = FileId(7);

fn ltl(text: &str) -> Formula<Atom> {
    parse_ltl(FILE, text, 0..text.len()).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
}

fn ctl(text: &str) -> Formula<Atom> {
    parse_ctl(FILE, text, 0..text.len()).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
}

/// The formula as an S-expression: every field but the spans, atoms' B text read from their ranges.
/// Two formulas with the same shape are the same tree modulo spans.
fn shape(f: &Formula<Atom>, text: &str) -> String {
    let s = |g: &Formula<Atom>| shape(g, text);
    let un = |op: &str, g: &Formula<Atom>| format!("({op} {})", s(g));
    let bin = |op: &str, l: &Formula<Atom>, r: &Formula<Atom>| format!("({op} {} {})", s(l), s(r));
    match &f.kind {
        Kind::True => "true".into(),
        Kind::False => "false".into(),
        Kind::Atom(a) => atom_shape(a, text),
        Kind::Not(g) => un("not", g),
        Kind::And(l, r) => bin("and", l, r),
        Kind::Or(l, r) => bin("or", l, r),
        Kind::Implies(l, r) => bin("=>", l, r),
        Kind::Equiv(l, r) => bin("<=>", l, r),
        Kind::Next(g) => un("X", g),
        Kind::Globally(g) => un("G", g),
        Kind::Finally(g) => un("F", g),
        Kind::Until(l, r) => bin("U", l, r),
        Kind::WeakUntil(l, r) => bin("W", l, r),
        Kind::Release(l, r) => bin("R", l, r),
        Kind::Yesterday(g) => un("Y", g),
        Kind::Historically(g) => un("H", g),
        Kind::Once(g) => un("O", g),
        Kind::Since(l, r) => bin("S", l, r),
        Kind::Trigger(l, r) => bin("T", l, r),
        Kind::WeakFair(a) => format!("(WF {})", atom_shape(a, text)),
        Kind::StrongFair(a) => format!("(SF {})", atom_shape(a, text)),
        Kind::WeakFairAll => "WEF".into(),
        Kind::StrongFairAll => "SEF".into(),
        Kind::ExistsNext(None, g) => un("EX", g),
        Kind::ExistsNext(Some(a), g) => format!("(EX {} {})", atom_shape(a, text), s(g)),
        Kind::AllNext(g) => un("AX", g),
        Kind::ExistsFinally(g) => un("EF", g),
        Kind::ExistsGlobally(g) => un("EG", g),
        Kind::AllFinally(g) => un("AF", g),
        Kind::AllGlobally(g) => un("AG", g),
        Kind::ExistsUntil(l, r) => bin("EU", l, r),
        Kind::AllUntil(l, r) => bin("AU", l, r),
        Kind::Quantified {
            exists,
            vars,
            domain,
            body,
        } => format!(
            "({} {} {{{}}} {})",
            if *exists { "#" } else { "!" },
            names(vars),
            slice(*domain, text),
            s(body)
        ),
    }
}

fn slice(span: Span, text: &str) -> &str {
    assert_eq!(span.file, FILE);
    &text[span.start as usize..span.end as usize]
}

fn names(ids: &[Ident]) -> String {
    ids.iter().map(|i| &*i.name).collect::<Vec<_>>().join(",")
}

fn action_shape(a: &Action, text: &str) -> String {
    let name = &a.operation.name;
    match &a.args {
        None => name.to_string(),
        Some(args) => {
            let args: Vec<&str> = args
                .iter()
                .map(|p| match p {
                    ArgPattern::Any(_) => "_",
                    ArgPattern::Expr(span) => slice(*span, text),
                })
                .collect();
            format!("{name}({})", args.join(","))
        }
    }
}

fn atom_shape(a: &Atom, text: &str) -> String {
    match a {
        Atom::Pred(span) => format!("{{{}}}", slice(*span, text)),
        Atom::Enabled(x) => format!("e({})", action_shape(x, text)),
        Atom::Available(x) => format!("Av({})", action_shape(x, text)),
        Atom::Taken(x) => format!("[{}]", action_shape(x, text)),
        Atom::Deadlock => "deadlock".into(),
        Atom::DeadlockOf(ops) => format!("deadlock({})", names(ops)),
        Atom::Deterministic(ops) => format!("deterministic({})", names(ops)),
        Atom::Controller(ops) => format!("controller({})", names(ops)),
        Atom::Sink => "sink".into(),
        Atom::Current => "current".into(),
        Atom::Goal => "goal".into(),
        Atom::Error => "error".into(),
    }
}

fn ltl_shape(text: &str) -> String {
    shape(&ltl(text), text)
}

fn ctl_shape(text: &str) -> String {
    shape(&ctl(text), text)
}

/// The error of a formula that must not parse: its start offset and message.
fn ltl_error(text: &str) -> (usize, String) {
    match parse_ltl(FILE, text, 0..text.len()) {
        Ok(f) => panic!("{text:?} parsed as {}", shape(&f, text)),
        Err(e) => {
            assert_eq!(e.kind, crate::diag::DiagKind::Syntax);
            (e.span.start as usize, e.message)
        }
    }
}

fn ctl_error(text: &str) -> (usize, String) {
    match parse_ctl(FILE, text, 0..text.len()) {
        Ok(f) => panic!("{text:?} parsed as {}", shape(&f, text)),
        Err(e) => (e.span.start as usize, e.message),
    }
}

/// Checks that every node's span lies within its parent's and starts and ends at non-blank text.
fn check_spans(f: &Formula<Atom>, text: &str, outer: Span) {
    assert!(
        outer.start <= f.span.start && f.span.end <= outer.end,
        "{f:?}"
    );
    let own = slice(f.span, text);
    assert_eq!(own, own.trim(), "span of {f:?} in {text:?}");
    let children: Vec<&Formula<Atom>> = match &f.kind {
        Kind::Not(g)
        | Kind::Next(g)
        | Kind::Globally(g)
        | Kind::Finally(g)
        | Kind::Yesterday(g)
        | Kind::Historically(g)
        | Kind::Once(g)
        | Kind::ExistsNext(_, g)
        | Kind::AllNext(g)
        | Kind::ExistsFinally(g)
        | Kind::ExistsGlobally(g)
        | Kind::AllFinally(g)
        | Kind::AllGlobally(g) => vec![g],
        Kind::Quantified { body, .. } => vec![body],
        Kind::And(l, r)
        | Kind::Or(l, r)
        | Kind::Implies(l, r)
        | Kind::Equiv(l, r)
        | Kind::Until(l, r)
        | Kind::WeakUntil(l, r)
        | Kind::Release(l, r)
        | Kind::Since(l, r)
        | Kind::Trigger(l, r)
        | Kind::ExistsUntil(l, r)
        | Kind::AllUntil(l, r) => vec![l, r],
        _ => vec![],
    };
    for g in children {
        check_spans(g, text, f.span);
    }
}

#[test]
fn atoms() {
    assert_eq!(ltl_shape("{x > 1}"), "{x > 1}");
    assert_eq!(ltl_shape("{s = {1, {2}}}"), "{s = {1, {2}}}");
    assert_eq!(ltl_shape(r#"{s = "}{\"}"}"#), r#"{s = "}{\"}"}"#);
    assert_eq!(ltl_shape("{s = '''}'''}"), "{s = '''}'''}");
    assert_eq!(ltl_shape("e(swap)"), "e(swap)");
    assert_eq!(ltl_shape("e( swap (1, x+1) )"), "e(swap(1,x+1))");
    assert_eq!(ltl_shape("Av(swap)"), "Av(swap)");
    assert_eq!(ltl_shape("[Op]"), "[Op]");
    assert_eq!(ltl_shape("[ Op ]"), "[Op]");
    assert_eq!(ltl_shape("[Op()]"), "[Op()]");
    assert_eq!(
        ltl_shape("[Op(a, _, f(1, 2), {3, 4}, \",\")]"),
        "[Op(a,_,f(1, 2),{3, 4},\",\")]"
    );
    assert_eq!(ltl_shape("[Op( _ )]"), "[Op(_)]");
    assert_eq!(ltl_shape("deadlock"), "deadlock");
    assert_eq!(ltl_shape("deadlock(A, B)"), "deadlock(A,B)");
    assert_eq!(ltl_shape("deterministic(A,B,C)"), "deterministic(A,B,C)");
    assert_eq!(ltl_shape("controller(A)"), "controller(A)");
    assert_eq!(ltl_shape("sink"), "sink");
    assert_eq!(ltl_shape("current"), "current");
    assert_eq!(ltl_shape("true"), "true");
    assert_eq!(ltl_shape("false"), "false");
    assert_eq!(ltl_shape("WF(Op)"), "(WF [Op])");
    assert_eq!(ltl_shape("SF(Op(1))"), "(SF [Op(1)])");
    assert_eq!(ltl_shape("WEF & SEF"), "(and WEF SEF)");
    assert_eq!(ctl_shape("goal or error"), "(or goal error)");
}

#[test]
fn argument_patterns_and_spans() {
    let text = "[Op(a, _ ,  x + 1 )]";
    let f = ltl(text);
    let Kind::Atom(Atom::Taken(action)) = &f.kind else {
        panic!("{f:?}")
    };
    assert_eq!(&*action.operation.name, "Op");
    assert_eq!(slice(action.span, text), "Op(a, _ ,  x + 1 )");
    let args = action.args.as_ref().expect("arguments");
    assert!(matches!(args[1], ArgPattern::Any(s) if slice(s, text) == "_"));
    assert!(matches!(args[2], ArgPattern::Expr(s) if slice(s, text) == "x + 1"));
    assert_eq!(slice(f.span, text), text);
}

#[test]
fn booleans() {
    assert_eq!(ltl_shape("not {a}"), "(not {a})");
    assert_eq!(ltl_shape("!{a}"), "(not {a})");
    assert_eq!(ltl_shape("not(sink)"), "(not sink)");
    assert_eq!(ltl_shape("{a} & {b} and {c}"), "(and (and {a} {b}) {c})");
    assert_eq!(ltl_shape("{a} or {b} or {c}"), "(or (or {a} {b}) {c})");
    assert_eq!(ltl_shape("{a} => {b} -> {c}"), "(=> {a} (=> {b} {c}))");
    assert_eq!(ltl_shape("{a} <=> {b}"), "(<=> {a} {b})");
    assert_eq!(ltl_shape("{a} or {b} & {c}"), "(or {a} (and {b} {c}))");
    assert_eq!(
        ltl_shape("{a} & {b} => {c} or {d}"),
        "(=> (and {a} {b}) (or {c} {d}))"
    );
    assert_eq!(ltl_shape("({a} => {b}) => {c}"), "(=> (=> {a} {b}) {c})");
    assert_eq!(ltl_shape("not {a} & {b}"), "(and (not {a}) {b})");
    assert_eq!(ltl_shape("((({a})))"), "{a}");
}

#[test]
fn precedence_of_temporal_operators() {
    assert_eq!(ltl_shape("G {p} => {q}"), "(=> (G {p}) {q})");
    assert_eq!(ltl_shape("{p} U {q} & {r}"), "(and (U {p} {q}) {r})");
    assert_eq!(ltl_shape("not G {p}"), "(not (G {p}))");
    assert_eq!(ltl_shape("G {p} U {q}"), "(U (G {p}) {q})");
    assert_eq!(ltl_shape("{p} U {q} U {r}"), "(U {p} (U {q} {r}))");
    assert_eq!(ltl_shape("{p} W {q} R {r}"), "(W {p} (R {q} {r}))");
    assert_eq!(ltl_shape("{p} S {q} T {r}"), "(S {p} (T {q} {r}))");
    assert_eq!(ltl_shape("{a} or {p} U {q}"), "(or {a} (U {p} {q}))");
    assert_eq!(ltl_shape("X Y H O {p}"), "(X (Y (H (O {p}))))");
}

#[test]
fn letter_words_split_into_operators() {
    assert_eq!(ltl_shape("GF {p}"), "(G (F {p}))");
    assert_eq!(ltl_shape("GFX {p}"), "(G (F (X {p})))");
    assert_eq!(ltl_shape("GF({p})"), "(G (F {p}))");
    assert_eq!(ltl_shape("G(F{p})"), "(G (F {p}))");
    assert_eq!(ltl_shape("G{x>1}"), "(G {x>1})");
    assert_eq!(ltl_shape("OH[Op]"), "(O (H [Op]))");
    let text = "GF {p}";
    let f = ltl(text);
    let Kind::Globally(inner) = &f.kind else {
        panic!("{f:?}")
    };
    assert_eq!(slice(f.span, text), "GF {p}");
    assert_eq!(slice(inner.span, text), "F {p}");
    // In CTL, words are whole: `GF` is not an operator.
    assert_eq!(
        ctl_error("GF {p}"),
        (0, "unknown word `GF` in CTL formula".into())
    );
    assert_eq!(
        ltl_error("GFoo"),
        (0, "unknown word `GFoo` in LTL formula".into())
    );
}

#[test]
fn quantifiers() {
    assert_eq!(
        ltl_shape("#x.({x:1..3} & G {v /= x})"),
        "(# x {x:1..3} (G {v /= x}))"
    );
    assert_eq!(
        ltl_shape("!x.({x:S} => F {v = x})"),
        "(! x {x:S} (F {v = x}))"
    );
    assert_eq!(
        ltl_shape("#(x, y).({x:S & y:S} and {x/=y} U {v = x})"),
        "(# x,y {x:S & y:S} (U {x/=y} {v = x}))"
    );
    assert_eq!(
        ltl_shape("!(x).({x:S} -> {a} => {b})"),
        "(! x {x:S} (=> {a} {b}))"
    );
    // `!` followed by anything but `x.` or `(x, y).` is a negation.
    assert_eq!(ltl_shape("!(sink)"), "(not sink)");
    assert_eq!(ltl_shape("!!x.({x:S} => {x>0})"), "(not (! x {x:S} {x>0}))");
    let text = "#x.({x:1..3} & {v /= x}) & true";
    let f = ltl(text);
    let Kind::And(q, _) = &f.kind else {
        panic!("{f:?}")
    };
    assert_eq!(slice(q.span, text), "#x.({x:1..3} & {v /= x})");
    assert_eq!(ltl_error("#x.({x:S} => {a})").0, 10);
    assert_eq!(ltl_error("!x.({x:S} & {a})").0, 10);
    assert_eq!(ltl_error("#x.(true & {a})").0, 4);
}

#[test]
fn prob_ltl_formulas() {
    let formulas = [
        "G ({card(active)<2})",
        "G ({card(active)>0} => e(swap))",
        "GF (not e(swap) => G ({card(active)>0} => F {card(active)=0}))",
        "GF (!e(swap) -> G ({card(active)>0} -> F {card(active)=0}))",
        "G ([take_decision_1_brake] => X e(SystemStable))",
        "G not(sink)",
        "G ({brake=TRUE} => O ([TRAIN_FALSE] or [DRIVER_BYPASS]))",
        "G (({brake=TRUE} & Y{brake=FALSE}) => ({brake=TRUE} W ([TRAIN_TRUE] or [DRIVER_ATPR] or [DRIVER_ATPF])))",
        "G ([push_call_button(groundf)] -> X F {cur_floor=groundf & door_open=TRUE})",
        "G F ([AddCoin] or [Empty] or [Total])",
        "(G F{cur=1}) or (G F{cur=145})",
        "G(({TL_Car_Color/={green}} & Y {TL_Car_Color={green}})=> Y ({TL_Car_Color/={red}} S [requestPedLight]))",
        "SF(Enter1) & WF(Req1) => GF([Enter1])",
        "F deadlock(Step1_p1,Step1_p2)",
        "G({x : {1,2}} => [Op(1, _)])",
        "#x.({x:1..3} & G {v /= x})",
    ];
    for text in formulas {
        let f = ltl(text);
        check_spans(&f, text, Span::new(FILE, 0, text.len()));
        assert_eq!(slice(f.span, text), text);
    }
    assert_eq!(
        ltl_shape("GF (not e(swap) => G ({card(active)>0} => F {card(active)=0}))"),
        "(G (F (=> (not e(swap)) (G (=> {card(active)>0} (F {card(active)=0}))))))"
    );
    assert_eq!(
        ltl_shape("GF (!e(swap) -> G ({card(active)>0} -> F {card(active)=0}))"),
        ltl_shape("GF (not e(swap) => G ({card(active)>0} => F {card(active)=0}))")
    );
    assert_eq!(
        ltl_shape("G ({brake=TRUE} => O ([TRAIN_FALSE] or [DRIVER_BYPASS]))"),
        "(G (=> {brake=TRUE} (O (or [TRAIN_FALSE] [DRIVER_BYPASS]))))"
    );
    assert_eq!(
        ltl_shape("SF(Enter1) & WF(Req1) => GF([Enter1])"),
        "(=> (and (SF [Enter1]) (WF [Req1])) (G (F [Enter1])))"
    );
    assert_eq!(
        ltl_shape(
            "G(({TL_Car_Color/={green}} & Y {TL_Car_Color={green}})=> Y ({TL_Car_Color/={red}} S [requestPedLight]))"
        ),
        "(G (=> (and {TL_Car_Color/={green}} (Y {TL_Car_Color={green}})) (Y (S {TL_Car_Color/={red}} [requestPedLight]))))"
    );
    assert_eq!(
        ltl_shape("F deadlock(Step1_p1,Step1_p2)"),
        "(F deadlock(Step1_p1,Step1_p2))"
    );
    assert_eq!(
        ltl_shape("G({x : {1,2}} => [Op(1, _)])"),
        "(G (=> {x : {1,2}} [Op(1,_)]))"
    );
    assert_eq!(ltl_shape("G not(sink)"), "(G (not sink))");
}

#[test]
fn prob_ctl_formulas() {
    let cases = [
        (
            "AG ( EX[swap]true => {active /= {}})",
            "(AG (=> (EX [swap] true) {active /= {}}))",
        ),
        (
            "AG ( (EX[new]true)  or (EX[del]true) or (EX[swap]true) )",
            "(AG (or (or (EX [new] true) (EX [del] true)) (EX [swap] true)))",
        ),
        (
            "AG(EX[new]true or EX[del]true)",
            "(AG (or (EX [new] true) (EX [del] true)))",
        ),
        ("AF {card(waiting)>0}", "(AF {card(waiting)>0})"),
        (
            "AG( {card(active)>0} => EG e(swap))",
            "(AG (=> {card(active)>0} (EG e(swap))))",
        ),
        ("AG EF {active = {}}", "(AG (EF {active = {}}))"),
        ("EG {active = {}}", "(EG {active = {}})"),
        ("E {x>0} U {x=3}", "(EU {x>0} {x=3})"),
        ("A {x>0} U deadlock", "(AU {x>0} deadlock)"),
        (
            "E[{x>0} & {y>0} U {x=3} or sink]",
            "(EU (and {x>0} {y>0}) (or {x=3} sink))",
        ),
        ("A [Op] U [Op2(1)]", "(AU [Op] [Op2(1)])"),
        ("E[[Op] U sink]", "(EU [Op] sink)"),
        ("EX[Op(1, _)] AX {x}", "(EX [Op(1,_)] (AX {x}))"),
        ("EX {x} & AX not {y}", "(and (EX {x}) (AX (not {y})))"),
        ("E {a} U {b} & {c}", "(and (EU {a} {b}) {c})"),
    ];
    for (text, expected) in cases {
        let f = ctl(text);
        check_spans(&f, text, Span::new(FILE, 0, text.len()));
        assert_eq!(shape(&f, text), expected, "{text}");
    }
}

#[test]
fn logic_specific_words() {
    assert_eq!(ltl_error("goal").1, "unknown word `goal` in LTL formula");
    assert_eq!(ltl_error("AG {x}").1, "unknown word `AG` in LTL formula");
    assert_eq!(ctl_error("G {x}").1, "unknown word `G` in CTL formula");
    assert_eq!(ctl_error("WF(Op)").1, "fairness `WF` is LTL only");
    assert_eq!(
        ctl_error("{a} U {b}"),
        (4, "in CTL, `U` is written `E f U g` or `A f U g`".into())
    );
    assert_eq!(ctl_error("E {a} {b}").0, 6);
}

#[test]
fn errors_point_at_the_offending_text() {
    assert_eq!(
        ltl_error("G ("),
        (3, "expected a formula, found the end of the formula".into())
    );
    assert_eq!(ltl_error("{x > 1"), (0, "unterminated `{`".into()));
    assert_eq!(
        ltl_error("[Op"),
        (
            3,
            "expected `]` after the operation, found the end of the formula".into()
        )
    );
    assert_eq!(
        ltl_error("p U"),
        (0, "unknown word `p` in LTL formula".into())
    );
    assert_eq!(
        ltl_error("{p} U"),
        (5, "expected a formula after `U`".into())
    );
    assert_eq!(
        ltl_error("Foo"),
        (0, "unknown word `Foo` in LTL formula".into())
    );
    assert_eq!(
        ltl_error("e()"),
        (2, "expected an operation name after `e(`, found `)`".into())
    );
    assert_eq!(ltl_error(""), (0, "empty LTL formula".into()));
    assert_eq!(ltl_error("  \n "), (0, "empty LTL formula".into()));
    assert_eq!(ltl_error("G {x} }"), (6, "unexpected character `}`".into()));
    assert_eq!(
        ltl_error("G {x} & é"),
        (8, "unexpected character `é`".into())
    );
    // Offsets are in bytes: `é` takes two.
    assert_eq!(
        ltl_error("G {x = \"é\"} & ñ"),
        (15, "unexpected character `ñ`".into())
    );
    assert_eq!(
        ltl_error("{x} {y}"),
        (
            4,
            "expected an operator or the end of the formula, found a predicate `{...}`".into()
        )
    );
    assert_eq!(
        ltl_error("({x}"),
        (
            4,
            "expected `)` to close the `(`, found the end of the formula".into()
        )
    );
    assert_eq!(
        ltl_error("U {x}"),
        (0, "expected a formula before `U`".into())
    );
    assert_eq!(ltl_error("[Op(a, , b)]").0, 6);
    assert_eq!(ltl_error("[Op(a]").0, 5);
    assert_eq!(ltl_error("[Op(a\"]").0, 5);
    assert_eq!(ltl_error("{x = \"}").0, 5);
    assert_eq!(ltl_error("deadlock()").0, 9);
    assert_eq!(ltl_error("e(Op").0, 4);
    assert_eq!(ltl_error("{x} = {y}").0, 4);
    assert_eq!(ltl_error("{x} < {y}").0, 4);
}

#[test]
fn spans_are_offsets_into_the_source() {
    let text = "DEFINITIONS\n  ASSERT_LTL == \"G ({x>0} => X [Op(1)])\"\n";
    let start = text.find('G').expect("formula");
    let end = text.rfind('"').expect("closing quote");
    let f = parse_ltl(FILE, text, start..end).expect("parses");
    assert_eq!(slice(f.span, text), "G ({x>0} => X [Op(1)])");
    assert_eq!(shape(&f, text), "(G (=> {x>0} (X [Op(1)])))");
    let e = parse_ltl(FILE, text, start..end - 1).expect_err("`)` cut off");
    assert_eq!(e.span.start as usize, end - 1);
    // The formula's range stops the lexer even inside braces.
    let e = parse_ltl(FILE, text, start..start + 6).expect_err("`{` cut off");
    assert_eq!(e.span.start as usize, start + 3);
    assert!(parse_ltl(FILE, "é", 1..2).is_err());
    assert!(parse_ltl(FILE, "G", 0..5).is_err());
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = 1..0;
    assert!(parse_ltl(FILE, "GG", reversed).is_err());
}

const TOO_DEEP: &str = "formula nested too deeply (more than 200 levels)";

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}{{x}}{}", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(ltl_error(&deep).1, TOO_DEEP);
    let deep = format!("{}{{x}}", "not ".repeat(100_000));
    assert_eq!(ltl_error(&deep).1, TOO_DEEP);
    let deep = format!("{}{{x}}", "{x} U ".repeat(100_000));
    assert_eq!(ltl_error(&deep).1, TOO_DEEP);
    let deep = format!("{}{{x}}", "{x} => ".repeat(100_000));
    assert_eq!(ctl_error(&deep).1, TOO_DEEP);
    let deep = format!("{}{{x}}", "E ".repeat(100_000));
    assert_eq!(ctl_error(&deep).1, TOO_DEEP);
    let deep = format!("{}{{x}}", "#x.({x:S} & ".repeat(100_000));
    assert_eq!(ltl_error(&deep).1, TOO_DEEP);
    let wide = "{x} & ".repeat(10_000) + "{x}";
    assert_eq!(ltl_error(&wide).1, TOO_DEEP);
    let letters = format!("{} {{x}}", "G".repeat(1000));
    assert_eq!(ltl_error(&letters).1, TOO_DEEP);
}

/// Formulas just below the depth limit parse (and their trees drop) on a small stack.
#[test]
fn nesting_up_to_the_limit_fits_a_small_stack() {
    let n = MAX_DEPTH - 1;
    let formulas = [
        format!("{}{{x}}{}", "(".repeat(n - 1), ")".repeat(n - 1)),
        format!("{}{{x}}", "not ".repeat(n - 1)),
        format!("{}{{x}}", "{x} U ".repeat(n / 2 - 1)),
        format!("{} {{x}}", "G".repeat(n - 1)),
        "{x} & ".repeat(n - 1) + "{x}",
        format!("{}{{x}}", "#x.({x:S} & ".repeat(n / 2 - 1)) + &")".repeat(n / 2 - 1),
    ];
    let parsed = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            formulas
                .iter()
                .map(|text| parse_ltl(FILE, text, 0..text.len()).map(|_| ()))
                .collect::<Vec<_>>()
        })
        .expect("thread")
        .join()
        .expect("no stack overflow");
    for result in parsed {
        result.expect("parses");
    }
}

#[test]
fn no_panic_on_arbitrary_input() {
    let pieces = [
        "G", "F", "U", "E", "A", "EX", "(", ")", "[", "]", "{", "}", "\"", "'''", "#", "!", ".",
        ",", "&", "=>", "<=>", "-", "<", "x", "e", "Op", "_", "é", " ", "deadlock", "not", "WF",
        "AG",
    ];
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..3000 {
        let n = rng.usize(0..12);
        let text: String = (0..n).map(|_| pieces[rng.usize(..pieces.len())]).collect();
        let _ = parse_ltl(FILE, &text, 0..text.len());
        let _ = parse_ctl(FILE, &text, 0..text.len());
    }
}

/// A random formula, kept as what the parser must produce (`shape`) and printable as ProB text.
enum Gen {
    Leaf {
        text: &'static str,
        shape: &'static str,
    },
    Unary(&'static str, Box<Gen>),
    /// `EX[Op] f`.
    StepNext(&'static str, Box<Gen>),
    Binary(&'static str, Box<Gen>, Box<Gen>),
    /// `E f U g` (`true`) or `A f U g`.
    CtlUntil(bool, Box<Gen>, Box<Gen>),
    Quantified(bool, Box<Gen>),
}

const COMMON_LEAVES: [(&str, &str); 14] = [
    ("{x>1}", "{x>1}"),
    ("{s = {1, 2}}", "{s = {1, 2}}"),
    ("{t = \"}\"}", "{t = \"}\"}"),
    ("true", "true"),
    ("false", "false"),
    ("sink", "sink"),
    ("current", "current"),
    ("deadlock", "deadlock"),
    ("deadlock(a, b)", "deadlock(a,b)"),
    ("deterministic(a)", "deterministic(a)"),
    ("controller(a,b)", "controller(a,b)"),
    ("e(Op)", "e(Op)"),
    ("Av(Op(1))", "Av(Op(1))"),
    ("[Op(a, _, {1,2})]", "[Op(a,_,{1,2})]"),
];
const LTL_LEAVES: [(&str, &str); 5] = [
    ("[Op]", "[Op]"),
    ("WF(Op)", "(WF [Op])"),
    ("SF(Op(x))", "(SF [Op(x)])"),
    ("WEF", "WEF"),
    ("SEF", "SEF"),
];
const CTL_LEAVES: [(&str, &str); 3] = [("[Op]", "[Op]"), ("goal", "goal"), ("error", "error")];

fn generate(rng: &mut fastrand::Rng, logic: Logic, depth: usize) -> Gen {
    let extra: &[(&str, &str)] = match logic {
        Logic::Ltl => &LTL_LEAVES,
        Logic::Ctl => &CTL_LEAVES,
    };
    if depth == 0 || rng.u8(0..4) == 0 {
        let i = rng.usize(..COMMON_LEAVES.len() + extra.len());
        let (text, shape) = COMMON_LEAVES
            .get(i)
            .copied()
            .unwrap_or_else(|| extra[i - COMMON_LEAVES.len()]);
        return Gen::Leaf { text, shape };
    }
    let (unary, binary): (&[&str], &[&str]) = match logic {
        Logic::Ltl => (
            &["not", "G", "F", "X", "Y", "H", "O"],
            &["and", "or", "=>", "<=>", "U", "W", "R", "S", "T"],
        ),
        Logic::Ctl => (
            &["not", "EX", "AX", "EF", "EG", "AF", "AG"],
            &["and", "or", "=>", "<=>"],
        ),
    };
    let choice = rng.u8(0..10);
    match choice {
        0..=3 => {
            let op = unary[rng.usize(..unary.len())];
            Gen::Unary(op, sub(rng, logic, depth))
        }
        4..=7 => {
            let (l, r) = (sub(rng, logic, depth), sub(rng, logic, depth));
            Gen::Binary(binary[rng.usize(..binary.len())], l, r)
        }
        8 if logic == Logic::Ctl => {
            if rng.bool() {
                let action = ["Op", "Op(1, _)"][rng.usize(..2)];
                Gen::StepNext(action, sub(rng, logic, depth))
            } else {
                let (l, r) = (sub(rng, logic, depth), sub(rng, logic, depth));
                Gen::CtlUntil(rng.bool(), l, r)
            }
        }
        _ => {
            let exists = rng.bool();
            Gen::Quantified(exists, sub(rng, logic, depth))
        }
    }
}

fn sub(rng: &mut fastrand::Rng, logic: Logic, depth: usize) -> Box<Gen> {
    Box::new(generate(rng, logic, depth - 1))
}

/// The level the printed formula stands at, as the parser's binding powers: 1 implications, 3 `or`,
/// 5 `&`, 7 binary temporal, 9 prefix forms, 10 atoms.
fn level(g: &Gen) -> u8 {
    match g {
        Gen::Leaf { .. } => 10,
        Gen::Binary(op, ..) => match *op {
            "=>" | "<=>" => 1,
            "or" => 3,
            "and" => 5,
            _ => 7,
        },
        _ => 9,
    }
}

fn expected_shape(g: &Gen) -> String {
    match g {
        Gen::Leaf { shape, .. } => shape.to_string(),
        Gen::Unary(op, f) => format!("({op} {})", expected_shape(f)),
        Gen::StepNext(action, f) => {
            format!("(EX [{}] {})", action.replace(", ", ","), expected_shape(f))
        }
        Gen::Binary(op, l, r) => format!("({op} {} {})", expected_shape(l), expected_shape(r)),
        Gen::CtlUntil(exists, l, r) => {
            let op = if *exists { "EU" } else { "AU" };
            format!("({op} {} {})", expected_shape(l), expected_shape(r))
        }
        Gen::Quantified(exists, body) => {
            let (q, domain) = if *exists { ("#", "x:S") } else { ("!", "x:S") };
            format!("({q} x {{{domain}}} {})", expected_shape(body))
        }
    }
}

/// Prints `g` with the fewest parentheses the precedence allows (or, at random, a few more), and
/// random spacing and spellings, so that the parser's precedence and word splitting are what is tested.
fn print(g: &Gen, min_level: u8, rng: &mut fastrand::Rng) -> String {
    let text = print_bare(g, rng);
    if level(g) < min_level || rng.u8(0..8) == 0 {
        format!("({text})")
    } else {
        text
    }
}

/// `op` then `operand`, a space between them where the words would otherwise run together.
fn prefixed(op: &str, operand: String, rng: &mut fastrand::Rng) -> String {
    let needs_space = operand.starts_with(|c: char| c.is_ascii_alphanumeric());
    if needs_space || rng.bool() {
        format!("{op} {operand}")
    } else {
        format!("{op}{operand}")
    }
}

fn print_bare(g: &Gen, rng: &mut fastrand::Rng) -> String {
    match g {
        Gen::Leaf { text, .. } => text.to_string(),
        Gen::Unary(op, f) => {
            let operand = print(f, 9, rng);
            let is_letter_op = |s: &str| s.len() == 1 && LTL_UNARY_LETTERS.contains(s);
            let operand_is_letter_op = matches!(&**f, Gen::Unary(inner, _) if is_letter_op(inner))
                && !operand.starts_with('(');
            let operand = if *op == "EX" && operand.starts_with('[') {
                format!("({operand})")
            } else {
                operand
            };
            match *op {
                // `G` then `F {p}` may be written `GF {p}`.
                _ if is_letter_op(op) && operand_is_letter_op && rng.bool() => {
                    format!("{op}{operand}")
                }
                "not" if rng.bool() => format!("!{operand}"),
                _ => prefixed(op, operand, rng),
            }
        }
        Gen::StepNext(action, f) => prefixed(&format!("EX[{action}]"), print(f, 9, rng), rng),
        Gen::Binary(op, l, r) => {
            let lvl = level(g);
            let right_assoc = lvl == 1 || lvl == 7;
            let (lmin, rmin) = if right_assoc {
                (lvl + 1, lvl)
            } else {
                (lvl, lvl + 1)
            };
            let (l, r) = (print(l, lmin, rng), print(r, rmin, rng));
            let op = match *op {
                "and" if rng.bool() => "&",
                "=>" if rng.bool() => "->",
                op => op,
            };
            format!("{l} {op} {r}")
        }
        Gen::CtlUntil(exists, l, r) => {
            let q = if *exists { "E" } else { "A" };
            if rng.bool() {
                format!("{q}[{} U {}]", print(l, 0, rng), print(r, 0, rng))
            } else {
                format!("{q} {} U {}", print(l, 9, rng), print(r, 9, rng))
            }
        }
        Gen::Quantified(exists, body) => {
            let body = print(body, 0, rng);
            if *exists {
                format!("#x.({{x:S}} & {body})")
            } else {
                format!("!x.({{x:S}} => {body})")
            }
        }
    }
}

#[test]
fn printed_random_formulas_parse_back() {
    let mut rng = fastrand::Rng::with_seed(2024);
    for logic in [Logic::Ltl, Logic::Ctl] {
        for _ in 0..400 {
            let g = generate(&mut rng, logic, 5);
            let text = print(&g, 0, &mut rng);
            let f = match logic {
                Logic::Ltl => ltl(&text),
                Logic::Ctl => ctl(&text),
            };
            assert_eq!(shape(&f, &text), expected_shape(&g), "{text}");
            check_spans(&f, &text, Span::new(FILE, 0, text.len()));
        }
    }
}
