//! Loading and flattening tests on machines written to a temporary directory.

use super::{load, load_text};
use crate::diag::DiagKind;
use crate::ir;
use crate::syntax::ast::{Machine, SubstKind};
use crate::types::{Type, check_machine};
use std::path::{Path, PathBuf};

/// A fresh directory holding the given files.
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bsolve-machine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write temp file");
    }
    dir
}

fn names(m: &Machine) -> (Vec<String>, Vec<String>, Vec<String>) {
    (
        m.constants
            .iter()
            .map(|(c, _)| c.name.to_string())
            .collect(),
        m.variables
            .iter()
            .map(|(v, _)| v.name.to_string())
            .collect(),
        m.operations
            .iter()
            .map(|o| o.name.name.to_string())
            .collect(),
    )
}

const COUNTER: &str = "MACHINE Counter(start)
CONSTRAINTS start : NAT
CONSTANTS limit
PROPERTIES limit = 10
VARIABLES v
INVARIANT v : 0..limit
INITIALISATION v := start
OPERATIONS
  inc(n) = PRE n : 1..2 & v + n <= limit THEN v := v + n END;
  r <-- get = r := v
END";

#[test]
fn includes_with_prefix_renames_and_inlines_calls() {
    let dir = project(
        "includes",
        &[
            ("Counter.mch", COUNTER),
            (
                "Main.mch",
                "MACHINE Main
INCLUDES c.Counter(0)
VARIABLES w
INVARIANT w : NAT
INITIALISATION w := 0
OPERATIONS
  step = BEGIN c.inc(1) ; w <-- c.get END
END",
            ),
        ],
    );
    let m = load(&dir.join("Main.mch")).expect("loads");
    let (constants, variables, operations) = names(&m);
    assert_eq!(constants, ["limit"]);
    assert_eq!(variables, ["c.v", "w"]);
    assert_eq!(operations, ["step"]);
    // The call is replaced by the operation body with its parameter bound.
    let SubstKind::Sequence(parts) = &m.operations[0].body.kind else {
        panic!("{:?}", m.operations[0].body.kind)
    };
    assert!(
        matches!(parts[0].kind, SubstKind::Let(..)),
        "{:?}",
        parts[0].kind
    );
    assert!(
        matches!(parts[1].kind, SubstKind::Assign(..)),
        "{:?}",
        parts[1].kind
    );
    let checked = check_machine(&m).expect("checks");
    assert_eq!(checked.variables[0].ty, Type::Integer);
    // Initialisation of the included machine runs first.
    assert!(matches!(
        checked.initialisation.kind,
        ir::SubstKind::Sequence(_)
    ));
}

