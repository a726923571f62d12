//! The kodkod (SAT) backend against the native solver and the brute-force oracle: every bundled machine's
//! constant setups, random first-order predicates, and the command-line errors of issue #4.
//!
//! The random predicates are solved under `--kodkod-only` semantics (KODKOD_ONLY_FULL): a predicate that
//! does not translate is an error there and is only counted, so every compared answer came from SAT.
//! `BSOLVE_DIFF_SEED` / `BSOLVE_DIFF_CASES` replay cases as in `tests/differential.rs`;
//! `BSOLVE_DIFF_VERBOSE=1` prints why each untranslated case was refused.

mod common;
#[path = "differential/compare.rs"]
mod compare;
#[path = "differential/generator.rs"]
mod generator;

use bsolve::check::setup::setup_constants;
use bsolve::diag::register_source;
use bsolve::eval::{Env, EvalError};
use bsolve::solve::{Backend, Problem, solve_all};
use bsolve::syntax::parse_term;
use bsolve::types::{Formula, check_formula};
use common::{bsolve, model_arg, model_path};
use compare::Verdict;
use std::time::{Duration, Instant};

/// Solutions asked per machine: enough for every exact count, a cut for the puzzles with huge solution sets.
const SETUP_LIMIT: usize = 20;

/// The number of setups found (up to `SETUP_LIMIT`) and whether the search was complete.
fn setups(name: &str, backend: Backend) -> (usize, bool) {
    setups_up_to(name, backend, SETUP_LIMIT)
}

/// The number of setups found (up to `limit`) and whether the search was complete.
fn setups_up_to(name: &str, backend: Backend, limit: usize) -> (usize, bool) {
    let model = bsolve::check::Model::load(&model_path(name), &common::options(backend, &[]))
        .unwrap_or_else(|d| panic!("{}", d.render()));
    model
        .context
        .set_deadline(Some(Instant::now() + Duration::from_secs(20)));
    let r = setup_constants(&model, limit).unwrap_or_else(|e| panic!("{name}: {e}"));
    (r.solutions.len(), r.complete)
}

