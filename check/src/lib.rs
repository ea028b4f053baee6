//! The checker of the Sit compiler: resolves names, checks types, units and rules of
//! parsed `.sit` files into the checked IR ([`ir::Program`]) and lints it; `sit-lower`
//! lowers it into the program the back ends run. The syntax is `sit-parser`'s,
//! re-exported.
//!
//! ```
//! let out = sit_check::check_source("hoop.sit", "model M { real x = 1; x = integral(-x); }");
//! assert!(!out.has_errors());
//! let program = out.program.unwrap();
//! assert_eq!(program.models[0].name, "M");
//! ```
#![deny(missing_docs)]

pub mod allow;
pub mod check;
pub mod ir;
mod ir_print;
pub mod lint;
pub mod rows;
pub mod term;
pub mod units;

pub use sit_parser::{Diagnostic, Report, Severity, SourceMap, Span};
pub use sit_parser::{ReadError, ast, diag, load, parse, report, source, suggest};

use std::path::{Path, PathBuf};

/// The result of checking a root file and its imports.
#[derive(Debug)]
pub struct Output {
    /// The checked program, when there is no error.
    pub program: Option<ir::Program>,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file read, for rendering the diagnostics.
    pub sources: SourceMap,
}

impl Output {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every diagnostic rendered as plain text, with a summary line.
    pub fn render(&self) -> String {
        diag::render_all(&self.diagnostics, &self.sources)
    }

    /// Every file that was read (the root and its imports), for
    /// `cargo:rerun-if-changed`.
    pub fn files(&self) -> Vec<PathBuf> {
        self.sources.files.iter().map(|f| f.path.clone()).collect()
    }

    /// The program (when there is no error) and the [`Report`] of every diagnostic,
    /// for a front end that renders them its own way.
    pub fn into_report(self) -> (Option<ir::Program>, Report) {
        let valid = !self.has_errors();
        let program = self.program.filter(|_| valid);
        (program, Report::new(self.diagnostics, self.sources))
    }
}

/// Check the file at `path` and everything it imports.
pub fn check_file(path: impl AsRef<Path>) -> Result<Output, ReadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| ReadError {
        path: path.to_path_buf(),
        reason: load::io_reason(&e),
    })?;
    Ok(check_bytes(path, bytes, &|p: &Path| std::fs::read(p)))
}

/// Check source text given in memory; `path` names it in messages and
/// anchors relative imports, which are read from the file system.
pub fn check_source(path: impl AsRef<Path>, text: &str) -> Output {
    check_bytes(path.as_ref(), text.as_bytes().to_vec(), &|p: &Path| {
        std::fs::read(p)
    })
}

/// Check raw bytes with a custom reader for imports (for tests and tools
/// that keep files in memory).
pub fn check_bytes(path: &Path, bytes: Vec<u8>, read: &load::ReadFn) -> Output {
    check_bytes_with(path, bytes, read, None)
}

/// [`check_bytes`], every model integrated by `method` when one is given (a run's
/// `--method`, see [`check::check_with`]).
pub fn check_bytes_with(
    path: &Path,
    bytes: Vec<u8>,
    read: &load::ReadFn,
    method: Option<ir::Method>,
) -> Output {
    let mut diagnostics = Vec::new();
    let loaded = load::load(path, bytes, read, &mut diagnostics);
    let program = if diagnostics.iter().any(Diagnostic::is_error) {
        // Still check what parsed, to report every error we can.
        let _ = check::check_with(&loaded.files, &loaded.sources, &mut diagnostics, method);
        None
    } else {
        let mut p = check::check_with(&loaded.files, &loaded.sources, &mut diagnostics, method);
        if let Some(p) = &mut p {
            lint::lint(p, &mut diagnostics);
            allow::apply(&loaded.files, &mut diagnostics);
            allow::mark_non_finite(&loaded.files, p);
        }
        // The lints' one error (E0477) makes the program invalid too.
        p.filter(|_| !diagnostics.iter().any(Diagnostic::is_error))
    };
    // The lints' warnings of a rule written in a loop (a cell of an array), once.
    check::arrays::once_per_place(&mut diagnostics, &check::arrays::places(&loaded.files));
    diagnostics.sort_by_key(|d| (d.span.file, d.span.start));
    Output {
        program,
        diagnostics,
        sources: loaded.sources,
    }
}
