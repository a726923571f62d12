//! Equations in one integer unknown whose sides are polynomials in it: `2 * c + 1 = 7`, `x * x * x =
//! 27000`, `f(f(x)) = 134217728` with `f = %x.(x : INTEGER | x * x * x)`, `f(0) * f(2) = 120` with
//! `f = %x.(x : INTEGER | x + c)`. Their integer solutions are computed exactly (ProB's CLP(FD) finds them
//! by propagation), so that a quantifier or comprehension over INTEGER that such an equation pins down is
//! decided without enumerating INTEGER. A polynomial whose integer roots cannot be found exactly (a
//! coefficient too large to factor) has no answer (`None`), never a guess.

use crate::value::Int;

/// The highest degree kept: `x ** 64` is still a polynomial, `x ** 1000` is not worth expanding.
const MAX_DEGREE: usize = 64;

/// The largest constant coefficient whose divisors are listed by trial division (a million steps).
const MAX_FACTORED: i64 = 1_000_000_000_000;

/// A polynomial in one unknown with integer coefficients, lowest degree first, without trailing zeros
/// (the zero polynomial has none).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Polynomial(Vec<Int>);

impl Polynomial {
    pub fn constant(c: Int) -> Polynomial {
        Polynomial(vec![c]).trimmed()
    }

    /// The unknown itself.
    pub fn unknown() -> Polynomial {
        Polynomial(vec![Int::zero(), Int::Small(1)])
    }

    fn trimmed(mut self) -> Polynomial {
        while self.0.last().is_some_and(Int::is_zero) {
            self.0.pop();
        }
        self
    }

    fn coefficient(&self, k: usize) -> Int {
        self.0.get(k).cloned().unwrap_or_else(Int::zero)
    }

    /// Whether the unknown does not occur (also for the zero polynomial).
    pub fn is_constant(&self) -> bool {
        self.0.len() <= 1
    }

    pub fn add(&self, other: &Polynomial) -> Polynomial {
        let n = self.0.len().max(other.0.len());
        Polynomial(
            (0..n)
                .map(|k| self.coefficient(k).add(&other.coefficient(k)))
                .collect(),
        )
        .trimmed()
    }

    pub fn neg(&self) -> Polynomial {
        Polynomial(self.0.iter().map(Int::neg).collect())
    }

    pub fn sub(&self, other: &Polynomial) -> Polynomial {
        self.add(&other.neg())
    }

    /// The product; None beyond `MAX_DEGREE`.
    pub fn mul(&self, other: &Polynomial) -> Option<Polynomial> {
        if self.0.is_empty() || other.0.is_empty() {
            return Some(Polynomial(Vec::new()));
        }
        let degree = (self.0.len() - 1) + (other.0.len() - 1);
        if degree > MAX_DEGREE {
            return None;
        }
        let mut out = vec![Int::zero(); degree + 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in other.0.iter().enumerate() {
                out[i + j] = out[i + j].add(&a.mul(b));
            }
        }
        Some(Polynomial(out).trimmed())
    }

    /// `self ** exponent`; None beyond `MAX_DEGREE`.
    pub fn pow(&self, exponent: u32) -> Option<Polynomial> {
        let mut acc = Polynomial::constant(Int::Small(1));
        for _ in 0..exponent {
            acc = acc.mul(self)?;
        }
        Some(acc)
    }

    fn at(&self, x: &Int) -> Int {
        self.0
            .iter()
            .rev()
            .fold(Int::zero(), |acc, c| acc.mul(x).add(c))
    }

    /// The integers at which the polynomial is zero, in increasing order; None when every integer is
    /// one (the zero polynomial) or the roots cannot be found exactly. A non-zero root of
    /// `x^k * (a_k + a_(k+1) x + ...)` divides `a_k`, so the divisors of `a_k` are the candidates.
    pub fn integer_roots(&self) -> Option<Vec<Int>> {
        let k = self.0.iter().position(|c| !c.is_zero())?;
        let rest = Polynomial(self.0[k..].to_vec());
        let mut roots = Vec::new();
        if k > 0 {
            roots.push(Int::zero());
        }
        match rest.0.len() {
            1 => {}
            2 => {
                // a + b x = 0.
                let (a, b) = (&rest.0[0], &rest.0[1]);
                if a.modulo(b).is_some_and(|r| r.is_zero()) {
                    roots.extend(a.neg().div(b));
                }
            }
            _ => {
                let lowest = rest.0[0]
                    .to_i64()
                    .filter(|c| c.unsigned_abs() <= MAX_FACTORED as u64)?;
                for d in divisors(lowest.unsigned_abs()) {
                    for x in [Int::Small(d as i64), Int::Small(-(d as i64))] {
                        if rest.at(&x).is_zero() {
                            roots.push(x);
                        }
                    }
                }
            }
        }
        roots.sort();
        roots.dedup();
        Some(roots)
    }
}

/// The positive divisors of `n > 0`, by trial division up to its square root.
fn divisors(n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut d = 1u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            out.push(d);
            if d * d != n {
                out.push(n / d);
            }
        }
        d += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(coefficients: &[i64]) -> Polynomial {
        Polynomial(coefficients.iter().map(|&c| Int::Small(c)).collect()).trimmed()
    }

    fn roots(coefficients: &[i64]) -> Option<Vec<i64>> {
        poly(coefficients)
            .integer_roots()
            .map(|r| r.iter().map(|x| x.to_i64().expect("small root")).collect())
    }

    #[test]
    fn integer_roots_are_exact() {
        // 8x - 1000 (f(f(f(x))) = 1000 with f = %x.(x : INTEGER | x + x)).
        assert_eq!(roots(&[-1000, 8]), Some(vec![125]));
        assert_eq!(roots(&[-7, 2]), Some(vec![]));
        // x^3 - 27000, x^2 + 2x - 120, x^2 - 10000, x^3 - x.
        assert_eq!(roots(&[-27000, 0, 0, 1]), Some(vec![30]));
        assert_eq!(roots(&[-120, 2, 1]), Some(vec![-12, 10]));
        assert_eq!(roots(&[-10000, 0, 1]), Some(vec![-100, 100]));
        assert_eq!(roots(&[0, -1, 0, 1]), Some(vec![-1, 0, 1]));
        // x^2 + 1 has no integer root; a non-zero constant none; the zero polynomial every integer.
        assert_eq!(roots(&[1, 0, 1]), Some(vec![]));
        assert_eq!(roots(&[5]), Some(vec![]));
        assert_eq!(roots(&[]), None);
        assert_eq!(roots(&[0, 0]), None);
    }

    #[test]
    fn composition_by_powers_and_products() {
        // (x^3)^3 = x^9: its root at 2^27 is 8.
        let cube = Polynomial::unknown().pow(3).expect("small degree");
        let ninth = cube.pow(3).expect("small degree");
        let equation = ninth.sub(&Polynomial::constant(Int::Small(134_217_728)));
        assert_eq!(equation.integer_roots(), Some(vec![Int::Small(8)]));
        assert_eq!(Polynomial::unknown().pow(65), None);
        // A constant coefficient too large to factor: no answer rather than a guess.
        let big = Polynomial::unknown()
            .pow(2)
            .expect("small degree")
            .sub(&Polynomial::constant(Int::Small(i64::MAX)));
        assert_eq!(big.integer_roots(), None);
    }
}
