//! Random small well-typed B machines, as text, for the engine cross-check (`tests/cross_check.rs`).
//!
//! A machine has 1–3 variables (integers over `0..m` with `m <= 3`, booleans, subsets of the enumerated
//! set `E = {e1, e2, e3}`, total functions `E --> 0..1`, elements of a deferred set `D` of 2 or 3 elements fixed by PROPERTIES, short
//! sequences over `0..1`, rarely: the symbolic engines mostly answer UNKNOWN on them), optionally
//! constants (an integer `k`, elements `cd`/`ce` of `D`, a subset `cr` of `D`, a total function
//! `cf : D --> BOOL`, a subset `cs` of `E`), 2–4 operations built from
//! PRE / SELECT / ANY-WHERE / BEGIN with parameters, IF-THEN-ELSE and CHOICE, and an INVARIANT made of
//! the typing conjuncts and, mostly, one random comparison (so it is sometimes violated). Random guards
//! make some states deadlocks.
//!
//! Rule: every reachable value stays in a small finite set, so `mc` explores the whole state space:
//! integers are built only from non-negative atoms with `mod`, `min` and `max` (an integer may leave its
//! declared range by one, `min({x + 1, m + 1})`, to violate the typing invariant, never further), a
//! sequence only grows under `size(q) < 2`. The product of the variables' value counts and the constant
//! setups is kept under `STATE_BUDGET`. No expression is ill-defined: `first(q)` only after `q /= []`.

use fastrand::Rng;

/// Largest product of the variables' value counts times the number of constant setups (an upper bound of
/// the number of states `mc` explores).
const STATE_BUDGET: u64 = 500;

/// The largest cardinality PROPERTIES give the deferred set `D`.
const MAX_DEFERRED_CARD: u64 = 3;

/// A generated machine.
pub struct Machine {
    pub text: String,
    /// Whether it declares CONSTANTS (then `setup-constants --all` is compared across backends).
    pub has_constants: bool,
}

/// What a variable ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `0..max` by its typing invariant; values may reach `max + 1`.
    Int {
        max: i64,
    },
    Bool,
    /// A subset of the enumerated set `E`.
    Subset,
    /// An element of the deferred set `D`.
    Deferred,
    /// A total function `E --> 0..1`.
    Fun,
    /// A sequence over `0..1` of size at most 2.
    Seq,
}

impl Kind {
    /// How many values a variable of this kind can take (an upper bound).
    fn values(self) -> u64 {
        match self {
            Kind::Int { max } => max as u64 + 2,
            Kind::Bool => 2,
            Kind::Subset => 8,
            Kind::Deferred => MAX_DEFERRED_CARD,
            Kind::Fun => 8,
            Kind::Seq => 7,
        }
    }
}

struct Var {
    name: String,
    kind: Kind,
}

/// The constants a machine may declare.
#[derive(Default)]
struct Constants {
    /// `k : 1..3`.
    k: bool,
    /// `cd : D` (always there with `D`).
    cd: bool,
    /// `ce : D`, sometimes also `ce /= cd`.
    ce: bool,
    /// `cr <: D`, sometimes also `cr /= {}`.
    cr: bool,
    /// `cf : D --> BOOL`.
    cf: bool,
    /// `cs <: E & card(cs) = 2`.
    cs: bool,
}

impl Constants {
    fn any(&self) -> bool {
        self.k || self.cd || self.ce || self.cr || self.cf || self.cs
    }

    /// An upper bound of the number of constant setups when `D` has `card` elements.
    fn setups(&self, card: u64) -> u64 {
        let subsets = 1 << card;
        [
            (self.k, 3),
            (self.cd, card),
            (self.ce, card),
            (self.cr, subsets),
            (self.cf, subsets),
            (self.cs, 3),
        ]
        .iter()
        .filter(|(declared, _)| *declared)
        .map(|(_, n)| n)
        .product()
    }
}

/// The names bound where an expression is generated: operation parameters and ANY identifiers.
#[derive(Default, Clone)]
struct Scope {
    /// Identifiers ranging over small non-negative integers.
    ints: Vec<String>,
    /// Identifiers ranging over `E`.
    elems: Vec<String>,
    /// Identifiers ranging over `D`.
    deferred: Vec<String>,
}

