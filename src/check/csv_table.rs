//! Reading the CSV files of `bsolve bench` (the suite) and `bsolve solve --pred-file` (the predicate
//! corpus): open, find the named columns, and turn every CSV error into a located file diagnostic.

use crate::diag::{DiagKind, Diagnostic, Span};
use std::fs::File;
use std::path::Path;

/// A file diagnostic about `path`.
pub(crate) fn file_error(path: &Path, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        DiagKind::File,
        Span::default(),
        format!("{}: {what}", path.display()),
    )
}

/// Opens `path` with `builder` and returns the reader and the indices of the columns `names` (headers
/// compared without surrounding blanks), in the order asked.
pub(crate) fn open<const N: usize>(
    builder: &csv::ReaderBuilder,
    path: &Path,
    names: [&str; N],
) -> Result<(csv::Reader<File>, [usize; N]), Diagnostic> {
    let mut reader = builder.from_path(path).map_err(|e| file_error(path, e))?;
    let headers = reader.headers().map_err(|e| file_error(path, e))?.clone();
    let mut columns = [0; N];
    for (slot, name) in columns.iter_mut().zip(names) {
        *slot = headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| file_error(path, format!("no `{name}` column")))?;
    }
    Ok((reader, columns))
}
