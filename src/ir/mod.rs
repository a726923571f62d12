//! The typed intermediate representation every layer below the front end works on.
//!
//! Produced by `types::infer` from a flattened `syntax::ast::Machine`: definitions are expanded, sugar is
//! removed (`/:` is `not(:)`, `/<:` is `not(<:)`, `>`/`>=` are swapped `<`/`<=`, tuples are nested pairs,
//! `f(a,b)` applies `f` to `a |-> b`, sequences are functions `1..n`, `IF`/`LET` are split into their
//! predicate and expression forms), predicates and expressions are separate, and every expression carries
//! its `Type`. Backends and the interpreter never see surface syntax.

use crate::diag::Span;
use crate::syntax::ast::Name;
use num_bigint::BigInt;
use std::sync::Arc;

pub mod free_names;
pub mod strict;
pub mod tla_value;
mod ty;
pub mod visit;
pub use ty::Type;

/// A bound identifier with its type (quantified variables, comprehension variables, parameters ...).
#[derive(Clone, Debug, PartialEq)]
pub struct TypedName {
    pub name: Name,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A variable, constant, parameter, bound variable, given set name or enumerated element.
    Var(Name),
    Int(BigInt),
    Bool(bool),
    Str(String),
    /// A keyword set or number: INTEGER, NATURAL, ..., MAXINT.
    Const(ExprConst),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `{a, b, c}`; `{}` is an empty `SetEnum` (its type says of what).
    SetEnum(Vec<Expr>),
    /// `[a, b, c]`; `[]` is an empty `SeqEnum`.
    SeqEnum(Vec<Expr>),
    /// `{x, y | P}`: the set of tuples `x |-> y` satisfying P. Shared: evaluating it makes a closure
    /// holding its variables and predicate, in every state that evaluates it.
    Comprehension(Arc<Vec<TypedName>>, Arc<Pred>),
    /// `{x, y . P | E}` / `UNION`/`INTER`/`SIGMA`/`PI`/`%` binders: `vars`, condition, body (shared,
    /// as a comprehension's: a lambda evaluates to a closure holding them).
    Binder(BinderKind, Arc<Vec<TypedName>>, Arc<Pred>, Arc<Expr>),
    /// `rec(a: E, ...)`, fields sorted by name.
    Record(Vec<(Name, Expr)>),
    /// `struct(a: S, ...)`, fields sorted by name.
    Struct(Vec<(Name, Expr)>),
    /// `E'field`.
    Field(Box<Expr>, Name),
    /// `bool(P)`.
    BoolOf(Box<Pred>),
    /// `IF P THEN E ELSE F END` (ELSIF chains nest in the else branch).
    If(Box<Pred>, Box<Expr>, Box<Expr>),
    /// `LET x = E, y = F IN body`: bindings in order, each may use the earlier ones.
    Let(Vec<(TypedName, Expr)>, Box<Expr>),
}

/// Keyword constants of expression type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExprConst {
    Integer,
    Natural,
    Natural1,
    Int,
    Nat,
    Nat1,
    BoolSet,
    StringSet,
    MaxInt,
    MinInt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Succ,
    Pred,
    Max,
    Min,
    Card,
    Pow,
    Pow1,
    Fin,
    Fin1,
    GenUnion,
    GenInter,
    Dom,
    Ran,
    Id,
    Inverse,
    Closure,
    Closure1,
    Fnc,
    Rel,
    /// `prj1(pair)` / `prj2(pair)`: the component of a pair (ProB extension).
    PairFirst,
    PairSecond,
    Seq,
    Seq1,
    Iseq,
    Iseq1,
    Perm,
    Size,
    Rev,
    First,
    Last,
    Front,
    Tail,
    Conc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Power,
    Interval,
    Union,
    Inter,
    /// `S - T` / `S \ T` on sets.
    SetMinus,
    /// `S * T` on sets.
    Product,
    Maplet,
    Relation,
    TotalRelation,
    SurjRelation,
    TotalSurjRelation,
    PartialFunction,
    TotalFunction,
    PartialInjection,
    TotalInjection,
    PartialSurjection,
    TotalSurjection,
    PartialBijection,
    TotalBijection,
    DomRestrict,
    DomSubtract,
    RanRestrict,
    RanSubtract,
    Image,
    /// `f(x)`: function application (well-defined only when `x : dom(f)` and f is functional there).
    Apply,
    Override,
    DirectProduct,
    Composition,
    ParallelProduct,
    /// `prj1(S, T)` / `prj2(S, T)`: the projection functions.
    Prj1,
    Prj2,
    Iterate,
    Concat,
    Prepend,
    Append,
    Take,
    Drop,
}

