//! Parses every machine of the shared corpus: at least 97 % of the files outside `B/ErrorMachines` must
//! parse, and no file may make the parser panic.

use bsolve::diag::register_source;
use bsolve::syntax::parse_machine;
use std::path::{Path, PathBuf};

fn machine_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            machine_files(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("mch" | "ref" | "imp")
        ) {
            out.push(path);
        }
    }
}

#[test]
fn corpus_machines_parse() {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus/models"
    ));
    if !root.is_dir() {
        eprintln!("corpus not found at {}, skipping", root.display());
        return;
    }
    let mut files = vec![];
    machine_files(root, &mut files);
    files.sort();
    let (mut total, mut parsed, mut panics) = (0, 0, vec![]);
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
        let outcome = std::panic::catch_unwind(|| parse_machine(file, &text));
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
    eprintln!("parsed {parsed}/{total} corpus machines ({rate:.1} %)");
    assert!(panics.is_empty(), "parser panicked on {panics:?}");
    assert!(rate >= 97.0, "only {rate:.1} % of the corpus parses");
}
