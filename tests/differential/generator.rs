//! Random small well-typed B predicates, as text, over free variables of a machine with one enumerated
//! set `C = {c1, c2, c3}` and no deferred set (so no symmetry reduction may apply).
//!
//! A case is `typing & constraint & ...`: the typing conjuncts (`x1 : 0..3`, `r1 : C <-> C`, ...) are
//! top-level (first, except in one case in five), so the brute-force oracle can enumerate from them; the
//! product of the variables' domain sizes is kept under `DOMAIN_BUDGET` so the oracle stays fast. One
//! integer may be left without a bound (`z1 : INTEGER`, or typed by inference from `z1 /= 0`) to exercise
//! the incompleteness flag. Function applications, `min`/`max`, `mod` of negatives and `div` may be
//! ill-defined on purpose: both backends must agree on well-definedness too.

use fastrand::Rng;

/// The types `membership` can test.
const MEMBER_TYPES: [Ty; 7] = [
    Ty::Int,
    Ty::Elem,
    Ty::IntSet,
    Ty::ElemSet,
    Ty::RelCC,
    Ty::RelIC,
    Ty::RelCI,
];

/// The machine every case is typed and solved in.
pub const MACHINE: &str = "MACHINE DiffContext\nSETS C = {c1, c2, c3}\nEND\n";

/// Largest product of the variables' domain sizes (the oracle's worst-case number of candidates).
const DOMAIN_BUDGET: u64 = 4_096;

/// The type of a generated expression, as far as the generator needs to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    /// An element of `C`.
    Elem,
    IntSet,
    ElemSet,
    /// A relation `C <-> C`.
    RelCC,
    /// A relation `INTEGER <-> C`.
    RelIC,
    /// A relation `C <-> INTEGER`.
    RelCI,
}

/// How a free variable is declared (its typing conjunct).
#[derive(Clone, Copy, Debug)]
enum Decl {
    IntRange(i64, i64),
    /// An integer with no bound: `z : INTEGER` when `typed`, otherwise typed by inference from `z /= 0`.
    Unbounded {
        typed: bool,
    },
    Bool,
    Elem,
    IntSubset(i64, i64),
    ElemSubset,
    RelCC,
    RelIC,
    TotalFunCI,
    PartialFunCC,
    InjIC,
}

impl Decl {
    fn ty(self) -> Ty {
        match self {
            Decl::IntRange(..) | Decl::Unbounded { .. } => Ty::Int,
            Decl::Bool => Ty::Bool,
            Decl::Elem => Ty::Elem,
            Decl::IntSubset(..) => Ty::IntSet,
            Decl::ElemSubset => Ty::ElemSet,
            Decl::RelCC | Decl::PartialFunCC => Ty::RelCC,
            Decl::RelIC | Decl::InjIC => Ty::RelIC,
            Decl::TotalFunCI => Ty::RelCI,
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            Decl::IntRange(..) => "x",
            Decl::Unbounded { .. } => "z",
            Decl::Bool => "b",
            Decl::Elem => "e",
            Decl::IntSubset(..) => "s",
            Decl::ElemSubset => "t",
            Decl::RelCC => "r",
            Decl::RelIC => "q",
            Decl::TotalFunCI => "f",
            Decl::PartialFunCC => "g",
            Decl::InjIC => "h",
        }
    }

    /// The number of candidates the oracle enumerates for this variable (MININT..MAXINT for an unbounded
    /// integer, with the default MININT = -1, MAXINT = 3).
    fn domain_size(self) -> u64 {
        match self {
            Decl::IntRange(lo, hi) => (hi - lo + 1) as u64,
            Decl::Unbounded { .. } => 5,
            Decl::Bool => 2,
            Decl::Elem => 3,
            Decl::IntSubset(lo, hi) => 1 << (hi - lo + 1),
            Decl::ElemSubset => 8,
            Decl::RelCC => 512,
            Decl::RelIC | Decl::PartialFunCC => 64,
            Decl::TotalFunCI => 27,
            Decl::InjIC => 6,
        }
    }