struct Generator {
    rng: Rng,
    vars: Vec<Var>,
    constants: Constants,
    /// Whether `E = {e1, e2, e3}` is declared.
    enumerated: bool,
    /// The cardinality of the deferred set `D`, when it is declared.
    deferred: Option<u64>,
}

/// The machine of case `seed`.
pub fn generate(seed: u64) -> Machine {
    let mut g = Generator::new(seed);
    let text = g.machine();
    Machine {
        text,
        has_constants: g.constants.any(),
    }
}

impl Generator {
    fn new(seed: u64) -> Generator {
        let mut rng = Rng::with_seed(seed);
        // Draw the variables and constants again until the state-space bound holds.
        loop {
            let count = rng.usize(1..=3);
            let vars: Vec<Var> = (0..count)
                .map(|i| {
                    let kind = match rng.u32(0..22) {
                        0..=6 => Kind::Int {
                            max: rng.i64(1..=3),
                        },
                        7..=10 => Kind::Bool,
                        11..=14 => Kind::Subset,
                        15..=18 => Kind::Deferred,
                        19..=20 => Kind::Fun,
                        _ => Kind::Seq,
                    };
                    Var {
                        name: format!("{}{}", prefix(kind), i + 1),
                        kind,
                    }
                })
                .collect();
            let deferred = (vars.iter().any(|v| v.kind == Kind::Deferred) || rng.u32(0..6) == 0)
                .then(|| if rng.u32(0..4) == 0 { 3 } else { 2 });
            let enumerated = vars
                .iter()
                .any(|v| matches!(v.kind, Kind::Subset | Kind::Fun))
                || rng.bool();
            let constants = Constants {
                k: rng.u32(0..4) == 0,
                cd: deferred.is_some(),
                ce: deferred.is_some() && rng.bool(),
                cr: deferred.is_some() && rng.u32(0..3) == 0,
                cf: deferred.is_some() && rng.u32(0..4) == 0,
                cs: enumerated && rng.u32(0..5) == 0,
            };
            let states: u64 = vars.iter().map(|v| v.kind.values()).product::<u64>()
                * constants.setups(deferred.unwrap_or(0));
            if states <= STATE_BUDGET {
                return Generator {
                    rng,
                    vars,
                    constants,
                    enumerated,
                    deferred,
                };
            }
        }
    }

    fn machine(&mut self) -> String {
        let mut out = String::from("MACHINE Random\n");
        let mut sets = vec![];
        if self.deferred.is_some() {
            sets.push("D".to_string());
        }
        if self.enumerated {
            sets.push("E = {e1, e2, e3}".to_string());
        }
        if !sets.is_empty() {
            out += &format!("SETS {}\n", sets.join("; "));
        }
        let (names, properties) = self.constant_declarations();
        if !names.is_empty() {
            out += &format!("CONSTANTS {}\n", names.join(", "));
        }
        if !properties.is_empty() {
            out += &format!("PROPERTIES {}\n", properties.join(" & "));
        }
        let names: Vec<&str> = self.vars.iter().map(|v| v.name.as_str()).collect();
        out += &format!("VARIABLES {}\n", names.join(", "));
        out += &format!("INVARIANT {}\n", self.invariant());
        out += &format!("INITIALISATION {}\n", self.initialisation());
        out += "OPERATIONS\n";
        let count = self.rng.usize(2..=4);
        let operations: Vec<String> = (1..=count).map(|i| self.operation(i)).collect();
        out += &operations.join(";\n");
        out += "\nEND\n";
        out
    }

