//! State vectors: a state as a tuple of `u32`s, slot 0 the constant setup's index, slot 1 + i the
//! interned value of variable i (each slot numbers the values it meets in the order met). The LDDs only
//! ever see these numbers; the interpreter only ever sees the values.

use crate::value::Value;
use rustc_hash::FxHashMap;

/// The slot holding the constant setup's index.
pub const SETUP_SLOT: u32 = 0;

/// The slot of variable `i` (in `machine.variables` order).
pub fn variable_slot(i: usize) -> u32 {
    i as u32 + 1
}

/// Per variable, its values and their numbers.
pub struct Interner {
    numbers: Vec<FxHashMap<Value, u32>>,
    values: Vec<Vec<Value>>,
}

impl Interner {
    pub fn new(variables: usize) -> Interner {
        Interner {
            numbers: vec![FxHashMap::default(); variables],
            values: vec![Vec::new(); variables],
        }
    }

    /// The number of variable `i`'s `value`, given one if new.
    pub fn number(&mut self, i: usize, value: &Value) -> u32 {
        if let Some(&n) = self.numbers[i].get(value) {
            return n;
        }
        let n = self.values[i].len() as u32;
        self.values[i].push(value.clone());
        self.numbers[i].insert(value.clone(), n);
        n
    }

    /// The value numbered `n` of variable `i`.
    pub fn value(&self, i: usize, n: u32) -> &Value {
        &self.values[i][n as usize]
    }

    /// The vector of a state of setup `setup`.
    pub fn vector(&mut self, setup: u32, values: &[Value]) -> Vec<u32> {
        let mut out = Vec::with_capacity(values.len() + 1);
        out.push(setup);
        for (i, v) in values.iter().enumerate() {
            out.push(self.number(i, v));
        }
        out
    }

    /// The variables' values of a state vector.
    pub fn values(&self, vector: &[u32]) -> Vec<Value> {
        (vector[1..].iter().enumerate())
            .map(|(i, &n)| self.value(i, n).clone())
            .collect()
    }
}
