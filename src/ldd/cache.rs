//! The operation cache: direct-mapped and lossy, as in BDD packages (Sylvan, CUDD). An entry is found
//! at one place given by its key's hash, and a new entry overwrites whatever was there: lookups cost
//! one memory access, and forgetting an entry only costs recomputing it. It starts small and doubles
//! (emptied) while the entries stored outnumber its places, up to `MAX_BITS`.

/// At most 2^MAX_BITS places.
const MAX_BITS: u32 = 21;
const MIN_BITS: u32 = 10;

pub(super) struct OpCache<V: Copy> {
    places: Vec<Option<(u64, u32, u32, V)>>,
    bits: u32,
    stored: usize,
}

impl<V: Copy> OpCache<V> {
    pub(super) fn new() -> OpCache<V> {
        OpCache {
            places: vec![None; 1 << MIN_BITS],
            bits: MIN_BITS,
            stored: 0,
        }
    }

    fn place(&self, op: u64, a: u32, b: u32) -> usize {
        let key = op ^ (u64::from(a) << 32 | u64::from(b)).rotate_left(17);
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    pub(super) fn get(&self, op: u64, a: u32, b: u32) -> Option<V> {
        match self.places[self.place(op, a, b)] {
            Some((o, x, y, v)) if o == op && x == a && y == b => Some(v),
            _ => None,
        }
    }

    pub(super) fn put(&mut self, op: u64, a: u32, b: u32, v: V) {
        self.stored += 1;
        if self.stored > 2 * self.places.len() && self.bits < MAX_BITS {
            self.bits += 1;
            self.places = vec![None; 1 << self.bits];
            self.stored = 0;
        }
        let place = self.place(op, a, b);
        self.places[place] = Some((op, a, b, v));
    }
}