    fn typing(self, name: &str) -> String {
        match self {
            Decl::IntRange(lo, hi) => format!("{name} : {}..{}", lit(lo), lit(hi)),
            Decl::Unbounded { typed: true } => format!("{name} : INTEGER"),
            // Typed by inference from a use that bounds nothing.
            Decl::Unbounded { typed: false } => format!("{name} /= 0"),
            Decl::Bool => format!("{name} : BOOL"),
            Decl::Elem => format!("{name} : C"),
            Decl::IntSubset(lo, hi) => format!("{name} <: {}..{}", lit(lo), lit(hi)),
            Decl::ElemSubset => format!("{name} : POW(C)"),
            Decl::RelCC => format!("{name} : C <-> C"),
            Decl::RelIC => format!("{name} : 1..2 <-> C"),
            Decl::TotalFunCI => format!("{name} : C --> 1..3"),
            Decl::PartialFunCC => format!("{name} : C +-> C"),
            Decl::InjIC => format!("{name} : 1..3 >-> C"),
        }
    }
}

/// An integer literal that parses in any position.
fn lit(k: i64) -> String {
    if k < 0 {
        format!("({k})")
    } else {
        k.to_string()
    }
}

/// The predicate of case `seed`: the same seed always gives the same text.
pub fn generate(seed: u64) -> String {
    let mut g = Generator {
        rng: Rng::with_seed(seed),
        scope: vec![],
        fresh: 0,
    };
    g.case()
}

struct Generator {
    rng: Rng,
    /// Free and bound variables visible at this point, with their types.
    scope: Vec<(String, Ty)>,
    /// Counter for fresh bound-variable names.
    fresh: usize,
}

impl Generator {
    fn case(&mut self) -> String {
        let decls = self.declarations();
        for (name, d) in &decls {
            self.scope.push((name.clone(), d.ty()));
        }
        let names: Vec<&str> = decls.iter().map(|(n, _)| n.as_str()).collect();
        let count = self.pick(&[1, 1, 2, 2, 3]);
        let constraints: Vec<String> = (0..count).map(|_| self.constraint(&names)).collect();
        let mut conjuncts: Vec<String> = decls.iter().map(|(name, d)| d.typing(name)).collect();
        conjuncts.extend(constraints);
        // Typing first is the usual style, but a solver must not depend on it.
        if self.rng.u32(0..5) == 0 {
            self.rng.shuffle(&mut conjuncts);
        }
        conjuncts.join(" & ")
    }

    /// A constraint that mentions a free variable (a closed one would test nothing), after a few tries.
    fn constraint(&mut self, names: &[&str]) -> String {
        let mut text = String::new();
        for _ in 0..4 {
            let depth = self.rng.u32(0..=2);
            text = self.pred(depth);
            if names.iter().any(|n| mentions(&text, n)) {
                break;
            }
        }
        text
    }

    /// One to four variables whose domains multiply to at most `DOMAIN_BUDGET`, at most one unbounded.
    fn declarations(&mut self) -> Vec<(String, Decl)> {
        let wanted = self.rng.usize(1..=4);
        let mut product = 1;
        let mut decls: Vec<(String, Decl)> = vec![];
        for _ in 0..wanted * 4 {
            if decls.len() == wanted {
                break;
            }
            let d = self.declaration();
            let unbounded = |d: &Decl| matches!(d, Decl::Unbounded { .. });
            if product * d.domain_size() > DOMAIN_BUDGET
                || (unbounded(&d) && decls.iter().any(|(_, d)| unbounded(d)))
            {
                continue;
            }
            product *= d.domain_size();
            decls.push((format!("{}{}", d.prefix(), decls.len() + 1), d));
        }
        decls
    }

    fn declaration(&mut self) -> Decl {
        match self.rng.u32(0..100) {
            0..30 => {
                let lo = self.rng.i64(-2..=2);
                Decl::IntRange(lo, (lo + self.rng.i64(0..=3)).min(4))
            }
            30..35 => Decl::Unbounded {
                typed: self.rng.bool(),
            },
            35..43 => Decl::Bool,
            43..55 => Decl::Elem,
            55..65 => {
                let lo = self.rng.i64(0..=1);
                Decl::IntSubset(lo, lo + self.rng.i64(1..=2))
            }
            65..73 => Decl::ElemSubset,
            73..78 => Decl::RelCC,
            78..83 => Decl::RelIC,
            83..89 => Decl::TotalFunCI,
            89..95 => Decl::PartialFunCC,
            _ => Decl::InjIC,
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.rng.usize(..items.len())].clone()
    }

