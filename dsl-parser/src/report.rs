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

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        let out = crate::check_source("/home/u/crate/models/m.sit", "model M { real x = ; }");
        Report::new(out.diagnostics, out.sources)
    }

    #[test]
    fn renders_as_given_or_relocated() {
        let r = report();
        assert!(r.has_errors() && !r.is_empty());
        assert!(
            r.render()
                .starts_with("/home/u/crate/models/m.sit:1:20: error[E0001]")
        );
        assert_eq!(r.to_string(), r.render());
        let local = r.relative_to(Path::new("/home/u/crate"));
        assert!(
            local
                .render()
                .starts_with("models/m.sit:1:20: error[E0001]")
        );
        assert_eq!(local.files(), [PathBuf::from("models/m.sit")]);
        let elsewhere = r.relative_to(Path::new("/elsewhere"));
        assert_eq!(elsewhere.render(), r.render());
    }

    #[test]
    fn allowing_and_errors_only_keep_the_errors() {
        let out = crate::check_source("m.sit", "model M { real a; real b = ; }");
        let r = Report::new(out.diagnostics, out.sources);
        let out = crate::check_source("w.sit", "model M { real a, b; }");
        let w = Report::new(out.diagnostics, out.sources);
        assert_eq!(w.diagnostics.len(), 2);
        assert!(w.allowing(&["W0201"]).is_empty());
        assert_eq!(w.allowing(&["W0202"]).diagnostics.len(), 2);
        assert!(w.errors_only().is_empty());
        assert!(r.has_errors());
        assert!(r.allowing(&["E0001"]).has_errors());
        assert!(r.errors_only().has_errors());
    }

    #[test]
    fn json_has_one_object_per_diagnostic() {
        let r = report();
        let json = r.to_json();
        assert_eq!(json.len(), r.diagnostics.len());
        assert_eq!(json[0]["code"], "E0001");
        assert_eq!(json[0]["location"]["file"], "/home/u/crate/models/m.sit");
        assert_eq!(json[0]["location"]["line"], 1);
    }
}
