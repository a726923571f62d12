//! ProB's external functions, predicates and substitutions that bsolve provides, with their exact meaning.
//!
//! ProB marks a DEFINITION `F` as external when a companion definition `EXTERNAL_FUNCTION_F` (or
//! `EXTERNAL_PREDICATE_F`, `EXTERNAL_SUBSTITUTION_F`) exists, or when `F` comes from one of its library files
//! (`LibraryStrings.def`, `LibraryIO.def`, `CHOOSE.def` ...), which bsolve does not read. Such an `F` is then
//! not expanded: its calls are lowered here.
//!
//! * an external function call `F(a, b)` becomes `Apply(Var(external_var(F)), a |-> b)`; the variable is
//!   never bound, the interpreter recognises its name (`eval::external`) and computes the result;
//! * an external predicate with no logical content (`observe`) becomes `btrue`, an output-only substitution
//!   (`PRINTF`) becomes `skip`, after their arguments are type-checked;
//! * `ARGC` (the number of command-line arguments given to the model, none in bsolve) is the integer 0.

use super::Type;
use super::unify::Unifier;
use crate::syntax::ast::{Definition, Name};

/// How an external identifier is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalKind {
    /// A function: called with arguments, the result computed by `eval::external`.
    Function,
    /// A predicate that is always true (its effect is output only).
    TruePredicate,
    /// A substitution that changes nothing (its effect is output only).
    SkipSubstitution,
    /// An integer constant.
    IntConstant(i64),
}

/// One external identifier bsolve provides.
struct External {
    name: &'static str,
    /// The ProB library file that defines it.
    library: &'static str,
    kind: ExternalKind,
}

const EXTERNALS: &[External] = &[
    External {
        name: "STRING_LENGTH",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "STRING_APPEND",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "STRING_CONC",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "STRING_CHARS",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "STRING_CODES",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "INT_TO_STRING",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "FORMAT_TO_STRING",
        library: "LibraryStrings.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "CHOOSE",
        library: "CHOOSE.def",
        kind: ExternalKind::Function,
    },
    External {
        name: "MAXIMIZE",
        library: "",
        kind: ExternalKind::Function,
    },
    External {
        name: "ASSERT_TRUE",
        library: "",
        kind: ExternalKind::Function,
    },
    External {
        name: "observe",
        library: "LibraryIO.def",
        kind: ExternalKind::TruePredicate,
    },
    External {
        name: "PRINTF",
        library: "LibraryIO.def",
        kind: ExternalKind::SkipSubstitution,
    },
    External {
        name: "printf",
        library: "LibraryIO.def",
        kind: ExternalKind::TruePredicate,
    },
    External {
        name: "ARGC",
        library: "LibraryIO.def",
        kind: ExternalKind::IntConstant(0),
    },
];

/// The B-Book's tree operators (`eval::trees`), keywords in ProB: available in every machine unless a
/// declared or bound identifier has the name.
const TREE_OPERATORS: &[&str] = &[
    "tree", "btree", "const", "top", "sons", "prefix", "postfix", "sizet", "mirror", "rank",
    "father", "son", "subtree", "arity", "bin", "left", "right", "infix",
];

/// The prefix of the IR variable that stands for an external function (`$` cannot start a B identifier).
const VAR_PREFIX: &str = "$external:";

/// The name of the IR variable standing for external function `name`.
pub(super) fn external_var(name: &str) -> Name {
    format!("{VAR_PREFIX}{name}").into()
}

/// The external function an IR variable stands for, if it is one.
pub fn external_of_var(var: &str) -> Option<&str> {
    var.strip_prefix(VAR_PREFIX)
}

/// The external identifiers available in a machine: those of the skipped ProB libraries it includes, and
/// those its definitions mark external with an `EXTERNAL_FUNCTION_`/`EXTERNAL_PREDICATE_`/
/// `EXTERNAL_SUBSTITUTION_` companion.
pub(super) fn available(skipped_libraries: &[String], definitions: &[Definition]) -> Vec<Name> {
    EXTERNALS
        .iter()
        .filter(|e| {
            skipped_libraries.iter().any(|l| l == e.library)
                || definitions
                    .iter()
                    .any(|d| marks_external(&d.name.name, e.name))
        })
        .map(|e| Name::from(e.name))
        // A definition of the name is the machine's own operator.
        .chain(
            TREE_OPERATORS
                .iter()
                .filter(|&&n| !definitions.iter().any(|d| &*d.name.name == n))
                .map(|&n| Name::from(n)),
        )
        .collect()
}

