//! Random small machines for differential tests (partial-order reduction, the symbolic strategies).

/// A random machine of `vars` variables in 0..2 and a few operations, each guarded by comparisons
/// (mostly of its own variable) and assigning its own variable (and sometimes another): loosely coupled
/// processes, as partial-order reduction expects. The invariant excludes one combination of two
/// variables.
pub fn loosely_coupled(rng: &mut fastrand::Rng, vars: usize) -> String {
    let names: Vec<String> = (0..vars).map(|i| format!("v{i}")).collect();
    let mut ops = Vec::new();
    for k in 0..rng.usize(2..=6) {
        let own = k % vars;
        let other = |rng: &mut fastrand::Rng| {
            if rng.u8(0..4) == 0 {
                rng.usize(0..vars)
            } else {
                own
            }
        };
        let mut guard: Vec<String> = Vec::new();
        for _ in 0..rng.usize(0..=2) {
            let cmp = ["=", "/=", "<", ">"][rng.usize(0..4)];
            let v = other(rng);
            guard.push(format!("v{v} {cmp} {}", rng.usize(0..3)));
        }
        let mut written = vec![own, other(rng)];
        written.sort();
        written.dedup();
        let mut assigns: Vec<String> = Vec::new();
        for &w in &written {
            let from = other(rng);
            assigns.push(match rng.usize(0..3) {
                0 => format!("v{w} := {}", rng.usize(0..3)),
                1 => format!("v{w} := (v{from} + 1) mod 3"),
                _ => format!("v{w} := v{from}"),
            });
        }
        let body = assigns.join(" || ");
        ops.push(if guard.is_empty() {
            format!("op{k} = BEGIN {body} END")
        } else {
            format!("op{k} = PRE {} THEN {body} END", guard.join(" & "))
        });
    }
    // One variable in two machines, two in the others: fewer visible operations, more reduction.
    let a = rng.usize(0..vars);
    let b = if rng.bool() { a } else { rng.usize(0..vars) };
    let typing: Vec<String> = names.iter().map(|n| format!("{n} : INTEGER")).collect();
    format!(
        "MACHINE Random\nVARIABLES {}\nINVARIANT {} & not(v{a} = {} & v{b} = {})\n\
         INITIALISATION {} := {}\nOPERATIONS\n{}\nEND",
        names.join(", "),
        typing.join(" & "),
        rng.usize(0..3),
        rng.usize(0..3),
        names.join(", "),
        vec!["0"; vars].join(", "),
        ops.join(";\n")
    )
}
