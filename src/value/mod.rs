//! The one representation of B data outside a backend.
//!
//! Values are canonical — sets are sorted and free of duplicates, records have their fields sorted by name,
//! integers are `Small` whenever they fit in an `i64` — so the derived `Eq`, `Ord` and `Hash` are B equality
//! and a total order. Big parts are behind `Arc`, so cloning a value is cheap and values can cross threads.
//! Infinite or lazily kept sets (INTEGER, `%x.(x:NATURAL|..)`, big intervals) are *not* `Value`s: the
//! interpreter keeps them as `eval::SymbolicSet` and turns them into values only when they are finite.

use num_bigint::BigInt;
use std::sync::Arc;

pub mod display;
pub mod int;
pub mod set;

pub use int::Int;

/// An element of a given set: the set's name, its 0-based index (element order), and its print name
/// (`green` for enumerated sets, `PID1` for deferred sets). Equality and order use the set name and index only.
#[derive(Clone, Debug)]
pub struct Element {
    pub set: Arc<str>,
    pub index: u32,
    pub name: Arc<str>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Int(Int),
    Bool(bool),
    Str(Arc<str>),
    Elem(Arc<Element>),
    Pair(Arc<(Value, Value)>),
    /// A finite set: sorted, no duplicates.
    Set(Arc<Vec<Value>>),
    /// A record: fields sorted by name.
    Record(Arc<Vec<(Arc<str>, Value)>>),
}

impl PartialEq for Element {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.set == other.set
    }
}
impl Eq for Element {}
impl PartialOrd for Element {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Element {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Elements of one set share their set's name: no string comparison then (sorted sets of elements
        // are searched by this order everywhere).
        if Arc::ptr_eq(&self.set, &other.set) {
            return self.index.cmp(&other.index);
        }
        (&self.set, self.index).cmp(&(&other.set, other.index))
    }
}
/// The index alone: consistent with equality (equal elements have equal indices), and hashing the set's
/// name would hash a string per element of every state the model checker stores. Elements of different
/// sets are rarely mixed where hashes collide: a state's variables are typed.
impl std::hash::Hash for Element {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl Value {
    pub fn int(i: i64) -> Value {
        Value::Int(Int::Small(i))
    }
    pub fn big(i: BigInt) -> Value {
        Value::Int(Int::from(i))
    }
    pub fn pair(a: Value, b: Value) -> Value {
        Value::Pair(Arc::new((a, b)))
    }
    pub fn empty_set() -> Value {
        Value::Set(Arc::new(Vec::new()))
    }
}
