//! Inference variables and unification over `Type`.
//!
//! Invariant: a variable is bound at most once, and a binding never mentions the variable itself (occurs
//! check), so `resolve` always terminates.

use super::Type;

/// A substitution from inference variables to types.
#[derive(Default)]
pub struct Unifier {
    bindings: Vec<Option<Type>>,
}

/// Two types that cannot be made equal (both fully resolved, for the error message).
pub struct Mismatch {
    pub expected: Type,
    pub found: Type,
}

impl Unifier {
    pub fn fresh(&mut self) -> Type {
        self.bindings.push(None);
        Type::Var((self.bindings.len() - 1) as u32)
    }

    /// Follows variable bindings at the top of `t` only.
    pub fn shallow(&self, t: &Type) -> Type {
        self.head(t).clone()
    }

    /// `shallow` without the copy: type checking unifies once or twice per node of the syntax tree, so
    /// cloning every type it looks at (boxes included) was most of its cost.
    fn head<'a>(&'a self, t: &'a Type) -> &'a Type {
        let mut cur = t;
        while let Type::Var(v) = cur {
            match self.bindings.get(*v as usize).and_then(|b| b.as_ref()) {
                Some(bound) => cur = bound,
                None => break,
            }
        }
        cur
    }

    /// Replaces every bound variable in `t` by its binding, recursively.
    pub fn resolve(&self, t: &Type) -> Type {
        match self.head(t) {
            Type::Set(e) => Type::set(self.resolve(e)),
            Type::Pair(a, b) => Type::pair(self.resolve(a), self.resolve(b)),
            Type::Struct(fs) => Type::Struct(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.resolve(t)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn occurs(&self, v: u32, t: &Type) -> bool {
        match self.head(t) {
            Type::Var(w) => v == *w,
            Type::Set(e) => self.occurs(v, e),
            Type::Pair(a, b) => self.occurs(v, a) || self.occurs(v, b),
            Type::Struct(fs) => fs.iter().any(|(_, t)| self.occurs(v, t)),
            _ => false,
        }
    }

    /// Makes `expected` and `found` equal, or reports both (resolved) types.
    pub fn unify(&mut self, expected: &Type, found: &Type) -> Result<(), Mismatch> {
        if self.unify_inner(expected, found) {
            Ok(())
        } else {
            Err(Mismatch {
                expected: self.resolve(expected),
                found: self.resolve(found),
            })
        }
    }

    fn unify_inner(&mut self, a: &Type, b: &Type) -> bool {
        let (a, b) = (self.head(a), self.head(b));
        match (a, b) {
            (Type::Var(x), Type::Var(y)) if x == y => true,
            (Type::Var(x), t) | (t, Type::Var(x)) => {
                let x = *x;
                if self.occurs(x, t) {
                    return false;
                }
                self.bindings[x as usize] = Some(t.clone());
                true
            }
            // The components may live in `bindings`, which the recursive calls extend: copied first.
            (Type::Set(x), Type::Set(y)) => {
                let (x, y) = ((**x).clone(), (**y).clone());
                self.unify_inner(&x, &y)
            }
            (Type::Pair(a1, b1), Type::Pair(a2, b2)) => {
                let (a1, b1, a2, b2) = (
                    (**a1).clone(),
                    (**b1).clone(),
                    (**a2).clone(),
                    (**b2).clone(),
                );
                self.unify_inner(&a1, &a2) && self.unify_inner(&b1, &b2)
            }
            (Type::Struct(f1), Type::Struct(f2)) => {
                let (f1, f2) = (f1.clone(), f2.clone());
                f1.len() == f2.len()
                    && f1
                        .iter()
                        .zip(f2.iter())
                        .all(|((n1, t1), (n2, t2))| n1 == n2 && self.unify_inner(t1, t2))
            }
            (x, y) => x == y,
        }
    }

    /// True when `t` resolves to a type without inference variables.
    pub fn is_ground(&self, t: &Type) -> bool {
        !contains_var(&self.resolve(t))
    }
}

pub fn contains_var(t: &Type) -> bool {
    match t {
        Type::Var(_) => true,
        Type::Set(e) => contains_var(e),
        Type::Pair(a, b) => contains_var(a) || contains_var(b),
        Type::Struct(fs) => fs.iter().any(|(_, t)| contains_var(t)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_variables_through_structure() {
        let mut u = Unifier::default();
        let a = u.fresh();
        let b = u.fresh();
        let rel = Type::relation(a.clone(), b.clone());
        assert!(u.unify(&rel, &Type::seq(Type::Bool)).is_ok());
        assert_eq!(u.resolve(&a), Type::Integer);
        assert_eq!(u.resolve(&b), Type::Bool);
        assert!(u.is_ground(&rel));
    }

    #[test]
    fn reports_mismatch_and_occurs_check() {
        let mut u = Unifier::default();
        let a = u.fresh();
        let err = u
            .unify(&Type::Integer, &Type::set(Type::Integer))
            .expect_err("mismatch");
        assert_eq!(err.expected, Type::Integer);
        assert_eq!(err.found, Type::set(Type::Integer));
        assert!(u.unify(&a, &Type::set(a.clone())).is_err());
    }
}
