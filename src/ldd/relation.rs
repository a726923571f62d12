//! Operations between a set of state vectors and a relation over a projection of them: LTSmin's
//! short vectors and read/write "meta" (Meijer, Kant, Blom & van de Pol, "Read, Write and Copy
//! Dependencies for Symbolic Model Checking", HVC 2014).
//!
//! A meta names the slots an operation reads (`slots`, increasing) and which of them it writes. A
//! relation under that meta is an LDD of short tuples: for each slot of the meta its value before,
//! followed, when the slot is written, by its value after; then one trailing label level (which
//! transition, so that related pairs can be counted as edges; the relational product ignores it).
//! Slots outside the meta are copied unchanged. A written slot is always read as well: an operation that
//! writes a slot only on some paths keeps its old value on the others (the read-write case of the
//! paper), and one that overwrites it regardless just relates every old value it met.

use super::{EMPTY, Ldd, NodeLimit, Op, TRUE, Table};

/// Which slots a relation reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Slot indices, strictly increasing.
    pub slots: Vec<u32>,
    /// Per slot of `slots`, whether the relation gives it a value after (a second level).
    pub written: Vec<bool>,
}

/// A meta registered in a table (`Table::meta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetaId(pub(super) u32);

/// What a relation does with one slot of the full vector.
enum Role {
    Copy,
    Read,
    ReadWrite,
}

impl Meta {
    fn role(&self, slot: u32) -> Role {
        match self.slots.binary_search(&slot) {
            Err(_) => Role::Copy,
            Ok(i) if self.written[i] => Role::ReadWrite,
            Ok(_) => Role::Read,
        }
    }

    /// Every slot of the meta lies before `slot`: the rest of a vector is copied.
    fn past(&self, slot: u32) -> bool {
        self.slots.last().is_none_or(|&last| slot > last)
    }
}

impl Table {
    /// Registers a meta; operations under it share cache entries.
    pub fn meta(&mut self, meta: Meta) -> MetaId {
        debug_assert!(meta.slots.windows(2).all(|w| w[0] < w[1]));
        debug_assert_eq!(meta.slots.len(), meta.written.len());
        if let Some(i) = self.metas.iter().position(|m| *m == meta) {
            return MetaId(i as u32);
        }
        self.metas.push(meta);
        MetaId(self.metas.len() as u32 - 1)
    }

    /// The projection of the vectors of `set` on the meta's slots (each slot's value before).
    pub fn project(&mut self, set: Ldd, meta: MetaId) -> Result<Ldd, NodeLimit> {
        self.project_from(set, meta, 0)
    }

    fn project_from(&mut self, set: Ldd, meta: MetaId, slot: u32) -> Result<Ldd, NodeLimit> {
        if set == EMPTY {
            return Ok(EMPTY);
        }
        if self.metas[meta.0 as usize].past(slot) {
            return Ok(TRUE);
        }
        let key = (Op::Project(meta, slot), set, EMPTY);
        if let Some(r) = self.cached(key) {
            return Ok(r);
        }
        let children = self.children(set);
        let r = match self.metas[meta.0 as usize].role(slot) {
            Role::Copy => {
                let mut out = EMPTY;
                for (_, down) in children {
                    let part = self.project_from(down, meta, slot + 1)?;
                    out = self.union(out, part)?;
                }
                out
            }
            Role::Read | Role::ReadWrite => {
                let mut out = Vec::with_capacity(children.len());
                for (v, down) in children {
                    out.push((v, self.project_from(down, meta, slot + 1)?));
                }
                self.chain(&out)?
            }
        };
        self.remember(key, r);
        Ok(r)
    }

    /// The images of the vectors of `set` under `rel` (a relation under `meta`).
    pub fn rel_prod(&mut self, set: Ldd, rel: Ldd, meta: MetaId) -> Result<Ldd, NodeLimit> {
        self.rel_prod_from(set, rel, meta, 0)
    }

