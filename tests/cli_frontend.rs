//! End-to-end tests of the surface forms ProB accepts beyond the core grammar: each machine here is
//! loaded, type-checked and evaluated through the `bsolve` command line, and the malformed variants are
//! rejected with a position and exit code 3.

mod common;

use common::{bsolve, bsolve_json};

/// Writes `text` as `name` into a fresh temporary directory of the test `test`; returns its path.
fn temp_file(test: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bsolve-frontend-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::create_dir_all(file.parent().expect("in the folder")).expect("folder");
    std::fs::write(&file, text).expect("writes");
    file.display().to_string()
}

/// `bsolve eval FILE EXPR` printed value (exit code 0 asserted).
fn eval_in(file: &str, expr: &str) -> String {
    let (code, out, err) = bsolve(&["eval", file, expr]);
    assert_eq!(code, 0, "{expr}: {out}{err}");
    out.trim().to_string()
}

/// The one solution of `setup-constants` (exit code 0 asserted).
fn setup(file: &str) -> serde_json::Value {
    let (code, json) = bsolve_json(&["setup-constants", file]);
    assert_eq!(code, 0, "{json}");
    json["solutions"][0].clone()
}

/// Asserts that `args` fail with exit code 3 and a `file:line:col` message containing `what`.
fn rejected(args: &[&str], position: &str, what: &str) {
    let (code, out, err) = bsolve(args);
    assert_eq!(code, 3, "{args:?}: {out}{err}");
    assert!(err.contains(position), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err}");
}

#[test]
fn composition_inside_quantified_bodies_and_images() {
    let file = temp_file(
        "composition",
        "Comp.mch",
        "MACHINE Comp\nCONSTANTS r, u, l, s\n\
         PROPERTIES r = {1 |-> 10, 2 |-> 20} &\n\
         u = UNION(i).(i : 1..2 | {i |-> i} ; r) &\n\
         l = %x.(x : 1..2 | {x |-> x} ; r) &\n\
         s = SIGMA(i).(i : 1..2 | card({i |-> i} ; r || r))\nEND\n",
    );
    let sol = setup(&file);
    assert_eq!(sol["u"], "[10,20]");
    assert_eq!(sol["s"], "4");
    assert_eq!(
        eval_in(&file, "l = {1 |-> {1 |-> 10}, 2 |-> {2 |-> 20}}"),
        "TRUE"
    );
    assert_eq!(eval_in(&file, "{(1 |-> 10) |-> 5}[{1 |-> 1} ; r]"), "{5}");
    // At the top of a predicate `;` is no operator: it ends the clause.
    let bad = temp_file(
        "composition",
        "Bad.mch",
        "MACHINE Bad\nCONSTANTS r\nPROPERTIES r = {1 |-> 1} ; {1 |-> 2}\nEND\n",
    );
    rejected(&["setup-constants", &bad], "Bad.mch:3:", "`;`");
}

#[test]
fn maplet_patterns_as_comprehension_binders() {
    let file = temp_file(
        "patterns",
        "Patterns.mch",
        "MACHINE Patterns\nCONSTANTS sq, sums, n\n\
         PROPERTIES sq = {x |-> y | x : 1..3 & y = x * x} &\n\
         sums = {(a |-> b) |-> c | a : 1..2 & b : 1..2 & c = a + b} &\n\
         n = card({x |-> (y |-> z) | x : 1..2 & y : 1..3 & z = x + y})\nEND\n",
    );
    let sol = setup(&file);
    assert_eq!(sol["sq"], "[1,4,9]");
    assert_eq!(sol["n"], "6");
    assert_eq!(
        eval_in(&file, "sums = {x, y, z | x : 1..2 & y : 1..2 & z = x + y}"),
        "TRUE"
    );
    assert_eq!(
        eval_in(
            &file,
            "{x |-> (y |-> z) | x : 1..2 & y = x & z = 0} = {1 |-> (1 |-> 0), 2 |-> (2 |-> 0)}"
        ),
        "TRUE"
    );
    rejected(
        &["eval", &file, "{x |-> 1 | x : 1..2}"],
        "<formula>:1:8",
        "maplet of identifiers",
    );
}

