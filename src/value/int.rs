//! Exact integers with a fast small-int path.

use num_bigint::BigInt;
use std::sync::Arc;

/// A B integer: `Small` whenever the value fits in an `i64` (canonical), `Big` otherwise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