    /// A visible variable of type `ty`, if any.
    fn var(&mut self, ty: Ty) -> Option<String> {
        let names: Vec<String> = self
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        (!names.is_empty()).then(|| self.pick(&names))
    }

    /// Generates `body` with a fresh bound variable of type `ty` in scope; returns (name, body).
    fn bind(&mut self, ty: Ty, body: impl FnOnce(&mut Self) -> String) -> (String, String) {
        self.fresh += 1;
        let name = format!("y{}", self.fresh);
        self.scope.push((name.clone(), ty));
        let text = body(self);
        self.scope.pop();
        (name, text)
    }

    /// One of `options`, mostly one that a visible variable has (so atoms constrain the variables).
    fn ty_of(&mut self, options: &[Ty]) -> Ty {
        let held: Vec<Ty> = options
            .iter()
            .copied()
            .filter(|&t| self.scope.iter().any(|(_, v)| *v == t))
            .collect();
        if !held.is_empty() && self.rng.u32(0..10) < 8 {
            self.pick(&held)
        } else {
            self.pick(options)
        }
    }

    fn comparison(&mut self) -> &'static str {
        self.pick(&["=", "/=", "<", "<=", ">", ">="])
    }

    // ---- expressions ---------------------------------------------------------------------------------

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        match ty {
            Ty::Int => self.int(depth),
            Ty::Bool => self.boolean(depth),
            Ty::Elem => self.elem(depth),
            Ty::IntSet => self.int_set(depth),
            Ty::ElemSet => self.elem_set(depth),
            Ty::RelCC => self.rel_cc(depth),
            Ty::RelIC => self.rel_ic(depth),
            Ty::RelCI => self.rel_ci(depth),
        }
    }

    /// A variable of `ty` most of the time, otherwise `literal`.
    fn leaf(&mut self, ty: Ty, literal: impl FnOnce(&mut Self) -> String) -> String {
        match self.var(ty) {
            Some(v) if self.rng.u32(0..10) < 8 => v,
            _ => literal(self),
        }
    }

    fn int(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::Int, |g| lit(g.rng.i64(-2..=4)));
        }
        let d = depth - 1;
        match self.rng.u32(0..10) {
            0..4 => self.arithmetic(d),
            4 => {
                let ty = self.ty_of(&[Ty::IntSet, Ty::ElemSet, Ty::RelCC, Ty::RelIC, Ty::RelCI]);
                format!("card({})", self.expr(ty, d))
            }
            5 | 6 => self
                .application(Ty::RelCI, d)
                .unwrap_or_else(|| self.arithmetic(d)),
            7 => self.min_max(d),
            8 => self.sigma(d),
            _ => self.counting(d),
        }
    }

    /// `+ - *` by small constants, `mod` and `/` by non-zero constants.
    fn arithmetic(&mut self, d: u32) -> String {
        let a = self.int(d);
        match self.rng.u32(0..5) {
            0 => format!("({a} + {})", self.int(d)),
            1 => format!("({a} - {})", self.int(d)),
            2 => format!("({} * {a})", lit(self.rng.i64(-2..=3))),
            3 => format!("({a} mod {})", self.rng.i64(1..=3)),
            _ => format!("({a} / {})", lit(self.pick(&[-2, -1, 1, 2, 3]))),
        }
    }

    /// `f(x)` for a visible variable `f` whose type is `rel`: may be ill-defined.
    fn application(&mut self, rel: Ty, d: u32) -> Option<String> {
        let f = self.var(rel)?;
        let arg = match rel {
            Ty::RelIC => self.int(d),
            _ => self.elem(d),
        };
        Some(format!("{f}({arg})"))
    }

    /// `min`/`max` of a set made non-empty, or (rarely) of any set, which may be empty.
    fn min_max(&mut self, d: u32) -> String {
        let op = self.pick(&["min", "max"]);
        let set = self.int_set(d);
        if self.rng.u32(0..5) == 0 {
            format!("{op}({set})")
        } else {
            format!("{op}({set} \\/ {{{}}})", lit(self.rng.i64(-1..=3)))
        }
    }

    fn sigma(&mut self, d: u32) -> String {
        let set = self.int_set(d);
        let k = lit(self.rng.i64(-1..=2));
        let (y, body) = self.bind(Ty::Int, |g| {
            let other = g.int(0);
            format!("({k} * {other})")
        });
        format!("SIGMA({y}).({y} : {set} | ({y} + {body}))")
    }

    /// `card({y | y : C & P})`.
    fn counting(&mut self, d: u32) -> String {
        let (y, body) = self.bind(Ty::Elem, |g| g.atom(d));
        format!("card({{{y} | {y} : C & {body}}})")
    }

    fn boolean(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.bool() {
            return self.leaf(Ty::Bool, |g| g.pick(&["TRUE", "FALSE"]).to_string());
        }
        format!("bool({})", self.atom(depth - 1))
    }

    fn elem(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 6 {
            return self.leaf(Ty::Elem, |g| g.pick(&["c1", "c2", "c3"]).to_string());
        }
        let rel = self.pick(&[Ty::RelCC, Ty::RelIC]);
        self.application(rel, depth - 1)
            .unwrap_or_else(|| self.leaf(Ty::Elem, |g| g.pick(&["c1", "c2", "c3"]).to_string()))
    }

    fn int_set(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::IntSet, |g| g.int_set_literal());
        }
        let d = depth - 1;
        match self.rng.u32(0..9) {
            0..3 => self.set_operation(Ty::IntSet, d),
            3 => format!("{{{}, {}}}", self.int(d), self.int(d)),
            4 => format!("({}..{})", self.int(d), self.int(d)),
            5 => format!("dom({})", self.rel_ic(d)),
            6 => format!("ran({})", self.rel_ci(d)),
            7 => self.image(Ty::IntSet, d),
            _ => self.comprehension(d),
        }
    }

    fn int_set_literal(&mut self) -> String {
        if self.rng.bool() {
            let lo = self.rng.i64(-1..=2);
            format!("({}..{})", lit(lo), lit(lo + self.rng.i64(0..=2)))
        } else {
            format!(
                "{{{}, {}}}",
                lit(self.rng.i64(-1..=4)),
                lit(self.rng.i64(-1..=4))
            )
        }
    }

    fn elem_set(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::ElemSet, |g| g.elem_set_literal());
        }
        let d = depth - 1;
        match self.rng.u32(0..8) {
            0..3 => self.set_operation(Ty::ElemSet, d),
            3 => format!("{{{}}}", self.elem(d)),
            4 => format!("dom({})", self.rel_cc(d)),
            5 => format!("ran({})", self.rel_cc(d)),
            6 => format!("ran({})", self.rel_ic(d)),
            _ => self.image(Ty::ElemSet, d),
        }
    }

    fn elem_set_literal(&mut self) -> String {
        self.pick(&["C", "{c1}", "{c2, c3}", "{c1, c3}"])
            .to_string()
    }

    /// `\/`, `/\` or `-` of two sets of type `ty`.
    fn set_operation(&mut self, ty: Ty, d: u32) -> String {
        let op = self.pick(&["\\/", "/\\", "-"]);
        format!("({} {op} {})", self.expr(ty, d), self.expr(ty, d))
    }

    /// A relational image whose result has type `result` (a set of integers or of elements).
    fn image(&mut self, result: Ty, d: u32) -> String {
        match result {
            Ty::IntSet if self.rng.bool() => {
                format!("{}[{}]", self.rel_ci(d), self.elem_set(d))
            }
            Ty::IntSet => format!("({})~[{}]", self.rel_ic(d), self.elem_set(d)),
            _ if self.rng.bool() => format!("{}[{}]", self.rel_cc(d), self.elem_set(d)),
            _ => format!("{}[{}]", self.rel_ic(d), self.int_set(d)),
        }
    }

    /// `{y | y : 1..3 & P}`.
    fn comprehension(&mut self, d: u32) -> String {
        let (y, body) = self.bind(Ty::Int, |g| g.atom(d));
        format!("{{{y} | {y} : 1..3 & {body}}}")
    }

    fn rel_cc(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::RelCC, |g| {
                g.pick(&["{c1 |-> c2}", "{c1 |-> c1, c2 |-> c3}", "(C * {c2})"])
                    .to_string()
            });
        }
        let d = depth - 1;
        match self.rng.u32(0..12) {
            0 => format!("({} ; {})", self.rel_cc(d), self.rel_cc(d)),
            1 => format!("({} ; {})", self.rel_ci(d), self.rel_ic(d)),
            2 => format!("({})~", self.rel_cc(d)),
            3 => format!("({} <+ {})", self.rel_cc(d), self.rel_cc(d)),
            4 => format!("({} <| {})", self.elem_set(d), self.rel_cc(d)),
            5 => format!("({} |> {})", self.rel_cc(d), self.elem_set(d)),
            6 => format!("({} <<| {})", self.elem_set(d), self.rel_cc(d)),
            7 => format!("({} |>> {})", self.rel_cc(d), self.elem_set(d)),
            8 => format!("closure1({})", self.rel_cc(d)),
            9 => format!("id({})", self.elem_set(d)),
            _ => self.set_operation(Ty::RelCC, d),
        }
    }

    fn rel_ic(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::RelIC, |g| {
                g.pick(&["{1 |-> c1}", "{1 |-> c2, 2 |-> c2}"]).to_string()
            });
        }
        let d = depth - 1;
        match self.rng.u32(0..6) {
            0 => format!("({})~", self.rel_ci(d)),
            1 => format!("({} <| {})", self.int_set(d), self.rel_ic(d)),
            2 => format!("({} |> {})", self.rel_ic(d), self.elem_set(d)),
            3 => format!("({} <+ {})", self.rel_ic(d), self.rel_ic(d)),
            4 => format!("({} ; {})", self.rel_ic(d), self.rel_cc(d)),
            _ => self.set_operation(Ty::RelIC, d),
        }
    }

    fn rel_ci(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return self.leaf(Ty::RelCI, |g| {
                g.pick(&["{c1 |-> 2}", "{c1 |-> 1, c2 |-> 3}", "(C * {1})"])
                    .to_string()
            });
        }
        let d = depth - 1;
        match self.rng.u32(0..5) {
            0 => format!("({})~", self.rel_ic(d)),
            1 => format!("({} <| {})", self.elem_set(d), self.rel_ci(d)),
            2 => format!("({} |> {})", self.rel_ci(d), self.int_set(d)),
            3 => format!("({} ; {})", self.rel_cc(d), self.rel_ci(d)),
            _ => self.set_operation(Ty::RelCI, d),
        }
    }

    // ---- predicates ----------------------------------------------------------------------------------

    /// A combination of atoms by `& or => not <=>`, `depth` connectives deep at most.
    fn pred(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            let d = self.rng.u32(0..=2);
            return self.atom(d);
        }
        let d = depth - 1;
        match self.rng.u32(0..9) {
            0..3 => format!("({} & {})", self.pred(d), self.pred(d)),
            3 | 4 => format!("({} or {})", self.pred(d), self.pred(d)),
            5 => format!("({} => {})", self.pred(d), self.pred(d)),
            6 | 7 => format!("not({})", self.pred(d)),
            _ => format!("({} <=> {})", self.pred(d), self.pred(d)),
        }
    }

    /// One template instance; expressions in it are at most `depth` deep.
    fn atom(&mut self, depth: u32) -> String {
        loop {
            let made = match self.rng.u32(0..20) {
                0..5 => Some(self.linear(depth)),
                5..8 => Some(self.membership(depth)),
                8..11 => Some(self.set_comparison(depth)),
                11 => Some(self.bool_equality(depth)),
                12 => Some(self.elem_equality(depth)),
                13 | 14 => self.function_value(depth),
                15 => self.function_kind(depth),
                16 | 17 => Some(self.quantifier(depth)),
                18 => self.all_different(depth),
                _ => Some(self.cardinality(depth)),
            };
            if let Some(text) = made {
                return text;
            }
        }
    }

    fn linear(&mut self, depth: u32) -> String {
        let op = self.comparison();
        format!("{} {op} {}", self.int(depth), self.int(depth))
    }

    /// `x : S` or `x /: S`, mostly for a type some variable has.
    fn membership(&mut self, depth: u32) -> String {
        let op = self.pick(&[":", ":", "/:"]);
        let d = depth;
        match self.ty_of(&MEMBER_TYPES) {
            Ty::Int | Ty::IntSet => format!("{} {op} {}", self.int(d), self.int_set(d)),
            Ty::Elem | Ty::ElemSet => format!("{} {op} {}", self.elem(d), self.elem_set(d)),
            Ty::RelCC => format!(
                "({} |-> {}) {op} {}",
                self.elem(d),
                self.elem(d),
                self.rel_cc(d)
            ),
            Ty::RelIC => format!(
                "({} |-> {}) {op} {}",
                self.int(d),
                self.elem(d),
                self.rel_ic(d)
            ),
            _ => format!(
                "({} |-> {}) {op} {}",
                self.elem(d),
                self.int(d),
                self.rel_ci(d)
            ),
        }
    }

    fn set_comparison(&mut self, depth: u32) -> String {
        let ty = self.ty_of(&[Ty::IntSet, Ty::ElemSet, Ty::RelCC, Ty::RelIC, Ty::RelCI]);
        let op = self.pick(&["<:", "<<:", "/<:", "=", "/="]);
        format!("{} {op} {}", self.expr(ty, depth), self.expr(ty, depth))
    }

    fn bool_equality(&mut self, depth: u32) -> String {
        let op = self.pick(&["=", "/="]);
        format!("{} {op} {}", self.boolean(depth), self.boolean(depth))
    }

    fn elem_equality(&mut self, depth: u32) -> String {
        let op = self.pick(&["=", "/="]);
        format!("{} {op} {}", self.elem(depth), self.elem(depth))
    }

    /// `f(x) = v`, plain (possibly ill-defined) or guarded by `x : dom(f) =>`.
    fn function_value(&mut self, depth: u32) -> Option<String> {
        let (rel, value) = self.pick(&[
            (Ty::RelCI, Ty::Int),
            (Ty::RelCC, Ty::Elem),
            (Ty::RelIC, Ty::Elem),
        ]);
        let f = self.var(rel)?;
        let arg = if rel == Ty::RelIC {
            self.int(depth.min(1))
        } else {
            self.elem(depth.min(1))
        };
        let op = if value == Ty::Int {
            self.comparison()
        } else {
            self.pick(&["=", "/="])
        };
        let equation = format!("{f}({arg}) {op} {}", self.expr(value, depth));
        Some(if self.rng.bool() {
            format!("({arg} : dom({f}) => {equation})")
        } else {
            equation
        })
    }

    /// A relation is a (partial, total, injective) function.
    fn function_kind(&mut self, depth: u32) -> Option<String> {
        let rel = self.pick(&[Ty::RelCC, Ty::RelIC, Ty::RelCI]);
        self.var(rel)?;
        let r = self.expr(rel, depth);
        let arrow = self.pick(&["+->", "-->", ">+>"]);
        Some(match rel {
            Ty::RelCC => format!("{r} : C {arrow} C"),
            Ty::RelIC => format!("{r} : 1..2 {arrow} C"),
            _ => format!("{r} : C {arrow} 1..3"),
        })
    }

    /// `!y.(y : S => P)` over integers or `#y.(y : C & P)` over elements.
    fn quantifier(&mut self, depth: u32) -> String {
        let d = depth.min(1);
        if self.rng.bool() {
            let domain = if self.rng.bool() {
                "(1..3)".to_string()
            } else {
                self.int_set(d)
            };
            let (y, body) = self.bind(Ty::Int, |g| g.atom(d));
            format!("!{y}.({y} : {domain} => {body})")
        } else {
            let (y, body) = self.bind(Ty::Elem, |g| g.atom(d));
            format!("#{y}.({y} : C & {body})")
        }
    }

    /// `card({a, b, c}) = 3` over integer or element variables (ProB's all-different idiom).
    fn all_different(&mut self, depth: u32) -> Option<String> {
        let ty = self.ty_of(&[Ty::Int, Ty::Elem]);
        self.var(ty)?;
        let n = self.rng.usize(2..=3);
        let items: Vec<String> = (0..n).map(|_| self.expr(ty, depth.min(1))).collect();
        Some(format!("card({{{}}}) = {n}", items.join(", ")))
    }

    fn cardinality(&mut self, depth: u32) -> String {
        let ty = self.ty_of(&[Ty::IntSet, Ty::ElemSet, Ty::RelCC, Ty::RelIC, Ty::RelCI]);
        let op = self.comparison();
        format!(
            "card({}) {op} {}",
            self.expr(ty, depth),
            self.int(depth.min(1))
        )
    }
}

/// Whether identifier `name` occurs in `text` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w == name)
}

#[test]
fn the_same_seed_gives_the_same_case() {
    assert_eq!(generate(42), generate(42));
    assert_ne!(generate(42), generate(43));
}