#[test]
fn prob_unicode_notation() {
    let file = temp_file(
        "unicode",
        "Uni.mch",
        "MACHINE Uni\nCONSTANTS f, s, t, n\nPROPERTIES\n\
         f ∈ 1‥3 +−> 1‥9 ∧ f = λx·(x ∈ 1‥3 ∣ x × x) ⋖ {1 ↦ 5} ∧\n\
         s = [1, 2] ⌒ [3] ∧ t = (s ↑ 2) ⇽ 7 ∧ n = 10 ÷ 3 − 1 ∧ ⊤ ∧ ¬(⊥)\n\
         VARIABLES v\nINVARIANT v ∈ ℕ ∧ v ≤ 3\nINITIALISATION v :∈ {0, 1}\n\
         OPERATIONS\n  step = SELECT v < 3 THEN v ≔ v + 1 END\nEND\n",
    );
    let sol = setup(&file);
    assert_eq!(sol["f"], "[5,4,9]");
    assert_eq!(sol["s"], "[1,2,3]");
    assert_eq!(sol["t"], "[1,2,7]");
    assert_eq!(sol["n"], "2");
    // 0 ↦ 1 ↦ 2 ↦ 3, then no operation is enabled.
    let (code, json) = bsolve_json(&["mc", &file]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "DEADLOCK", "{json}");
    for (expr, value) in [
        ("(f ∥ f)((1, 2))", "(5|->4)"),
        ("{1, 2} ◀ f", "{3|->9}"),
        ("f ▶ {9}", "[5,4]"),
        ("s ↓ 1", "[2,3]"),
        ("0 ⇾ s", "[0,1,2,3]"),
        ("2 ∗ 3 − −1", "7"),
        ("f \u{e103} {2 ↦ 1}", "[5,1,9]"),
    ] {
        assert_eq!(eval_in(&file, expr), value, "{expr}");
    }
    rejected(
        &["eval", &file, "1 ⊞ 2"],
        "<formula>:1:3",
        "unexpected character `⊞`",
    );
}

#[test]
fn file_and_package_pragmas_locate_machines() {
    // ROOT/a/b/Main.mch sees Lib from the imported package c.d (ROOT/c/d) and Other from the file its
    // `file` pragma names; label and description pragmas are comments.
    let main = temp_file(
        "pragmas",
        "root/a/b/Main.mch",
        "/*@package a.b */\n/*@ import-package c.d */\nMACHINE Main\n\
         SEES Lib, Other /*@file \"../../../elsewhere/OtherFile.mch\" */\n\
         CONSTANTS k\nPROPERTIES /*@label sum */ k = lim + other /*@desc the sum */\nEND\n",
    );
    let mut root = std::path::PathBuf::from(&main);
    for _ in 0..3 {
        root.pop();
    }
    std::fs::create_dir_all(root.join("c/d")).expect("package folder");
    std::fs::create_dir_all(root.join("../elsewhere")).expect("folder");
    std::fs::write(
        root.join("c/d/Lib.mch"),
        "MACHINE Lib\nCONSTANTS lim\nPROPERTIES lim = 5\nEND\n",
    )
    .expect("writes");
    std::fs::write(
        root.join("../elsewhere/OtherFile.mch"),
        "MACHINE Other\nCONSTANTS other\nPROPERTIES other = 2\nEND\n",
    )
    .expect("writes");
    assert_eq!(setup(&main)["k"], "7");
    let variant = |name: &str, from: &str, to: &str| {
        let text = std::fs::read_to_string(&main)
            .expect("reads")
            .replace(from, to)
            .replace("MACHINE Main", &format!("MACHINE {name}"));
        temp_file("pragmas", &format!("root/a/b/{name}.mch"), &text)
    };
    let wrong_package = variant("WrongPackage", "package a.b", "package x.b");
    rejected(
        &["setup-constants", &wrong_package],
        "WrongPackage.mch:1:12",
        "does not match the folder structure",
    );
    let missing_import = variant("MissingImport", "c.d", "c.e");
    rejected(
        &["setup-constants", &missing_import],
        "MissingImport.mch:2:20",
        "is not a folder",
    );
    let missing_file = variant("MissingFile", "OtherFile", "Missing");
    rejected(
        &["setup-constants", &missing_file],
        "MissingFile.mch:4:25",
        "named by the `file` pragma",
    );
    let misplaced = variant("Misplaced", "/*@label sum */", "/*@file \"x.mch\" */");
    rejected(
        &["setup-constants", &misplaced],
        "Misplaced.mch:6:20",
        "must follow a machine name",
    );
}