    fn rel_prod_from(
        &mut self,
        set: Ldd,
        rel: Ldd,
        meta: MetaId,
        slot: u32,
    ) -> Result<Ldd, NodeLimit> {
        if set == EMPTY || rel == EMPTY {
            return Ok(EMPTY);
        }
        // Only the label level is left of `rel`, and it is not empty.
        if self.metas[meta.0 as usize].past(slot) {
            return Ok(set);
        }
        let key = (Op::RelProd(meta, slot), set, rel);
        if let Some(r) = self.cached(key) {
            return Ok(r);
        }
        let r = match self.metas[meta.0 as usize].role(slot) {
            Role::Copy => {
                let children = self.children(set);
                let mut out = Vec::with_capacity(children.len());
                for (v, down) in children {
                    out.push((v, self.rel_prod_from(down, rel, meta, slot + 1)?));
                }
                self.chain(&out)?
            }
            Role::Read => {
                let mut out = Vec::new();
                for (v, down, rel_down) in self.matched(set, rel) {
                    out.push((v, self.rel_prod_from(down, rel_down, meta, slot + 1)?));
                }
                self.chain(&out)?
            }
            Role::ReadWrite => {
                let mut images: Vec<(u32, Ldd)> = Vec::new();
                for (_, down, writes) in self.matched(set, rel) {
                    for (w, rel_down) in self.children(writes) {
                        images.push((w, self.rel_prod_from(down, rel_down, meta, slot + 1)?));
                    }
                }
                // Several values before may be written to the same value after: their images merge.
                images.sort_by_key(|&(w, _)| w);
                let mut merged: Vec<(u32, Ldd)> = Vec::with_capacity(images.len());
                for (w, image) in images {
                    match merged.last_mut() {
                        Some((last, into)) if *last == w => *into = self.union(*into, image)?,
                        _ => merged.push((w, image)),
                    }
                }
                self.chain(&merged)?
            }
        };
        self.remember(key, r);
        Ok(r)
    }

    /// The number of pairs (vector of `set`, label path of `rel`) that `rel` relates: with one label per
    /// distinct transition, the number of transitions leaving `set`.
    pub fn count_pairs(&mut self, set: Ldd, rel: Ldd, meta: MetaId) -> u128 {
        self.count_pairs_from(set, rel, meta, 0)
    }

    fn count_pairs_from(&mut self, set: Ldd, rel: Ldd, meta: MetaId, slot: u32) -> u128 {
        if set == EMPTY || rel == EMPTY {
            return 0;
        }
        if self.metas[meta.0 as usize].past(slot) {
            return self.count(set).saturating_mul(self.count(rel));
        }
        let op = Op::CountPairs(meta, slot).code();
        if let Some(c) = self.pair_counts.get(op, set, rel) {
            self.cache_hits += 1;
            return c;
        }
        let mut total: u128 = 0;
        match self.metas[meta.0 as usize].role(slot) {
            Role::Copy => {
                for (_, down) in self.children(set) {
                    total = total.saturating_add(self.count_pairs_from(down, rel, meta, slot + 1));
                }
            }
            Role::Read => {
                for (_, down, rel_down) in self.matched(set, rel) {
                    let c = self.count_pairs_from(down, rel_down, meta, slot + 1);
                    total = total.saturating_add(c);
                }
            }
            Role::ReadWrite => {
                for (_, down, writes) in self.matched(set, rel) {
                    for (_, rel_down) in self.children(writes) {
                        let c = self.count_pairs_from(down, rel_down, meta, slot + 1);
                        total = total.saturating_add(c);
                    }
                }
            }
        }
        self.pair_counts.put(op, set, rel, total);
        total
    }

    /// The values present both in `set`'s chain and in `rel`'s: (value, the set's down, the relation's
    /// down).
    fn matched(&self, set: Ldd, rel: Ldd) -> Vec<(u32, Ldd, Ldd)> {
        let mut out = self.aligned(set, rel);
        out.retain(|&(_, _, rel_down)| rel_down != EMPTY);
        out
    }
}
