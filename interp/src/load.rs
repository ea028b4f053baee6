//! Loading a `.sit` file and choosing the root model to instantiate.

use crate::{Instance, InterpError};
use sit_parser::ir::{Method, ModelId, Program};
use sit_parser::suggest::did_you_mean;
use sit_parser::{ReadError, Report};
use std::fmt;
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
    /// Root selection failed.
    #[error(transparent)]
    Root(#[from] RootError),
    /// The checked program could not be compiled (a bug of the front end).
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

/// Why no root model could be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootError {
    /// `--model NAME` names no model.
    Unknown {
        /// The name asked for.
        name: String,
        /// A close model name, if any.
        suggestion: Option<String>,
        /// Every model name.
        models: Vec<String>,
    },
    /// More than one model could be the root.
    Ambiguous {
        /// The candidates' names.
        candidates: Vec<String>,
    },
    /// The program has no model.
    Empty,
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootError::Unknown {
                name,
                suggestion,
                models,
            } => {
                write!(f, "no model named `{name}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(f, " (models: {})", models.join(", ")),
                }
            }
            RootError::Ambiguous { candidates } => write!(
                f,
                "several models could be the root: {}; choose one with --model",
                candidates.join(", ")
            ),
            RootError::Empty => f.write_str("the file defines no model"),
        }
    }
}

impl std::error::Error for RootError {}

/// The root model: the one called `model` if given, else the one model that no other
/// model instantiates. When several are not instantiated, only those defined in the root
/// file (file 0, not its imports) are candidates; more than one is
/// [`RootError::Ambiguous`].
pub fn select_root(program: &Program, model: Option<&str>) -> Result<ModelId, RootError> {
    let names = || program.models.iter().map(|m| m.name.clone()).collect();
    if let Some(name) = model {
        return program.model(name).ok_or_else(|| RootError::Unknown {
            name: name.to_string(),
            suggestion: did_you_mean(name, program.models.iter().map(|m| m.name.as_str()))
                .map(str::to_string),
            models: names(),
        });
    }
    let roots = program.roots();
    let own: Vec<ModelId> = roots
        .iter()
        .copied()
        .filter(|&m| program.models[m].span.file == 0)
        .collect();
    let candidates = if own.is_empty() { roots } else { own };
    match candidates.as_slice() {
        [] => Err(RootError::Empty),
        [one] => Ok(*one),
        many => Err(RootError::Ambiguous {
            candidates: many
                .iter()
                .map(|&m| program.models[m].name.clone())
                .collect(),
        }),
    }
}

/// An instance loaded from a file, with the file's warnings.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The instance of the root model, constructed (t = 0).
    pub instance: Instance,
    /// The warnings, with their sources (empty when there are none).
    pub warnings: Report,
}

/// Checks the file at `path` (and its imports), chooses the root (see [`select_root`])
/// and constructs an instance of it.
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
    // `.sit` or `.sch` (a schematic, checked as the model generated from it).
    let (program, report) = sit_schematic::check_file(path)?.into_report();
    let Some(mut program) = program else {
        return Err(LoadError::Invalid(report));
    };
    if let Some(method) = method
        && let Err(diags) = program.set_method(method)
    {
        return Err(LoadError::Invalid(Report::new(diags, report.sources)));
    }
    let root = select_root(&program, model)?;
    let instance = Instance::try_new(&program, root)?;
    Ok(Loaded {
        instance,
        warnings: report,
    })
}
