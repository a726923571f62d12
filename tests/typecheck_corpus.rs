//! Loads and type-checks every machine of the shared corpus: no panic, every failure located, and a floor
//! on the success rate of the machines that are meant to be correct (outside `B/ErrorMachines`).

mod common;

use bsolve::diag::Diagnostic;
use bsolve::{machine, types};
use std::collections::BTreeMap;
use std::path::Path;

/// Success rate (percent) reached on the corpus outside `B/ErrorMachines`; raise it when it improves.
const FLOOR_PERCENT: f64 = 92.5;

fn check(path: &Path) -> Result<(), Diagnostic> {
    let m = machine::load(path)?;
    types::check_machine(&m).map(|_| ())
}

#[test]
fn corpus_loads_and_typechecks() {
    // Deeply nested formulas (long conjunctions) recurse deeply in the parser and checker.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(run_corpus)
        .expect("spawn corpus thread")
        .join()
        .expect("corpus thread");
}

fn run_corpus() {
    let Some(root) = common::corpus_models() else {
        eprintln!("corpus not found next to the repository; skipped");
        return;
    };
    let root = root.as_path();
    let files = common::corpus_files(&["mch", "ref", "imp"]);
    let mut panics = Vec::new();
    let mut unlocated = Vec::new();
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut good_total, mut good_ok, mut error_machines, mut error_rejected) = (0, 0, 0, 0);
    for path in &files {
        if std::env::var_os("CORPUS_TRACE").is_some() {
            eprintln!("checking {}", path.display());
        }
        let is_error_machine = path.to_string_lossy().contains("ErrorMachines");
        let result = std::panic::catch_unwind(|| check(path));
        let rel = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        match result {
            Err(_) => panics.push(rel.clone()),
            Ok(Ok(())) => {
                if is_error_machine {
                    if std::env::var_os("CORPUS_TRACE").is_some() {
                        eprintln!("accepted error machine {rel}");
                    }
                    error_machines += 1;
                } else {
                    good_total += 1;
                    good_ok += 1;
                }
            }
            Ok(Err(d)) => {
                if d.span.location().is_none() {
                    unlocated.push(format!("{rel}: {}", d.message));
                }
                if is_error_machine {
                    error_machines += 1;
                    error_rejected += 1;
                } else {
                    good_total += 1;
                    let first = d.message.lines().next().unwrap_or("").to_string();
                    // Group by the message with identifiers and numbers blurred.
                    let key: String = first
                        .split('`')
                        .enumerate()
                        .map(|(i, s)| if i % 2 == 1 { "`_`" } else { s })
                        .collect();
                    failures
                        .entry(key)
                        .or_default()
                        .push(format!("[{rel}] {}: {first}", d.span));
                }
            }
        }
    }
    let mut groups: Vec<_> = failures.into_iter().collect();
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    let shown = if std::env::var_os("CORPUS_TRACE").is_some() {
        usize::MAX
    } else {
        3
    };
    for (key, list) in &groups {
        eprintln!("{:4} × {key}", list.len());
        for l in list.iter().take(shown) {
            eprintln!("         {l}");
        }
    }
    let rate = if good_total == 0 {
        100.0
    } else {
        100.0 * good_ok as f64 / good_total as f64
    };
    eprintln!(
        "corpus: {good_ok}/{good_total} machines check ({rate:.1} %); ErrorMachines rejected {error_rejected}/{error_machines}"
    );
    assert!(panics.is_empty(), "panics on: {panics:?}");
    assert!(
        unlocated.is_empty(),
        "diagnostics without location: {unlocated:?}"
    );
    assert!(
        rate >= FLOOR_PERCENT,
        "success rate {rate:.1} % below {FLOOR_PERCENT} %"
    );
}

/// `CORPUS_ONE=path cargo test --test typecheck_corpus one -- --ignored --nocapture` renders the diagnostic
/// of one machine (for working through failures).
#[test]
#[ignore]
fn one() {
    if let Some(p) = std::env::var_os("CORPUS_ONE") {
        match check(Path::new(&p)) {
            Ok(()) => eprintln!("ok"),
            Err(d) => eprintln!("{}", d.render()),
        }
    }
}
