//! Surface syntax tree of classical B, as parsed (before definitions are expanded and before typing).
//!
//! Predicates and expressions share one node type, `Term`, because B's grammar cannot always tell them apart
//! while parsing (definition bodies, `IF`/`LET` in both roles, `(..)` around either). The type checker decides
//! which role each node plays and rejects misuse with a position. Every operator, infix or prefix, is one
//! `Op` applied to its arguments, so the parser's binding-power table and the checker's signature table are
//! the only two places that know about individual operators.

use crate::diag::Span;
use num_bigint::BigInt;
use std::sync::Arc;

/// Identifier text, shared (identifiers are copied a lot during definition expansion and flattening).
pub type Name = Arc<str>;

/// Name equality for the scans that compare one name with many of the same length (an environment's
/// bindings, a quantifier's variables: `x`, `y`, `dx`, `dy`): the first bytes settle most of them without
/// a call to `memcmp`, and a name shared by the lexer is often the very same string.
pub fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && (std::ptr::eq(a.as_ptr(), b.as_ptr())
            || (a.as_bytes().first() == b.as_bytes().first() && a == b))
}

/// An identifier occurrence with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: Name,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TermKind {
    /// An identifier (also `M.x` renamed identifiers, kept with the dot in the name; also `x$0`).
    Ident(Name),
    /// An integer literal (decimal or `0x..`).
    Int(BigInt),
    /// A string literal with escapes resolved.
    Str(String),
    /// A keyword constant: `TRUE`, `INTEGER`, `{}`, `btrue`, ...
    Const(ConstKind),
    /// An operator applied to its arguments (infix, prefix, postfix and function-like builtins alike).
    Op(Op, Vec<Term>),
    /// `f(a, b, ...)` where `f` is not a builtin: function application, or a parameterised DEFINITION call.
    /// Several arguments mean application to the tuple `a |-> b |-> ...` unless `f` is a definition.
    Call(Box<Term>, Vec<Term>),
    /// `!(x,y).(P)` / `#(x,y).(P)`.
    Quantifier(Quant, Vec<Ident>, Box<Term>),
    /// `{x, y | P}`.
    SetComprehension(Vec<Ident>, Box<Term>),
    /// Event-B style `{x, y . P | E}`.
    SetComprehensionExpr(Vec<Ident>, Box<Term>, Box<Term>),
    /// `%x,y.(P | E)`, `SIGMA(x).(P | E)`, `PI`, `UNION`, `INTER`.
    QuantExpr(QuantExprKind, Vec<Ident>, Box<Term>, Box<Term>),
    /// `{a, b, c}` (non-empty).
    SetEnum(Vec<Term>),
    /// `[a, b, c]` (non-empty).
    SeqEnum(Vec<Term>),
    /// `rec(a: E, b: F)`; field names without labels (`rec(E, F)`) are not B and are rejected by the parser.
    Record(Vec<(Ident, Term)>),
    /// `struct(a: S, b: T)`.
    Struct(Vec<(Ident, Term)>),
    /// `E'field`.
    Field(Box<Term>, Ident),
    /// `[r EXCEPT !.field = v]` (TLA+; B has no such expression): `r` with `field` replaced by `v`. The
    /// type checker lowers it to a record of all the fields, so it needs `r`'s record type at that point.
    RecordUpdate(Box<Term>, Ident, Box<Term>),
    /// `IF P THEN E ELSIF ... ELSE F END` as expression or predicate; branches are (condition, value).
    IfThenElse(Vec<(Term, Term)>, Box<Term>),
    /// `LET x, y BE x = E & y = F IN body END` as expression or predicate.
    Let(Vec<Ident>, Box<Term>, Box<Term>),
    /// A construct the parser recognised but bsolve does not support; the type checker reports it.
    Unsupported(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quant {
    Forall,
    Exists,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantExprKind {
    Lambda,
    Sigma,
    Pi,
    Union,
    Inter,
}

/// Keyword constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstKind {
    True,
    False,
    Btrue,
    Bfalse,
    EmptySet,
    EmptySeq,
    Integer,
    Natural,
    Natural1,
    Int,
    Nat,
    Nat1,
    Bool,
    String,
    MaxInt,
    MinInt,
}

/// Every operator of classical B. The comment gives the ASCII spelling; arity is fixed per operator except
/// `And`/`Or`, which are n-ary: a chain `a & b & c` is one node with all its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // --- predicates ---
    And,       // P & Q
    Or,        // P or Q
    Implies,   // P => Q
    Equiv,     // P <=> Q
    Not,       // not(P)
    Eq,        // E = F
    NotEq,     // E /= F
    In,        // E : S
    NotIn,     // E /: S
    Subset,    // S <: T
    NotSubset, // S /<: T
    Strict,    // S <<: T
    NotStrict, // S /<<: T
    Lt,        // <
    Le,        // <=
    Gt,        // >
    Ge,        // >=
    // --- booleans ---
    BoolOf, // bool(P)
    // --- integers ---
    Add,      // +
    Sub,      // - (binary; also set difference, decided by typing)
    Mul,      // * (also cartesian product, decided by typing)
    Div,      // /
    Mod,      // mod
    Power,    // **
    Neg,      // unary -
    Succ,     // succ(n) (also `succ` as a function value: see `OpValue`)
    Pred,     // pred(n)
    Max,      // max(S)
    Min,      // min(S)
    Interval, // n..m
    // --- sets ---
    Union,    // S \/ T
    Inter,    // S /\ T
    SetMinus, // S \ T
    Card,     // card(S)
    Pow,      // POW(S)
    Pow1,     // POW1(S)
    Fin,      // FIN(S)
    Fin1,     // FIN1(S)
    GenUnion, // union(SS)
    GenInter, // inter(SS)
    // --- relations ---
    Maplet,            // a |-> b (also `(a, b)` tuples)
    Relation,          // <->
    TotalRelation,     // <<->
    SurjRelation,      // <->>
    TotalSurjRelation, // <<->>
    PartialFunction,   // +->
    TotalFunction,     // -->
    PartialInjection,  // >+>
    TotalInjection,    // >->
    PartialSurjection, // +->>
    TotalSurjection,   // -->>
    PartialBijection,  // >+>>
    TotalBijection,    // >->>
    Dom,               // dom(r)
    Ran,               // ran(r)
    Id,                // id(S)
    DomRestrict,       // S <| r
    DomSubtract,       // S <<| r
    RanRestrict,       // r |> S
    RanSubtract,       // r |>> S
    Inverse,           // r~
    Image,             // r[S]
    Override,          // r <+ s
    DirectProduct,     // r >< s
    Composition,       // (r ; s)
    ParallelProduct,   // (r || s)
    Prj1,              // prj1(S, T) or prj1(pair)
    Prj2,              // prj2(S, T) or prj2(pair)
    Closure,           // closure(r)
    Closure1,          // closure1(r)
    Iterate,           // iterate(r, n)
    Fnc,               // fnc(r)
    Rel,               // rel(r)
    // --- sequences ---
    Seq,     // seq(S)
    Seq1,    // seq1(S)
    Iseq,    // iseq(S)
    Iseq1,   // iseq1(S)
    Perm,    // perm(S)
    Size,    // size(s)
    Concat,  // s ^ t
    Prepend, // e -> s
    Append,  // s <- e
    Rev,     // rev(s)
    First,   // first(s)
    Last,    // last(s)
    Front,   // front(s)
    Tail,    // tail(s)
    Conc,    // conc(ss)
    Take,    // s /|\ n
    Drop,    // s \|/ n
}

