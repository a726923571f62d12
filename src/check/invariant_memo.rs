//! Invariant conjuncts remembered by the values they read.
//!
//! A conjunct's truth depends only on the constants and on the variables it mentions, and a state
//! space usually holds each combination of those values many times: SetLawsNat's 32,768 states have
//! only 32 values of `SS`, yet its set laws over `SS` alone were evaluated in every state whose `SS`
//! differed from its predecessor's. LTSmin caches the next-state function on a transition group's
//! read projection (short vectors); this is the same idea applied to state labels, the invariant's
//! conjuncts, with the read sets the model checker already computes (`Explorer::invariant_reads`).
//!
//! Remembering costs a projection, a hash and a lookup, more than a membership test such as
//! `x : 0..4` costs to evaluate; a conjunct's evaluations are therefore timed, a few in every
//! `WINDOW`, and a conjunct is remembered once their mean exceeds `MIN_COST`. Timing only the first
//! ones would not do: the first states are the small ones (`POW(SS)` with `SS = {}` is cheap, with six
//! elements it is not). Memory is bounded by a total number of entries, after which values are still
//! looked up but no longer added.
//!
//! Remembering pays only when read values repeat; a conjunct whose lookups mostly miss
//! is dropped after a `WINDOW` of lookups with fewer than a quarter hits, its entries freed.

use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How many evaluations of a conjunct are timed, at the start of every `WINDOW` evaluations, before
/// deciding whether to remember it.
const PROBES: u32 = 16;
const WINDOW: u32 = 1024;
/// The mean evaluation time from which a conjunct is worth remembering. A lookup costs far less, but
/// with two workers the projections' reference counts and the lock are shared: at 2 µs, SetRelLaws'
/// set laws were remembered and its exploration took 80 s instead of 68 s without any memo.
const MIN_COST: Duration = Duration::from_micros(20);
/// The most entries remembered over all conjuncts (each a key of shared values and a flag).
const MAX_ENTRIES: usize = 1 << 20;

const EVALUATED: u8 = 0;
const REMEMBERED: u8 = 1;
/// Remembered, then found to miss too often: evaluated from then on.
const DROPPED: u8 = 2;

/// Per conjunct: its values by setup and read variables' values, and whether they are remembered.
#[derive(Default)]
struct Conjunct {
    mode: AtomicU8,
    /// Evaluations while not remembered, and the time the current window's probes took.
    evaluations: AtomicU32,
    probe_nanos: AtomicU64,
    /// Lookups while remembered, and the hits among the current window's.
    lookups: AtomicU32,
    hits: AtomicU32,
    values: Mutex<FxHashMap<(u32, Vec<Value>), bool>>,
}

#[derive(Default)]
pub(crate) struct InvariantMemo {
    conjuncts: Vec<Conjunct>,
    entries: AtomicUsize,
}

impl InvariantMemo {
    pub(crate) fn new(conjuncts: usize) -> InvariantMemo {
        InvariantMemo {
            conjuncts: (0..conjuncts).map(|_| Conjunct::default()).collect(),
            entries: AtomicUsize::new(0),
        }
    }

    /// The value of conjunct `k` in a state of `setup` whose variables are `vars` (`reads`: the indices
    /// of those it mentions): remembered, or computed by `eval`. Errors (ill-defined, timeout) are
    /// never remembered.
    pub(crate) fn value<E>(
        &self,
        k: usize,
        setup: u32,
        reads: &[usize],
        vars: &[Value],
        eval: impl FnOnce() -> Result<bool, E>,
    ) -> Result<bool, E> {
        let c = &self.conjuncts[k];
        match c.mode.load(Ordering::Relaxed) {
            DROPPED => eval(),
            EVALUATED => {
                // Concurrent workers may blur a window's sum a little: it only steers a heuristic.
                let n = c.evaluations.fetch_add(1, Ordering::Relaxed) % WINDOW;
                if n >= PROBES {
                    return eval();
                }
                let start = Instant::now();
                let value = eval()?;
                let nanos = start.elapsed().as_nanos() as u64;
                let total = c.probe_nanos.fetch_add(nanos, Ordering::Relaxed) + nanos;
                if n == PROBES - 1 {
                    c.probe_nanos.store(0, Ordering::Relaxed);
                    if Duration::from_nanos(total / u64::from(PROBES)) >= MIN_COST {
                        c.mode.store(REMEMBERED, Ordering::Relaxed);
                    }
                }
                Ok(value)
            }
            _ => {
                let key = (setup, reads.iter().map(|&i| vars[i].clone()).collect());
                let found = c.values.lock().expect("memo lock").get(&key).copied();
                self.count_lookup(c, found.is_some());
                if let Some(value) = found {
                    return Ok(value);
                }
                let value = eval()?;
                if self.entries.load(Ordering::Relaxed) < MAX_ENTRIES
                    && c.mode.load(Ordering::Relaxed) == REMEMBERED
                    && c.values
                        .lock()
                        .expect("memo lock")
                        .insert(key, value)
                        .is_none()
                {
                    self.entries.fetch_add(1, Ordering::Relaxed);
                }
                Ok(value)
            }
        }
    }

