//! The one entry point of the Sit compiler: a source (`.sit` or `.sch`, a path or text
//! in memory) to the lowered program that every back end takes, or a report.
//!
//! [`compile`] runs the pipeline in its one order: the front end picked by the file's
//! extension (`.sch`: the schematic reader, then its generated model), the checker and
//! the lints, `#[allow]` and [`Options::allow`], the method override
//! ([`Options::method`]), then [`sit_middle::lower::Lowered::new`] (the event log's
//! instrumentation when [`Options::events`], the rewrite of the integration methods).
//! [`check`] stops after the checker, for the tools that only report (`sitc check`, the
//! language server). Every front end calls one of them: `sitc`, the build scripts'
//! `Builder` and `include_model!` (`sit-build`), the FMU builder, the Python package,
//! the language server; the generators (`sit-codegen`) and the interpreter
//! (`sit-interp`) take only the lowered program.
//!
//! ```
//! let src = sit_driver::Source::text("m.sit", "model M { output real x = 1; x = integral(-x); }");
//! let compiled = sit_driver::compile(&src, &sit_driver::Options::default()).unwrap();
//! assert!(compiled.warnings.is_empty());
//! let root = compiled.root(None).unwrap();
//! assert_eq!(compiled.lowered.program().models[root].name, "M");
//! ```
#![deny(missing_docs)]

mod root;
mod schematic;

pub use root::{RootError, select_root};
pub use schematic::check_schematic;
pub use sit_middle::lower::{Lowered, Prepare};

use sit_middle::ir::{Method, ModelId, Program};
use sit_middle::load::ReadFn;
use sit_middle::lower::LowerError;
pub use sit_middle::lower::jacobian::sensitivity::{Column, SensitivityError};
use sit_middle::{Output, ReadError, Report};
use std::path::{Path, PathBuf};

/// A model's source: a file, or text in memory named by a path (which anchors its
/// relative imports, read from the file system, and names it in messages).
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// The file at this path.
    Path(&'a Path),
    /// This text, as if read from the file at `path`.
    Text {
        /// The name of the text (its extension picks the front end).
        path: &'a Path,
        /// The text.
        text: &'a str,
    },
    /// This text, as if read from the file at `path`, with its imports read by `read`
    /// (an editor's open documents, files kept in memory); imported schematics are read
    /// as their generated models.
    Memory {
        /// The name of the text (its extension picks the front end).
        path: &'a Path,
        /// The text.
        text: &'a str,
        /// Reads an imported file.
        read: &'a ReadFn<'a>,
    },
}

impl<'a> Source<'a> {
    /// The file at `path`.
    pub fn path(path: &'a (impl AsRef<Path> + ?Sized)) -> Source<'a> {
        Source::Path(path.as_ref())
    }

    /// `text`, named `path`.
    pub fn text(path: &'a (impl AsRef<Path> + ?Sized), text: &'a str) -> Source<'a> {
        Source::Text {
            path: path.as_ref(),
            text,
        }
    }

    /// The path given.
    pub fn name(&self) -> &'a Path {
        match *self {
            Source::Path(p) | Source::Text { path: p, .. } | Source::Memory { path: p, .. } => p,
        }
    }
}

/// How to compile, besides what the source says.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Integrate every model with this method (tolerances included), overriding their
    /// `method` declarations; `None`: as declared, `euler` when not.
    pub method: Option<Method>,
    /// Prepare the program for the event log (see [`Prepare::events`]).
    pub events: bool,
    /// Warning codes allowed everywhere, as `#[allow(CODE)]` on every model (checked
    /// against the warning codes: see [`Error::NotAWarning`]).
    pub allow: Vec<String>,
    /// Forward sensitivities to add to the root model (`docs/sensitivities.md`).
    pub sensitivities: Option<Sensitivities>,
    /// The summaries between the rows to keep (see [`Prepare::probes`]).
    pub probes: Vec<sit_middle::lower::Probe>,
}

