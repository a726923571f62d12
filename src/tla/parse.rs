//! Parsing TLA+ modules with the tree-sitter grammar `tree-sitter-tlaplus`.
//!
//! The grammar recovers from errors by inserting `ERROR` and `MISSING` nodes; the first of them is our
//! syntax error (tree-sitter itself never fails on a well-formed call). A module keeps its text and tree
//! together so that the lowering can read node texts and turn node positions into `Span`s.

use crate::diag::{Diagnostic, FileId, Result, Span, register_source};
use tree_sitter::{Node, Parser, Tree};

/// One parsed `.tla` file.
pub struct SourceModule {
    pub file: FileId,
    pub text: String,
    pub tree: Tree,
}

impl SourceModule {
    /// Parses `text` (registered under `path` for diagnostics); the first error node is a syntax error.
    pub fn parse(path: &str, text: String) -> Result<SourceModule> {
        let file = register_source(path, &text);
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_tlaplus::LANGUAGE.into())
            .expect("the bundled grammar matches the tree-sitter runtime");
        let tree = parser
            .parse(&text, None)
            .expect("parsing without a timeout or cancellation flag always returns a tree");
        let module = SourceModule { file, text, tree };
        if let Some(bad) = first_error(module.tree.root_node()) {
            let what = if bad.is_missing() {
                format!("syntax error: missing `{}`", bad.kind())
            } else {
                let snippet: String = module.text(bad).chars().take(40).collect();
                format!("syntax error near `{}`", snippet.trim())
            };
            return Err(Diagnostic::syntax(module.span(bad), what));
        }
        Ok(module)
    }

    /// The source text of a node.
    pub fn text(&self, node: Node<'_>) -> &str {
        &self.text[node.byte_range()]
    }

    pub fn span(&self, node: Node<'_>) -> Span {
        Span::new(self.file, node.start_byte(), node.end_byte())
    }

    /// The name of the file's (first) module.
    pub fn name(&self) -> Option<&str> {
        let module = self.module().ok()?;
        Some(self.text(module.child_by_field_name("name")?))
    }

    /// The `module` node: the first one of the file (a file may hold further modules after it; TLC reads
    /// the first).
    pub fn module(&self) -> Result<Node<'_>> {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        let found = root
            .named_children(&mut cursor)
            .find(|n| n.kind() == "module");
        found.ok_or_else(|| {
            Diagnostic::syntax(
                Span::new(self.file, 0, 0),
                "no `---- MODULE Name ----` header",
            )
        })
    }
}

/// The first `ERROR` or `MISSING` node in document order.
fn first_error(node: Node<'_>) -> Option<Node<'_>> {
    if !node.has_error() {
        return None;
    }
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    children.into_iter().find_map(first_error).or(Some(node))
}

/// The named children of a node that are not comments.
pub fn children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !matches!(c.kind(), "comment" | "block_comment"))
        .collect()
}

/// The named children under field `field`, comments left out.
pub fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor)
        .filter(|c| c.is_named() && !matches!(c.kind(), "comment" | "block_comment"))
        .collect()
}

/// Whether `test` holds for `node` or a node below it.
pub fn any_node(node: Node<'_>, test: &dyn Fn(Node<'_>) -> bool) -> bool {
    if test(node) {
        return true;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|c| any_node(c, test))
}
