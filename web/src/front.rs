//! The one place this crate calls the front end (checker, schematics) and builds instances.
//!
//! Every other module goes through these functions, which go through the one driver
//! (`sit-driver`: a source to the lowered program), as every other front end does.

use crate::files::Files;
use sit_interp::Instance;
use sit_middle::Report;
use sit_middle::ir::Method;
use sit_runtime::events::Logged;
use std::path::Path;

/// Checks the model at `path` (`.sit` or `.sch`) whose text is `text`, reading its
/// imports (and the tables they name) from `files`: the program when it has no error,
/// and every diagnostic.
pub fn check(path: &str, text: &str, files: &Files) -> (Option<sit_middle::ir::Program>, Report) {
    let read = |q: &Path| files.read(q);
    sit_driver::check_memory(Path::new(path), text, &read).into_report()
}

/// A schematic's analysis (`None` with the diagnostics when it has errors).
pub fn schematic(path: &str, text: &str) -> (Option<sit_schematic::Analysis>, Report) {
    sit_schematic::analyse_source(path, text)
}

/// The canonical layout of `text`, or its syntax errors as a report.
pub fn format(path: &str, text: &str) -> Result<String, Report> {
    sit_fmt::format(0, text).map_err(|diags| {
        let mut sources = sit_middle::SourceMap::default();
        sources.add(path, text);
        Report::new(diags, sources)
    })
}

/// The instance to run: plain, or built for the event log.
pub enum Sim {
    /// The plain interpreter.
    Plain(Instance),
    /// The interpreter with the event log (same values, bit for bit).
    Logged(Box<Logged<Instance>>),
}

/// Why a model cannot be instantiated.
pub enum LoadError {
    /// The model has errors (or a method that it cannot take): every diagnostic.
    Invalid(Report),
    /// Anything else (no root model, an interpreter limit), as one line.
    Other(String),
}

/// Checks the model and instantiates its root (`model`, or the one model no other
/// instantiates), every model integrated by `method` when given; `events` builds it for
/// the event log. The warnings come with it, and the lowered program and the root's
/// index (for the estimate of the error of fixed steps, `sit_runtime::accuracy`).
pub fn load(
    path: &str,
    text: &str,
    files: &Files,
    model: Option<&str>,
    method: Option<&str>,
    events: bool,
) -> Result<
    (
        Sim,
        Report,
        sit_middle::lower::Lowered,
        sit_middle::ir::ModelId,
    ),
    LoadError,
> {
    let method = match method {
        None => None,
        Some(name) => Some(
            Method::from_name(name)
                .ok_or_else(|| LoadError::Other(format!("no integration method `{name}`")))?,
        ),
    };
    let (program, report) = check(path, text, files);
    let Some(program) = program else {
        return Err(LoadError::Invalid(report));
    };
    let opts = sit_driver::Options {
        method,
        events,
        ..Default::default()
    };
    let compiled = match sit_driver::lower(program, report, &opts) {
        Ok(compiled) => compiled,
        Err(sit_driver::Error::Model(report)) => return Err(LoadError::Invalid(report)),
        Err(e) => return Err(LoadError::Other(e.to_string())),
    };
    let root = (compiled.root(model)).map_err(|e| LoadError::Other(e.to_string()))?;
    let other = |e: sit_interp::InterpError| LoadError::Other(e.to_string());
    let sim = if events {
        Sim::Logged(Box::new(
            Instance::with_events(&compiled.lowered, root).map_err(other)?,
        ))
    } else {
        Sim::Plain(Instance::try_new(&compiled.lowered, root).map_err(other)?)
    };
    Ok((sim, compiled.warnings, compiled.lowered, root))
}

/// The root model to describe in `program` (`model`, or the one no other instantiates).
pub fn root(
    program: &sit_middle::ir::Program,
    model: Option<&str>,
) -> Result<sit_middle::ir::ModelId, String> {
    sit_driver::select_root(program, model).map_err(|e| e.to_string())
}

/// An instance of `root` of a checked `program` (t = 0).
pub fn instance(
    program: &sit_middle::ir::Program,
    root: sit_middle::ir::ModelId,
) -> Result<Instance, String> {
    let lowered = sit_driver::prepare(program, false);
    Instance::try_new(&lowered.map_err(|e| e.to_string())?, root).map_err(|e| e.to_string())
}

/// The tokens of `text` (its byte ranges and kinds), or nothing when it does not lex.
pub fn tokens(text: &str) -> Vec<sit_middle::parse::SourceToken> {
    sit_middle::parse::tokenize(0, text).unwrap_or_default()
}

/// Whether `word` is a keyword, or a name built in (`time`, `dt`, `on`).
pub fn is_keyword(word: &str) -> bool {
    sit_middle::parse::Keyword::is_keyword(word) || sit_middle::check::RESERVED.contains(&word)
}
