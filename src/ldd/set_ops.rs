//! Set operations on LDDs of one tuple length: building, union, difference, intersection, membership,
//! counting and listing. Each walks the two right chains in step (both are sorted) and recurses only
//! downwards, so the recursion is as deep as the tuples are long, never as long as a chain.

use super::{EMPTY, Ldd, NodeLimit, Op, TRUE, Table};

impl Table {
    /// The set holding `tuple` alone.
    pub fn singleton(&mut self, tuple: &[u32]) -> Result<Ldd, NodeLimit> {
        let mut out = TRUE;
        for &v in tuple.iter().rev() {
            out = self.node(v, out, EMPTY)?;
        }
        Ok(out)
    }

    /// The set of `tuples` (all of one length), built bottom-up from their sorted order: a node per
    /// distinct prefix. (Adding tuples one by one would rebuild the chain before each insertion point,
    /// quadratic in nodes that are never freed.)
    pub fn from_tuples<'t>(
        &mut self,
        tuples: impl IntoIterator<Item = &'t [u32]>,
    ) -> Result<Ldd, NodeLimit> {
        let mut sorted: Vec<&[u32]> = tuples.into_iter().collect();
        sorted.sort_unstable();
        sorted.dedup();
        self.build_sorted(&sorted, 0)
    }

    /// The set of `tuples`, sorted, distinct and sharing their first `depth` values.
    fn build_sorted(&mut self, tuples: &[&[u32]], depth: usize) -> Result<Ldd, NodeLimit> {
        match tuples.first() {
            None => return Ok(EMPTY),
            Some(t) if t.len() == depth => return Ok(TRUE),
            Some(_) => {}
        }
        let mut pairs = Vec::new();
        let mut i = 0;
        while i < tuples.len() {
            let v = tuples[i][depth];
            let end = i + tuples[i..].partition_point(|t| t[depth] == v);
            pairs.push((v, self.build_sorted(&tuples[i..end], depth + 1)?));
            i = end;
        }
        self.chain(&pairs)
    }

    pub fn union(&mut self, a: Ldd, b: Ldd) -> Result<Ldd, NodeLimit> {
        if a == b || b == EMPTY {
            return Ok(a);
        }
        if a == EMPTY {
            return Ok(b);
        }
        // Union is symmetric: one cache entry for both orders.
        let key = (Op::Union, a.min(b), a.max(b));
        if let Some(r) = self.cached(key) {
            return Ok(r);
        }
        let (xs, ys) = (self.children(a), self.children(b));
        let mut out = Vec::with_capacity(xs.len().max(ys.len()));
        let (mut i, mut j) = (0, 0);
        while i < xs.len() || j < ys.len() {
            match (xs.get(i), ys.get(j)) {
                (Some(&(v, x)), Some(&(w, y))) if v == w => {
                    out.push((v, self.union(x, y)?));
                    i += 1;
                    j += 1;
                }
                (Some(&(v, x)), Some(&(w, _))) if v < w => {
                    out.push((v, x));
                    i += 1;
                }
                (Some(&(v, x)), None) => {
                    out.push((v, x));
                    i += 1;
                }
                (_, Some(&(w, y))) => {
                    out.push((w, y));
                    j += 1;
                }
                (None, None) => unreachable!("the loop runs while a chain has pairs left"),
            }
        }
        let r = self.chain(&out)?;
        self.remember(key, r);
        Ok(r)
    }

    /// The tuples of `a` not in `b`.
    pub fn minus(&mut self, a: Ldd, b: Ldd) -> Result<Ldd, NodeLimit> {
        if a == b || a == EMPTY {
            return Ok(EMPTY);
        }
        if b == EMPTY {
            return Ok(a);
        }
        let key = (Op::Minus, a, b);
        if let Some(r) = self.cached(key) {
            return Ok(r);
        }
        let mut out = Vec::new();
        for (v, x, y) in self.aligned(a, b) {
            out.push((v, self.minus(x, y)?));
        }
        let r = self.chain(&out)?;
        self.remember(key, r);
        Ok(r)
    }

    pub fn intersect(&mut self, a: Ldd, b: Ldd) -> Result<Ldd, NodeLimit> {
        if a == b {
            return Ok(a);
        }
        if a == EMPTY || b == EMPTY {
            return Ok(EMPTY);
        }
        let key = (Op::Intersect, a.min(b), a.max(b));
        if let Some(r) = self.cached(key) {
            return Ok(r);
        }
        let mut out = Vec::new();
        for (v, x, y) in self.aligned(a, b) {
            out.push((v, self.intersect(x, y)?));
        }
        let r = self.chain(&out)?;
        self.remember(key, r);
        Ok(r)
    }

    pub fn contains(&self, mut a: Ldd, tuple: &[u32]) -> bool {
        for &v in tuple {
            loop {
                if a <= TRUE {
                    return false;
                }
                let n = self.nodes[a as usize];
                if n.value == v {
                    a = n.down;
                    break;
                }
                if n.value > v {
                    return false;
                }
                a = n.right;
            }
        }
        a == TRUE
    }

    /// The number of tuples in `a` (saturating at `u128::MAX`).
    pub fn count(&mut self, a: Ldd) -> u128 {
        match a {
            EMPTY => 0,
            TRUE => 1,
            _ => {
                if let Some(&c) = self.counts.get(&a) {
                    return c;
                }
                let mut total: u128 = 0;
                for (_, down) in self.children(a) {
                    total = total.saturating_add(self.count(down));
                }
                self.counts.insert(a, total);
                total
            }
        }
    }

    /// The tuples of `a` in lexicographic order.
    pub fn tuples(&self, a: Ldd) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        self.collect(a, &mut prefix, &mut out);
        out
    }

    fn collect(&self, a: Ldd, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if a == TRUE {
            out.push(prefix.clone());
            return;
        }
        for (v, down) in self.children(a) {
            prefix.push(v);
            self.collect(down, prefix, out);
            prefix.pop();
        }
    }

    /// Some tuple of `a`, or None when it is empty.
    pub fn any_tuple(&self, mut a: Ldd) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        while a > TRUE {
            let n = self.nodes[a as usize];
            out.push(n.value);
            a = n.down;
        }
        (a == TRUE).then_some(out)
    }
}