#[test]
fn extends_promotes_and_sees_shares_constants() {
    let dir = project(
        "extends",
        &[
            ("Counter.mch", COUNTER),
            (
                "Ctx.mch",
                "MACHINE Ctx\nSETS COLOUR = {red, blue}\nCONSTANTS favourite\nPROPERTIES favourite = red\nEND",
            ),
            (
                "Main.mch",
                "MACHINE Main\nSEES Ctx\nEXTENDS Counter(1)\nVARIABLES col\nINVARIANT col : COLOUR\n\
                 INITIALISATION col := favourite\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Main.mch")).expect("loads");
    let (constants, variables, operations) = names(&m);
    assert_eq!(constants, ["favourite", "limit"]);
    assert_eq!(variables, ["v", "col"]);
    assert_eq!(operations, ["inc", "get"]);
    let checked = check_machine(&m).expect("checks");
    assert_eq!(checked.sets.len(), 1);
}

#[test]
fn refinement_keeps_redeclared_and_concrete_variables() {
    let dir = project(
        "refines",
        &[
            (
                "Abs.mch",
                "MACHINE Abs\nCONSTANTS k\nPROPERTIES k = 2\nABSTRACT_VARIABLES a\nCONCRETE_VARIABLES cv\n\
                 INVARIANT a : NAT & cv : BOOL & a <= k\nINITIALISATION a := 0 || cv := TRUE\n\
                 OPERATIONS set(x) = PRE x : 0..k THEN a := x END\nEND",
            ),
            (
                "Ref.ref",
                "REFINEMENT Ref\nREFINES Abs\nVARIABLES b\nINVARIANT b : NAT & b = a * 2\n\
                 INITIALISATION b := 0 || cv := FALSE\nOPERATIONS set(x) = b := x * 2\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Ref.ref")).expect("loads");
    let (constants, variables, _) = names(&m);
    assert_eq!(constants, ["k"]);
    assert_eq!(variables, ["cv", "b"]);
    let checked = check_machine(&m).expect("checks");
    // `b = a * 2` mentions the dropped abstract variable and is not kept; the parameter gets its type from
    // the abstract precondition.
    assert_eq!(checked.invariant.conjuncts().len(), 2);
    assert_eq!(checked.operations[0].params[0].ty, Type::Integer);
}

#[test]
fn definitions_files_are_included_recursively() {
    let dir = project(
        "defs",
        &[
            ("base.def", "DEFINITIONS LIMIT == 3"),
            ("more.def", "DEFINITIONS \"base.def\"; DOUBLE(x) == 2 * x"),
            (
                "Main.mch",
                "MACHINE Main\nDEFINITIONS \"more.def\"\nCONSTANTS c\nPROPERTIES c = DOUBLE(LIMIT)\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Main.mch")).expect("loads");
    let defs: Vec<&str> = m.definitions.iter().map(|d| &*d.name.name).collect();
    assert_eq!(defs, ["LIMIT", "DOUBLE"]);
    check_machine(&m).expect("checks");
}

#[test]
fn missing_and_cyclic_references_are_file_errors() {
    let dir = project(
        "missing",
        &[
            ("A.mch", "MACHINE A\nSEES B\nEND"),
            ("B.mch", "MACHINE B\nSEES A\nEND"),
            ("Self.ref", "REFINEMENT Self\nREFINES Self\nEND"),
        ],
    );
    let err = load(&dir.join("Self.ref")).expect_err("refines itself");
    assert!(err.message.contains("`Self` refers to itself"), "{err}");
    let err = load_text("Main.mch", "MACHINE Main\nSEES Nowhere\nEND", &dir).expect_err("missing");
    assert_eq!(err.kind, DiagKind::File);
    assert!(
        err.to_string().starts_with(
            "Main.mch:2:6: cannot open machine `Nowhere` (looked for Nowhere.mch, Nowhere.ref, Nowhere.imp in"
        ),
        "{err}"
    );
    let err = load(&dir.join("A.mch")).expect_err("cycle");
    assert_eq!(err.kind, DiagKind::File);
    assert!(err.message.contains("cyclic"), "{err}");
    let err = load(Path::new("/nonexistent/X.mch")).expect_err("no file");
    assert_eq!(err.kind, DiagKind::File);
}

#[test]
fn inlined_parameters_do_not_capture_call_site_names() {
    let dir = project(
        "capture",
        &[
            (
                "Body.mch",
                "MACHINE Body\nVARIABLES acc\nINVARIANT acc : NAT\nINITIALISATION acc := 0\n\
                 OPERATIONS dd <-- body(ii) = PRE ii : NAT THEN acc := acc + ii || dd := ii + 1 END\nEND",
            ),
            (
                "Loop.mch",
                "MACHINE Loop\nINCLUDES Body\nOPERATIONS\n  rr <-- run = VAR ii IN ii := 0; ii <-- body(ii); rr := ii END\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Loop.mch")).expect("loads");
    let checked = check_machine(&m).expect("no capture: `ii` stays the VAR identifier");
    assert_eq!(checked.operations[0].outputs[0].ty, Type::Integer);
}

#[test]
fn the_checked_machine_runs_the_operations_of_the_machines_it_sees_or_uses() {
    let used = "MACHINE Life\nSETS P = {p1, p2}\nVARIABLES alive\nINVARIANT alive <: P\n\
                INITIALISATION alive := P\nOPERATIONS die(x) = PRE x : alive THEN alive := alive - {x} END\nEND";
    let dir = project(
        "uses",
        &[
            ("Life.mch", used),
            (
                "Reg.mch",
                "MACHINE Reg\nUSES Life\nVARIABLES reg\nINVARIANT reg <: alive\n\
                 INITIALISATION reg := {}\nOPERATIONS add(x) = PRE x : alive THEN reg := reg \\/ {x} END\nEND",
            ),
            ("Top.mch", "MACHINE Top\nINCLUDES Reg, Life\nEND"),
            (
                "Watch.mch",
                "MACHINE Watch\nSEES Life\nVARIABLES seen\nINVARIANT seen <: P\n\
                 INITIALISATION seen := {}\nOPERATIONS look = seen := alive\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Watch.mch")).expect("loads");
    assert_eq!(names(&m).2, ["look", "die"]);
    let m = load(&dir.join("Reg.mch")).expect("loads");
    let (_, vars, ops) = names(&m);
    assert_eq!(vars, ["alive", "reg"]);
    assert_eq!(ops, ["add", "die"]);
    // Deeper down, USES only gives read access: `Top` has no operations of its own or promoted.
    let top = load(&dir.join("Top.mch")).expect("loads");
    assert!(names(&top).2.is_empty());
}

#[test]
fn own_definition_wins_over_a_seen_constant_of_the_same_name_in_own_text() {
    let dir = project(
        "shadow",
        &[
            (
                "Seen.mch",
                "MACHINE Seen\nDEFINITIONS one == 1\nCONSTANTS aa\nPROPERTIES aa = one\nEND",
            ),
            (
                "Main.mch",
                "MACHINE Main\nSEES Seen\nDEFINITIONS aa == 5\nCONSTANTS xx\nPROPERTIES xx = aa\nEND",
            ),
        ],
    );
    let m = load(&dir.join("Main.mch")).expect("loads");
    let props = format!("{:?}", m.properties);
    // Seen's `aa = 1` stays about the constant; Main's `xx = aa` became `xx = 5`.
    assert!(props.contains("Int(5)"), "{props}");
    assert!(props.contains("Int(1)"), "{props}");
    check_machine(&m).expect("types");
}

#[test]
fn settings_of_an_included_machine_stay_its_own() {
    let dir = project(
        "child-settings",
        &[
            (
                "Life.mch",
                "MACHINE Life\nDEFINITIONS scope_PERSON == 8; SET_PREF_MAXINT == 20; one == 1\n\
                 SETS PERSON\nVARIABLES alive\nINVARIANT alive <: PERSON\nINITIALISATION alive := {}\nEND",
            ),
            (
                "Registry.mch",
                "MACHINE Registry\nINCLUDES Life\nVARIABLES count\nINVARIANT count = one\n\
                 INITIALISATION count := 1\nEND",
            ),
        ],
    );
    let names_of = |m: &Machine| -> Vec<String> {
        m.definitions
            .iter()
            .map(|d| d.name.name.to_string())
            .collect()
    };
    let life = load(&dir.join("Life.mch")).expect("loads");
    assert!(names_of(&life).contains(&"scope_PERSON".to_string()));
    let registry = load(&dir.join("Registry.mch")).expect("loads");
    let defs = names_of(&registry);
    // Ordinary definitions are still visible, settings are not.
    assert!(defs.contains(&"one".to_string()), "{defs:?}");
    assert!(
        !defs
            .iter()
            .any(|d| d.starts_with("scope_") || d.starts_with("SET_PREF_")),
        "{defs:?}"
    );
}

#[test]
fn local_operation_calls_are_inlined_callees_first() {
    let text = "MACHINE Local VARIABLES v INVARIANT v : NAT INITIALISATION v := 0
        OPERATIONS
          run = VAR r IN r <-- outer(3) ; v := r END;
          out <-- outer(p) = PRE p : 1..8 THEN out <-- inner(p + 2) END;
          out <-- inner(p) = PRE p : 1..10 THEN out := p + 2 END;
          out <-- again(p) = PRE p : NAT THEN out <-- again(p) END
        END";
    let m = load_text("<test>", text, Path::new(".")).expect("loads");
    let calls = |name: &str| {
        let op = m
            .operations
            .iter()
            .find(|o| &*o.name.name == name)
            .expect("op");
        format!("{:?}", op.body).matches("OpCall").count()
    };
    assert_eq!(calls("run"), 0);
    assert_eq!(calls("outer"), 0);
    // A recursive call cannot be inlined: it stays (and is reported when executed).
    assert_eq!(calls("again"), 1);
}

#[test]
fn a_definition_can_stand_for_a_list_of_declared_identifiers() {
    // ProB's B/FeatureChecks/DEFINITIONS/VariableListAsDEFINITION.mch.
    let m = load_text(
        "<test>",
        "MACHINE Vars\nDEFINITIONS Vars == (x,y,z); Cs == c\nCONSTANTS Cs PROPERTIES c = 1\n\
         VARIABLES Vars, v\nINVARIANT x:BOOL & y:BOOL & z:BOOL & v:BOOL\n\
         INITIALISATION x,y,z,v := TRUE,TRUE,TRUE,TRUE\nEND",
        Path::new("."),
    )
    .expect("loads");
    let (constants, variables, _) = names(&m);
    assert_eq!(constants, ["c"]);
    assert_eq!(variables, ["x", "y", "z", "v"]);
}
