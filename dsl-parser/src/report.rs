//! A checked file's diagnostics with the sources they point into, rendered at the edge.
//!
//! The libraries that check a model for a front end (code generation, the interpreter)
//! return a [`Report`] rather than rendered text, so that each front end shows it its
//! own way: as text like rustc (`sitc`, a build script), as JSON (an editor, a language
//! server), or with its paths re-located (the `include_model!` macro shows them relative
//! to the crate that invokes it).

use crate::diag::{Diagnostic, render_all};
use crate::source::SourceMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Diagnostics (errors, warnings, or both) and every file they were found in.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file read (the root and its imports), with its text.
    pub sources: SourceMap,
}

impl Report {
    /// A report of `diagnostics` found in `sources`.
    pub fn new(diagnostics: Vec<Diagnostic>, sources: SourceMap) -> Report {
        Report {
            diagnostics,
            sources,
        }
    }

    /// Whether there is no diagnostic at all.
    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every diagnostic as plain text (like rustc, without colour), with a summary line;
    /// empty when there is none. Paths are shown as the files were given or imported.
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }

    /// One JSON object per diagnostic (the form of `sitc check --format json`).
    pub fn to_json(&self) -> Vec<serde_json::Value> {
        (self.diagnostics.iter())
            .map(|d| d.to_json(&self.sources))
            .collect()
    }

    /// The same report without the warnings whose code is in `codes` (errors are
    /// always kept): what `sitc --allow CODE` and `Builder::allow` show.
    pub fn allowing<S: AsRef<str>>(&self, codes: &[S]) -> Report {
        let allowed = |d: &Diagnostic| !d.is_error() && codes.iter().any(|c| c.as_ref() == d.code);
        Report {
            diagnostics: self
                .diagnostics
                .iter()
                .filter(|d| !allowed(d))
                .cloned()
                .collect(),
            sources: self.sources.clone(),
        }
    }

    /// The same report with its errors only (what `sitc -q` shows).
    pub fn errors_only(&self) -> Report {
        Report {
            diagnostics: self
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect(),
            sources: self.sources.clone(),
        }
    }

    /// The paths of every file read, for rebuilding when one changes.
    pub fn files(&self) -> Vec<PathBuf> {
        self.sources.files.iter().map(|f| f.path.clone()).collect()
    }

    /// The same report with every file's path replaced by `relocate(path)`, for a front
    /// end that shows paths relative to its own folder.
    pub fn relocated(&self, relocate: impl Fn(&Path) -> PathBuf) -> Report {
        let mut sources = self.sources.clone();
        for file in &mut sources.files {
            file.path = relocate(&file.path);
        }
        Report {
            diagnostics: self.diagnostics.clone(),
            sources,
        }
    }

    /// The same report with the paths under `base` shown relative to it (the others
    /// unchanged).
    pub fn relative_to(&self, base: &Path) -> Report {
        self.relocated(|path| {
            path.strip_prefix(base)
                .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
        })
    }
}

/// [`Report::render`].
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}
