//! Memoised application of the lambdas that symbolic constants hold.
//!
//! A recursive constant such as `fib = %x.(x : NATURAL | IF x <= 1 THEN 1 ELSE fib(x-1) + fib(x-2) END)`
//! applied naively costs exponential time; ProB memoises such functions (`MEMOIZE_FUNCTIONS`, the
//! `/*@desc memo*/` annotation). The image of a point under a constant's lambda never changes: the
//! closure and its environment are immutable and live as long as the context, so its images are kept
//! for the context's lifetime. Only the constants' own closures are memoised (identified by pointer,
//! which stays valid because the context holds them); a closure built during evaluation is not, as its
//! address may be reused by another one once it is dropped.

use super::symbolic::SymbolicSet;
use super::{Context, EvalError};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::{Arc, RwLock};

/// How many images are kept: past this, images are computed again rather than stored.
const MAX_IMAGES: usize = 1 << 20;

/// Images of points under the constants' lambdas, by (constant's position, point).
#[derive(Debug, Default)]
pub(crate) struct ConstantImages {
    images: RwLock<FxHashMap<(usize, Value), Vec<Value>>>,
}

impl Context {
    /// The image of `x` under `lambda`, from the memo when `lambda` is a symbolic constant's closure
    /// and the integer cut is ProB's (an image computed under a widened cut may list more solutions
    /// of an enumeration inside the body); computed by `compute` otherwise. Errors are not kept: a
    /// timeout may not recur with more time.
    pub(crate) fn memo_image(
        &self,
        lambda: &Arc<SymbolicSet>,
        x: &Value,
        compute: impl FnOnce() -> Result<Vec<Value>, EvalError>,
    ) -> Result<Vec<Value>, EvalError> {
        let Some(constant) = self.symbolic_constant_holding(lambda) else {
            return compute();
        };
        if self.int_cut_widened() {
            return compute();
        }
        let key = (constant, x.clone());
        let memo = &self.constant_images.images;
        if let Some(found) = memo.read().expect("memo lock").get(&key) {
            return Ok(found.clone());
        }
        let image = compute()?;
        let mut memo = memo.write().expect("memo lock");
        if memo.len() < MAX_IMAGES {
            memo.insert(key, image.clone());
        }
        Ok(image)
    }

    /// The position of the symbolic constant whose value is `set` itself (the same allocation).
    fn symbolic_constant_holding(&self, set: &Arc<SymbolicSet>) -> Option<usize> {
        let constants = self.symbolic_constants.get()?;
        constants.iter().find_map(|c| match &c.value {
            super::Val::Sym(held) if Arc::ptr_eq(held, set) => Some(c.index),
            _ => None,
        })
    }
}
