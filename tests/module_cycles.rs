//! The layers import downwards only: no import cycle between the top-level modules of `src/`
//! (`syntax`, `machine`, `ir`, `types`, `value`, `analysis`, `eval`, `solve`, `check`, `report`, ...),
//! and none among the files of `check/` beyond the ones listed in `KNOWN_CHECK_CYCLES` (to be
//! removed, never extended; empty now). An import is a `crate::m` path outside test code (`#[cfg(test)]` modules
//! and the files they declare), or for files of one folder a `super::f` path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// File cycles of `check/` that predate this test, each as its sorted files (none left: the shared
/// transition system moved to `check::transition_system`, IC3 over bits into `check/ic3/`).
const KNOWN_CHECK_CYCLES: &[&[&str]] = &[];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file before its first `#[cfg(test)]` module, and the modules it declares under
/// `#[cfg(test)]` (test-only files).
fn production_text(text: &str) -> (String, Vec<String>) {
    let mut kept = String::new();
    let mut test_modules = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            // Skip attributes between the cfg and the item.
            while lines
                .peek()
                .is_some_and(|l| l.trim_start().starts_with("#["))
            {
                lines.next();
            }
            let item = lines.next().unwrap_or_default().trim();
            let item = item
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            if let Some(rest) = item.strip_prefix("mod ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if rest.trim_end().ends_with(';') {
                    test_modules.push(name);
                    continue;
                }
                // An inline test module: the rest of the file is tests.
                break;
            }
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    (kept, test_modules)
}

/// The identifiers following each occurrence of `prefix` (`crate::` → `eval`, `solve`, ...).
fn paths_after<'t>(text: &'t str, prefix: &str) -> impl Iterator<Item = &'t str> {
    text.match_indices(prefix).filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let rest = &text[i + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

/// Every cycle of `graph` (its strongly connected components of more than one node), sorted.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability by repeated search: the graphs are a few dozen nodes.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for m in graph.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|n| (n, reach(n))).collect();
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    for (n, r) in &reached {
        let component: Vec<String> = r
            .iter()
            .filter(|m| *m != *n && reached.get(m).is_some_and(|back| back.contains(*n)))
            .cloned()
            .chain(std::iter::once((*n).clone()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if component.len() > 1 {
            out.insert(component);
        }
    }
    out.into_iter().collect()
}

struct Source {
    /// The path below `src/`, with `/` separators.
    relative: String,
    text: String,
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut test_only: BTreeSet<String> = BTreeSet::new();
    let mut parsed = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(&src)
            .expect("below src")
            .to_string_lossy()
            .replace('\\', "/");
        let (text, test_modules) = production_text(&std::fs::read_to_string(path).expect("read"));
        let folder = match relative.rsplit_once('/') {
            Some((dir, "mod.rs")) => format!("{dir}/"),
            Some((dir, file)) => format!("{dir}/{}/", file.trim_end_matches(".rs")),
            None if relative == "lib.rs" || relative == "main.rs" => String::new(),
            None => format!("{}/", relative.trim_end_matches(".rs")),
        };
        for m in test_modules {
            test_only.insert(format!("{folder}{m}"));
        }
        parsed.push(Source { relative, text });
    }
    parsed
        .into_iter()
        .filter(|s| {
            let stem = s.relative.trim_end_matches(".rs").trim_end_matches("/mod");
            !test_only
                .iter()
                .any(|t| stem == t || stem.starts_with(&format!("{t}/")))
        })
        .collect()
}

#[test]
fn top_level_modules_import_downwards_only() {
    let sources = sources();
    let top: BTreeSet<String> = sources
        .iter()
        .map(|s| {
            s.relative
                .split('/')
                .next()
                .expect("path")
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &sources {
        let module = s
            .relative
            .split('/')
            .next()
            .expect("path")
            .trim_end_matches(".rs");
        if !top.contains(module) {
            continue;
        }
        let edges = graph.entry(module.to_string()).or_default();
        for target in paths_after(&s.text, "crate::") {
            if target != module && top.contains(target) {
                edges.insert(target.to_string());
            }
        }
    }
    assert!(graph.len() >= 10, "modules found: {:?}", graph.keys());
    let found = cycles(&graph);
    assert!(
        found.is_empty(),
        "import cycles between top-level modules: {found:?}"
    );
}

#[test]
fn the_files_of_check_add_no_import_cycle() {
    let sources = sources();
    // A folder of check/ (ic3/) is one node: its files import their parent, not their siblings'.
    let files: BTreeSet<String> = sources
        .iter()
        .filter_map(|s| s.relative.strip_prefix("check/"))
        .map(|r| {
            r.split('/')
                .next()
                .expect("path")
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|f| f != "mod")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &sources {
        let Some(file) = s.relative.strip_prefix("check/") else {
            continue;
        };
        let file = file
            .split('/')
            .next()
            .expect("path")
            .trim_end_matches(".rs");
        if !files.contains(file) {
            continue;
        }
        let edges = graph.entry(file.to_string()).or_default();
        let direct = paths_after(&s.text, "super::");
        let absolute = paths_after(&s.text, "crate::check::");
        for target in direct.chain(absolute) {
            if target != file && files.contains(target) {
                edges.insert(target.to_string());
            }
        }
    }
    let known: Vec<Vec<String>> = KNOWN_CHECK_CYCLES
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let new: Vec<Vec<String>> = cycles(&graph)
        .into_iter()
        .filter(|c| !known.contains(c))
        .collect();
    assert!(
        new.is_empty(),
        "new import cycles among the files of check/: {new:?}"
    );
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(n, e)| (n.to_string(), e.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
    let (kept, tests) = production_text(
        "use crate::x;\n#[cfg(test)]\nmod helpers;\nfn f() {}\n#[cfg(test)]\nmod tests {\nuse crate::y;\n}\n",
    );
    assert_eq!(tests, vec!["helpers"]);
    assert!(
        kept.contains("crate::x") && !kept.contains("crate::y"),
        "{kept}"
    );
}