impl BinaryOp {
    /// The relation and function arrows (`<->`, `-->`, `>->>`, ...).
    pub fn is_arrow(self) -> bool {
        matches!(
            self,
            BinaryOp::Relation
                | BinaryOp::TotalRelation
                | BinaryOp::SurjRelation
                | BinaryOp::TotalSurjRelation
                | BinaryOp::PartialFunction
                | BinaryOp::TotalFunction
                | BinaryOp::PartialInjection
                | BinaryOp::TotalInjection
                | BinaryOp::PartialSurjection
                | BinaryOp::TotalSurjection
                | BinaryOp::PartialBijection
                | BinaryOp::TotalBijection
        )
    }

    /// What membership in the set a relation or function arrow builds requires (`None` for other
    /// operators): the backends encode each property once from this.
    pub fn arrow_properties(self) -> Option<ArrowProperties> {
        use BinaryOp::*;
        if !self.is_arrow() {
            return None;
        }
        Some(ArrowProperties {
            functional: !matches!(
                self,
                Relation | TotalRelation | SurjRelation | TotalSurjRelation
            ),
            total: matches!(
                self,
                TotalRelation
                    | TotalSurjRelation
                    | TotalFunction
                    | TotalInjection
                    | TotalSurjection
                    | TotalBijection
            ),
            injective: matches!(
                self,
                PartialInjection | TotalInjection | PartialBijection | TotalBijection
            ),
            surjective: matches!(
                self,
                SurjRelation
                    | TotalSurjRelation
                    | PartialSurjection
                    | TotalSurjection
                    | PartialBijection
                    | TotalBijection
            ),
        })
    }
}

