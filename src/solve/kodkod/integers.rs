//! Integers as two's-complement bit-vectors over the circuit. Every vector carries the range `lo..hi` its
//! value is known to lie in (from the interval analysis for variables, by interval arithmetic for
//! expressions), and every operation computes at a width wide enough for the exact result's range: no
//! overflow and no wraparound can happen (Kodkod's silent overflow, Alloy issues #24/#30/#330, is the bug
//! this avoids). A range that does not fit in 62 bits is refused by the caller as unbounded.

use super::circuit::{Circuit, FALSE, Lit, TRUE};

/// The largest magnitude a range end may have.
pub const LIMIT: i64 = 1 << 40;

#[derive(Clone, Debug, PartialEq)]
pub struct BitVec {
    /// Least significant bit first; the last bit is the sign.
    pub bits: Vec<Lit>,
    pub lo: i64,
    pub hi: i64,
}

/// The width of the narrowest two's-complement vector holding every value of `lo..hi`.
pub fn width(lo: i64, hi: i64) -> usize {
    let mut w = 1;
    while !(-(1i64 << (w - 1)) <= lo && hi < (1i64 << (w - 1))) {
        w += 1;
    }
    w
}

/// Whether `lo..hi` is small enough for bit-vector arithmetic.
pub fn in_limits(lo: i64, hi: i64) -> bool {
    (-LIMIT..=LIMIT).contains(&lo) && (-LIMIT..=LIMIT).contains(&hi)
}

impl BitVec {
    pub fn constant(v: i64) -> BitVec {
        let w = width(v, v);
        BitVec {
            bits: (0..w)
                .map(|i| if (v >> i) & 1 == 1 { TRUE } else { FALSE })
                .collect(),
            lo: v,
            hi: v,
        }
    }

    /// A vector of fresh inputs for the values `lo..hi`, and the condition that it lies in the range.
    pub fn fresh(c: &mut Circuit, lo: i64, hi: i64) -> (BitVec, Lit) {
        Self::fresh_of_width(c, lo, hi, width(lo, hi))
    }

    /// `fresh` with `w` (>= `width(lo, hi)`) bits: vectors of one width for different ranges share
    /// their bits' meaning.
    pub fn fresh_of_width(c: &mut Circuit, lo: i64, hi: i64, w: usize) -> (BitVec, Lit) {
        debug_assert!(w >= width(lo, hi));
        // The range comparisons use the range a vector claims: before the constraint holds, the bits may
        // encode any value of their width.
        let mut v = BitVec {
            bits: (0..w).map(|_| c.input()).collect(),
            lo: -(1i64 << (w - 1)),
            hi: (1i64 << (w - 1)) - 1,
        };
        let above = v.ge_const(c, lo);
        let below = v.le_const(c, hi);
        let inside = c.and(above, below);
        (v.lo, v.hi) = (lo, hi);
        (v, inside)
    }

    /// The same value at width `w` (>= the current width).
    fn extend(&self, w: usize) -> Vec<Lit> {
        let sign = *self.bits.last().expect("a vector has a sign bit");
        let mut bits = self.bits.clone();
        bits.resize(w.max(bits.len()), sign);
        bits
    }

    /// The value under a model, from the values of the bits.
    pub fn value(&self, bit: impl Fn(Lit) -> bool) -> i64 {
        let w = self.bits.len();
        let mut v: i64 = 0;
        for (i, &b) in self.bits.iter().enumerate() {
            if bit(b) {
                if i + 1 == w {
                    v -= 1i64 << i;
                } else {
                    v += 1i64 << i;
                }
            }
        }
        v
    }

    pub fn add(&self, c: &mut Circuit, other: &BitVec) -> BitVec {
        let (lo, hi) = (self.lo + other.lo, self.hi + other.hi);
        let w = width(lo, hi).max(self.bits.len()).max(other.bits.len());
        let bits = add_bits(c, &self.extend(w), &other.extend(w), FALSE);
        BitVec { bits, lo, hi }
    }

