//! The order in which a round of the symbolic search applies its transition groups (`mc --symbolic
//! --strategy`), as LTSmin offers it (Bendisposto et al. §3; Blom & van de Pol, "Symbolic
//! reachability for process algebras with recursive data types", 2008, for chaining; Ciardo, Lüttgen
//! & Siminiceanu, "Saturation: an efficient iteration strategy for symbolic state-space generation",
//! TACAS 2001, for saturation).
//!
//! Every strategy applies each group only to the reachable states it has not expanded yet
//! (`Search::expand`), so each (state, group) pair is expanded once and its transitions are counted
//! once: the counts are the same whatever the order, and a group meets a new projection (and learns
//! it from the interpreter) before it relates any state with it. Only the order, and so the number of
//! rounds and the size of the intermediate sets, differs:
//! * breadth-first: every group on the same frontier; the images join the reachable set after the
//!   round (a round is a level: counterexamples are shortest);
//! * chaining: each group on the reachable set as the previous groups left it, within one round;
//! * saturation (simplified: no per-node recursion as in Ciardo's): groups ordered by their topmost
//!   variable slot, deepest first; a group that found new states sends the search back to the deepest
//!   group, so the groups below a level have reached their fixpoint on its states before the groups
//!   above are applied. One round reaches the fixpoint of all groups.

use super::vectors::SETUP_SLOT;
use super::{Found, Halt, Search};
use crate::check::mc::{SymbolicStrategy, Verdict};
use crate::ldd::{EMPTY, Ldd, NodeLimit};
use crate::value::Value;

impl<'m> Search<'m> {
    /// One round of the strategy from `reach`. Breadth-first, the images are returned for the caller
    /// to add after judging the round; the other strategies add them to `reach` as they go and
    /// return the empty set.
    pub(super) fn round(
        &mut self,
        reach: &mut Ldd,
        filler: &[Value],
        level: usize,
    ) -> Result<Ldd, Halt> {
        let groups = self.groups.len();
        match self.options.strategy {
            SymbolicStrategy::BreadthFirst => {
                let mut next = EMPTY;
                for k in 0..groups {
                    let front = self.table.minus(*reach, self.expanded[k])?;
                    let image = self.expand(k, front, filler, level)?;
                    next = self.table.union(next, image)?;
                }
                Ok(next)
            }
            SymbolicStrategy::Chaining => {
                for k in 0..groups {
                    let front = self.table.minus(*reach, self.expanded[k])?;
                    let image = self.expand(k, front, filler, level)?;
                    *reach = self.grow(*reach, image)?;
                }
                Ok(EMPTY)
            }
            SymbolicStrategy::Saturation => {
                let order = self.saturation_order();
                let mut i = 0;
                while let Some(&k) = order.get(i) {
                    Self::go_on(self.options, self.model, self.start, self.states)?;
                    let front = self.table.minus(*reach, self.expanded[k])?;
                    let image = self.expand(k, front, filler, level)?;
                    let grown = self.grow(*reach, image)?;
                    // New states: the deeper groups saturate them first.
                    i = if grown == *reach { i + 1 } else { 0 };
                    *reach = grown;
                }
                Ok(EMPTY)
            }
        }
    }

    /// The groups by their topmost variable slot, deepest first (a group that reads no variable
    /// relates each state to itself only, and goes first). The setup slot, read by every group and
    /// written by none, is left out.
    fn saturation_order(&self) -> Vec<usize> {
        let top = |k: usize| {
            let key = &self.groups[k].key;
            key.iter()
                .copied()
                .find(|&s| s != SETUP_SLOT)
                .unwrap_or(u32::MAX)
        };
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(top(k)));
        order
    }

    /// After the whole space was explored out of breadth-first order, the error breadth-first would
    /// have reported first: the first breadth-first layer (over the transitions learned, now all of
    /// them) holding a violating or deadlocked state, with the preference of `errors_of_level` within a
    /// layer (a deadlock first, when the search went on past both). None when there is no error.
    pub(super) fn first_error_in_bfs_order(&mut self) -> Result<Option<Found>, NodeLimit> {
        let (violating, deadlocked) = (self.violating_seen, self.deadlocked_seen);
        if violating == EMPTY && deadlocked == EMPTY {
            return Ok(None);
        }
        let layers = self.bfs_layers(|table, layer| {
            Ok(table.intersect(layer, violating)? != EMPTY
                || table.intersect(layer, deadlocked)? != EMPTY)
        })?;
        let last = *layers.last().expect("the initial layer");
        let level = layers.len() - 1;
        let deadlocked = self.table.intersect(last, deadlocked)?;
        if let Some(state) = self.table.any_tuple(deadlocked) {
            return Ok(Some(Found {
                verdict: Verdict::Deadlock,
                at: Some((state, level)),
                at_setup: None,
            }));
        }
        let violating = self.table.intersect(last, violating)?;
        Ok(self.table.any_tuple(violating).map(|state| Found {
            verdict: self.violation_in(&state),
            at: Some((state, level)),
            at_setup: None,
        }))
    }
}