/// The properties an arrow (`<->`, `-->`, `>->>`, ...) asks of its relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrowProperties {
    /// At most one image per element of the domain.
    pub functional: bool,
    /// Every element of the source set has an image.
    pub total: bool,
    /// No two elements share an image.
    pub injective: bool,
    /// Every element of the target set is an image.
    pub surjective: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinderKind {
    /// `{x . P | E}`.
    Image,
    Lambda,
    Sigma,
    Pi,
    Union,
    Inter,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pred {
    pub kind: PredKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PredKind {
    True,
    False,
    /// n-ary conjunction, flattened.
    And(Vec<Pred>),
    /// n-ary disjunction, flattened.
    Or(Vec<Pred>),
    Implies(Box<Pred>, Box<Pred>),
    Equiv(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
    Forall(Vec<TypedName>, Box<Pred>),
    Exists(Vec<TypedName>, Box<Pred>),
    Compare(CompareOp, Box<Expr>, Box<Expr>),
    /// `IF P THEN Q ELSE R END` as a predicate.
    If(Box<Pred>, Box<Pred>, Box<Pred>),
    /// `LET x = E, ... IN P`.
    Let(Vec<(TypedName, Expr)>, Box<Pred>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Eq,
    NotEq,
    In,
    Subset,
    StrictSubset,
    Lt,
    Le,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subst {
    pub kind: SubstKind,
    pub span: Span,
}

/// The left side of an assignment.
#[derive(Clone, Debug, PartialEq)]
pub enum AssignTarget {
    /// `x := E`.
    Var(TypedName),
    /// `f(i) := E` (override of f at i); nested `f(i)(j)` nests.
    Apply(Box<AssignTarget>, Expr),
    /// `r'a := E`.
    Field(Box<AssignTarget>, Name),
}

#[derive(Clone, Debug, PartialEq)]
pub enum SubstKind {
    Skip,
    /// Simultaneous assignment `t1, t2 := E1, E2`.
    Assign(Vec<(AssignTarget, Expr)>),
    /// `x :: S`.
    BecomesElementOf(Vec<TypedName>, Expr),
    /// `x, y : (P)`; `P` refers to the before-values as `x$0`.
    BecomesSuchThat(Vec<TypedName>, Pred),
    /// A call of an operation of an included machine (already renamed): outputs, operation, inputs.
    OpCall(Vec<TypedName>, Name, Vec<Expr>),
    Parallel(Vec<Subst>),
    Sequence(Vec<Subst>),
    Any(Vec<TypedName>, Pred, Box<Subst>),
    Let(Vec<(TypedName, Expr)>, Box<Subst>),
    Var(Vec<TypedName>, Box<Subst>),
    Pre(Pred, Box<Subst>),
    Assert(Pred, Box<Subst>),
    Choice(Vec<Subst>),
    /// IF/ELSIF branches and the optional ELSE (`None` = skip).
    If(Vec<(Pred, Subst)>, Option<Box<Subst>>),
    /// SELECT/WHEN branches and the optional ELSE (`None` = blocked when no guard holds).
    Select(Vec<(Pred, Subst)>, Option<Box<Subst>>),
    /// CASE: scrutinee, branches with their literal values, optional ELSE (`None` = skip... as in B, an
    /// unmatched CASE without ELSE is not executable).
    Case(Expr, Vec<(Vec<Expr>, Subst)>, Option<Box<Subst>>),
    While {
        cond: Pred,
        body: Box<Subst>,
        invariant: Pred,
        variant: Expr,
    },
}

/// A given set of the machine.
#[derive(Clone, Debug, PartialEq)]
pub struct GivenSet {
    pub name: Name,
    pub span: Span,
    /// Element names for an enumerated set, `None` for a deferred set.
    pub elements: Option<Vec<Name>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    pub name: Name,
    pub span: Span,
    pub params: Vec<TypedName>,
    pub outputs: Vec<TypedName>,
    pub body: Subst,
}

/// Settings are read from DEFINITIONS by the machine layer, below the IR.
pub use crate::machine::definitions::SettingValue;

/// A flattened, type-checked machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    pub name: Name,
    pub span: Span,
    /// Scalar machine parameters (set parameters are deferred sets in `sets`).
    pub params: Vec<TypedName>,
    pub sets: Vec<GivenSet>,
    pub constants: Vec<TypedName>,
    pub variables: Vec<TypedName>,
    /// `True` when the clause is absent.
    pub constraints: Pred,
    pub properties: Pred,
    pub invariant: Pred,
    pub assertions: Vec<Pred>,
    /// `Skip` when the clause is absent.
    pub initialisation: Subst,
    pub operations: Vec<Operation>,
    /// Settings from DEFINITIONS, by definition name (e.g. `SET_PREF_MAXINT`, `scope_S`,
    /// `MAX_OPERATIONS_op`), in source order.
    pub settings: Vec<(Name, SettingValue, Span)>,
    /// `GOAL == P` and `SCOPE == P` definitions, type-checked in the machine's context.
    pub goal: Option<Pred>,
    pub scope: Option<Pred>,
    /// `TLC_CONSTRAINT == P` (a TLC model file's CONSTRAINT, lowered from TLA+): the model checker
    /// neither keeps nor expands a state where P is false, as TLC; unlike SCOPE, such a state is not
    /// counted.
    pub state_constraint: Option<Pred>,
}

impl Pred {
    pub fn new(kind: PredKind, span: Span) -> Pred {
        Pred { kind, span }
    }
    pub fn truth(span: Span) -> Pred {
        Pred {
            kind: PredKind::True,
            span,
        }
    }
    /// The conjuncts of a (flattened) conjunction; a non-conjunction is its own single conjunct.
    pub fn conjuncts(&self) -> Vec<&Pred> {
        match &self.kind {
            PredKind::And(ps) => ps.iter().flat_map(|p| p.conjuncts()).collect(),
            PredKind::True => vec![],
            _ => vec![self],
        }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr { kind, ty, span }
    }
    /// Where the variable `name` sits in this tuple of nested maplets: the sides to take (`false` = left);
    /// empty when the tuple is the variable itself, None when it is not a component.
    pub fn maplet_path(&self, name: &str) -> Option<Vec<bool>> {
        match &self.kind {
            ExprKind::Var(n) if &**n == name => Some(Vec::new()),
            ExprKind::Binary(BinaryOp::Maplet, l, r) => {
                for (side, part) in [(false, l), (true, r)] {
                    if let Some(mut rest) = part.maplet_path(name) {
                        rest.insert(0, side);
                        return Some(rest);
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// The operands of a chain of `^`, left to right, whatever its nesting; a non-concatenation is its
    /// own single operand.
    pub fn concat_operands(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Binary(BinaryOp::Concat, a, b) => {
                let mut parts = a.concat_operands();
                parts.extend(b.concat_operands());
                parts
            }
            _ => vec![self],
        }
    }
}