    /// The constants' names and the PROPERTIES conjuncts (`card(D) = 2` whenever `D` is declared).
    fn constant_declarations(&mut self) -> (Vec<&'static str>, Vec<String>) {
        let mut names = vec![];
        let mut properties = vec![];
        if let Some(card) = self.deferred {
            properties.push(format!("card(D) = {card}"));
        }
        if self.constants.k {
            names.push("k");
            properties.push(
                if self.rng.bool() {
                    "k : 1..3"
                } else {
                    "k : 1..3 & k /= 2"
                }
                .to_string(),
            );
        }
        if self.constants.cd {
            names.push("cd");
            properties.push("cd : D".to_string());
        }
        if self.constants.ce {
            names.push("ce");
            properties.push(
                if self.rng.bool() {
                    "ce : D"
                } else {
                    "ce : D & ce /= cd"
                }
                .to_string(),
            );
        }
        if self.constants.cr {
            names.push("cr");
            properties.push(
                if self.rng.bool() {
                    "cr <: D"
                } else {
                    "cr <: D & cr /= {}"
                }
                .to_string(),
            );
        }
        if self.constants.cf {
            names.push("cf");
            properties.push("cf : D --> BOOL".to_string());
        }
        if self.constants.cs {
            names.push("cs");
            properties.push("cs <: E & card(cs) = 2".to_string());
        }
        (names, properties)
    }

    fn invariant(&mut self) -> String {
        let mut conjuncts: Vec<String> = self.vars.iter().map(typing).collect();
        // A disjunction of two comparisons holds more often than one: violations then come at various
        // depths, not mostly in the initial states.
        let scope = Scope::default();
        match self.rng.u32(0..10) {
            0..=1 => {}
            2..=4 => conjuncts.push(self.predicate(&scope, 1)),
            _ => {
                let left = self.predicate(&scope, 0);
                let right = self.predicate(&scope, 0);
                conjuncts.push(format!("({left} or {right})"));
            }
        }
        conjuncts.join(" & ")
    }

    fn initialisation(&mut self) -> String {
        let parts: Vec<String> = (0..self.vars.len())
            .map(|i| {
                let name = self.vars[i].name.clone();
                let nondeterministic = self.rng.u32(0..5) == 0;
                match self.vars[i].kind {
                    Kind::Int { max } if nondeterministic => {
                        format!("{name} :: 0..{}", self.rng.i64(1..=max))
                    }
                    Kind::Int { max } => format!("{name} := {}", self.rng.i64(0..=max)),
                    Kind::Bool if nondeterministic => format!("{name} :: BOOL"),
                    Kind::Bool => format!("{name} := {}", pick(&mut self.rng, &["TRUE", "FALSE"])),
                    Kind::Subset if nondeterministic => format!("{name} :: {{{{}}, {{e1}}}}"),
                    Kind::Subset => format!(
                        "{name} := {}",
                        pick(&mut self.rng, &["{}", "{e1}", "{e2, e3}"])
                    ),
                    Kind::Deferred if nondeterministic => format!("{name} :: D"),
                    Kind::Deferred => format!("{name} := cd"),
                    Kind::Fun => format!("{name} := E * {{{}}}", self.rng.u32(0..=1)),
                    Kind::Seq => format!(
                        "{name} := {}",
                        pick(&mut self.rng, &["[]", "[0]", "[1, 0]"])
                    ),
                }
            })
            .collect();
        parts.join(" || ")
    }

    /// Operation number `i`: its parameters, its form (PRE, SELECT, ANY, BEGIN) and its body.
    fn operation(&mut self, i: usize) -> String {
        let mut scope = Scope::default();
        let mut params = vec![];
        let mut typing = vec![];
        let param_count = match self.rng.u32(0..10) {
            0..=4 => 0,
            5..=8 => 1,
            _ => 2,
        };
        for j in 0..param_count {
            let name = format!("p{}", j + 1);
            if self.enumerated && self.rng.u32(0..3) == 0 {
                typing.push(format!("{name} : E"));
                scope.elems.push(name.clone());
            } else {
                let max = self.rng.i64(1..=3);
                typing.push(format!("{name} : 0..{max}"));
                scope.ints.push(name.clone());
            }
            params.push(name);
        }
        let header = if params.is_empty() {
            format!("  op{i}")
        } else {
            format!("  op{i}({})", params.join(", "))
        };
        let form = self.rng.u32(0..10);
        let body = if form < 2 {
            // ANY: a bound identifier, typed and filtered in the WHERE clause.
            let (binder_typing, binder) = self.any_binder(&mut scope);
            let mut guard = vec![binder_typing];
            guard.extend(self.optional_guard(&scope));
            let body = self.substitution(&scope, 2);
            let any = format!("ANY {binder} WHERE {} THEN {body} END", guard.join(" & "));
            if params.is_empty() {
                any
            } else {
                // The parameters are typed by a PRE around the ANY.
                format!("PRE {} THEN {any} END", typing.join(" & "))
            }
        } else {
            let mut guard = typing.clone();
            guard.extend(self.optional_guard(&scope));
            let body = self.substitution(&scope, 2);
            if guard.is_empty() {
                format!("BEGIN {body} END")
            } else if form < 6 {
                format!("PRE {} THEN {body} END", guard.join(" & "))
            } else {
                format!("SELECT {} THEN {body} END", guard.join(" & "))
            }
        };
        format!("{header} = {body}")
    }