/// Which forward sensitivities to add ([`Options::sensitivities`]): the states
/// `d(x)/d(k)` of [`sit_middle::lower::jacobian::sensitivity::add`].
#[derive(Debug, Clone, Default)]
pub struct Sensitivities {
    /// The model whose rules are differentiated: the one named so, or the root chosen
    /// by [`select_root`].
    pub model: Option<String>,
    /// Its free params (or real states, for their initial values), by name.
    pub wrt: Vec<String>,
}

/// A source compiled to the lowered program.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The checked program (what the source says, before the passes): for the
    /// descriptions of a model (`sitc info`, hover) that show what was written.
    pub checked: Program,
    /// The program every back end takes.
    pub lowered: Lowered,
    /// The warnings left after `#[allow]` and [`Options::allow`], with their sources
    /// (empty when there are none).
    pub warnings: Report,
    /// The sensitivity states added ([`Options::sensitivities`]), in the order of the
    /// variables.
    pub sensitivities: Vec<Column>,
}

impl Compiled {
    /// The model to run or emit: the one named `model`, or the root chosen by
    /// [`select_root`].
    pub fn root(&self, model: Option<&str>) -> Result<ModelId, RootError> {
        select_root(self.lowered.program(), model)
    }

    /// Every file read that exists on disk (the root and its imports, not the model
    /// generated from a schematic), for rebuild tracking.
    pub fn files(&self) -> Vec<PathBuf> {
        existing(&self.warnings)
    }
}

/// The files of `report` that exist on disk.
fn existing(report: &Report) -> Vec<PathBuf> {
    report.files().into_iter().filter(|f| f.exists()).collect()
}

