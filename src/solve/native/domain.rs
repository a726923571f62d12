//! Domains of the solver's atomic variables: a finite sorted set of candidate values, or an integer
//! interval whose ends may be open (an unbounded INTEGER the propagation has not bounded yet).
//!
//! Domains are persistent (`Arc`-shared candidate lists), so saving the whole domain vector at a choice
//! point costs one reference-count increment per atom; narrowing allocates a new list.

use crate::value::{Int, Value};
use std::sync::Arc;

/// Intervals at most this wide become explicit candidate lists (so that holes can be punched).
const EXPLICIT_RANGE: u64 = 4096;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Dom {
    /// Sorted, duplicate-free candidates.
    Finite(Arc<Vec<Value>>),
    /// The integers `lo..hi`; `None` is an open end.
    Range(Option<Int>, Option<Int>),
    /// Candidates not known before labelling (found then from the constraints, as the oracle does).
    Any,
}

impl Dom {
    pub(crate) fn finite(mut values: Vec<Value>) -> Dom {
        values.sort();
        values.dedup();
        Dom::Finite(Arc::new(values))
    }

    /// The interval `lo..hi`, explicit when it is small.
    pub(crate) fn range(lo: Option<Int>, hi: Option<Int>) -> Dom {
        if let (Some(l), Some(h)) = (&lo, &hi) {
            if h < l {
                return Dom::Finite(Arc::new(Vec::new()));
            }
            if h.sub(l)
                .to_i64()
                .is_some_and(|w| (w as u64) < EXPLICIT_RANGE)
            {
                return match Value::interval(l, h) {
                    Value::Set(items) => Dom::Finite(items),
                    _ => Dom::Range(lo, hi),
                };
            }
        }
        Dom::Range(lo, hi)
    }

    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Dom::Finite(v) if v.is_empty())
    }

    /// The single value, when the domain has exactly one.
    pub(crate) fn fixed(&self) -> Option<&Value> {
        match self {
            Dom::Finite(v) if v.len() == 1 => v.first(),
            _ => None,
        }
    }

    /// The number of candidates (`u64::MAX` for an open or huge interval).
    pub(crate) fn size(&self) -> u64 {
        match self {
            Dom::Finite(v) => v.len() as u64,
            Dom::Range(Some(l), Some(h)) => h
                .sub(l)
                .to_i64()
                .map_or(u64::MAX, |w| (w as u64).saturating_add(1)),
            Dom::Range(..) | Dom::Any => u64::MAX,
        }
    }

    pub(crate) fn contains(&self, x: &Value) -> bool {
        match self {
            Dom::Finite(v) => v.binary_search(x).is_ok(),
            Dom::Range(lo, hi) => match x.as_int() {
                Some(i) => lo.as_ref().is_none_or(|l| l <= i) && hi.as_ref().is_none_or(|h| i <= h),
                None => false,
            },
            Dom::Any => true,
        }
    }

    /// Integer bounds of the domain (`None` = open), when it holds integers.
    pub(crate) fn int_bounds(&self) -> Option<(Option<Int>, Option<Int>)> {
        match self {
            Dom::Range(lo, hi) => Some((lo.clone(), hi.clone())),
            Dom::Any => None,
            Dom::Finite(v) => {
                let lo = v.first()?.as_int()?.clone();
                let hi = v.last()?.as_int()?.clone();
                Some((Some(lo), Some(hi)))
            }
        }
    }

    /// The domain restricted to `lo..hi`; `None` when nothing changes.
    pub(crate) fn restrict_ints(&self, lo: Option<&Int>, hi: Option<&Int>) -> Option<Dom> {
        match self {
            Dom::Finite(v) => {
                let keep: Vec<Value> = v
                    .iter()
                    .filter(|x| match x.as_int() {
                        Some(i) => lo.is_none_or(|l| l <= i) && hi.is_none_or(|h| i <= h),
                        None => true,
                    })
                    .cloned()
                    .collect();
                (keep.len() != v.len()).then(|| Dom::Finite(Arc::new(keep)))
            }
            Dom::Range(l, h) => {
                let new_lo = max_opt(l.as_ref(), lo);
                let new_hi = min_opt(h.as_ref(), hi);
                if new_lo == l.as_ref() && new_hi == h.as_ref() {
                    None
                } else {
                    Some(Dom::range(new_lo.cloned(), new_hi.cloned()))
                }
            }
            Dom::Any => None,
        }
    }

    /// The domain keeping only the candidates for which `keep` holds (finite domains only).
    pub(crate) fn retain(&self, mut keep: impl FnMut(&Value) -> bool) -> Option<Dom> {
        match self {
            Dom::Finite(v) => {
                let kept: Vec<Value> = v.iter().filter(|x| keep(x)).cloned().collect();
                (kept.len() != v.len()).then(|| Dom::Finite(Arc::new(kept)))
            }
            Dom::Range(..) | Dom::Any => None,
        }
    }

    /// The candidates, for a finite domain.
    pub(crate) fn values(&self) -> Option<&Arc<Vec<Value>>> {
        match self {
            Dom::Finite(v) => Some(v),
            Dom::Range(..) | Dom::Any => None,
        }
    }
}

fn max_opt<'a>(a: Option<&'a Int>, b: Option<&'a Int>) -> Option<&'a Int> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if x >= y { x } else { y }),
        (x, None) => x,
        (None, y) => y,
    }
}

fn min_opt<'a>(a: Option<&'a Int>, b: Option<&'a Int>) -> Option<&'a Int> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if x <= y { x } else { y }),
        (x, None) => x,
        (None, y) => y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Int {
        Int::from(i)
    }

    #[test]
    fn small_ranges_become_explicit_and_large_ones_stay_intervals() {
        let d = Dom::range(Some(int(1)), Some(int(3)));
        assert_eq!(d.size(), 3);
        assert!(d.values().is_some());
        let big = Dom::range(Some(int(0)), Some(int(1_000_000)));
        assert_eq!(big.size(), 1_000_001);
        assert!(big.values().is_none());
        assert!(Dom::range(Some(int(2)), Some(int(1))).is_empty());
        assert_eq!(Dom::range(None, Some(int(5))).size(), u64::MAX);
    }

    #[test]
    fn restricting_narrows_and_reports_no_change() {
        let d = Dom::range(None, None);
        let r = d.restrict_ints(Some(&int(0)), Some(&int(9))).unwrap();
        assert_eq!(r.size(), 10);
        assert!(r.restrict_ints(Some(&int(0)), None).is_none());
        let r2 = r.restrict_ints(Some(&int(5)), Some(&int(4))).unwrap();
        assert!(r2.is_empty());
        let odd = r.retain(|v| {
            v.as_int()
                .and_then(|i| i.to_i64())
                .is_some_and(|i| i % 2 == 1)
        });
        assert_eq!(odd.unwrap().size(), 5);
    }
}
