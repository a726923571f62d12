//! Random small predicates over sequences, as text: two sequences `s`, `t : seq(C)` of at most two
//! elements, an element `x : C` and a count `k : 0..3`, constrained by atoms over random sequence
//! expressions built from every sequence operator (`<-`, `->`, `^`, `tail`, `front`, `rev`, `/|\`,
//! `\|/`, literals) and read by `size`, `first`, `last`, application, `ran` and equality. `first`, `last`,
//! `tail`, `front` of an empty sequence and `/|\`, `\|/` beyond its size are ill-defined on purpose:
//! every backend must agree with the interpreter on well-definedness too.

use fastrand::Rng;

/// The machine every case is typed and solved in.
pub const MACHINE: &str = "MACHINE SeqContext\nSETS C = {c1, c2, c3}\nEND\n";

/// The typing of the free variables (at most 13 * 13 * 3 * 4 candidates for the oracle).
const TYPING: &str = "s : seq(C) & size(s) <= 2 & t : seq(C) & size(t) <= 2 & x : C & k : 0..3";

/// The predicate of case `seed`: the same seed always gives the same text.
pub fn generate(seed: u64) -> String {
    let mut g = Generator {
        rng: Rng::with_seed(seed),
    };
    let count = g.rng.usize(1..=3);
    let mut parts = vec![TYPING.to_string()];
    parts.extend((0..count).map(|_| g.atom()));
    parts.join(" & ")
}

struct Generator {
    rng: Rng,
}

impl Generator {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.usize(..items.len())]
    }

    fn elem(&mut self) -> String {
        match self.rng.u32(0..4) {
            0 => self.pick(&["c1", "c2", "c3"]).to_string(),
            1 => format!("first({})", self.seq(1)),
            2 => format!("last({})", self.seq(1)),
            _ => "x".to_string(),
        }
    }

    fn int(&mut self) -> String {
        match self.rng.u32(0..4) {
            0 => self.rng.i64(0..4).to_string(),
            1 => format!("size({})", self.seq(1)),
            _ => "k".to_string(),
        }
    }

    /// A sequence expression of nesting at most `depth`.
    fn seq(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.u32(0..3) == 0 {
            return match self.rng.u32(0..6) {
                0 => "[]".to_string(),
                1 => format!("[{}]", self.pick(&["c1", "c2", "x"])),
                2 => "[c2, c1]".to_string(),
                3 => "t".to_string(),
                _ => "s".to_string(),
            };
        }
        let d = depth - 1;
        match self.rng.u32(0..9) {
            0 => format!("({} <- {})", self.seq(d), self.pick(&["c1", "c3", "x"])),
            1 => format!("({} -> {})", self.pick(&["c2", "x"]), self.seq(d)),
            2 => format!("({} ^ {})", self.seq(d), self.seq(d)),
            3 => format!("tail({})", self.seq(d)),
            4 => format!("front({})", self.seq(d)),
            5 => format!("rev({})", self.seq(d)),
            6 => format!("({} /|\\ {})", self.seq(d), self.pick(&["k", "1", "2"])),
            7 => format!("({} \\|/ {})", self.seq(d), self.pick(&["k", "1"])),
            _ => self.seq(0),
        }
    }

    fn atom(&mut self) -> String {
        let atom = match self.rng.u32(0..8) {
            0 => format!("{} = {}", self.seq(2), self.seq(2)),
            1 => format!("{} /= {}", self.seq(2), self.seq(1)),
            2 => format!("size({}) = {}", self.seq(2), self.int()),
            3 => format!("first({}) = {}", self.seq(2), self.elem()),
            4 => format!("last({}) /= {}", self.seq(2), self.elem()),
            5 => format!("{} : ran({})", self.elem(), self.seq(2)),
            6 => format!("{}(2) = {}", self.seq(1), self.elem()),
            _ => format!("size({}) < {}", self.seq(2), self.int()),
        };
        if self.rng.u32(0..5) == 0 {
            format!("not({atom})")
        } else {
            atom
        }
    }
}
