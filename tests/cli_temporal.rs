//! `bsolve ltl` and `bsolve ctl` end to end on bundled models whose verdicts were derived by hand (see
//! each model's comment): every `ASSERT_LTL...` / `ASSERT_CTL...` whose name ends in `_FAIL` or `_FALSE`
//! is false, the others true; counterexamples are lassos replayed by the interpreter; bad formulas are
//! reported with their position and exit code 3.

mod common;

use common::{bsolve, bsolve_json, model_arg as model};

/// Checks every assertion of `file` for `logic` and compares each verdict with its name.
fn assertions_match_their_names(logic: &str, file: &str) {
    let (code, json) = bsolve_json(&[logic, &model(file), "--assertions"]);
    let formulas = json["formulas"].as_array().expect("formulas");
    assert!(!formulas.is_empty(), "{json}");
    let mut any_false = false;
    for f in formulas {
        let name = f["name"].as_str().expect("name");
        let expected = if name.ends_with("_FAIL") || name.ends_with("_FALSE") {
            any_false = true;
            "FALSE"
        } else {
            "TRUE"
        };
        assert_eq!(f["status"], expected, "{file} {name}: {f}");
        if expected == "FALSE" && logic == "ltl" {
            assert!(
                !f["loop"].as_array().expect("a loop").is_empty(),
                "{name}: {f}"
            );
        }
    }
    assert_eq!(code, if any_false { 1 } else { 0 }, "{json}");
}

#[test]
fn ltl_assertions_of_the_bundled_models_have_the_verdicts_derived_by_hand() {
    for file in ["MutexFairness.mch", "CounterLtl.mch", "StoppingCounter.mch"] {
        assertions_match_their_names("ltl", file);
    }
}

#[test]
fn ctl_assertions_of_the_bundled_models_have_the_verdicts_derived_by_hand() {
    for file in ["MutexFairness.mch", "CounterLtl.mch", "StoppingCounter.mch"] {
        assertions_match_their_names("ctl", file);
    }
}