    /// Counts a lookup of a remembered conjunct; at the end of a window with fewer than a quarter
    /// hits, drops the conjunct and frees its entries.
    fn count_lookup(&self, c: &Conjunct, hit: bool) {
        if hit {
            c.hits.fetch_add(1, Ordering::Relaxed);
        }
        if c.lookups.fetch_add(1, Ordering::Relaxed) % WINDOW != WINDOW - 1 {
            return;
        }
        if c.hits.swap(0, Ordering::Relaxed) < WINDOW / 4 {
            c.mode.store(DROPPED, Ordering::Relaxed);
            let mut values = c.values.lock().expect("memo lock");
            self.entries.fetch_sub(values.len(), Ordering::Relaxed);
            *values = FxHashMap::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn an_expensive_conjunct_is_evaluated_once_per_read_values() {
        let memo = InvariantMemo::new(1);
        let evaluations = Cell::new(0);
        let slow = |x: i64| {
            evaluations.set(evaluations.get() + 1);
            std::thread::sleep(MIN_COST * 2);
            Ok::<_, ()>(x % 2 == 0)
        };
        // Variable 1 is read, variable 0 is not: states differing only in variable 0 share a value.
        let state = |a: i64, b: i64| vec![Value::int(a), Value::int(b)];
        for round in 0..3 {
            for b in 0..PROBES as i64 {
                let value = memo.value(0, 0, &[1], &state(round, b), || slow(b));
                assert_eq!(value, Ok(b % 2 == 0));
            }
        }
        // The probes, then one evaluation per value of variable 1; the third round is all remembered.
        assert_eq!(evaluations.get(), 2 * PROBES);
        // Another setup is another key.
        memo.value(0, 1, &[1], &state(0, 0), || slow(0)).unwrap();
        assert_eq!(evaluations.get(), 2 * PROBES + 1);
    }

    #[test]
    fn a_conjunct_cheap_in_the_first_states_is_remembered_once_it_is_not() {
        let memo = InvariantMemo::new(1);
        let evaluations = Cell::new(0);
        // Variable 1 is not read.
        let vars = vec![Value::int(7), Value::int(1)];
        let value = |slow: bool| {
            memo.value(0, 0, &[0], &vars, || {
                evaluations.set(evaluations.get() + 1);
                if slow {
                    std::thread::sleep(MIN_COST * 2);
                }
                Ok::<_, ()>(true)
            })
        };
        for _ in 0..WINDOW {
            value(false).unwrap();
        }
        // The next window's probes are slow: from then on the value is remembered.
        for _ in 0..PROBES + 1 {
            value(true).unwrap();
        }
        let before = evaluations.get();
        for _ in 0..10 {
            value(true).unwrap();
        }
        assert_eq!(evaluations.get(), before);
        assert_eq!(before, WINDOW + PROBES + 1);
    }

    #[test]
    fn a_remembered_conjunct_whose_lookups_miss_is_dropped() {
        let memo = InvariantMemo::new(1);
        memo.conjuncts[0].mode.store(REMEMBERED, Ordering::Relaxed);
        // Every state reads a new value of variable 0.
        for x in 0..WINDOW as i64 {
            let vars = vec![Value::int(x), Value::int(0)];
            memo.value(0, 0, &[0], &vars, || Ok::<_, ()>(true)).unwrap();
        }
        assert_eq!(memo.conjuncts[0].mode.load(Ordering::Relaxed), DROPPED);
        assert_eq!(memo.entries.load(Ordering::Relaxed), 0);
        // A conjunct whose read values repeat stays remembered.
        let memo = InvariantMemo::new(1);
        memo.conjuncts[0].mode.store(REMEMBERED, Ordering::Relaxed);
        for x in 0..WINDOW as i64 {
            let vars = vec![Value::int(x % 8), Value::int(x)];
            memo.value(0, 0, &[0], &vars, || Ok::<_, ()>(true)).unwrap();
        }
        assert_eq!(memo.conjuncts[0].mode.load(Ordering::Relaxed), REMEMBERED);
        assert_eq!(memo.entries.load(Ordering::Relaxed), 8);
    }

    #[test]
    fn a_cheap_conjunct_is_always_evaluated_and_errors_are_not_remembered() {
        let memo = InvariantMemo::new(1);
        let evaluations = Cell::new(0);
        let vars = vec![Value::int(0), Value::int(1)];
        for _ in 0..2 * PROBES {
            let v = memo.value(0, 0, &[0], &vars, || {
                evaluations.set(evaluations.get() + 1);
                Ok::<_, ()>(true)
            });
            assert_eq!(v, Ok(true));
        }
        assert_eq!(evaluations.get(), 2 * PROBES);
        let memo = InvariantMemo::new(1);
        memo.conjuncts[0].mode.store(REMEMBERED, Ordering::Relaxed);
        assert_eq!(
            memo.value(0, 0, &[0], &vars, || Err::<bool, _>("ill")),
            Err("ill")
        );
        assert_eq!(
            memo.value(0, 0, &[0], &vars, || Ok::<_, ()>(false)),
            Ok(false)
        );
    }
}
