//! WHILE loops whose body is straight-line code run in place (`eval::in_place`): the loop updates its
//! own bindings, and `f(i) := E`, `s := s \/ {e}`, `s := s - {e}` change the set itself. The oracle is
//! the general path: the same body behind `ANY d WHERE d = 0 THEN ... END` has the same single outcome
//! but is executed the general way (updates built and bound again each step). Random bodies over a
//! few variables — assignments, `;`, `||`, IF, CASE, reads outside a function's domain — must give
//! the same initial states, or the same error.

mod common;

use bsolve::check::{Model, Options};
use std::fmt::Write as _;

/// A seeded generator, so failures reproduce.
struct Rng(fastrand::Rng);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.usize(..n)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const VARS: [&str; 4] = ["x", "y", "f", "s"];

fn int_expr(rng: &mut Rng) -> String {
    rng.pick(&[
        "x + k",
        "y - 1",
        "k * 2",
        "x",
        "card(s)",
        "f(k mod 3)",
        "card(dom(f))",
        "(x + y) mod 5",
        // Outside f's domain now and then: a well-definedness error, which both paths must report.
        "f(x mod 4)",
    ])
    .to_string()
}

/// An assignment to `var` (one of `VARS`).
fn assignment(rng: &mut Rng, var: &str) -> String {
    match var {
        "f" => match rng.below(3) {
            0 => format!(
                "f({}) := {}",
                rng.pick(&["k mod 4", "x mod 3", "k"]),
                int_expr(rng)
            ),
            1 => "f := f <+ {k mod 2 |-> y}".to_string(),
            _ => format!("f({}) := {}", rng.pick(&["0", "1", "2"]), int_expr(rng)),
        },
        "s" => match rng.below(3) {
            0 => format!("s := s \\/ {{{}}}", int_expr(rng)),
            1 => format!("s := s - {{{}}}", int_expr(rng)),
            _ => "s := s /\\ 0..(k + 3)".to_string(),
        },
        v => format!("{v} := {}", int_expr(rng)),
    }
}

/// A simultaneous group assigning each of `vars` once.
fn group(rng: &mut Rng, vars: &[&str], depth: usize) -> String {
    if vars.len() > 1 && rng.below(3) == 0 {
        let cut = 1 + rng.below(vars.len() - 1);
        return format!(
            "{} || {}",
            group(rng, &vars[..cut], depth),
            group(rng, &vars[cut..], depth)
        );
    }
    if depth > 0 && rng.below(4) == 0 {
        return format!(
            "IF x > y THEN {} ELSE {} END",
            group(rng, vars, depth - 1),
            group(rng, vars, depth - 1)
        );
    }
    if vars.len() == 2 && !vars.contains(&"f") && !vars.contains(&"s") && rng.below(2) == 0 {
        return format!(
            "{}, {} := {}, {}",
            vars[0],
            vars[1],
            int_expr(rng),
            int_expr(rng)
        );
    }
    let parts: Vec<String> = vars.iter().map(|v| assignment(rng, v)).collect();
    parts.join(" || ")
}

/// A straight-line body: a sequence of statements, each a group, an IF or a CASE over such bodies.
fn body(rng: &mut Rng, depth: usize) -> String {
    let statements = 1 + rng.below(3);
    let mut out = Vec::new();
    for _ in 0..statements {
        let mut vars: Vec<&str> = VARS.iter().copied().filter(|_| rng.below(2) == 0).collect();
        if vars.is_empty() {
            vars.push(VARS[rng.below(VARS.len())]);
        }
        out.push(match rng.below(5) {
            0 if depth > 0 => format!(
                "IF k mod 2 = 0 THEN {} ELSE {} END",
                body(rng, depth - 1),
                body(rng, depth - 1)
            ),
            1 if depth > 0 => format!(
                "CASE k mod 3 OF EITHER 0 THEN {} OR 1 THEN {} END END",
                body(rng, depth - 1),
                body(rng, depth - 1)
            ),
            _ => group(rng, &vars, depth),
        });
    }
    out.join(";\n      ")
}

fn machine(name: &str, body: &str, general: bool, steps: usize) -> String {
    let mut m = String::new();
    let body = if general {
        format!("ANY d WHERE d = 0 THEN {body} END")
    } else {
        body.to_string()
    };
    writeln!(
        m,
        "MACHINE {name}\nVARIABLES k, x, y, f, s\n\
         INVARIANT k : INTEGER & x : INTEGER & y : INTEGER & f : INTEGER +-> INTEGER & s : POW(INTEGER)\n\
         INITIALISATION\n  k, x, y, f, s := 0, 1, 2, {{0 |-> 5, 1 |-> 6, 2 |-> 7}}, {{1, 3}};\n  \
         WHILE k < {steps} DO\n      {body};\n      k := k + 1\n  \
         INVARIANT k <= {steps} VARIANT {steps} - k END\nEND"
    )
    .expect("write");
    m
}

/// The initial states of a machine text, or its error's message.
fn initial_states(dir: &std::path::Path, name: &str, text: &str) -> Result<Vec<String>, String> {
    let path = dir.join(format!("{name}.mch"));
    std::fs::write(&path, text).expect("write machine");
    let model =
        Model::load(&path, &Options::default()).map_err(|d| format!("load: {}", d.message))?;
    let states = model
        .context
        .initial_states(&[], 10)
        .map_err(|e| e.to_string())?;
    Ok(states.iter().map(|s| format!("{:?}", s.values)).collect())
}

#[test]
fn loops_run_in_place_reach_the_states_of_the_general_path() {
    let dir = std::env::temp_dir().join(format!("bsolve-in-place-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = Rng(fastrand::Rng::with_seed(0x1f2e3d4c5b6a7988));
    let (mut agreed, mut errors) = (0, 0);
    for case in 0..300 {
        let b = body(&mut rng, 2);
        let steps = 1 + rng.below(12);
        let plain = initial_states(&dir, "Plain", &machine("Plain", &b, false, steps));
        let general = initial_states(&dir, "General", &machine("General", &b, true, steps));
        match (&plain, &general) {
            (Ok(p), Ok(g)) => {
                assert_eq!(p, g, "case {case}, {steps} steps:\n{b}");
                assert_eq!(p.len(), 1, "case {case}: one initial state");
            }
            // The same failure, reported from the same place (messages name positions, which the two
            // texts share up to the ANY's offset: compare the kind of error only).
            (Err(p), Err(g)) => {
                let kind = |m: &str| m.split(':').next_back().unwrap_or(m).trim().to_string();
                assert_eq!(kind(p), kind(g), "case {case}:\n{b}");
                errors += 1;
            }
            _ => panic!(
                "case {case}, {steps} steps:\n{b}\nin place: {plain:?}\ngeneral: {general:?}"
            ),
        }
        agreed += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    // Both outcomes must be exercised for the comparison to mean something.
    eprintln!("{errors} errors in {agreed} cases");
    assert!(
        errors > 10 && errors < agreed - 10,
        "{errors} errors in {agreed} cases"
    );
}

#[test]
fn an_array_of_twenty_thousand_elements_is_built_in_place() {
    // The loop's result is checked by ArrayLoop's invariant, against the same loop behind an ANY.
    let (code, json) = common::bsolve_json(&["mc", &common::model_arg("ArrayLoop.mch")]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["status"], "NO ERROR FOUND", "{json}");
    assert_eq!(json["exploration_complete"], true, "{json}");
}