impl Op {
    /// Operators whose application is a predicate (connectives and comparisons); all others build
    /// expressions.
    pub fn is_predicate(self) -> bool {
        matches!(
            self,
            Op::And
                | Op::Or
                | Op::Implies
                | Op::Equiv
                | Op::Not
                | Op::Eq
                | Op::NotEq
                | Op::In
                | Op::NotIn
                | Op::Subset
                | Op::NotSubset
                | Op::Strict
                | Op::NotStrict
                | Op::Lt
                | Op::Le
                | Op::Gt
                | Op::Ge
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subst {
    pub kind: SubstKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SubstKind {
    Skip,
    /// `x, f(i), r'a := E, F, G` — left sides are identifiers, applications `f(i)` or field accesses.
    Assign(Vec<Term>, Vec<Term>),
    /// `x, y :: S`.
    BecomesElementOf(Vec<Ident>, Term),
    /// `x, y : (P)` — P may mention `x$0` for the before-value.
    BecomesSuchThat(Vec<Ident>, Term),
    /// `outs <-- op(args)`, also a bare `op(args)` / `op`; may also name a substitution DEFINITION.
    OpCall(Vec<Ident>, Ident, Vec<Term>),
    Parallel(Vec<Subst>),
    Sequence(Vec<Subst>),
    /// `ANY x, y WHERE P THEN S END`.
    Any(Vec<Ident>, Term, Box<Subst>),
    /// `LET x, y BE P IN S END`.
    Let(Vec<Ident>, Term, Box<Subst>),
    /// `VAR x, y IN S END`.
    Var(Vec<Ident>, Box<Subst>),
    /// `PRE P THEN S END`.
    Pre(Term, Box<Subst>),
    /// `ASSERT P THEN S END`.
    Assert(Term, Box<Subst>),
    /// `CHOICE S OR T OR ... END`.
    Choice(Vec<Subst>),
    /// `IF P THEN S ELSIF Q THEN T ... [ELSE U] END`.
    If(Vec<(Term, Subst)>, Option<Box<Subst>>),
    /// `SELECT P THEN S WHEN Q THEN T ... [ELSE U] END`; `WHEN P THEN S END` is a one-branch SELECT.
    Select(Vec<(Term, Subst)>, Option<Box<Subst>>),
    /// `CASE E OF EITHER a, b THEN S OR c THEN T ... [ELSE U] END END`.
    Case(Term, Vec<(Vec<Term>, Subst)>, Option<Box<Subst>>),
    /// `WHILE P DO S INVARIANT I VARIANT V END`.
    While {
        cond: Term,
        body: Box<Subst>,
        invariant: Term,
        variant: Term,
    },
}

/// One `DEFINITIONS` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: DefinitionBody,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DefinitionBody {
    /// An expression or predicate body.
    Term(Term),
    /// A substitution body.
    Subst(Subst),
    /// A body that is neither (e.g. `ASSERT_LTL == "..."` strings are `Term`; this is for bodies bsolve
    /// keeps only textually, such as visualisation definitions it ignores).
    Opaque(String),
}

/// One entry of a `.def` file: a definition, or an include of another `.def` file.
#[derive(Clone, Debug, PartialEq)]
pub enum DefinitionsItem {
    Definition(Box<Definition>),
    /// `"other.def"`, with the span of the string.
    Include(String, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineKind {
    Machine,
    Refinement,
    Implementation,
}

/// `SEES M`, `INCLUDES p.M(args)` ...
#[derive(Clone, Debug, PartialEq)]
pub struct MachineRef {
    /// Renaming prefix (`p` in `p.M`), if any.
    pub prefix: Option<Ident>,
    pub name: Ident,
    pub args: Vec<Term>,
    /// The file named by a `/*@file "PATH" */` pragma after the reference (relative to the referencing
    /// machine's folder), with the span of the path.
    pub file: Option<(String, Span)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SetDecl {
    pub name: Ident,
    /// `Some` for an enumerated set, `None` for a deferred set.
    pub elements: Option<Vec<Ident>>,
}

/// One free type of a `FREETYPES` clause (a ProB extension): `F = c1, c2(T), ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct FreeType {
    pub name: Ident,
    pub constructors: Vec<Constructor>,
}

/// A constructor of a free type: `c1` (a constant of the free type) or `c2(T)`, whose argument type `T` is
/// a type expression that may name free types of the clause, the constructor's own among them.
#[derive(Clone, Debug, PartialEq)]
pub struct Constructor {
    pub name: Ident,
    pub argument: Option<Term>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    pub name: Ident,
    pub outputs: Vec<Ident>,
    pub params: Vec<Ident>,
    pub body: Subst,
    pub span: Span,
}

/// A parsed machine (one file), or after `machine::load`, the flattened result.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    pub kind: MachineKind,
    pub name: Ident,
    pub params: Vec<Ident>,
    pub span: Span,
    /// `/*@package a.b */` before the header: the machine's folder is `a/b` below a root folder.
    pub package: Option<(String, Span)>,
    /// `/*@import-package c.d */` pragmas: folders `c/d` below that root, searched for referenced machines.
    pub import_packages: Vec<(String, Span)>,
    pub refines: Option<Ident>,
    pub sees: Vec<MachineRef>,
    pub uses: Vec<MachineRef>,
    pub includes: Vec<MachineRef>,
    pub extends: Vec<MachineRef>,
    pub imports: Vec<MachineRef>,
    pub promotes: Vec<Ident>,
    pub constraints: Option<Term>,
    pub sets: Vec<SetDecl>,
    /// The `FREETYPES` clause: free types, in order.
    pub freetypes: Vec<FreeType>,
    /// `CONSTANTS` / `ABSTRACT_CONSTANTS` / `CONCRETE_CONSTANTS`, in order; the flag is true for concrete.
    pub constants: Vec<(Ident, bool)>,
    pub properties: Option<Term>,
    /// `VARIABLES` / `ABSTRACT_VARIABLES` / `CONCRETE_VARIABLES`; the flag is true for concrete.
    pub variables: Vec<(Ident, bool)>,
    pub invariant: Option<Term>,
    pub assertions: Vec<Term>,
    pub initialisation: Option<Subst>,
    pub operations: Vec<Operation>,
    /// `LOCAL_OPERATIONS` (Atelier B implementations): specifications of operations that only the
    /// machine's own operations call; their implementations, if given, are among `operations`.
    pub local_operations: Vec<Operation>,
    pub definitions: Vec<Definition>,
    /// `"file.def"` includes listed in DEFINITIONS, in order, for the loader to resolve.
    pub definition_files: Vec<(String, Span)>,
    /// The VALUES clause of an implementation: `x = E` for a concrete constant or a deferred set.
    pub values: Vec<(Ident, Term)>,
    /// Clauses bsolve parses but does not support (REFERENCES, EXPRESSIONS, ...): name and span, reported by the
    /// type checker as "unsupported: ...".
    pub unsupported_clauses: Vec<(String, Span)>,
    /// ProB standard-library `.def` files (`LibraryIO.def`, `CHOOSE.def` ...) that the machine includes and
    /// bsolve does not provide; identifiers they would define are reported as unsupported, not unknown.
    pub skipped_libraries: Vec<(String, Span)>,
    /// Lowered from a TLA+ module: the type checker lets scalars of distinct kinds meet in a TLA+ value of
    /// mixed kind (`types::tla_value`), as TLA+ is untyped; false for every B machine.
    pub tla_values: bool,
}

impl Machine {
    /// An empty machine of the given kind and name.
    pub fn new(kind: MachineKind, name: Ident, span: Span) -> Machine {
        Machine {
            kind,
            name,
            params: vec![],
            span,
            package: None,
            import_packages: vec![],
            refines: None,
            sees: vec![],
            uses: vec![],
            includes: vec![],
            extends: vec![],
            imports: vec![],
            promotes: vec![],
            constraints: None,
            sets: vec![],
            freetypes: vec![],
            constants: vec![],
            properties: None,
            variables: vec![],
            invariant: None,
            assertions: vec![],
            initialisation: None,
            operations: vec![],
            local_operations: vec![],
            definitions: vec![],
            definition_files: vec![],
            values: vec![],
            unsupported_clauses: vec![],
            skipped_libraries: vec![],
            tla_values: false,
        }
    }
}

impl Term {
    pub fn new(kind: TermKind, span: Span) -> Term {
        Term { kind, span }
    }
}