    pub fn neg(&self, c: &mut Circuit) -> BitVec {
        let (lo, hi) = (-self.hi, -self.lo);
        let w = width(lo, hi).max(self.bits.len());
        let inverted: Vec<Lit> = self.extend(w).into_iter().map(|b| !b).collect();
        let zero = vec![FALSE; w];
        // -x = !x + 1
        let bits = add_bits(c, &inverted, &zero, TRUE);
        BitVec { bits, lo, hi }
    }

    pub fn sub(&self, c: &mut Circuit, other: &BitVec) -> BitVec {
        let (lo, hi) = (self.lo - other.hi, self.hi - other.lo);
        let w = width(lo, hi).max(self.bits.len()).max(other.bits.len() + 1);
        let inverted: Vec<Lit> = other.extend(w).into_iter().map(|b| !b).collect();
        // a - b = a + !b + 1
        let bits = add_bits(c, &self.extend(w), &inverted, TRUE);
        BitVec { bits, lo, hi }
    }

    pub fn mul(&self, c: &mut Circuit, other: &BitVec) -> BitVec {
        let corners = [
            self.lo * other.lo,
            self.lo * other.hi,
            self.hi * other.lo,
            self.hi * other.hi,
        ];
        let lo = *corners.iter().min().expect("four corners");
        let hi = *corners.iter().max().expect("four corners");
        let w = width(lo, hi).max(self.bits.len()).max(other.bits.len());
        let (a, b) = (self.extend(w), other.extend(w));
        // Modulo 2^w the two's-complement product is the unsigned one, and the exact result fits in w bits.
        let mut acc = vec![FALSE; w];
        for (i, &bi) in b.iter().enumerate() {
            if bi == FALSE {
                continue;
            }
            let shifted: Vec<Lit> = (0..w)
                .map(|j| if j < i { FALSE } else { c.and(bi, a[j - i]) })
                .collect();
            acc = add_bits(c, &acc, &shifted, FALSE);
        }
        BitVec { bits: acc, lo, hi }
    }

    /// `cond ? self : other`.
    pub fn ite(c: &mut Circuit, cond: Lit, a: &BitVec, b: &BitVec) -> BitVec {
        let w = a.bits.len().max(b.bits.len());
        let (x, y) = (a.extend(w), b.extend(w));
        BitVec {
            bits: x.iter().zip(&y).map(|(&p, &q)| c.ite(cond, p, q)).collect(),
            lo: a.lo.min(b.lo),
            hi: a.hi.max(b.hi),
        }
    }

    pub fn eq(&self, c: &mut Circuit, other: &BitVec) -> Lit {
        if self.hi < other.lo || other.hi < self.lo {
            return FALSE;
        }
        let w = self.bits.len().max(other.bits.len());
        let (x, y) = (self.extend(w), other.extend(w));
        let same: Vec<Lit> = x.iter().zip(&y).map(|(&p, &q)| c.iff(p, q)).collect();
        c.and_all(same)
    }

    /// `self < other`: the sign of `self - other`, computed without overflow.
    pub fn lt(&self, c: &mut Circuit, other: &BitVec) -> Lit {
        if self.hi < other.lo {
            return TRUE;
        }
        if self.lo >= other.hi {
            return FALSE;
        }
        let d = self.sub(c, other);
        *d.bits.last().expect("a vector has a sign bit")
    }

    pub fn le(&self, c: &mut Circuit, other: &BitVec) -> Lit {
        !other.lt(c, self)
    }

    pub fn eq_const(&self, c: &mut Circuit, v: i64) -> Lit {
        self.eq(c, &BitVec::constant(v))
    }

    pub fn ge_const(&self, c: &mut Circuit, v: i64) -> Lit {
        !self.lt(c, &BitVec::constant(v))
    }

    pub fn le_const(&self, c: &mut Circuit, v: i64) -> Lit {
        self.le(c, &BitVec::constant(v))
    }