    /// An ANY identifier `v` over `0..2`, `E` or `D` (then distinct from a variable of `D`, if any): its
    /// typing conjunct and its name; it joins `scope`.
    fn any_binder(&mut self, scope: &mut Scope) -> (String, String) {
        let name = "v".to_string();
        let deferred_var = self.vars.iter().find(|v| v.kind == Kind::Deferred);
        let choice = self.rng.u32(0..3);
        if choice == 0
            && let Some(d) = deferred_var
        {
            let typing = format!("{name} : D & {name} /= {}", d.name);
            scope.deferred.push(name.clone());
            return (typing, name);
        }
        if choice == 1 && self.enumerated {
            scope.elems.push(name.clone());
            return (format!("{name} : E"), name);
        }
        scope.ints.push(name.clone());
        (format!("{name} : 0..2"), name)
    }

    /// No guard (one time in four) or a random predicate.
    fn optional_guard(&mut self, scope: &Scope) -> Option<String> {
        (self.rng.u32(0..4) != 0).then(|| self.predicate(scope, 1))
    }

    /// A substitution: assignments to 1–2 distinct variables in parallel, an IF, a CHOICE or `skip`.
    fn substitution(&mut self, scope: &Scope, depth: u32) -> String {
        let form = self.rng.u32(0..20);
        if depth > 0 && form < 4 {
            let condition = self.predicate(scope, 1);
            let then = self.substitution(scope, depth - 1);
            return if self.rng.bool() {
                let otherwise = self.substitution(scope, depth - 1);
                format!("IF {condition} THEN {then} ELSE {otherwise} END")
            } else {
                format!("IF {condition} THEN {then} END")
            };
        }
        if depth > 0 && form == 4 {
            let first = self.substitution(scope, depth - 1);
            let second = self.substitution(scope, depth - 1);
            return format!("CHOICE {first} OR {second} END");
        }
        if form == 5 {
            return "skip".to_string();
        }
        let count = self.rng.usize(1..=self.vars.len().min(2));
        let mut indices: Vec<usize> = (0..self.vars.len()).collect();
        self.rng.shuffle(&mut indices);
        let parts: Vec<String> = indices[..count]
            .iter()
            .map(|&i| self.assignment(i, scope))
            .collect();
        parts.join(" || ")
    }

