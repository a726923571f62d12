//! Source positions and diagnostics.
//!
//! Every diagnostic carries a `Span` that can be rendered as `file:line:col` with the offending line and a
//! caret. Source texts are registered once in a process-wide table so that a `Span` stays a small `Copy`
//! value (file id + byte range) and any layer can render it without threading a source map around.

use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

/// Identifies a registered source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in a registered source. `Span::default()` (file 0, empty) is the "no position" span used for
/// synthesised nodes; file 0 is reserved for `<generated>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (same file assumed; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// `(path, line, col)`, 1-based, or `None` for the generated span.
    pub fn location(&self) -> Option<(String, usize, usize)> {
        let file = source(self.file)?;
        let (line, col) = file.line_col(self.start as usize);
        Some((file.path.clone(), line, col))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location() {
            Some((path, line, col)) => write!(f, "{path}:{line}:{col}"),
            None => write!(f, "<generated>"),
        }
    }
}

/// One registered source text.
#[derive(Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
    /// Byte offsets of the line starts, found when a position is first shown: most runs show none.
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    fn new(path: &str, text: String) -> SourceFile {
        SourceFile {
            path: path.into(),
            text,
            line_starts: OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(self.text.match_indices('\n').map(|(i, _)| i + 1));
            starts
        })
    }

    /// 1-based line and column (column counted in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line_starts = self.line_starts();
        let line = match line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = line_starts[line];
        let end = offset.min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map(|s| s.chars().count())
            .unwrap_or(end - start);
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let line_starts = self.line_starts();
        let start = line_starts[line - 1];
        let end = line_starts.get(line).copied().unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

fn sources() -> &'static RwLock<Vec<Arc<SourceFile>>> {
    static SOURCES: OnceLock<RwLock<Vec<Arc<SourceFile>>>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        RwLock::new(vec![Arc::new(SourceFile::new(
            "<generated>",
            String::new(),
        ))])
    })
}

/// Registers a source text and returns its id. Registering the same path and text twice returns the first id.
pub fn register_source(path: &str, text: &str) -> FileId {
    register_source_text(path, text.into()).0
}

/// `register_source` taking the text over, and handing back the registered file to read it from: a
/// machine file is kept once, not read into one buffer and copied into the table.
pub fn register_source_text(path: &str, text: String) -> (FileId, Arc<SourceFile>) {
    let table = sources();
    {
        let read = table.read().expect("source table poisoned");
        if let Some(i) = read.iter().position(|f| f.path == path && f.text == text) {
            return (FileId(i as u32), read[i].clone());
        }
    }
    let mut write = table.write().expect("source table poisoned");
    let file = Arc::new(SourceFile::new(path, text));
    write.push(file.clone());
    (FileId((write.len() - 1) as u32), file)
}

/// The registered source of an id (`None` for the generated file or an unknown id).
pub fn source(id: FileId) -> Option<Arc<SourceFile>> {
    if id.0 == 0 {
        return None;
    }
    sources()
        .read()
        .expect("source table poisoned")
        .get(id.0 as usize)
        .cloned()
}

/// What kind of problem a diagnostic reports; decides the exit code in `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKind {
    /// Lexical or syntax error.
    Syntax,
    /// Type error or unresolved identifier.
    Type,
    /// Missing or unreadable file, bad machine reference.
    File,
    /// A construct the engine does not support (yet); the message starts with "unsupported: ".
    Unsupported,
    /// Bad command-line usage or option value.
    Usage,
    /// A well-definedness error found during evaluation (division by zero, application outside domain...).
    WellDefinedness,
    /// A resource limit was hit (too large to enumerate, timeout).
    Limit,
    /// A bug in bsolve.
    Internal,
}

/// A user-facing error with a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn new(kind: DiagKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            span,
            message: message.into(),
        }
    }
    pub fn syntax(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(DiagKind::Syntax, span, message)
    }
    pub fn type_error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(DiagKind::Type, span, message)
    }
    pub fn unsupported(span: Span, construct: impl fmt::Display) -> Diagnostic {
        Diagnostic::new(
            DiagKind::Unsupported,
            span,
            format!("unsupported: {construct}"),
        )
    }

    /// `file:line:col: error: message`, then the source line and a caret under the position.
    pub fn render(&self) -> String {
        if self.span.location().is_none() {
            // No position (a missing file named on the command line, a bad option): no `<generated>:` prefix.
            return format!("{}: {}", self.kind_label(), self.message);
        }
        let mut out = format!("{}: {}: {}", self.span, self.kind_label(), self.message);
        if let Some(file) = source(self.span.file) {
            let (line, col) = file.line_col(self.span.start as usize);
            let text = file.line_text(line);
            let width = if self.span.end > self.span.start {
                let (eline, ecol) = file.line_col(self.span.end as usize);
                if eline == line {
                    (ecol - col).max(1)
                } else {
                    1
                }
            } else {
                1
            };
            out.push_str(&format!(
                "\n  {text}\n  {}{}",
                " ".repeat(col - 1),
                "^".repeat(width)
            ));
        }
        out
    }

    fn kind_label(&self) -> &'static str {
        match self.kind {
            DiagKind::Syntax => "syntax error",
            DiagKind::Type => "type error",
            DiagKind::File => "file error",
            DiagKind::Unsupported => "error",
            DiagKind::Usage => "usage error",
            DiagKind::WellDefinedness => "well-definedness error",
            DiagKind::Limit => "limit",
            DiagKind::Internal => "internal error",
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span.location() {
            Some(_) => write!(f, "{}: {}", self.span, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

pub type Result<T, E = Diagnostic> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_and_column_with_caret() {
        let id = register_source("t.mch", "MACHINE M\nCONSTANTS x\nPROPERTIES x = = 1\nEND\n");
        let offset = "MACHINE M\nCONSTANTS x\nPROPERTIES x = ".len();
        let span = Span::new(id, offset, offset + 1);
        let d = Diagnostic::syntax(span, "unexpected `=`");
        assert_eq!(d.to_string(), "t.mch:3:16: unexpected `=`");
        assert!(
            d.render()
                .ends_with("PROPERTIES x = = 1\n                 ^"),
            "{}",
            d.render()
        );
    }
}
