//! The interval analysis against the interpreter on real machines: for every corpus machine with
//! constants, the constant setups the brute-force oracle finds lie inside the ranges the analysis gives
//! for CONSTRAINTS & PROPERTIES, and no machine with a setup is declared contradictory.

use crate::analysis::test_formula::inside;
use crate::check::{Model, Options};
use crate::eval::Env;
use crate::solve::interval::analyse;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn machines(dir: &Path, out: &mut Vec<PathBuf>) {
    for path in std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
    {
        if path.is_dir() {
            machines(&path, out);
        } else if path.extension().is_some_and(|e| e == "mch") {
            out.push(path);
        }
    }
}

#[test]
#[ignore = "sets up the constants of every corpus machine (minutes): run with --ignored"]
fn corpus_setups_lie_inside_the_analysed_ranges() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/models");
    let mut files = vec![];
    machines(&root, &mut files);
    files.sort();
    let mut failures = vec![];
    let mut with_setup = 0;
    for path in files {
        let Ok(model) = Model::load(&path, &Options::default()) else {
            continue;
        };
        let m = model.machine();
        let vars: Vec<_> = m.params.iter().chain(&m.constants).cloned().collect();
        if vars.is_empty() {
            continue;
        }
        let mut conjuncts = m.constraints.conjuncts();
        conjuncts.extend(m.properties.conjuncts());
        let analysis = analyse(&model.context, &vars, &conjuncts, &Env::new());
        model
            .context
            .set_deadline(Some(Instant::now() + Duration::from_secs(2)));
        let Ok(found) = model
            .context
            .setup_constants(3, crate::solve::Symmetry::Expanded)
        else {
            continue;
        };
        with_setup += usize::from(!found.solutions.is_empty());
        for solution in &found.solutions {
            if analysis.contradiction.is_some() {
                failures.push(format!(
                    "{}: contradiction, but a setup exists",
                    path.display()
                ));
            }
            for ((var, info), value) in vars.iter().zip(&analysis.vars).zip(solution) {
                if !inside(info, value) {
                    failures.push(format!(
                        "{}: {} = {value} outside {info:?}",
                        path.display(),
                        var.name
                    ));
                }
            }
        }
    }
    assert!(with_setup > 100, "only {with_setup} machines have a setup");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
