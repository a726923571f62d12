//! Corpus machines whose PROPERTIES fix constants to sets ProB keeps symbolic (recursive lambdas,
//! lambdas and comprehensions over infinite types, `seq1(CHARS)`): `mc` must reach ProB's recorded
//! verdict from `../shared/corpus/expected.csv`, and its state and transition counts where ProB found no
//! error. Run as ProB's recording was, with assertions not checked (`--no-assertions`).

use bsolve::check::mc::{McOptions, Verdict, model_check};
use bsolve::check::{Model, Options};
use std::path::PathBuf;
use std::time::Duration;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// ProB's verdict ("deadlock", "invariant" or "none") and counts for one machine.
fn recorded(name: &str) -> (&'static str, String, String) {
    let text = std::fs::read_to_string(corpus().join("expected.csv")).expect("expected.csv");
    let line = text
        .lines()
        .find(|l| l.split(',').next() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in expected.csv"));
    let f: Vec<&str> = line.split(',').collect();
    let verdict = match (f[1], f[2]) {
        ("true", _) => "deadlock",
        (_, "true") => "invariant",
        _ => "none",
    };
    (verdict, f[3].to_string(), f[4].to_string())
}

fn compare(name: &str) -> Result<(), String> {
    let options = Options {
        prefs: vec![
            ("MAX_INITIALISATIONS".to_string(), "100000".to_string()),
            ("MAX_OPERATIONS".to_string(), "1000".to_string()),
        ],
        ..Options::default()
    };
    let model =
        Model::load(&corpus().join("models").join(name), &options).map_err(|d| d.to_string())?;
    let mc = McOptions {
        timeout: Some(Duration::from_secs(60)),
        check_assertions: false,
        ..McOptions::default()
    };
    let result = model_check(&model, &mc).map_err(|d| d.to_string())?;
    let ours = match result.verdict {
        Verdict::Deadlock => "deadlock",
        Verdict::InvariantViolation(_) => "invariant",
        Verdict::NoErrorFound => "none",
        ref other => return Err(format!("no comparable verdict: {other:?}")),
    };
    let (verdict, states, transitions) = recorded(name);
    if ours != verdict {
        return Err(format!("ProB {verdict}, bsolve {ours}"));
    }
    let counts = (result.states.to_string(), result.transitions.to_string());
    if ours == "none" && counts != (states.clone(), transitions.clone()) {
        return Err(format!(
            "ProB {states} states / {transitions} transitions, bsolve {} / {}",
            counts.0, counts.1
        ));
    }
    Ok(())
}

#[test]
fn symbolic_constant_machines_match_prob() {
    if !corpus().exists() {
        eprintln!("corpus not found next to the repository: skipping");
        return;
    }
    let machines = [
        "B/Compilers/NFA.mch",
        "B/Compilers/NFA_nondet.mch",
        "B/Compilers/ParikhMapping.mch",
        "B/CBC/StringMachine.mch",
        "B/Puzzles/McCarthyMutilatedChessboard.mch",
    ];
    let failures: Vec<String> = machines
        .iter()
        .filter_map(|name| compare(name).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
