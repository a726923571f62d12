//! Classes of B machines that hold beyond the corpus: long WHILE loops, functions over infinite sets
//! kept symbolic, parameters bounded by the functions their guard applies, variables the
//! INITIALISATION leaves without a value. Each class has a bundled model of its own; the answers are
//! checked end to end through the command line, and against the brute-force backend where it applies.

mod common;

use common::{bsolve, bsolve_json, model_arg as model};

/// Writes a machine of the test's own into a fresh temporary directory; its path as an argument.
fn temp_machine(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bsolve-classes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.mch"));
    std::fs::write(&file, text).expect("write");
    file.display().to_string()
}

/// A loop of 1.5 million steps in the INITIALISATION runs to its end (the invariant checks its result);
/// MAX_WHILE_STEPS and the time budget still bound it, as UNKNOWN, never as a verdict.
#[test]
fn a_long_while_loop_runs_to_its_end_within_the_budget() {
    let (code, json) = bsolve_json(&["mc", &model("LongWhile.mch")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND", "{json}");
    assert_eq!(json["states"], 1, "{json}");
    let (code, out, _) = bsolve(&["mc", "-p", "MAX_WHILE_STEPS=1000", &model("LongWhile.mch")]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("WHILE loop ran more than 1000 steps"), "{out}");
    let (code, out, _) = bsolve(&["mc", "--timeout", "200", &model("LongWhile.mch")]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
}

/// Recursive and infinite functions stay closures: the ASSERTIONS (fib(30), images, memberships, a
/// recursion 3,000 deep) hold, the typing `double : NATURAL --> INTEGER` is decided from the lambda's
/// shape, and the state space is complete — the same under the brute-force backend.
#[test]
fn functions_over_infinite_sets_are_kept_symbolic() {
    for backend in ["auto", "brute"] {
        let (code, json) =
            bsolve_json(&["mc", "--backend", backend, &model("RecursiveFunctions.mch")]);
        assert_eq!(code, 0, "{backend}: {json}");
        assert_eq!(json["status"], "NO ERROR FOUND", "{backend}: {json}");
        assert_eq!(json["states"], 8, "{backend}: {json}");
        assert_eq!(json["transitions"], 29, "{backend}: {json}");
        assert_eq!(json["partial_enumeration"], false, "{backend}: {json}");
    }
    for (formula, expected) in [
        // Memoised: the naive recursion would take 2^80 steps.
        ("fib(80)", "37889062373143906"),
        ("{x | 30 |-> x : fib}", "{1346269}"),
        ("parity[{7, 10}]", "{0,1}"),
        // An image over an interval kept symbolic, a composition applied point by point.
        ("max(fib[1..25])", "121393"),
        ("(fib ; double)(5)", "16"),
        ("double : NATURAL1 --> INTEGER", "FALSE"),
        ("double : INTEGER +-> INTEGER", "TRUE"),
    ] {
        let (code, out, err) = bsolve(&["eval", &model("RecursiveFunctions.mch"), formula]);
        assert_eq!(out.trim(), expected, "{formula}: {out}{err}");
        assert!(code == 0 || expected == "FALSE", "{formula}: exit {code}");
    }
    // A range that is not a whole type cannot be decided from the shape: an honest error, not a guess.
    let (code, out, err) = bsolve(&[
        "eval",
        &model("RecursiveFunctions.mch"),
        "double : NATURAL --> 0..10",
    ]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("infinite"), "{err}");
}

/// The memo of a constant's images never changes an answer: within one process, applications in an
/// order that reuses images computed for other points agree with fib computed by a plain loop here.
#[test]
fn memoised_images_agree_with_a_loop() {
    let points = [40, 3, 60, 59, 58, 0, 1, 2, 75, 74];
    let fib = |n: usize| {
        let (mut a, mut b) = (1u64, 1u64);
        for _ in 0..n {
            (a, b) = (b, a + b);
        }
        a
    };
    let formula = format!("[{}]", points.map(|n| format!("fib({n})")).join(", "));
    let expected = format!("[{}]", points.map(|n| fib(n).to_string()).join(","));
    let (code, out, err) = bsolve(&["eval", &model("RecursiveFunctions.mch"), &formula]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.trim(), expected);
}

/// A recursion without a base case ends in a clear limit error, not a stack overflow.
#[test]
fn a_recursion_without_a_base_case_is_a_clear_error() {
    let file = temp_machine(
        "Endless",
        "MACHINE Endless\nABSTRACT_CONSTANTS f\n\
         PROPERTIES f : INTEGER <-> INTEGER & f = %x.(x : INTEGER | f(x - 1))\nEND\n",
    );
    let (code, out, err) = bsolve(&["eval", &file, "f(3)"]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("nested more than"), "{err}");
}

/// `yy = f(Nr)` bounds Nr by dom(f), including 7, which lies beyond MAXINT: the exploration is complete
/// and the counts are those of the brute-force backend.
#[test]
fn a_parameter_applied_by_the_guard_ranges_over_the_functions_domain() {
    let mut counts = Vec::new();
    for backend in ["auto", "native", "brute"] {
        let (code, json) =
            bsolve_json(&["mc", "--backend", backend, &model("GuardedParameter.mch")]);
        assert_eq!(code, 0, "{backend}: {json}");
        assert_eq!(json["status"], "NO ERROR FOUND", "{backend}: {json}");
        assert_eq!(json["partial_enumeration"], false, "{backend}: {json}");
        counts.push((json["states"].clone(), json["transitions"].clone()));
    }
    // Every subset of f's five pairs is a reachable st, plus the root.
    assert_eq!(counts[0].0, 33);
    assert!(counts.iter().all(|c| *c == counts[0]), "{counts:?}");
}

/// A variable the INITIALISATION does not assign: the run goes on, what reads it is reported as
/// ill-defined, and the operations that do not read it are explored.
#[test]
fn an_unassigned_variable_is_an_error_in_the_state_not_the_end_of_the_run() {
    let (code, json) = bsolve_json(&["mc", &model("UnassignedVariable.mch")]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "WELL-DEFINEDNESS ERROR", "{json}");
    assert_eq!(json["exploration_complete"], true, "{json}");
    assert_eq!(json["states"], 4, "{json}");
    let detail = json["detail"].as_str().expect("detail");
    assert!(detail.contains("t1 is read but has no value"), "{detail}");
}

/// An integer defined from a set-valued unknown (`a = card(b)`, b a lambda over `1..c`) is computed
/// once b is known, not labelled within MININT..MAXINT: the setup list is complete (the ProB handbook's
/// Debug machine: a = 1000, then Sqr four times and Finished).
#[test]
fn an_integer_defined_from_a_set_is_computed_not_cut() {
    let file = temp_machine(
        "Debug",
        "MACHINE Debug\nCONSTANTS a, b, c\n\
         PROPERTIES a = card(b) & b = %x.(x : 1..c | x * x) & c : 1000..1001 & c < 1001\n\
         VARIABLES x INVARIANT x : NATURAL INITIALISATION x := 2\nOPERATIONS\n\
         Sqr = SELECT x : dom(b) THEN x := b(x) END;\n\
         Finished = SELECT x /: dom(b) THEN skip END\nEND\n",
    );
    for backend in ["native", "auto"] {
        let (code, json) = bsolve_json(&["setup-constants", "--all", "--backend", backend, &file]);
        assert_eq!(code, 0, "{backend}: {json}");
        assert_eq!(json["complete"], true, "{backend}: {json}");
        let solutions = json["solutions"].as_array().expect("solutions");
        assert_eq!(solutions.len(), 1, "{backend}: {json}");
        assert_eq!(solutions[0]["a"], "1000", "{backend}: {json}");
    }
    let (code, json) = bsolve_json(&["mc", &file]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND", "{json}");
    assert_eq!(json["states"], 6, "{json}");
}

/// The symbolic checks bind constants kept symbolic as the model checker does, rather than search for
/// a recursive function: each proves the invariant of RecursiveFunctions (it held the time budget
/// before).
#[test]
fn symbolic_checks_bind_constants_kept_symbolic() {
    let file = model("RecursiveFunctions.mch");
    // A bounded search proves nothing beyond its depth: bmc's "no counterexample" exits with 2.
    for (args, expected, exit) in [
        (vec!["cbc", &file], "INITIALISATION: PRESERVED", 0),
        (vec!["kinduction", &file], "PROVED", 0),
        (vec!["ic3", &file], "PROVED", 0),
        (
            vec!["bmc", &file, "4"],
            "NO COUNTEREXAMPLE up to depth 4 (complete",
            2,
        ),
    ] {
        let mut args = args;
        args.extend(["--timeout", "60000"]);
        let (code, out, err) = bsolve(&args);
        assert_eq!(code, exit, "{args:?}: {out}{err}");
        assert!(out.starts_with(expected), "{args:?}: {out}");
        assert!(!out.contains("UNKNOWN"), "{args:?}: {out}");
    }
}

/// An output or a VAR local read before its assignment is ill-defined in that state; the run goes on.
#[test]
fn an_output_or_local_read_before_its_assignment_is_ill_defined() {
    for (name, body, reported) in [
        (
            "OutputRead",
            "out <-- op = BEGIN IF x > 2 THEN out := 1 END; x := (out + x) mod 5 END",
            "out is read before it is assigned a value",
        ),
        (
            "LocalRead",
            "op = VAR t IN IF x > 2 THEN t := 1 END; x := (t + x) mod 5 END",
            "t is read before it is assigned a value",
        ),
    ] {
        let file = temp_machine(
            name,
            &format!(
                "MACHINE {name}\nVARIABLES x\nINVARIANT x : 0..5\nINITIALISATION x := 0\n\
                 OPERATIONS\n  {body};\n  step = BEGIN x := (x + 1) mod 5 END\nEND\n"
            ),
        );
        let (code, json) = bsolve_json(&["mc", &file]);
        assert_eq!(code, 1, "{name}: {json}");
        assert_eq!(json["status"], "WELL-DEFINEDNESS ERROR", "{name}: {json}");
        assert_eq!(json["states"], 5, "{name}: {json}");
        let detail = json["detail"].as_str().expect("detail");
        assert!(detail.contains(reported), "{name}: {detail}");
    }
}

/// Constants defined together by one tuple equation `(n, r) = E` are each a component of E: the
/// relation is computed, not enumerated over a 12-element set (it used to run out of time).
#[test]
fn a_tuple_equation_defines_each_of_its_constants() {
    let (code, json) = bsolve_json(&["--timeout", "20000", "mc", &model("TupleDefinition.mch")]);
    assert_eq!(json["status"], "DEADLOCK", "{json}");
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["states"], 2, "{json}");
}

/// Ranges and inverses of functions over infinite sets stay symbolic: memberships in `ran(f)` and
/// images `f~[S]` of finite sets are decided (SymbolicRange's ASSERTIONS and invariant check the values,
/// including absent ones), while listing an infinite range stays a clear error.
#[test]
fn ranges_and_inverses_of_infinite_functions_are_kept_symbolic() {
    let (code, json) = bsolve_json(&["mc", &model("SymbolicRange.mch")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND", "{json}");
    assert_eq!(json["states"], 22, "{json}");
    let (code, out, _) = bsolve(&["eval", &model("SymbolicRange.mch"), "ran(sq) /\\ 0..50"]);
    assert_eq!((code, out.trim()), (0, "{0,1,4,9,16,25,36,49}"));
    let (code, out, err) = bsolve(&["eval", &model("SymbolicRange.mch"), "card(ran(sq))"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("cannot enumerate"), "{err}");
    // A wrong value is found wrong, not accepted: 15 is no square.
    let (code, out, _) = bsolve(&["eval", &model("SymbolicRange.mch"), "15 : ran(sq)"]);
    assert_eq!((code, out.trim()), (1, "FALSE"), "{out}");
    let (code, out, _) = bsolve(&["eval", &model("SymbolicRange.mch"), "sq~[{49}] = {7}"]);
    assert_eq!((code, out.trim()), (0, "TRUE"), "{out}");
}

/// The B-Book's tree operators (ProB keywords): Trees' ASSERTIONS hold the values computed by hand,
/// its invariant the laws of TreeLaws; the state space is counted by hand (trees of 1, 2 and 4 nodes:
/// 1 + 3 + 9, and the setup), the same under brute; a non-node is ill-defined; a machine's own
/// identifiers named like an operator stay its own.
#[test]
fn tree_operators_compute_the_b_book_trees() {
    for backend in ["auto", "brute"] {
        let (code, json) = bsolve_json(&["mc", "--backend", backend, &model("Trees.mch")]);
        assert_eq!(code, 1, "{json}");
        assert_eq!(json["status"], "DEADLOCK", "{json}");
        let (code, json) = bsolve_json(&[
            "mc",
            "--backend",
            backend,
            "--all-deadlocks",
            &model("Trees.mch"),
        ]);
        assert_eq!(
            (json["states"].as_u64(), json["transitions"].as_u64()),
            (Some(14), Some(14)),
            "{json}"
        );
        assert_eq!(json["deadlocked_states"], 9, "{json}");
        assert_eq!(code, 1, "{json}");
    }
    let (code, out, err) = bsolve(&["eval", &model("Trees.mch"), "son(t, [2], 1)"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("son: node [2] has no son 1"),
        "{out}{err}"
    );
    let own = temp_machine(
        "OwnNames",
        "MACHINE OwnNames\nDEFINITIONS top(x) == x + 1\nVARIABLES left, right\n\
         INVARIANT left : NATURAL & right : NATURAL\nINITIALISATION left, right := top(1), 0\n\
         OPERATIONS swap = BEGIN left, right := right, left END\nEND\n",
    );
    let (code, json) = bsolve_json(&["mc", &own]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["states"], 2, "{json}");
}