#[test]
fn definition_parameters_bound_in_the_body() {
    let file = temp_file(
        "binders",
        "Binders.mch",
        "MACHINE Binders\nDEFINITIONS\n\
         all(x, S, P) == !x.(x : S => P);\n\
         some(x, S, P) == #x.(x : S & P);\n\
         setof(x, S, P) == {x | x : S & P};\n\
         sum(x, S, E) == SIGMA(x).(x : S | E);\n\
         double(v) == %v.(v : 1..3 | v * 2);\n\
         pick(z) == ANY z WHERE z : 1..2 THEN c := z END\n\
         CONSTANTS k, t\n\
         PROPERTIES all(y, 1..3, y > 0) & not(some(y, 1..3, y > 3)) &\n\
         k = card(setof(q, 1..10, q mod 2 = 0)) & t = sum(i, 1..4, i * i) + double(w)(2)\n\
         VARIABLES c\nINVARIANT c : 0..2\nINITIALISATION c := 0\n\
         OPERATIONS\n  go = pick(w)\nEND\n",
    );
    let sol = setup(&file);
    assert_eq!((&sol["k"], &sol["t"]), (&"5".into(), &"34".into()));
    assert_eq!(
        eval_in(&file, "all(n, 1..3, n < 4) & not(all(n, 1..3, n < 3))"),
        "TRUE"
    );
    let (code, json) = bsolve_json(&["mc", &file]);
    assert_eq!(code, 0, "{json}");
    // Initial state c = 0, then `go` reaches c = 1 and c = 2.
    assert_eq!(json["states"], 4, "{json}");
    rejected(
        &["eval", &file, "all(k + 1, 1..3, k > 0)"],
        "<formula>:1:5",
        "must be an identifier",
    );
}