    /// An assignment to variable `i` whose value stays in the variable's finite value set.
    fn assignment(&mut self, i: usize, scope: &Scope) -> String {
        let name = self.vars[i].name.clone();
        match self.vars[i].kind {
            Kind::Int { max } => {
                let atom = self.int_atom(scope);
                match self.rng.u32(0..10) {
                    0..=1 => format!("{name} := {}", self.rng.i64(0..=max)),
                    2..=4 => format!(
                        "{name} := ({} + {}) mod {}",
                        atom,
                        self.rng.i64(0..=max),
                        max + 1
                    ),
                    5 => format!("{name} := min({{{}, {max}}})", atom),
                    // Leaves the typing range by one: the invariant `0..max` is then violated.
                    6 => format!("{name} := min({{{name} + 1, {}}})", max + 1),
                    7 => format!("{name} := max({{{name} - 1, 0}})"),
                    8 => format!("{name} :: 0..{max}"),
                    _ => format!("{name} := (({}) + {name}) mod {}", atom, max + 1),
                }
            }
            Kind::Bool => match self.rng.u32(0..4) {
                0 => format!("{name} := TRUE"),
                1 => format!("{name} := FALSE"),
                2 => format!("{name} := bool({name} = FALSE)"),
                _ => {
                    let p = self.predicate(scope, 0);
                    format!("{name} := bool({p})")
                }
            },
            Kind::Subset => {
                let e = self.elem(scope);
                match self.rng.u32(0..7) {
                    0 | 1 => format!("{name} := {name} \\/ {{{e}}}"),
                    2 | 3 => format!("{name} := {name} - {{{e}}}"),
                    4 => format!("{name} := {{}}"),
                    5 => format!("{name} := E - {name}"),
                    _ if self.constants.cs => format!("{name} := {name} /\\ cs"),
                    _ => format!("{name} := {{{e}}}"),
                }
            }
            Kind::Deferred => {
                let d = self.deferred_elem(scope);
                match self.rng.u32(0..3) {
                    0 => format!("{name} :: D"),
                    _ => format!("{name} := {d}"),
                }
            }
            Kind::Fun => {
                let e = self.elem(scope);
                match self.rng.u32(0..4) {
                    0 => format!("{name}({e}) := {}", self.rng.u32(0..=1)),
                    1 => format!("{name}({e}) := 1 - {name}({e})"),
                    2 => format!("{name} := {name} <+ {{{e} |-> {}}}", self.rng.u32(0..=1)),
                    _ => format!("{name} := E * {{{}}}", self.rng.u32(0..=1)),
                }
            }
            Kind::Seq => {
                let atom = self.int_atom(scope);
                match self.rng.u32(0..6) {
                    0 => format!("{name} := []"),
                    1 => format!("{name} := [{} mod 2]", atom),
                    2 | 3 => {
                        format!(
                            "IF size({name}) < 2 THEN {name} := {name} <- ({} mod 2) END",
                            atom
                        )
                    }
                    4 => format!("IF {name} /= [] THEN {name} := tail({name}) END"),
                    _ => format!("{name} := rev({name})"),
                }
            }
        }
    }

    /// A predicate over the variables, constants and `scope`; `depth` levels of connectives at most.
    fn predicate(&mut self, scope: &Scope, depth: u32) -> String {
        if depth > 0 && self.rng.u32(0..3) == 0 {
            let left = self.predicate(scope, depth - 1);
            return match self.rng.u32(0..4) {
                0 => {
                    let right = self.predicate(scope, depth - 1);
                    format!("({left} & {right})")
                }
                1 => {
                    let right = self.predicate(scope, depth - 1);
                    format!("({left} or {right})")
                }
                2 => {
                    let right = self.predicate(scope, depth - 1);
                    format!("({left} => {right})")
                }
                _ => format!("not({left})"),
            };
        }
        // A comparison about a random variable, or about the integers in scope.
        let i = self.rng.usize(0..=self.vars.len());
        let kind = self.vars.get(i).map(|v| v.kind);
        let name = self.vars.get(i).map(|v| v.name.clone()).unwrap_or_default();
        match kind {
            None | Some(Kind::Int { .. }) => {
                let left = self.int_atom(scope);
                let right = if self.rng.bool() {
                    self.int_atom(scope)
                } else {
                    self.rng.i64(0..=3).to_string()
                };
                let op = pick(&mut self.rng, &["=", "/=", "<", "<=", ">", ">="]);
                if self.rng.u32(0..4) == 0 {
                    let other = self.int_atom(scope);
                    format!("{} + {} {op} {right}", left, other)
                } else {
                    format!("{} {op} {right}", left)
                }
            }
            Some(Kind::Bool) => {
                let value = pick(&mut self.rng, &["TRUE", "FALSE"]);
                format!("{name} = {value}")
            }
            Some(Kind::Subset) => {
                let e = self.elem(scope);
                match self.rng.u32(0..6) {
                    0 => format!("{e} : {name}"),
                    1 => format!("{e} /: {name}"),
                    2 => format!("card({name}) <= {}", self.rng.u32(0..=2)),
                    3 => format!("{name} /= {{}}"),
                    4 => format!("{name} <: {{e1, e2}}"),
                    _ if self.constants.cs => format!("{name} <: cs"),
                    _ => format!("{name} = E"),
                }
            }
            Some(Kind::Deferred) => match self.rng.u32(0..4) {
                0 if self.constants.cr => {
                    format!("{name} {} cr", pick(&mut self.rng, &[":", "/:"]))
                }
                1 if self.constants.cf => {
                    format!("cf({name}) = {}", pick(&mut self.rng, &["TRUE", "FALSE"]))
                }
                _ => {
                    let d = self.deferred_elem(scope);
                    let op = pick(&mut self.rng, &["=", "/="]);
                    format!("{name} {op} {d}")
                }
            },
            Some(Kind::Fun) => {
                let e = self.elem(scope);
                match self.rng.u32(0..3) {
                    0 => format!("{name}({e}) = {}", self.rng.u32(0..=1)),
                    1 => format!("card({name}~[{{1}}]) <= {}", self.rng.u32(0..=2)),
                    _ => format!("0 /: ran({name})"),
                }
            }
            Some(Kind::Seq) => match self.rng.u32(0..4) {
                0 => format!("{name} = []"),
                1 => format!("1 : ran({name})"),
                // Well-defined: `first` only where the sequence is not empty.
                2 => format!("({name} /= [] & first({name}) = 1)"),
                _ => format!("size({name}) {} 1", pick(&mut self.rng, &["=", "<", ">="])),
            },
        }
    }

