//! FREETYPES (ProB's free types): the clause is parsed — several `;`-separated types, constructors with
//! and without an argument — and a malformed clause is bad input with its position. Typing and
//! evaluating free types is not provided yet: a well-formed clause is reported as unsupported at the
//! first free type, never silently ignored.

mod common;

use common::bsolve;

/// A machine with a recursive and a non-recursive free type (not among the bundled models, which all
/// run, until free types are evaluated).
const FREE_TYPES: &str = r#"/* Free types (ProB's FREETYPES): a recursive list of integers used as a stack (push/pop/peek), and a
   non-recursive free type, all of whose values are finite, used as a parameter domain. */
MACHINE FreeTypes
FREETYPES
  IntList = inil, icons(INTEGER*IntList);
  Colour = red, green, mix(BOOL)
VARIABLES list, last
INVARIANT list : IntList & last : Colour
INITIALISATION list := inil || last := red
OPERATIONS
  push(value) = PRE value : 1..2 & list = inil THEN list := icons(value, list) END;
  pop = PRE list /= inil THEN list := prj2(INTEGER, IntList)(icons~(list)) END;
  value <-- peek = PRE list : ran(icons) THEN value := prj1(INTEGER, IntList)(icons~(list)) END;
  paint(c) = PRE c : Colour THEN last := c END
END
"#;

/// Writes a machine of the test's own into a fresh temporary directory; its path as an argument.
fn temp_machine(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bsolve-freetypes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.mch"));
    std::fs::write(&file, text).expect("write");
    file.display().to_string()
}

#[test]
fn a_well_formed_freetypes_clause_is_reported_unsupported_at_the_free_type() {
    let (code, out, err) = bsolve(&["mc", &temp_machine("FreeTypes", FREE_TYPES)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("FreeTypes.mch:5:3") && err.contains("unsupported: clause FREETYPES"),
        "{err}"
    );
}

#[test]
fn a_malformed_freetypes_clause_is_a_syntax_error_with_its_position() {
    for (text, position, words) in [
        (
            "MACHINE Bad\nFREETYPES Tree leaf\nEND\n",
            "Bad.mch:2:16",
            "after the name of a free type",
        ),
        (
            "MACHINE Bad\nFREETYPES Tree = leaf, node(Tree*Tree\nEND\n",
            "Bad.mch:3:1",
            "after the argument type of a constructor",
        ),
    ] {
        let file = temp_machine("Bad", text);
        let (code, out, err) = bsolve(&["check", &file]);
        assert_eq!(code, 3, "{out}{err}");
        assert!(err.contains(position) && err.contains(words), "{err}");
    }
}
