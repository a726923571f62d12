//! Exact cardinalities of relation arrows and sequence sets from the sizes of their bases, so that
//! `card(1..n --> 1..3) = 3**n` is decided without enumerating the functions.
//!
//! With |A| = a and |B| = b: `A <-> B` has 2^(ab) members, `A +-> B` (b+1)^a, `A --> B` b^a,
//! `A >-> B` b!/(b-a)!, `A >+> B` sum_k C(a,k) b!/(b-k)!, `A -->> B` the surjections
//! sum_j (-1)^j C(b,j) (b-j)^a, `A +->> B` sum_k C(a,k) surj(k,b), `A >->> B` and `A >+>> B` a! or 0
//! (and sum_k C(a,k) [k = b] b!), `A <<-> B` (2^b-1)^a, `A <->> B` (2^a-1)^b; `perm(S)` n!,
//! `iseq(S)` sum_k n!/(n-k)!, `iseq1(S)` the same less the empty sequence.

use crate::ir::{BinaryOp, UnaryOp};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// The largest base size counted: beyond it the sums and factorials cost more than they are worth.
const MAX_BASE: u64 = 100_000;

/// The number of members of `A op B` (op an arrow) for |A| = a and |B| = b; `None` for an arrow not
/// counted here or bases too large.
pub(super) fn arrow_card(op: BinaryOp, a: u64, b: u64) -> Option<BigInt> {
    if a > MAX_BASE || b > MAX_BASE {
        return None;
    }
    let big = |n: u64| BigInt::from(n);
    let power =
        |base: BigInt, exp: u64| -> Option<BigInt> { Some(base.pow(u32::try_from(exp).ok()?)) };
    Some(match op {
        BinaryOp::Relation => power(big(2), a.checked_mul(b)?)?,
        BinaryOp::PartialFunction => power(big(b + 1), a)?,
        BinaryOp::TotalFunction => power(big(b), a)?,
        BinaryOp::TotalInjection => falling(b, a),
        BinaryOp::PartialInjection => (0..=a.min(b)).map(|k| binomial(a, k) * falling(b, k)).sum(),
        BinaryOp::TotalSurjection => surjections(a, b)?,
        BinaryOp::PartialSurjection => {
            let mut total = BigInt::zero();
            for k in b..=a {
                total += binomial(a, k) * surjections(k, b)?;
            }
            total
        }
        BinaryOp::TotalBijection => {
            if a == b {
                falling(a, a)
            } else {
                BigInt::zero()
            }
        }
        BinaryOp::PartialBijection => {
            if b <= a {
                binomial(a, b) * falling(b, b)
            } else {
                BigInt::zero()
            }
        }
        BinaryOp::TotalRelation => power(power(big(2), b)? - 1, a)?,
        BinaryOp::SurjRelation => power(power(big(2), a)? - 1, b)?,
        _ => return None,
    })
}

/// The number of members of `perm(S)`, `iseq(S)`, `iseq1(S)` for |S| = n; `None` for other sequence
/// sets (seq and seq1 are infinite unless S is empty) or too large a base.
pub(super) fn sequences_card(op: UnaryOp, n: u64) -> Option<BigInt> {
    if n > MAX_BASE {
        return None;
    }
    match op {
        UnaryOp::Perm => Some(falling(n, n)),
        UnaryOp::Iseq | UnaryOp::Iseq1 => {
            let all: BigInt = (0..=n).map(|k| falling(n, k)).sum();
            Some(if op == UnaryOp::Iseq1 { all - 1 } else { all })
        }
        _ => None,
    }
}

/// n (n-1) ... (n-k+1); 0 when k > n.
fn falling(n: u64, k: u64) -> BigInt {
    if k > n {
        return BigInt::zero();
    }
    (n - k + 1..=n).fold(BigInt::one(), |acc, x| acc * x)
}

fn binomial(n: u64, k: u64) -> BigInt {
    if k > n {
        return BigInt::zero();
    }
    let k = k.min(n - k);
    (0..k).fold(BigInt::one(), |acc, i| acc * (n - i) / (i + 1))
}

/// The surjections from an a-set onto a b-set, by inclusion–exclusion.
fn surjections(a: u64, b: u64) -> Option<BigInt> {
    let exp = u32::try_from(a).ok()?;
    let mut total = BigInt::zero();
    for j in 0..=b {
        let term = binomial(b, j) * BigInt::from(b - j).pow(exp);
        if j % 2 == 0 {
            total += term;
        } else {
            total -= term;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    /// Brute force: the relations between an a-set and a b-set with the arrow's properties.
    fn brute(op: BinaryOp, a: u64, b: u64) -> BigInt {
        let props = op.arrow_properties().expect("an arrow");
        let pairs: Vec<(u64, u64)> = (0..a).cartesian_product(0..b).collect();
        let mut count = 0u64;
        for mask in 0u64..(1 << pairs.len()) {
            let rel: Vec<(u64, u64)> = (0..pairs.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| pairs[i])
                .collect();
            let image = |x: u64| rel.iter().filter(|p| p.0 == x).count();
            let preimage = |y: u64| rel.iter().filter(|p| p.1 == y).count();
            let ok = (!props.functional || (0..a).all(|x| image(x) <= 1))
                && (!props.total || (0..a).all(|x| image(x) >= 1))
                && (!props.injective || (0..b).all(|y| preimage(y) <= 1))
                && (!props.surjective || (0..b).all(|y| preimage(y) >= 1));
            count += u64::from(ok);
        }
        BigInt::from(count)
    }

    #[test]
    fn arrow_counts_match_brute_force() {
        use BinaryOp::*;
        for op in [
            Relation,
            TotalRelation,
            SurjRelation,
            PartialFunction,
            TotalFunction,
            PartialInjection,
            TotalInjection,
            PartialSurjection,
            TotalSurjection,
            PartialBijection,
            TotalBijection,
        ] {
            for a in 0..=3 {
                for b in 0..=3 {
                    assert_eq!(
                        arrow_card(op, a, b),
                        Some(brute(op, a, b)),
                        "{op:?} {a} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn sequence_counts() {
        assert_eq!(sequences_card(UnaryOp::Perm, 4), Some(BigInt::from(24)));
        // [], 3 singletons, 6 pairs, 6 triples.
        assert_eq!(sequences_card(UnaryOp::Iseq, 3), Some(BigInt::from(16)));
        assert_eq!(sequences_card(UnaryOp::Iseq1, 3), Some(BigInt::from(15)));
        assert_eq!(sequences_card(UnaryOp::Seq, 3), None);
    }
}
