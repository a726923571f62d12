//! A hash-consed boolean circuit (Kodkod's `engine/bool`): inputs and binary AND gates, negation as a
//! literal flag, OR / ITE / IFF built from them. Every gate is made once (structural sharing through a
//! table keyed by its inputs), and constants fold away as gates are made, so a translation over known
//! values produces no gate at all.

use rustc_hash::FxHashMap;

/// A node of the circuit, possibly negated: `node << 1 | negated`. Node 0 is the constant false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

pub const FALSE: Lit = Lit(0);
pub const TRUE: Lit = Lit(1);

impl Lit {
    pub fn node(self) -> usize {
        (self.0 >> 1) as usize
    }
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    pub fn is_const(self) -> bool {
        self.node() == 0
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    False,
    Input,
    And(Lit, Lit),
}

#[derive(Default)]
pub struct Circuit {
    nodes: Vec<Node>,
    ands: FxHashMap<(Lit, Lit), u32>,
}

impl Circuit {
    pub fn new() -> Circuit {
        Circuit {
            nodes: vec![Node::False],
            ands: FxHashMap::default(),
        }
    }

    pub fn node(&self, index: usize) -> Node {
        self.nodes[index]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The value of `l` when each input node `n` has value `input(n)`, gates computed from their
    /// operands (`memo` keeps the nodes evaluated so far, for reuse across calls under the same inputs).
    pub fn evaluate(
        &self,
        l: Lit,
        input: &dyn Fn(Lit) -> bool,
        memo: &mut FxHashMap<usize, bool>,
    ) -> bool {
        let lit_value =
            |x: Lit, memo: &FxHashMap<usize, bool>| memo.get(&x.node()).map(|v| v ^ x.is_negated());
        let mut stack = vec![l.node()];
        while let Some(&n) = stack.last() {
            if memo.contains_key(&n) {
                stack.pop();
                continue;
            }
            match self.nodes[n] {
                Node::False => {
                    memo.insert(n, false);
                    stack.pop();
                }
                Node::Input => {
                    memo.insert(n, input(Lit((n as u32) << 1)));
                    stack.pop();
                }
                Node::And(a, b) => match (lit_value(a, memo), lit_value(b, memo)) {
                    (Some(x), Some(y)) => {
                        memo.insert(n, x && y);
                        stack.pop();
                    }
                    (x, y) => {
                        if x.is_none() {
                            stack.push(a.node());
                        }
                        if y.is_none() {
                            stack.push(b.node());
                        }
                    }
                },
            }
        }
        lit_value(l, memo).expect("evaluated above")
    }

    /// A fresh input.
    pub fn input(&mut self) -> Lit {
        self.nodes.push(Node::Input);
        Lit(((self.nodes.len() - 1) as u32) << 1)
    }

    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == FALSE || a == !b {
            return FALSE;
        }
        if a == TRUE || a == b {
            return b;
        }
        if let Some(&n) = self.ands.get(&(a, b)) {
            return Lit(n << 1);
        }
        self.nodes.push(Node::And(a, b));
        let n = (self.nodes.len() - 1) as u32;
        self.ands.insert((a, b), n);
        Lit(n << 1)
    }

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub fn implies(&mut self, a: Lit, b: Lit) -> Lit {
        self.or(!a, b)
    }

    pub fn ite(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        if t == e {
            return t;
        }
        let a = self.and(c, t);
        let b = self.and(!c, e);
        self.or(a, b)
    }

    pub fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        self.ite(a, b, !b)
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        !self.iff(a, b)
    }

    /// The conjunction of `lits`, as a balanced tree (shallow circuits share better).
    pub fn and_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        let mut layer: Vec<Lit> = Vec::new();
        for l in lits {
            if l == FALSE {
                return FALSE;
            }
            if l != TRUE {
                layer.push(l);
            }
        }
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            for pair in layer.chunks(2) {
                next.push(match pair {
                    [a, b] => self.and(*a, *b),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                });
            }
            layer = next;
        }
        layer.pop().unwrap_or(TRUE)
    }

    pub fn or_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        let negated: Vec<Lit> = lits.into_iter().map(|l| !l).collect();
        !self.and_all(negated)
    }

    /// At most one of `lits` (a sequential counter: linear in the number of literals).
    pub fn at_most_one(&mut self, lits: &[Lit]) -> Lit {
        let mut seen = FALSE;
        let mut clash = FALSE;
        for &l in lits {
            let both = self.and(seen, l);
            clash = self.or(clash, both);
            seen = self.or(seen, l);
        }
        !clash
    }

    pub fn exactly_one(&mut self, lits: &[Lit]) -> Lit {
        let some = self.or_all(lits.iter().copied());
        let amo = self.at_most_one(lits);
        self.and(some, amo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold_and_gates_are_shared() {
        let mut c = Circuit::new();
        let (a, b) = (c.input(), c.input());
        assert_eq!(c.and(a, TRUE), a);
        assert_eq!(c.and(a, FALSE), FALSE);
        assert_eq!(c.and(a, !a), FALSE);
        assert_eq!(c.or(a, !a), TRUE);
        let g = c.and(a, b);
        let before = c.len();
        assert_eq!(c.and(b, a), g);
        assert_eq!(c.len(), before);
        assert_eq!(c.ite(TRUE, a, b), a);
        assert_eq!(c.and_all([]), TRUE);
        assert_eq!(c.or_all([]), FALSE);
    }
}