#[test]
fn local_operations_are_called_not_run() {
    let file = temp_file(
        "local",
        "Loc.mch",
        "MACHINE Loc\nVARIABLES x, log\nINVARIANT x : 0..5 & log : seq(0..5)\n\
         INITIALISATION x := 0 || log := []\n\
         LOCAL_OPERATIONS\n  record(v) = PRE v : 0..5 THEN log := log <- v END;\n\
         r <-- twice(v) = PRE v : 0..2 THEN r := 2 * v END\n\
         OPERATIONS\n  step = SELECT x < 2 THEN VAR y IN y <-- twice(x + 1); x := y; record(y) END END;\n\
         record(v) = BEGIN log := log <- v END\nEND\n",
    );
    let (code, out, err) = bsolve(&["check", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("operation step") && !out.contains("operation record"),
        "{out}"
    );
    // One step (twice, then the implemented record) reaches x = 2, where nothing is enabled.
    let (code, json) = bsolve_json(&["mc", &file]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "DEADLOCK", "{json}");
    assert_eq!(json["trace"][1]["changed"]["log"], "[2]", "{json}");
    // Invisible from outside: an including machine cannot promote it.
    let outer = temp_file(
        "local",
        "Outer.mch",
        "MACHINE Outer\nINCLUDES Loc\nPROMOTES step, record\nEND\n",
    );
    rejected(
        &["check", &outer],
        "Outer.mch:3:16",
        "cannot promote `record`",
    );
    let mismatch = temp_file(
        "local",
        "Mismatch.mch",
        "MACHINE Mismatch\nVARIABLES x\nINVARIANT x : 0..5\nINITIALISATION x := 0\n\
         LOCAL_OPERATIONS\n  bump(v) = BEGIN x := x + v END\n\
         OPERATIONS\n  step = SELECT x < 2 THEN bump(1) END;\n  bump(w) = BEGIN x := x + w END\nEND\n",
    );
    rejected(
        &["check", &mismatch],
        "Mismatch.mch:9:3",
        "other parameters",
    );
}

#[test]
fn expressions_and_predicates_clauses_are_reported_unsupported() {
    for clause in ["EXPRESSIONS e == 1", "PREDICATES p == 1 = 1"] {
        let file = temp_file(
            "clauses",
            "Clauses.mch",
            &format!("MACHINE Clauses\n{clause}\nCONSTANTS c\nPROPERTIES c = 1\nEND\n"),
        );
        let (code, out, err) = bsolve(&["check", &file]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains("Clauses.mch:2:1") && err.contains("unsupported: clause"),
            "{err}"
        );
    }
}

#[test]
fn library_strings_functions() {
    let file = temp_file(
        "strings",
        "Str.mch",
        "MACHINE Str\nDEFINITIONS \"LibraryStrings.def\"\nCONSTANTS a, b, c, d\n\
         PROPERTIES a = STRING_CONC([\"ab\", \"\", \"c\"]) & b = STRING_CHARS(\"héj\") &\n\
         c = STRING_CODES(\"Aé\") & d = INT_TO_STRING(-42)\nEND\n",
    );
    let sol = setup(&file);
    assert_eq!(sol["a"], "\"abc\"");
    assert_eq!(sol["b"], "[\"h\",\"é\",\"j\"]");
    assert_eq!(sol["c"], "[65,233]");
    assert_eq!(sol["d"], "\"-42\"");
    assert_eq!(eval_in(&file, "STRING_CONC([]) = \"\""), "TRUE");
    assert_eq!(
        eval_in(&file, "INT_TO_STRING(10 ** 20)"),
        "\"100000000000000000000\""
    );
    rejected(
        &["eval", &file, "INT_TO_STRING(\"1\")"],
        "<formula>:1:",
        "type",
    );
    // Without the library the names are unknown.
    let bare = temp_file(
        "strings",
        "Bare.mch",
        "MACHINE Bare\nCONSTANTS a\nPROPERTIES a = INT_TO_STRING(1)\nEND\n",
    );
    rejected(&["check", &bare], "Bare.mch:3:16", "INT_TO_STRING");
}

/// Machines and definitions files not beside the machine are searched in the `PROBPATH` folders, as
/// ProB searches them; without PROBPATH the reference is an error at its position.
#[test]
fn probpath_folders_are_searched_for_seen_machines_and_definitions_files() {
    let lib = temp_file(
        "probpath",
        "lib/Units.mch",
        "MACHINE Units\nCONSTANTS unit\nPROPERTIES unit = 1000\nEND\n",
    );
    temp_file(
        "probpath",
        "lib/Scale.def",
        "DEFINITIONS\n  SCALE(x) == x * unit\n",
    );
    let main = temp_file(
        "probpath",
        "app/Main.mch",
        "MACHINE Main\nSEES Units\nDEFINITIONS \"Scale.def\"\nCONSTANTS k\nPROPERTIES k = SCALE(3)\nEND\n",
    );
    let lib_dir = std::path::Path::new(&lib)
        .parent()
        .expect("lib folder")
        .to_path_buf();
    let run = |probpath: Option<&std::path::Path>| {
        let mut cmd = assert_cmd::Command::cargo_bin("bsolve").expect("binary");
        cmd.args(["eval", &main, "k"]);
        match probpath {
            Some(p) => cmd.env("PROBPATH", std::env::join_paths([p]).expect("path")),
            None => cmd.env_remove("PROBPATH"),
        };
        let out = cmd.output().expect("runs");
        (
            out.status.code().expect("exit code"),
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(Some(&lib_dir));
    assert_eq!((code, out.as_str()), (0, "3000"), "{err}");
    let (code, _, err) = run(None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("Main.mch:3:13") || err.contains("Main.mch:2:6"),
        "{err}"
    );
}
