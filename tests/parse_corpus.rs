//! Parses every machine of the shared corpus: at least 97 % of the files outside `B/ErrorMachines` must
//! parse, and no file may make the parser panic.

mod common;

use bsolve::diag::register_source;
use bsolve::syntax::{parse_definitions_file, parse_machine};

#[test]
fn corpus_machines_parse() {
    let Some(root) = common::corpus_models() else {
        eprintln!("corpus not found next to the repository, skipping");
        return;
    };
    let root = root.as_path();
    let files = common::corpus_files(&["mch", "ref", "imp"]);
    let (mut total, mut parsed, mut panics) = (0, 0, vec![]);
    let mut parse_time = std::time::Duration::ZERO;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let file = register_source(&name, &text);
        let clock = std::time::Instant::now();
        let outcome = std::panic::catch_unwind(|| parse_machine(file, &text));
        parse_time += clock.elapsed();
        let counted = !name.starts_with("B/ErrorMachines");
        match outcome {
            Err(_) => panics.push(name.clone()),
            Ok(Ok(_)) if counted => parsed += 1,
            Ok(Err(e)) if counted => eprintln!("FAIL {}", e.render()),
            Ok(_) => {}
        }
        if counted {
            total += 1;
        }
    }
    let rate = 100.0 * parsed as f64 / total.max(1) as f64;
    eprintln!("parsed {parsed}/{total} corpus machines ({rate:.1} %) in {parse_time:?}");
    assert!(panics.is_empty(), "parser panicked on {panics:?}");
    assert!(rate >= 97.0, "only {rate:.1} % of the corpus parses");
}

#[test]
fn corpus_definition_files_parse() {
    if common::corpus_models().is_none() {
        eprintln!("corpus not found next to the repository, skipping");
        return;
    }
    let files = common::corpus_files(&["def"]);
    let mut failures = vec![];
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let file = register_source(&path.display().to_string(), &text);
        if let Err(e) = parse_definitions_file(file, &text) {
            failures.push(e.render());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every prefix of a sample of corpus machines (cut at many points, including inside tokens and multi-byte
/// characters' neighbours) must give a result or an error, never a panic.
#[test]
fn truncated_corpus_machines_never_panic() {
    if common::corpus_models().is_none() {
        eprintln!("corpus not found next to the repository, skipping");
        return;
    }
    let files = common::corpus_files(&["mch", "ref", "imp"]);
    let mut panics = vec![];
    for path in files.iter().step_by(40) {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let step = (text.len() / 60).max(1);
        for cut in (0..text.len()).step_by(step) {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let prefix = &text[..cut];
            let file = register_source(&format!("{}@{cut}", path.display()), prefix);
            if std::panic::catch_unwind(|| parse_machine(file, prefix)).is_err() {
                panics.push(format!("{}@{cut}", path.display()));
            }
        }
    }
    assert!(panics.is_empty(), "parser panicked on {panics:?}");
}