/// Weak and strong fairness differ on the mutual exclusion model: process 2 can keep Enter1 disabled
/// once per round, so only strong fairness forces it.
#[test]
fn weak_and_strong_fairness_differ() {
    let m = model("MutexFairness.mch");
    let (code, _, _) = bsolve(&["ltl", &m, "GF [Enter1]"]);
    assert_eq!(code, 1);
    let (code, _, _) = bsolve(&["ltl", &m, "WF(Req1) & WF(Enter1) => GF [Enter1]"]);
    assert_eq!(code, 1);
    let (code, out, _) = bsolve(&["ltl", &m, "WF(Req1) & SF(Enter1) => GF [Enter1]"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("TRUE"), "{out}");
    // Alternatives: the formula must hold under each; one weak alternative is enough to violate it.
    let either = "(WF(Req1) & SF(Enter1)) or (WF(Req1) & WF(Enter1)) => GF [Enter1]";
    let (code, out, _) = bsolve(&["ltl", &m, either]);
    assert_eq!(code, 1, "{out}");
    let both_strong = "(WF(Req1) & SF(Enter1)) or (SF(Req1) & SF(Enter1)) => GF [Enter1]";
    let (code, out, _) = bsolve(&["ltl", &m, both_strong]);
    assert_eq!(code, 0, "{out}");
}

/// A violated formula prints its prefix and loop; a deadlock's loop is the stutter step.
#[test]
fn a_counterexample_is_a_replayed_lasso() {
    let (code, out, _) = bsolve(&["ltl", &model("StoppingCounter.mch"), "G F [inc]"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FALSE"), "{out}");
    assert!(out.contains("prefix:"), "{out}");
    assert!(out.contains("loop (repeated forever):"), "{out}");
    assert!(out.contains("deadlock: no operation is enabled"), "{out}");
}

#[test]
fn bad_formulas_are_reported_with_their_position() {
    let m = model("CounterLtl.mch");
    for (formula, wanted) in [
        ("G [nosuch]", "unknown operation `nosuch`"),
        ("G {x + 1}", "expected a predicate"),
        ("G {x = TRUE}", ""),
        ("G (", ""),
        ("G {z > 0}", "z"),
    ] {
        let (code, out, err) = bsolve(&["ltl", &m, formula]);
        assert_eq!(code, 3, "{formula}: {out} {err}");
        let text = format!("{out}{err}");
        assert!(text.contains("<formula>:1:"), "{formula}: {text}");
        assert!(text.contains(wanted), "{formula}: {text}");
    }
    let (code, _, _) = bsolve(&["ctl", &m, "AG [inc]]"]);
    assert_eq!(code, 3);
}

/// `#x.({P} & f)` and `!x.({P} => f)` expand over the values of `x` that satisfy `P`.
#[test]
fn quantified_formulas_expand_over_their_domain() {
    let m = model("CounterLtl.mch");
    let holds = [
        "#v.({v : 0..3} & G F {x = v})",
        "!v.({v : 1..3} => G ({x = v} => Y {x = v - 1}))",
    ];
    for f in holds {
        let (code, out, _) = bsolve(&["ltl", &m, f]);
        assert_eq!(code, 0, "{f}: {out}");
    }
    let (code, out, _) = bsolve(&["ltl", &m, "!v.({v : 0..3} => F {y = v})"]);
    assert_eq!(code, 1, "{out}");
    // The empty domain: `#` is false, `!` true.
    let (code, _, _) = bsolve(&["ltl", &m, "#v.({v : 4..3} & G {x = v})"]);
    assert_eq!(code, 1);
    let (code, _, _) = bsolve(&["ltl", &m, "!v.({v : 4..3} => G {x = v})"]);
    assert_eq!(code, 0);
    let (code, out, err) = bsolve(&["ltl", &m, "#v.({v : 0..3} & G {x = w})"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(format!("{out}{err}").contains("`w`"), "{out}{err}");
}

/// The atoms about enabledness and the run's start: `deterministic`, `controller`, `deadlock(Op)`,
/// `sink`, `current`, `Av`, and CTL's `goal` and `error`.
#[test]
fn every_atom_is_decided() {
    let m = model("StoppingCounter.mch");
    for (logic, formula, expected) in [
        ("ltl", "G deterministic(inc)", 0),
        ("ltl", "G controller(inc)", 1),
        ("ltl", "F deadlock(inc)", 0),
        ("ltl", "G (Av(inc) <=> e(inc))", 0),
        ("ltl", "current", 0),
        ("ltl", "X current", 1),
        ("ltl", "G (sink => {x = 3})", 0),
        ("ctl", "AG not(error)", 0),
        ("ctl", "EX EX {x = 2}", 0),
        ("ctl", "E {x < 2} U {x = 2}", 0),
        ("ctl", "AG AF {x = 3}", 0),
        ("ctl", "EF {x = 4}", 1),
    ] {
        let (code, out, err) = bsolve(&[logic, &m, formula]);
        assert_eq!(code, expected, "{logic} {formula}: {out}{err}");
    }
    // `goal` needs a GOAL definition.
    let (code, out, err) = bsolve(&["ctl", &m, "EF goal"]);
    assert_eq!(code, 3, "{out}{err}");
}

/// An error inside an `ASSERT_LTL` string is reported at its line and column in the machine file.
#[test]
fn an_error_in_a_definition_points_into_the_machine_file() {
    let dir = std::env::temp_dir().join(format!("bsolve-ltl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("BadLtl.mch");
    std::fs::write(
        &file,
        "MACHINE BadLtl\nDEFINITIONS\n  ASSERT_LTL1 == \"G {x > 0}\";\n  ASSERT_LTL2 == \"G {y > 0}\"\n\
         VARIABLES x INVARIANT x : 0..1 INITIALISATION x := 0\nOPERATIONS flip = x := 1 - x END\n",
    )
    .expect("write");
    let (code, json) = bsolve_json(&["ltl", file.to_str().expect("path"), "--assertions"]);
    assert_eq!(code, 3, "{json}");
    let formulas = json["formulas"].as_array().expect("formulas");
    assert_eq!(formulas[0]["status"], "FALSE", "{json}");
    assert_eq!(formulas[1]["status"], "ERROR", "{json}");
    let location = formulas[1]["location"].as_str().expect("location");
    assert!(location.ends_with("BadLtl.mch:4:22"), "{location}");
}

/// Where an operation's parameters were enumerated only within MININT..MAXINT, a formula that holds on
/// the explored part, and a violation that depends on what such a state enables, are UNKNOWN; a
/// violation by real steps of a formula that reads no enabledness stays FALSE.
#[test]
fn partly_enumerated_successors_make_answers_unknown_not_wrong() {
    let dir = std::env::temp_dir().join(format!("bsolve-ltl-partial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("Unbounded.mch");
    std::fs::write(
        &file,
        "MACHINE Unbounded VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0\n\
         OPERATIONS set(n) = PRE n : NATURAL & n > x & x < 3 THEN x := n END END\n",
    )
    .expect("write");
    let m = file.to_str().expect("path");
    for (logic, formula, expected) in [
        ("ltl", "F deadlock", 2),
        ("ltl", "G not(deadlock)", 2),
        ("ltl", "G {x < 2}", 1),
        ("ctl", "AG EX true", 2),
        ("ctl", "AG {x < 2}", 2),
    ] {
        let (code, out, err) = bsolve(&["--timeout", "20000", logic, m, formula]);
        assert_eq!(code, expected, "{logic} {formula}: {out}{err}");
    }
}
