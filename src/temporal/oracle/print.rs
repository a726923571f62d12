//! Formulas as text for failure messages: ProB's syntax, fully parenthesised, atom `i` written `ai`.

use super::super::formula::{Formula, Kind};

pub fn formula_text(formula: &Formula<usize>) -> String {
    use Kind::*;
    let t = formula_text;
    match &formula.kind {
        True => "true".into(),
        False => "false".into(),
        Atom(a) => format!("a{a}"),
        Not(f) => format!("not({})", t(f)),
        And(f, g) => format!("({} & {})", t(f), t(g)),
        Or(f, g) => format!("({} or {})", t(f), t(g)),
        Implies(f, g) => format!("({} => {})", t(f), t(g)),
        Equiv(f, g) => format!("({} <=> {})", t(f), t(g)),
        Next(f) => format!("X {}", t(f)),
        Globally(f) => format!("G {}", t(f)),
        Finally(f) => format!("F {}", t(f)),
        Until(f, g) => format!("({} U {})", t(f), t(g)),
        WeakUntil(f, g) => format!("({} W {})", t(f), t(g)),
        Release(f, g) => format!("({} R {})", t(f), t(g)),
        Yesterday(f) => format!("Y {}", t(f)),
        Historically(f) => format!("H {}", t(f)),
        Once(f) => format!("O {}", t(f)),
        Since(f, g) => format!("({} S {})", t(f), t(g)),
        Trigger(f, g) => format!("({} T {})", t(f), t(g)),
        WeakFair(a) => format!("WF(a{a})"),
        StrongFair(a) => format!("SF(a{a})"),
        WeakFairAll => "WEF".into(),
        StrongFairAll => "SEF".into(),
        ExistsNext(None, f) => format!("EX {}", t(f)),
        ExistsNext(Some(a), f) => format!("EX[a{a}] {}", t(f)),
        AllNext(f) => format!("AX {}", t(f)),
        ExistsFinally(f) => format!("EF {}", t(f)),
        ExistsGlobally(f) => format!("EG {}", t(f)),
        AllFinally(f) => format!("AF {}", t(f)),
        AllGlobally(f) => format!("AG {}", t(f)),
        ExistsUntil(f, g) => format!("E({} U {})", t(f), t(g)),
        AllUntil(f, g) => format!("A({} U {})", t(f), t(g)),
        Quantified { exists, body, .. } => {
            format!("{}x.({})", if *exists { "#" } else { "!" }, t(body))
        }
    }
}
