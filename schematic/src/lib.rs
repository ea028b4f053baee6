//! Schematics: mechanical dynamic-model diagrams drawn on a grid in `.sch` text, turned
//! into the incidence matrices of the SMM_Model method and into a `.sit` model.
//!
//! ```
//! let text = "schematic Two {
//!     grid {
//!         J1 K J2
//!     }
//!     inertia J1 (J = 1);
//!     inertia J2 (J = 2);
//!     spring K (c = 100);
//!     action M on +J1 = 1;
//! }";
//! let (found, report) = sit_schematic::analyse_source("two.sch", text);
//! assert!(!report.has_errors(), "{}", report.render());
//! let a = found.unwrap();
//! assert_eq!(a.matrices().get("elastic").unwrap().entries, vec![vec![-1], vec![1]]);
//! assert!(a.to_sit(None).text.contains("model Two"));
//! ```
#![deny(missing_docs)]

pub mod ast;
pub mod clutch;
pub mod equations;
pub mod layout;
pub mod matrix;
pub mod parse;
pub mod search;
pub mod svg;

pub use ast::Form;
use sit_check::Output;
use sit_parser::source::{FileId, SourceMap};
use sit_parser::{Diagnostic, ReadError, Report, Span};
use std::path::{Path, PathBuf};

/// A schematic that passed every check, with the paths its search recorded.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The parsed file.
    pub schematic: ast::Schematic,
    /// The resolved grid.
    pub layout: layout::Layout,
    /// Every (element pole → inertia) path, element by element in number order.
    pub links: Vec<search::Link>,
    /// The `.sch` source.
    pub source: sit_parser::source::SourceFile,
}

impl Analysis {
    /// The matrices (Tables 2–6 of the paper for its example).
    pub fn matrices(&self) -> matrix::Matrices {
        matrix::matrices(&self.schematic, &self.links)
    }

    /// The matrices and paths as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        matrix::to_json(&self.schematic, &self.matrices(), &self.links)
    }

    /// The torque form used when none is asked for: the file's `equations` item, else
    /// the power-consistent form.
    pub fn form(&self) -> Form {
        self.schematic.form.unwrap_or_default()
    }

    /// The generated `.sit` model in `form` (the file's default when `None`).
    pub fn to_sit(&self, form: Option<Form>) -> equations::Generated {
        let weights: Vec<Vec<String>> = (self.layout.poles.iter())
            .map(|ps| ps.iter().map(|p| p.weight_text.clone()).collect())
            .collect();
        equations::emit(
            &self.schematic,
            &self.links,
            &weights,
            form.unwrap_or(self.form()),
            &self.source,
        )
    }
}

/// Whether `path` names a schematic (extension `.sch`).
pub fn is_schematic(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "sch")
}

/// Parse and check a `.sch` text that is file `file` of `sources`.
pub fn analyse(sources: &SourceMap, file: FileId, diags: &mut Vec<Diagnostic>) -> Option<Analysis> {
    let src = sources.file(file);
    let s = match parse::parse(file, &src.text) {
        Ok(s) => s,
        Err(d) => {
            diags.extend(d);
            return None;
        }
    };
    let lay = layout::layout(&s, diags)?;
    let links = search::search(&s, &lay, diags)?;
    Some(Analysis {
        schematic: s,
        layout: lay,
        links,
        source: src.clone(),
    })
}

/// Parse and check `.sch` text given in memory; `path` names it in messages.
pub fn analyse_source(path: impl AsRef<Path>, text: &str) -> (Option<Analysis>, Report) {
    let mut sources = SourceMap::default();
    let id = sources.add(path.as_ref(), text);
    let mut diags = Vec::new();
    let a = analyse(&sources, id, &mut diags);
    diags.sort_by_key(|d| (d.span.file, d.span.start));
    (
        a.filter(|_| !diags.iter().any(Diagnostic::is_error)),
        Report::new(diags, sources),
    )
}

/// Read and check the `.sch` file at `path`.
pub fn analyse_file(path: impl AsRef<Path>) -> Result<(Option<Analysis>, Report), ReadError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    Ok(analyse_source(path, &text))
}

fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = std::fs::read(path).map_err(|e| ReadError {
        path: path.to_path_buf(),
        reason: sit_parser::load::io_reason(&e),
    })?;
    String::from_utf8(bytes).map_err(|e| ReadError {
        path: path.to_path_buf(),
        reason: format!(
            "the file is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// Reads a file for `sit_check::check_bytes`: a `.sch` file is read as the `.sit`
/// model generated from it, so that a `.sit` file can `import "drive.sch";` and
/// instantiate the schematic's model as a submodel. A schematic with errors reads as
/// an I/O error whose reason is the rendered diagnostics.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    if is_schematic(path) {
        as_model(path, bytes)
    } else {
        Ok(bytes)
    }
}

/// [`read`] with the bytes of every file read by `bytes` (a file map in memory, for a
/// front end without a file system such as the browser's): a `.sch` file reads as its
/// generated model, any other file as its bytes.
pub fn read_with(path: &Path, bytes: &sit_parser::load::ReadFn) -> std::io::Result<Vec<u8>> {
    let read = bytes(path)?;
    if is_schematic(path) {
        as_model(path, read)
    } else {
        Ok(read)
    }
}

/// The `.sit` text of the model generated from the schematic `bytes` read from `path`
/// (what [`read`] gives for a `.sch` file), for readers of files kept in memory. A
/// schematic with errors is an I/O error whose reason is the rendered diagnostics.
pub fn as_model(path: &Path, bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
    let text = String::from_utf8(bytes)
        .map_err(|_| std::io::Error::other("the schematic is not valid UTF-8"))?;
    let (a, report) = analyse_source(path, &text);
    match a {
        Some(a) => Ok(a.to_sit(None).text.into_bytes()),
        None => Err(std::io::Error::other(format!(
            "the schematic has errors:\n{}",
            report.render().trim_end()
        ))),
    }
}

/// Check a model file, `.sit` or `.sch`: the one dispatch on the extension that every
/// front end (`sitc`, code generation, the interpreter) goes through. A `.sch` file is
/// checked as a schematic, then its generated model is checked as `.sit`; diagnostics
/// in text copied from the schematic (parameter values, action expressions) point back
/// into the `.sch` file. Imports of `.sch` files from `.sit` files are read with [`read`].
pub fn check_file(path: impl AsRef<Path>) -> Result<Output, ReadError> {
    check_file_with(path, None)
}

/// [`check_file`], every model integrated by `method` when one is given (a run's
/// `--method`: `sit_check::check_bytes_with`).
pub fn check_file_with(
    path: impl AsRef<Path>,
    method: Option<sit_check::ir::Method>,
) -> Result<Output, ReadError> {
    let path = path.as_ref();
    if !is_schematic(path) {
        let bytes = std::fs::read(path).map_err(|e| ReadError {
            path: path.to_path_buf(),
            reason: sit_parser::load::io_reason(&e),
        })?;
        return Ok(sit_check::check_bytes_with(path, bytes, &read, method));
    }
    let text = read_text(path)?;
    Ok(check_schematic_with(path, &text, None, method))
}

/// Check a schematic's text and the model generated from it in `form`.
pub fn check_schematic(path: &Path, text: &str, form: Option<Form>) -> Output {
    check_schematic_with(path, text, form, None)
}

/// [`check_schematic`], every model integrated by `method` when one is given.
pub fn check_schematic_with(
    path: &Path,
    text: &str,
    form: Option<Form>,
    method: Option<sit_check::ir::Method>,
) -> Output {
    let (a, report) = analyse_source(path, text);
    let Some(a) = a else {
        return Output {
            program: None,
            diagnostics: report.diagnostics,
            sources: report.sources,
        };
    };
    let generated = a.to_sit(form);
    let sit_path = generated_path(path);
    let generated_text = generated.text.clone().into_bytes();
    let mut out = sit_check::check_bytes_with(&sit_path, generated_text, &read, method);
    // Map spans inside copied text back to the schematic.
    let sch = out.sources.add(path, text);
    let gen_file = out.sources.find(&sit_path).unwrap_or(0);
    let map = |span: Span| -> Span {
        if span.file != gen_file {
            return span;
        }
        for seg in &generated.segments {
            let len = seg.source.end - seg.source.start;
            if span.start >= seg.generated && span.end <= seg.generated + len {
                let off = span.start - seg.generated;
                return Span::new(
                    sch,
                    seg.source.start + off,
                    seg.source.start + off + (span.end - span.start),
                );
            }
        }
        span
    };
    for d in &mut out.diagnostics {
        d.span = map(d.span);
        for (s, _) in &mut d.related {
            *s = map(*s);
        }
    }
    out.diagnostics
        .extend(report.diagnostics.into_iter().map(|mut d| {
            d.span.file = sch;
            for (s, _) in &mut d.related {
                s.file = sch;
            }
            d
        }));
    out
}

/// The name the generated model of a schematic is known by in messages: `x.sch.sit`.
pub fn generated_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".sit");
    PathBuf::from(p)
}
