//! Loading a `.sit` or `.sch` file into an interpreted instance of its root model.

use sit_driver::{Options, RootError, Source};
use sit_interp::{Instance, InterpError};
use sit_middle::ir::Method;
use sit_middle::{ReadError, Report};
use sit_runtime::events::Table;
use std::path::Path;

/// Why a model could not be loaded from a file.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (`cannot read ...`).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file has errors: every diagnostic (warnings included) with its sources, to
    /// render as text ([`Report::render`], or `Display`), as JSON or re-located.
    #[error("{0}")]
    Invalid(Report),
    /// The options asked for something that does not exist (an unknown warning code).
    #[error("{0}")]
    Usage(String),
    /// Root selection failed.
    #[error(transparent)]
    Root(#[from] RootError),
    /// The program could not be lowered or compiled for the interpreter (too large).
    #[error(transparent)]
    Interp(#[from] InterpError),
}

impl LoadError {
    /// Whether the error is in the model itself (exit code 1 for a command-line tool)
    /// rather than in how it was asked for (a missing file, an unknown model: exit 2).
    pub fn is_model_error(&self) -> bool {
        matches!(self, LoadError::Invalid(_) | LoadError::Interp(_))
    }
}

impl From<sit_driver::Error> for LoadError {
    fn from(e: sit_driver::Error) -> LoadError {
        match e {
            sit_driver::Error::Read(e) => LoadError::Read(e),
            sit_driver::Error::Model(report) => LoadError::Invalid(report),
            sit_driver::Error::Lower(e) => LoadError::Interp(e.into()),
            e @ (sit_driver::Error::NotAWarning { .. } | sit_driver::Error::Sensitivity(_)) => {
                LoadError::Usage(e.to_string())
            }
        }
    }
}

/// An instance loaded from a file, with the file's warnings.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The instance of the root model, constructed (t = 0).
    pub instance: Instance,
    /// The warnings, with their sources (empty when there are none).
    pub warnings: Report,
    /// The lowered program the instance runs (for the back ends that compile it again:
    /// the GPU's kernel, compiled sweeps).
    pub lowered: sit_middle::lower::Lowered,
    /// The root model in it.
    pub root: sit_middle::ir::ModelId,
}

/// Checks the file at `path` (and its imports), chooses the root (see
/// [`sit_driver::select_root`]) and constructs an instance of it.
pub fn load_file(path: impl AsRef<Path>, model: Option<&str>) -> Result<Loaded, LoadError> {
    load_file_with(path, model, None)
}

/// [`load_file`] with every model integrated by `method` when given (overriding their
/// `method` declarations); a model whose rules cannot be split for it is an
/// [`LoadError::Invalid`] with located errors.
pub fn load_file_with(
    path: impl AsRef<Path>,
    model: Option<&str>,
    method: Option<Method>,
) -> Result<Loaded, LoadError> {
    let opts = Options {
        method,
        ..Options::default()
    };
    let compiled = sit_driver::compile(&Source::path(path.as_ref()), &opts)?;
    let root = compiled.root(model)?;
    let instance = Instance::try_new(&compiled.lowered, root)?;
    Ok(Loaded {
        instance,
        warnings: compiled.warnings,
        lowered: compiled.lowered,
        root,
    })
}

/// [`load_file_with`], giving an instance built for the event log and its table
/// (`Instance::with_event_table`).
pub fn load_file_logged(
    path: impl AsRef<Path>,
    model: Option<&str>,
    method: Option<Method>,
) -> Result<(Loaded, Table), LoadError> {
    let opts = Options {
        method,
        events: true,
        ..Options::default()
    };
    let compiled = sit_driver::compile(&Source::path(path.as_ref()), &opts)?;
    let root = compiled.root(model)?;
    let (instance, table) = Instance::with_event_table(&compiled.lowered, root)?;
    Ok((
        Loaded {
            instance,
            warnings: compiled.warnings,
            lowered: compiled.lowered,
            root,
        },
        table,
    ))
}

/// Loads the file at `path` compiled with `opts` (every option of [`Options`]: the
/// method, the event log, forward sensitivities), the instance built for the event log
/// with its table when `opts.events` asks for it.
pub fn load_file_options(
    path: impl AsRef<Path>,
    model: Option<&str>,
    opts: &Options,
) -> Result<(Loaded, Option<Table>), LoadError> {
    let compiled = sit_driver::compile(&Source::path(path.as_ref()), opts)?;
    let root = compiled.root(model)?;
    let (instance, table) = if opts.events {
        let (i, t) = Instance::with_event_table(&compiled.lowered, root)?;
        (i, Some(t))
    } else {
        (Instance::try_new(&compiled.lowered, root)?, None)
    };
    Ok((
        Loaded {
            instance,
            warnings: compiled.warnings,
            lowered: compiled.lowered,
            root,
        },
        table,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_errors() {
        let missing = load_file("/nonexistent/x.sit", None).unwrap_err();
        assert!(matches!(&missing, LoadError::Read(e) if e.reason == "no such file"));
        assert!(!missing.is_model_error());
        assert_eq!(
            missing.to_string(),
            "cannot read `/nonexistent/x.sit`: no such file"
        );
        let dir = std::env::temp_dir().join(format!("sit-host-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.sit");
        std::fs::write(&bad, "model M { real x; x = y; }").unwrap();
        let err = load_file(&bad, None).unwrap_err();
        assert!(err.is_model_error(), "{err}");
        // The diagnostics stay structured: spans into the sources, rendered at the edge.
        let LoadError::Invalid(report) = &err else {
            panic!("not a model error: {err:?}");
        };
        let unknown = &report.diagnostics[0];
        assert_eq!((unknown.code, unknown.is_error()), ("E0101", true));
        assert_eq!(report.sources.text(unknown.span), "y");
        assert_eq!(err.to_string(), report.render());
        let relative = report.relative_to(&dir).render();
        assert!(
            relative.starts_with("bad.sit:1:23: error[E0101]"),
            "{relative}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