/// Why a source could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The root file could not be read.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// The model has errors (or the method override cannot split its rules). `Display`
    /// renders every diagnostic like rustc, paths as given.
    #[error("{0}")]
    Model(Report),
    /// The program cannot be lowered: it is too large.
    #[error("{0}")]
    Lower(#[from] LowerError),
    /// [`Options::allow`] names a code that is not a warning's.
    #[error("`{code}` is not a warning code (they are {})", sit_middle::allow::WARNINGS.join(", "))]
    NotAWarning {
        /// The code given.
        code: String,
    },
    /// [`Options::sensitivities`] names what is not a param or a real state.
    #[error("--sensitivities: {0}")]
    Sensitivity(#[from] SensitivityError),
}

impl Error {
    /// Whether the model (not the file system or the options) is at fault.
    pub fn is_model_error(&self) -> bool {
        matches!(self, Error::Model(_) | Error::Lower(_))
    }

    /// The files this error depends on (to rerun a build when they change).
    pub fn files(&self) -> Vec<PathBuf> {
        match self {
            Error::Model(report) => existing(report),
            Error::Read(e) => vec![e.path.clone()],
            _ => Vec::new(),
        }
    }
}

/// Checks `source` (and its imports): the front end picked by the extension, the
/// checker, the lints and `#[allow]`. The program is there when there is no error.
pub fn check(source: &Source) -> Result<Output, ReadError> {
    check_with(source, None)
}

/// [`check`], every model integrated by `method` when one is given (a run's
/// `--method`): the method replaces the declared ones before the checks that depend on
/// it, so that a model whose declared method would refuse it checks under the one
/// asked for ([`Options::method`]).
pub fn check_with(source: &Source, method: Option<Method>) -> Result<Output, ReadError> {
    match *source {
        Source::Path(path) => schematic::check_path(path, method),
        Source::Text { path, text } if sit_schematic::is_schematic(path) => {
            Ok(schematic::check_schematic_with(path, text, None, method))
        }
        Source::Text { path, text } => Ok(sit_middle::check_bytes_with(
            path,
            text.as_bytes().to_vec(),
            &schematic::read,
            method,
        )),
        Source::Memory { path, text, read } => Ok(check_memory_with(path, text, read, method)),
    }
}

/// [`check`] of a [`Source::Memory`], which cannot fail to be read: the root's text is
/// given, and an import that `read` cannot give is a diagnostic at the import.
pub fn check_memory(path: &Path, text: &str, read: &ReadFn<'_>) -> Output {
    check_memory_with(path, text, read, None)
}

/// [`check_memory`] with the method override of [`check_with`].
fn check_memory_with(path: &Path, text: &str, read: &ReadFn<'_>, method: Option<Method>) -> Output {
    if sit_schematic::is_schematic(path) {
        return schematic::check_schematic_with(path, text, None, method);
    }
    let read = |p: &Path| schematic::read_through(p, read);
    sit_middle::check_bytes_with(path, text.as_bytes().to_vec(), &read, method)
}

/// [`check`] of the file at `path`.
pub fn check_file(path: impl AsRef<Path>) -> Result<Output, ReadError> {
    check(&Source::Path(path.as_ref()))
}

/// Compiles `source` to the lowered program (see the crate documentation for the
/// order of the passes).
pub fn compile(source: &Source, opts: &Options) -> Result<Compiled, Error> {
    if let Some(code) = opts
        .allow
        .iter()
        .find(|c| !sit_middle::allow::is_warning(c))
    {
        return Err(Error::NotAWarning { code: code.clone() });
    }
    let (program, report) = check_with(source, opts.method)?.into_report();
    let allowed: Vec<&str> = opts.allow.iter().map(String::as_str).collect();
    let report = if allowed.is_empty() {
        report
    } else {
        report.allowing(&allowed)
    };
    let Some(program) = program else {
        return Err(Error::Model(report));
    };
    lower(program, report, opts)
}

/// The passes after the checker, for a front end that checked the program itself (a
/// schematic in another form, a program built in memory): the method override, then
/// [`Lowered::new`]. `warnings` are those of the check.
pub fn lower(mut checked: Program, warnings: Report, opts: &Options) -> Result<Compiled, Error> {
    if let Some(method) = opts.method
        && let Err(diagnostics) = checked.set_method(method)
    {
        return Err(Error::Model(Report::new(diagnostics, warnings.sources)));
    }
    let mut sensitivities = Vec::new();
    if let Some(s) = &opts.sensitivities
        && !s.wrt.is_empty()
        // An unknown root is reported where the root is chosen.
        && let Ok(root) = select_root(&checked, s.model.as_deref())
    {
        let (program, columns) =
            sit_middle::lower::jacobian::sensitivity::add(&checked, root, &s.wrt)?;
        checked = program;
        sensitivities = columns;
    }
    let lowered = Lowered::new(
        &checked,
        Prepare {
            events: opts.events,
            probes: opts.probes.clone(),
        },
    )?;
    Ok(Compiled {
        checked,
        lowered,
        warnings,
        sensitivities,
    })
}

/// The lowered program of a program already checked (by [`check`], or kept from a
/// [`Compiled`]), with the event log's instrumentation when `events`: for a front end
/// that keeps the checked program and lowers it again (the Python package's event log
/// and GPU study, the page's instances), so that the lowered program is built here only.
pub fn prepare(checked: &Program, events: bool) -> Result<Lowered, LowerError> {
    prepare_with(checked, events, &[])
}

/// [`prepare`], keeping the summaries `probes` between the rows (see
/// [`Prepare::probes`]).
pub fn prepare_with(
    checked: &Program,
    events: bool,
    probes: &[sit_middle::lower::Probe],
) -> Result<Lowered, LowerError> {
    Lowered::new(
        checked,
        Prepare {
            events,
            probes: probes.to_vec(),
        },
    )
}

/// Every `.sit` file under `dir`, subfolders included, sorted (for build
/// scripts that compile a folder of models). A folder that cannot be read
/// gives no files.
pub fn sit_files(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "sit") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir.as_ref(), &mut out);
    out.sort();
    out
}
