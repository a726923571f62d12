//! Random small B machines and random formulas over their atoms: the command's verdict (with its
//! replayed lasso) against the oracle evaluated on the same machine's state space. This covers what the
//! graph-level comparison in `temporal::oracle` does not: formulas as text through the parser, atoms
//! resolved and evaluated by the interpreter (`{P}`, `e(Op)`, `[Op(args)]`), fairness on named operations,
//! and counterexample replay.

use super::*;
use crate::temporal::formula::Formula;
use crate::temporal::oracle::{formula_text, is_fair, is_run, ltl_counterexample, ltl_on_lasso};
use crate::temporal::oracle::{random_fairness, random_ltl};

/// Atoms of the generated machines: state atoms first.
const STATE_ATOMS: &[&str] = &["{x = 0}", "{y > x}", "e(op1)", "deadlock"];
const EVENT_ATOMS: &[&str] = &["[op0]", "[op2(1)]", "[op1]"];

/// A machine over x, y : 0..2 with three operations whose guards and updates are drawn at random.
fn random_machine(rng: &mut fastrand::Rng) -> String {
    let guards = ["x < 2", "y = 1", "x /= y", "1 = 1", "x + y < 3", "y = 0"];
    let updates = [
        "x := (x + 1) mod 3",
        "y := x",
        "x, y := y, x",
        "y := (y + 2) mod 3",
        "x := 0",
    ];
    let mut pick = |options: &[&'static str]| options[rng.usize(0..options.len())];
    let init = pick(&["x, y := 0, 0", "x :: 0..1 || y := 1", "x, y := 2, 0"]);
    let (g0, u0, g1, u1, g2) = (
        pick(&guards),
        pick(&updates),
        pick(&guards),
        pick(&updates),
        pick(&guards),
    );
    format!(
        "MACHINE Random
         VARIABLES x, y
         INVARIANT x : 0..2 & y : 0..2
         INITIALISATION {init}
         OPERATIONS
           op0 = SELECT {g0} THEN {u0} END;
           op1 = SELECT {g1} THEN {u1} END;
           op2(p) = PRE p : 0..1 & {g2} THEN y := p END
         END"
    )
}

/// `formula` as ProB text, atom `i` written as the i-th atom of the tables above.
fn text_of(formula: &Formula<usize>) -> String {
    let names: Vec<&str> = STATE_ATOMS.iter().chain(EVENT_ATOMS).copied().collect();
    let raw = formula_text(formula);
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        if c == 'a' && !previous.is_alphanumeric() && chars.peek().is_some_and(char::is_ascii_digit)
        {
            let mut digits = String::new();
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                digits.push(d);
                chars.next();
            }
            out.push_str(names[digits.parse::<usize>().expect("an atom index")]);
            previous = '0';
        } else {
            out.push(c);
            previous = c;
        }
    }
    out
}

fn check_case(seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let machine = random_machine(&mut rng);
    let atoms: Vec<usize> = (0..STATE_ATOMS.len() + EVENT_ATOMS.len()).collect();
    let formula = random_ltl(&mut rng, &atoms, 3);
    let fairness = random_fairness(&mut rng, 3);
    let assumptions: Vec<String> = (fairness.iter())
        .map(|f| format!("{}(op{})", if f.strong { "SF" } else { "WF" }, f.operation))
        .collect();
    let text = if assumptions.is_empty() {
        text_of(&formula)
    } else {
        format!("{} => ({})", assumptions.join(" & "), text_of(&formula))
    };
    let case = format!("seed {seed}\n{machine}\nformula: {text}");
    let model = Model::from_text("Random", &machine);
    let options = TemporalOptions {
        max_states: Some(1000),
        budget: Budget::Chosen(Duration::from_secs(30)),
    };
    let results = check(&model, Logic::Ltl, &[command_line(&text)], &options);
    let outcome = match &results[0].outcome {
        Ok(o) => o.clone(),
        Err(d) => panic!("{case}\nerror: {d}"),
    };
    // The oracle on the same machine, with the formula resolved again into a fresh space.
    let src = command_line(&text);
    let parsed = parse::parse_ltl(src.file, &text, src.range.clone()).expect("parses");
    let mut space = MachineSpace::new(&model.context, 1000);
    let resolved = resolve::resolve(&model.ast, &mut space, &parsed, true).expect("resolves");
    assert_eq!(resolved.fairness, vec![fairness.clone()], "{case}");
    let verdict = ltl::check(&mut space, &resolved.formula, &fairness)
        .unwrap_or_else(|s| panic!("{case}\nstopped: {s:?}"));
    match (&outcome, verdict) {
        (Outcome::Holds { complete: true, .. }, LtlVerdict::Holds) => {
            let found = ltl_counterexample(&mut space, &resolved.formula, &fairness, 4, 5);
            assert!(found.is_none(), "{case}\nthe oracle found {found:?}");
        }
        (Outcome::Violated { .. }, LtlVerdict::Violated(lasso)) => {
            assert!(is_run(&mut space, &lasso), "{case}\nnot a run: {lasso:?}");
            assert!(is_fair(&mut space, &fairness, &lasso), "{case}\nnot fair");
            assert!(
                !ltl_on_lasso(&mut space, &resolved.formula, &lasso),
                "{case}\nthe lasso satisfies the formula: {lasso:?}"
            );
        }
        (o, v) => panic!("{case}\ncommand: {o:?}\nchecker: {v:?}"),
    }
}

/// A few hundred machines in the default run; `BSOLVE_LTL_MACHINES` for a long one.
#[test]
fn random_machines_and_formulas_agree_with_the_oracle() {
    let count = std::env::var("BSOLVE_LTL_MACHINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200u64);
    let first = std::env::var("BSOLVE_LTL_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1u64);
    for seed in first..first + count {
        check_case(seed);
    }
}