#[test]
fn every_model_has_the_same_setups_with_kodkod_native_and_brute() {
    let mut names: Vec<String> = std::fs::read_dir(model_path(""))
        .expect("models/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".mch"))
        .collect();
    names.sort();
    // The oracle only where its enumeration is cheap; complete lists re-expand every setup symmetry
    // skipped, so the deferred-set machines are compared with it too.
    let brute_too = [
        "DeferredPairing.mch",
        "DeferredInvolution.mch",
        "WhoKilledAgatha.mch",
        "Loop.mch",
        "NumberOfStates.mch",
        "VerySimpleCounterWrong.mch",
        "SimpleCounter.mch",
    ];
    // Beyond native propagation within the test's budget (2^25 candidates labelled one by one): the
    // portfolio's lane decides it (tests/cli.rs).
    let native_too_slow = ["BigGuardDeadlock.mch"];
    for name in names
        .iter()
        .filter(|n| !native_too_slow.contains(&n.as_str()))
    {
        let kodkod = setups(name, Backend::Kodkod);
        let native = setups(name, Backend::Native);
        assert_eq!(kodkod.0, native.0, "{name}: kodkod vs native setups");
        assert_eq!(kodkod.1, native.1, "{name}: kodkod vs native completeness");
        if brute_too.contains(&name.as_str()) {
            assert_eq!(
                kodkod,
                setups(name, Backend::Brute),
                "{name}: kodkod vs brute"
            );
        }
    }
    // The expected counts of tests/model_counts.rs.
    for (name, expected) in [
        ("SendMoreMoney.mch", 1),
        ("WhoKilledAgatha.mch", 6),
        ("Loop.mch", 7),
        ("NQueens6.mch", 4),
        ("SetUnion.mch", 1),
        ("DeferredSymmetry.mch", 1080),
        ("DeferredPartition.mch", 20),
        ("DeferredPairing.mch", 6),
        ("NumberOfStates.mch", 10),
    ] {
        assert_eq!(
            setups_up_to(name, Backend::Kodkod, usize::MAX),
            (expected, true),
            "{name}"
        );
    }
}

#[test]
fn random_predicates_agree_with_brute_force() {
    let seed = std::env::var("BSOLVE_DIFF_SEED")
        .ok()
        .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
        .unwrap_or(0x6b0d_6b0d);
    let cases: u64 = std::env::var("BSOLVE_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    let brute_model = common::load_text(
        "kodkod-brute",
        generator::MACHINE,
        &common::options(Backend::Brute, &[]),
    );
    let sat_model = common::load_text(
        "kodkod-sat",
        generator::MACHINE,
        &common::options(Backend::Brute, &[("KODKOD_ONLY_FULL", "TRUE")]),
    );
    let (mut translated, mut untranslated, mut sat_answers) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for i in 0..cases {
        let case_seed = seed.wrapping_add(i);
        let text = generator::generate(case_seed);
        let file = register_source("<kodkod-differential>", &text);
        let Ok(Formula::Pred(pred, free)) = parse_term(file, &text)
            .and_then(|t| check_formula(&brute_model.ast, brute_model.machine(), &t))
        else {
            continue;
        };
        let env = Env::new();
        let problem = Problem::new(&free, &pred, &env);
        let run = |model: &bsolve::check::Model, backend| {
            model
                .context
                .set_deadline(Some(Instant::now() + Duration::from_secs(2)));
            let r = solve_all(&model.context, &problem, backend, 5_000);
            model.context.set_deadline(None);
            r
        };
        let sat = run(&sat_model, Backend::Kodkod);
        if let Err(EvalError::Unsupported(d)) = &sat {
            untranslated += 1;
            if std::env::var_os("BSOLVE_DIFF_VERBOSE").is_some() {
                eprintln!("not translated: {}", d.message);
            }
            continue;
        }
        translated += 1;
        if sat.as_ref().is_ok_and(|s| !s.solutions.is_empty()) {
            sat_answers += 1;
        }
        let brute = run(&brute_model, Backend::Brute);
        if let Verdict::Disagree(what) = compare::compare(&brute, &sat) {
            disagreements.push(format!("seed {case_seed:#x}: {text}\n{what}"));
        }
    }
    eprintln!(
        "kodkod differential: {cases} cases, {translated} solved by SAT ({sat_answers} with solutions), {untranslated} not translatable, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s) between brute and kodkod:\n\n{}",
        disagreements.len(),
        disagreements.join("\n\n")
    );
    // The generator's predicates are first-order over small types: most must reach SAT.
    assert!(
        translated * 2 >= cases,
        "only {translated} of {cases} predicates translated"
    );
}

fn machine_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("bsolve-kodkod-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("temporary machine");
    path
}

#[test]
fn an_unwritable_cnf_dump_is_a_usage_error() {
    let (code, _, err) = bsolve(&[
        "--kodkod",
        "--dump-cnf",
        "/nonexistent-dir/out.cnf",
        &model_arg("WhoKilledAgatha.mch"),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("--dump-cnf /nonexistent-dir/out.cnf: cannot write"),
        "{err}"
    );
}

#[test]
fn the_dumped_cnf_names_the_unknowns_and_is_dimacs() {
    let out = std::env::temp_dir().join(format!("bsolve-kodkod-{}.cnf", std::process::id()));
    let out_arg = out.display().to_string();
    let (code, stdout, err) = bsolve(&[
        "setup-constants",
        "--kodkod",
        "--sat-solver",
        "varisat",
        "--dump-cnf",
        &out_arg,
        &model_arg("WhoKilledAgatha.mch"),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let cnf = std::fs::read_to_string(&out).expect("the dump");
    let _ = std::fs::remove_file(&out);
    assert!(cnf.contains("c var "), "{cnf}");
    assert!(cnf.contains("killer = "), "{cnf}");
    let header = cnf
        .lines()
        .find(|l| l.starts_with("p cnf "))
        .expect("a header");
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(cnf.lines().filter(|l| l.ends_with(" 0")).count(), clauses);
}

#[test]
fn an_untranslatable_construct_under_kodkod_only_names_itself_and_its_position() {
    let path = machine_file(
        "Power.mch",
        "MACHINE Power\nCONSTANTS x, y\nPROPERTIES x : 1..9 & y : 1..3 & x = 2 ** y\nEND\n",
    );
    let arg = path.display().to_string();
    let (code, stdout, _) = bsolve(&["--kodkod-only", &arg]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("unsupported: a power with an unknown exponent"),
        "{stdout}"
    );
    assert!(stdout.contains(":3:38"), "{stdout}");
    // Without --kodkod-only the native solver takes the problem.
    let (code, stdout, _) = bsolve(&["--kodkod", "setup-constants", "--all", &arg]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("ALL SOLUTIONS: 3 found"), "{stdout}");
}

#[test]
fn an_integer_the_analysis_cannot_bound_is_cut_and_no_solution_is_not_claimed() {
    let path = machine_file(
        "Unbounded.mch",
        "MACHINE Unbounded\nCONSTANTS x\nPROPERTIES x : INTEGER & x * x = 2\nEND\n",
    );
    let arg = path.display().to_string();
    let (code, stdout, _) = bsolve(&["--kodkod-only", &arg]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("search incomplete"), "{stdout}");
    // The report names the unknown that was cut and the window it was searched in.
    assert!(
        stdout.contains(
            "note: x was searched only within -1..3 (the interval analysis cannot bound it)"
        ),
        "{stdout}"
    );
}

#[test]
fn an_unknown_sat_solver_is_a_usage_error() {
    let (code, _, err) = bsolve(&[
        "--kodkod",
        "--sat-solver",
        "minisat",
        &model_arg("Loop.mch"),
    ]);
    assert_eq!(code, 3);
    assert!(err.contains("expected cadical or varisat"), "{err}");
}

/// Corpus machines whose constants are a function into functions (`Board : DOM --> (DOM --> DOM)`) or
/// need well-definedness settled by typing: SAT alone decides them, with ProB's verdict.
#[test]
fn corpus_setups_with_functions_into_sets_are_decided_by_sat() {
    let Some(models) = common::corpus_models() else {
        return;
    };
    for (name, expected) in [
        ("B/Puzzles/SudokuAsConstant.mch", "ALL SOLUTIONS: 1 found"),
        ("B/Puzzles/SudokuAsConstantNoSolution.mch", "NO SOLUTION"),
        ("B/Puzzles/Minesweeper.mch", "ALL SOLUTIONS: 22 found"),
        ("B/Puzzles/TennisTournament.mch", "ALL SOLUTIONS"),
    ] {
        let path = models.join(name).display().to_string();
        let (_, stdout, err) = bsolve(&[
            "setup-constants",
            "--kodkod-only",
            "--all",
            "--timeout",
            "60000",
            &path,
        ]);
        assert!(stdout.contains(expected), "{name}: {stdout}{err}");
    }
}
