//! Exact integers with a fast small-int path.
//!
//! Every operation tries `i64` arithmetic first (overflow-checked) and falls back to `BigInt`; results are
//! always canonical (`Small` whenever they fit), so the derived `Eq`/`Hash` are numeric equality. The order is
//! written by hand because a derived one would put every `Small` before every `Big` regardless of sign.
//!
//! Division truncates toward zero (`-7 / 2 = -3`, as ProB and Atelier B). `mod` is *floored*
//! (`-7 mod 2 = 1`): B only defines `a mod b` for `a >= 0, b > 0`, where both conventions agree, and ProB
//! computes the floored remainder for the other cases; a zero divisor is a well-definedness error.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive};
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// A B integer: `Small` whenever the value fits in an `i64` (canonical), `Big` otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    Big(Arc<BigInt>),
}

impl From<BigInt> for Int {
    fn from(b: BigInt) -> Int {
        match i64::try_from(&b) {
            Ok(i) => Int::Small(i),
            Err(_) => Int::Big(Arc::new(b)),
        }
    }
}

impl From<&BigInt> for Int {
    fn from(b: &BigInt) -> Int {
        match i64::try_from(b) {
            Ok(i) => Int::Small(i),
            Err(_) => Int::Big(Arc::new(b.clone())),
        }
    }
}

impl From<i64> for Int {
    fn from(i: i64) -> Int {
        Int::Small(i)
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.to_bigint().cmp(&other.to_bigint()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(i) => write!(f, "{i}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl Int {
    pub fn zero() -> Int {
        Int::Small(0)
    }

    pub fn to_bigint(&self) -> BigInt {
        match self {
            Int::Small(i) => BigInt::from(*i),
            Int::Big(b) => (**b).clone(),
        }
    }

    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small(i) => Some(*i),
            Int::Big(_) => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }

    pub fn is_negative(&self) -> bool {
        match self {
            Int::Small(i) => *i < 0,
            Int::Big(b) => b.is_negative(),
        }
    }

    fn small_or(
        &self,
        other: &Int,
        fast: impl Fn(i64, i64) -> Option<i64>,
        slow: impl Fn(BigInt, BigInt) -> BigInt,
    ) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, other)
            && let Some(r) = fast(*a, *b)
        {
            return Int::Small(r);
        }
        Int::from(slow(self.to_bigint(), other.to_bigint()))
    }

    pub fn add(&self, other: &Int) -> Int {
        self.small_or(other, i64::checked_add, |a, b| a + b)
    }

    pub fn sub(&self, other: &Int) -> Int {
        self.small_or(other, i64::checked_sub, |a, b| a - b)
    }

    pub fn mul(&self, other: &Int) -> Int {
        self.small_or(other, i64::checked_mul, |a, b| a * b)
    }

    pub fn neg(&self) -> Int {
        match self {
            Int::Small(i) if *i != i64::MIN => Int::Small(-i),
            _ => Int::from(-self.to_bigint()),
        }
    }

    /// Division truncating toward zero; `None` when dividing by zero.
    pub fn div(&self, other: &Int) -> Option<Int> {
        if other.is_zero() {
            return None;
        }
        Some(self.small_or(other, i64::checked_div, |a, b| a / b))
    }

    /// Floored remainder (sign of the divisor); `None` when the divisor is zero.
    pub fn modulo(&self, other: &Int) -> Option<Int> {
        if other.is_zero() {
            return None;
        }
        Some(self.small_or(
            other,
            |a, b| {
                a.checked_rem_euclid(b)
                    .map(|r| if r != 0 && b < 0 { r + b } else { r })
            },
            |a, b| a.mod_floor(&b),
        ))
    }

    /// `self ** exp` for a non-negative exponent that fits in `u32`.
    pub fn pow(&self, exp: u32) -> Int {
        if let Int::Small(a) = self
            && let Some(r) = a.checked_pow(exp)
        {
            return Int::Small(r);
        }
        Int::from(num_traits::pow(self.to_bigint(), exp as usize))
    }

    pub fn succ(&self) -> Int {
        self.add(&Int::Small(1))
    }

    pub fn pred(&self) -> Int {
        self.sub(&Int::Small(1))
    }

    /// The value as a `usize` when it is non-negative and fits.
    pub fn to_usize(&self) -> Option<usize> {
        match self {
            Int::Small(i) => usize::try_from(*i).ok(),
            Int::Big(b) => b.to_usize(),
        }
    }

    pub fn to_u32(&self) -> Option<u32> {
        match self {
            Int::Small(i) => u32::try_from(*i).ok(),
            Int::Big(b) => b.to_u32(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> Int {
        Int::from(s.parse::<BigInt>().expect("test literal"))
    }

    #[test]
    fn order_is_numeric_across_representations() {
        let huge_neg = big("-100000000000000000000");
        let huge_pos = big("100000000000000000000");
        assert!(huge_neg < Int::Small(-5));
        assert!(Int::Small(5) < huge_pos);
        assert!(huge_neg < huge_pos);
        let mut v = vec![huge_pos.clone(), Int::Small(0), huge_neg.clone()];
        v.sort();
        assert_eq!(v, vec![huge_neg, Int::Small(0), huge_pos]);
    }

    #[test]
    fn overflow_falls_back_to_big_and_back() {
        let m = Int::Small(i64::MAX);
        let s = m.add(&Int::Small(1));
        assert_eq!(s, big("9223372036854775808"));
        assert!(matches!(s, Int::Big(_)));
        let back = s.sub(&Int::Small(1));
        assert_eq!(back, Int::Small(i64::MAX));
        assert!(matches!(back, Int::Small(_)));
        assert_eq!(
            Int::Small(i64::MIN).neg(),
            big("9223372036854775808"),
            "negating MIN overflows"
        );
        assert_eq!(
            Int::Small(1 << 40).mul(&Int::Small(1 << 40)),
            big("1208925819614629174706176")
        );
        assert_eq!(
            Int::Small(2).pow(100),
            big("1267650600228229401496703205376")
        );
        assert_eq!(Int::Small(-3).pow(3), Int::Small(-27));
        assert_eq!(Int::Small(7).pow(0), Int::Small(1));
    }

    #[test]
    fn division_truncates_and_mod_is_floored() {
        let d = |a: i64, b: i64| Int::Small(a).div(&Int::Small(b));
        let m = |a: i64, b: i64| Int::Small(a).modulo(&Int::Small(b));
        assert_eq!(d(7, 2), Some(Int::Small(3)));
        assert_eq!(d(-7, 2), Some(Int::Small(-3)));
        assert_eq!(d(7, -2), Some(Int::Small(-3)));
        assert_eq!(d(-7, -2), Some(Int::Small(3)));
        assert_eq!(d(1, 0), None);
        assert_eq!(d(i64::MIN, -1), Some(big("9223372036854775808")));
        assert_eq!(m(7, 2), Some(Int::Small(1)));
        assert_eq!(m(-7, 2), Some(Int::Small(1)));
        assert_eq!(m(7, -2), Some(Int::Small(-1)));
        assert_eq!(m(-7, -2), Some(Int::Small(-1)));
        assert_eq!(m(6, 3), Some(Int::Small(0)));
        assert_eq!(m(1, 0), None);
        assert_eq!(
            big("-100000000000000000001").modulo(&Int::Small(10)),
            Some(Int::Small(9))
        );
        assert_eq!(
            big("-100000000000000000001").div(&Int::Small(10)),
            Some(big("-10000000000000000000"))
        );
    }
}
