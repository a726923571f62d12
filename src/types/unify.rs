//! Inference variables and unification over `Type`.
//!
//! Invariant: a variable is bound at most once, and a binding never mentions the variable itself (occurs
//! check), so `resolve` always terminates. The one exception is TLA+ mode (`tla_values`): a variable bound
//! to a scalar kind is rebound to `TlaValue` when it meets another kind (`tla_value::meet`); to make every
//! scalar of a binding reachable that way, a compound type is bound with each of its scalar leaves behind a
//! variable of its own (`boxed`).

use super::Type;
use super::tla_value;

/// A substitution from inference variables to types.
#[derive(Default)]
pub struct Unifier {
    bindings: Vec<Option<Type>>,
    /// True for a TLA+ machine: distinct scalar kinds meet in `TlaValue` instead of failing.
    pub tla_values: bool,
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

    /// The last variable of the binding chain at the top of `t`, if `t` is a variable.
    fn last_var(&self, t: &Type) -> Option<u32> {
        let mut cur = t;
        let mut last = None;
        while let Type::Var(v) = cur {
            last = Some(*v);
            match self.bindings.get(*v as usize).and_then(|b| b.as_ref()) {
                Some(bound) => cur = bound,
                None => break,
            }
        }
        last
    }

    /// `t` with each scalar leaf inside a compound type replaced by a fresh variable bound to it, so that
    /// a later meet can rebind that leaf to `TlaValue` (a leaf copied into a binding could not be).
    fn boxed(&mut self, t: &Type) -> Type {
        match t {
            Type::Set(e) => Type::set(self.boxed_leaf(e)),
            Type::Pair(a, b) => {
                let a = self.boxed_leaf(a);
                Type::pair(a, self.boxed_leaf(b))
            }
            Type::Struct(fs) => Type::Struct(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.boxed_leaf(t)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn boxed_leaf(&mut self, t: &Type) -> Type {
        if tla_value::is_mixable(t) {
            // A record is a leaf that may itself meet another kind, with leaves of its own.
            let inner = match t {
                Type::Struct(_) => self.boxed(t),
                _ => t.clone(),
            };
            self.bindings.push(Some(inner));
            Type::Var((self.bindings.len() - 1) as u32)
        } else {
            self.boxed(t)
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

    fn unify_inner(&mut self, a_top: &Type, b_top: &Type) -> bool {
        let (a, b) = (self.head(a_top), self.head(b_top));
        match (a, b) {
            (Type::Var(x), Type::Var(y)) if x == y => true,
            (Type::Var(x), t) | (t, Type::Var(x)) => {
                let x = *x;
                if self.occurs(x, t) {
                    return false;
                }
                let bound = if self.tla_values {
                    let t = t.clone();
                    self.boxed(&t)
                } else {
                    t.clone()
                };
                self.bindings[x as usize] = Some(bound);
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
            (Type::Struct(f1), Type::Struct(f2))
                if self.tla_values && tla_value::fields_differ(f1, f2) =>
            {
                self.rebind_to_meet(a_top, b_top, Type::TlaValue);
                true
            }
            (Type::Struct(f1), Type::Struct(f2)) => {
                let (f1, f2) = (f1.clone(), f2.clone());
                f1.len() == f2.len()
                    && f1
                        .iter()
                        .zip(f2.iter())
                        .all(|((n1, t1), (n2, t2))| n1 == n2 && self.unify_inner(t1, t2))
            }
            (x, y) if x == y => true,
            (x, y) => match tla_value::meet(x, y).filter(|_| self.tla_values) {
                Some(met) => {
                    self.rebind_to_meet(a_top, b_top, met);
                    true
                }
                None => false,
            },
        }
    }

    /// Both sides now hold values of either kind: every variable that reached a kind is rebound to the
    /// meet (a side without a variable is a type built for this one use).
    fn rebind_to_meet(&mut self, a: &Type, b: &Type, met: Type) {
        for side in [a, b] {
            if let Some(v) = self.last_var(side) {
                self.bindings[v as usize] = Some(met.clone());
            }
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

    #[test]
    fn b_mode_keeps_scalar_kinds_apart() {
        let mut u = Unifier::default();
        let a = u.fresh();
        assert!(u.unify(&a, &Type::Integer).is_ok());
        let err = u
            .unify(&a, &Type::String)
            .expect_err("INTEGER against STRING");
        assert_eq!(err.expected, Type::Integer);
        assert_eq!(err.found, Type::String);
    }

    #[test]
    fn tla_mode_meets_scalar_kinds_in_tla_value() {
        let mut u = Unifier {
            tla_values: true,
            ..Unifier::default()
        };
        let model_values = Type::Given("MODEL_VALUES".into());
        let x = u.fresh();
        assert!(u.unify(&x, &Type::Integer).is_ok());
        assert!(u.unify(&x, &model_values).is_ok());
        assert_eq!(u.resolve(&x), Type::TlaValue);
        // Later uses as an integer keep the meet.
        assert!(u.unify(&Type::Integer, &x).is_ok());
        assert_eq!(u.resolve(&x), Type::TlaValue);
        // BOOL does not mix.
        assert!(u.unify(&x, &Type::Bool).is_err());
    }

    #[test]
    fn tla_mode_meets_inside_compound_bindings() {
        let mut u = Unifier {
            tla_values: true,
            ..Unifier::default()
        };
        let s = u.fresh();
        let t = u.fresh();
        assert!(u.unify(&s, &Type::set(Type::Integer)).is_ok());
        assert!(
            u.unify(&t, &Type::relation(Type::Integer, Type::Integer))
                .is_ok()
        );
        assert!(u.unify(&s, &Type::set(Type::String)).is_ok());
        assert!(
            u.unify(&t, &Type::relation(Type::Integer, Type::String))
                .is_ok()
        );
        assert_eq!(u.resolve(&s), Type::set(Type::TlaValue));
        assert_eq!(u.resolve(&t), Type::relation(Type::Integer, Type::TlaValue));
        // Structure still has to agree.
        assert!(u.unify(&s, &Type::Integer).is_err());
        assert!(u.unify(&t, &Type::set(Type::Integer)).is_err());
    }
}