    /// A non-negative integer: a literal, an integer variable, `k`, a parameter, `card` of a subset or
    /// `size` of a sequence.
    fn int_atom(&mut self, scope: &Scope) -> String {
        let mut atoms = vec![self.rng.i64(0..=2).to_string()];
        for v in &self.vars {
            match v.kind {
                Kind::Int { .. } => atoms.push(v.name.clone()),
                Kind::Subset => atoms.push(format!("card({})", v.name)),
                Kind::Seq => atoms.push(format!("size({})", v.name)),
                Kind::Fun => atoms.push(format!("{}(e{})", v.name, self.rng.u32(1..=3))),
                Kind::Bool | Kind::Deferred => {}
            }
        }
        if self.constants.k {
            atoms.push("k".to_string());
        }
        if self.constants.cr {
            atoms.push("card(cr)".to_string());
        }
        atoms.extend(scope.ints.iter().cloned());
        let i = self.rng.usize(0..atoms.len());
        atoms.swap_remove(i)
    }

    /// An element of `E`: a literal or an identifier in scope.
    fn elem(&mut self, scope: &Scope) -> String {
        let mut elems: Vec<String> = vec!["e1".into(), "e2".into(), "e3".into()];
        elems.extend(scope.elems.iter().cloned());
        let i = self.rng.usize(0..elems.len());
        elems.swap_remove(i)
    }

    /// An element of `D`: `cd`, `ce` or an identifier in scope.
    fn deferred_elem(&mut self, scope: &Scope) -> String {
        let mut elems = vec!["cd".to_string()];
        if self.constants.ce {
            elems.push("ce".into());
        }
        elems.extend(scope.deferred.iter().cloned());
        let i = self.rng.usize(0..elems.len());
        elems.swap_remove(i)
    }
}

/// The prefix of a variable's name, which says its kind.
fn prefix(kind: Kind) -> &'static str {
    match kind {
        Kind::Int { .. } => "x",
        Kind::Bool => "b",
        Kind::Subset => "s",
        Kind::Deferred => "d",
        Kind::Fun => "f",
        Kind::Seq => "q",
    }
}

/// A variable's typing conjunct in the INVARIANT.
fn typing(v: &Var) -> String {
    let name = &v.name;
    match v.kind {
        Kind::Int { max } => format!("{name} : 0..{max}"),
        Kind::Bool => format!("{name} : BOOL"),
        Kind::Subset => format!("{name} <: E"),
        Kind::Deferred => format!("{name} : D"),
        Kind::Fun => format!("{name} : E --> 0..1"),
        Kind::Seq => format!("{name} : seq(0..1) & size({name}) <= 2"),
    }
}

fn pick<'a>(rng: &mut Rng, choices: &[&'a str]) -> &'a str {
    choices[rng.usize(0..choices.len())]
}
