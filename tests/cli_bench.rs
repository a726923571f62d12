//! End-to-end tests of `bsolve bench` on a tiny suite written to a temporary directory.

mod common;

use common::bsolve;

use std::path::{Path, PathBuf};

/// A repository-like directory: `models/` with two machines and `benchmarks/suite.csv` naming them.
fn tiny_repo(test: &str, suite_rows: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("bsolve-cli-bench-{}-{test}", std::process::id()));
    std::fs::create_dir_all(dir.join("models")).expect("dir");
    std::fs::create_dir_all(dir.join("benchmarks")).expect("dir");
    std::fs::write(
        dir.join("models/Three.mch"),
        "MACHINE Three CONSTANTS k PROPERTIES k : 1..3 END",
    )
    .expect("writes");
    std::fs::write(
        dir.join("models/None.mch"),
        "MACHINE None CONSTANTS k PROPERTIES k : 1..3 & k > 5 END",
    )
    .expect("writes");
    let suite = dir.join("benchmarks/suite.csv");
    std::fs::write(
        &suite,
        format!("# tiny suite\nname,model,command,expected,timeout_ms\n{suite_rows}"),
    )
    .expect("writes");
    (dir, suite.display().to_string())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn agreeing_suite_exits_0_and_writes_csv_and_markdown() {
    let (dir, suite) = tiny_repo(
        "ok",
        "three,models/Three.mch,all,3,5000\n\
         three-first,models/Three.mch,first,sat,5000\n\
         none,models/None.mch,first,unsat,5000\n\
         none-count,models/None.mch,count,0,5000\n",
    );
    let out_dir = dir.join("out");
    let out_arg = out_dir.display().to_string();
    let (code, out, err) = bsolve(&[
        "bench",
        &suite,
        "--backends",
        "brute,native,cplex",
        "--out",
        &out_arg,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let header = out.lines().next().unwrap_or("");
    for column in [
        "name",
        "brute",
        "native",
        "cplex",
        "expected?",
        "backends agree",
    ] {
        assert!(header.contains(column), "{header}");
    }
    let three = out
        .lines()
        .find(|l| l.starts_with("three "))
        .expect("three row");
    assert!(three.contains("ms 3"), "{three}");
    assert!(three.contains("unsupported"), "{three}");
    assert!(three.contains("ok") && three.ends_with("yes"), "{three}");
    let none = out
        .lines()
        .find(|l| l.starts_with("none "))
        .expect("none row");
    assert!(none.contains("ms unsat"), "{none}");

    let csv = read(&out_dir.join("bench_results.csv"));
    assert!(
        csv.starts_with("name,command,expected,backend,answer,ms,agrees,detail\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 4 * 3, "{csv}");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("three,all,3,brute,3,") && l.contains(",yes,")),
        "{csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.starts_with("three,all,3,cplex,unsupported,")),
        "{csv}"
    );
    let md = read(&out_dir.join("bench_results.md"));
    assert!(
        md.starts_with("| name | command | expected | brute | native | cplex |"),
        "{md}"
    );
    assert_eq!(md.lines().nth(1), Some("|---|---|---|---|---|---|---|---|"));
}

#[test]
fn a_wrong_answer_exits_1() {
    let (dir, suite) = tiny_repo("wrong", "three,models/Three.mch,all,4,5000\n");
    let out_arg = dir.join("out").display().to_string();
    let (code, out, err) = bsolve(&["bench", &suite, "--backends", "brute", "--out", &out_arg]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("WRONG"), "{out}");
}

#[test]
fn a_missing_model_is_an_error_cell_not_a_wrong_answer() {
    let (dir, suite) = tiny_repo("missing", "gone,models/Gone.mch,first,sat,5000\n");
    let out_arg = dir.join("out").display().to_string();
    let (code, out, err) = bsolve(&["bench", &suite, "--backends", "brute", "--out", &out_arg]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("ms error"), "{out}");
    assert!(out.contains("undecided"), "{out}");
}

#[test]
fn a_malformed_suite_is_bad_input() {
    let (dir, suite) = tiny_repo("bad", "three,models/Three.mch,solve,3,5000\n");
    let out_arg = dir.join("out").display().to_string();
    let (code, _, err) = bsolve(&["bench", &suite, "--out", &out_arg]);
    assert_eq!(code, 3);
    assert!(err.contains("unknown command `solve`"), "{err}");
}