    /// The number of true literals among `lits` (an adder tree), in `0..lits.len()`.
    pub fn count(c: &mut Circuit, lits: &[Lit]) -> BitVec {
        let mut layer: Vec<BitVec> = lits
            .iter()
            .map(|&l| BitVec {
                bits: vec![l, FALSE],
                lo: if l == TRUE { 1 } else { 0 },
                hi: if l == FALSE { 0 } else { 1 },
            })
            .collect();
        if layer.is_empty() {
            return BitVec::constant(0);
        }
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            for pair in layer.chunks(2) {
                next.push(match pair {
                    [a, b] => a.add(c, b),
                    [a] => a.clone(),
                    _ => unreachable!("chunks of two"),
                });
            }
            layer = next;
        }
        layer.pop().expect("one sum left")
    }
}

/// Ripple-carry addition modulo 2^w of equal-width vectors.
fn add_bits(c: &mut Circuit, a: &[Lit], b: &[Lit], carry_in: Lit) -> Vec<Lit> {
    let mut carry = carry_in;
    let mut out = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let xy = c.xor(x, y);
        out.push(c.xor(xy, carry));
        let both = c.and(x, y);
        let prop = c.and(xy, carry);
        carry = c.or(both, prop);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(c: &Circuit, l: Lit, inputs: &[(usize, bool)]) -> bool {
        use super::super::circuit::Node;
        let v = match c.node(l.node()) {
            Node::False => false,
            Node::Input => {
                inputs
                    .iter()
                    .find(|(n, _)| *n == l.node())
                    .expect("input")
                    .1
            }
            Node::And(a, b) => eval(c, a, inputs) && eval(c, b, inputs),
        };
        v != l.is_negated()
    }

    /// Every operation on every pair of values of small ranges, against i64 arithmetic.
    #[test]
    fn operations_are_exact_on_small_ranges() {
        let mut c = Circuit::new();
        let (x, _) = BitVec::fresh(&mut c, -3, 4);
        let (y, _) = BitVec::fresh(&mut c, -2, 5);
        let sum = x.add(&mut c, &y);
        let diff = x.sub(&mut c, &y);
        let prod = x.mul(&mut c, &y);
        let neg = x.neg(&mut c);
        let lt = x.lt(&mut c, &y);
        let eq = x.eq(&mut c, &y);
        let n = BitVec::count(&mut c, &[x.bits[0], y.bits[0], TRUE]);
        for a in -3..=4i64 {
            for b in -2..=5i64 {
                let mut inputs = Vec::new();
                for (v, value) in [(&x, a), (&y, b)] {
                    for (i, bit) in v.bits.iter().enumerate() {
                        inputs.push((bit.node(), (value >> i) & 1 == 1));
                    }
                }
                let val = |v: &BitVec| v.value(|l| eval(&c, l, &inputs));
                assert_eq!(val(&sum), a + b);
                assert_eq!(val(&diff), a - b);
                assert_eq!(val(&prod), a * b);
                assert_eq!(val(&neg), -a);
                assert_eq!(eval(&c, lt, &inputs), a < b);
                assert_eq!(eval(&c, eq, &inputs), a == b);
                assert_eq!(val(&n), (a & 1) + (b & 1) + 1);
                assert!(sum.lo <= a + b && a + b <= sum.hi);
            }
        }
    }

    #[test]
    fn a_fresh_vector_is_constrained_to_its_range() {
        let mut c = Circuit::new();
        let (x, inside) = BitVec::fresh(&mut c, 1, 10);
        for pattern in 0..32i64 {
            let inputs: Vec<(usize, bool)> = x
                .bits
                .iter()
                .enumerate()
                .map(|(i, b)| (b.node(), (pattern >> i) & 1 == 1))
                .collect();
            let v = x.value(|l| eval(&c, l, &inputs));
            assert_eq!(eval(&c, inside, &inputs), (1..=10).contains(&v), "{v}");
        }
    }

    #[test]
    fn widths_hold_their_ranges() {
        assert_eq!(width(0, 0), 1);
        assert_eq!(width(-1, 0), 1);
        assert_eq!(width(0, 1), 2);
        assert_eq!(width(-4, 3), 3);
        assert_eq!(width(-5, 3), 4);
    }
}