/// True when definition `def` is the `EXTERNAL_..._name` companion of `name`.
fn marks_external(def: &str, name: &str) -> bool {
    [
        "EXTERNAL_FUNCTION_",
        "EXTERNAL_PREDICATE_",
        "EXTERNAL_SUBSTITUTION_",
    ]
    .iter()
    .any(|p| def.strip_prefix(p) == Some(name))
}

/// The kind of external identifier `name`.
pub(super) fn kind(name: &str) -> Option<ExternalKind> {
    if TREE_OPERATORS.contains(&name) {
        return Some(ExternalKind::Function);
    }
    EXTERNALS.iter().find(|e| e.name == name).map(|e| e.kind)
}

/// The argument and result types of external function `name` called with `arity` arguments (argument
/// types in order), with fresh variables for its polymorphic parts, as ProB's `EXTERNAL_FUNCTION_`
/// declarations give them.
pub(super) fn signature(name: &str, arity: usize, u: &mut Unifier) -> Option<(Vec<Type>, Type)> {
    if TREE_OPERATORS.contains(&name) {
        return Some(tree_signature(name, arity, u.fresh()));
    }
    Some(match name {
        "STRING_LENGTH" => (vec![Type::String], Type::Integer),
        "STRING_APPEND" => (vec![Type::String, Type::String], Type::String),
        "STRING_CONC" => (vec![Type::seq(Type::String)], Type::String),
        "STRING_CHARS" => (vec![Type::String], Type::seq(Type::String)),
        "STRING_CODES" => (vec![Type::String], Type::seq(Type::Integer)),
        "INT_TO_STRING" => (vec![Type::Integer], Type::String),
        "FORMAT_TO_STRING" => (vec![Type::String, Type::seq(u.fresh())], Type::String),
        "CHOOSE" | "MAXIMIZE" => {
            let t = u.fresh();
            (vec![Type::set(t.clone())], t)
        }
        "ASSERT_TRUE" => (vec![Type::Bool, Type::String], Type::Bool),
        _ => return None,
    })
}

/// The name the interpreter knows a call of `name` with `arity` arguments by: `bin(l, x, r)` is `bin3`,
/// apart from the leaf `bin(x)`.
pub(super) fn overload(name: &str, arity: usize) -> &str {
    match (name, arity) {
        ("bin", 3) => "bin3",
        _ => name,
    }
}

/// A tree operator's signature over trees of `s` (`POW(seq(INTEGER) * s)`; a node is a path,
/// `seq(INTEGER)`).
fn tree_signature(name: &str, arity: usize, s: Type) -> (Vec<Type>, Type) {
    let path = Type::seq(Type::Integer);
    let tree = Type::relation(path.clone(), s.clone());
    match (name, arity) {
        ("tree" | "btree", _) => (vec![Type::set(s)], Type::set(tree)),
        ("const", _) => (vec![s, Type::seq(tree.clone())], tree),
        ("top", _) => (vec![tree], s),
        ("sons", _) => (vec![tree.clone()], Type::seq(tree)),
        ("prefix" | "postfix" | "infix", _) => (vec![tree], Type::seq(s)),
        ("sizet", _) => (vec![tree], Type::Integer),
        ("mirror" | "left" | "right", _) => (vec![tree.clone()], tree),
        ("rank" | "arity", _) => (vec![tree, path], Type::Integer),
        ("father", _) => (vec![tree, path.clone()], path),
        ("son", _) => (vec![tree, path.clone(), Type::Integer], path),
        ("subtree", _) => (vec![tree.clone(), path], tree),
        ("bin", 3) => (vec![tree.clone(), s, tree.clone()], tree),
        // `bin(x)`, and any other arity reported against this one.
        _ => (vec![s], tree),
    }
}
