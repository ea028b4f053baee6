//! Sit models compiled to Rust source from a build script, a macro or a tool: the
//! driver (`sit-driver`: a `.sit` or `.sch` file to the lowered program) and the code
//! generator (`sit-codegen`: the lowered program to formatted Rust) together.
//!
//! - build scripts: [`Builder`] (or [`compile_to_out_dir`]) writes `OUT_DIR/NAME.rs`;
//! - the `sit_macros::include_model!` proc-macro and `sitc emit`: [`compile_file_with`].
//!
//! ```no_run
//! // In build.rs, inside `fn main()`:
//! sit_build::Builder::new().file("models/hoop.sit").run();
//! ```
#![deny(missing_docs)]

mod builder;
pub mod generated;

pub use builder::{Builder, compile_to_out_dir, write_if_changed};
pub use sit_codegen::{FrontEnd, VERSION};
pub use sit_driver::sit_files;

use sit_middle::Report;
use sit_middle::ir::Method;
use std::path::{Path, PathBuf};

/// What to generate from a file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Emit only this model and the models it instantiates (by `.sit` name); all the
    /// models of the program when `None`.
    pub model: Option<String>,
    /// Also emit the batch form of every model emitted (see
    /// [`sit_codegen::Options::batch`]).
    pub batch: bool,
    /// The front end that generates the code, named in the `@generated` header.
    pub front_end: FrontEnd,
    /// Integrate every model with this method, overriding their `method`
    /// declarations (`None`: as declared, `euler` when not).
    pub method: Option<Method>,
    /// Build every model for the event log: a hidden *why* state per logical variable
    /// and an associated function `event_table()` per model, for
    /// `sit_runtime::events::Logged` (see `docs/events.md`). Off: the code is exactly
    /// that of a build without it.
    pub events: bool,
    /// Count each table read outside its grid, as the interpreter does (see
    /// [`sit_codegen::Options::count_table_reach`]); off: the code is exactly that of a
    /// build without it.
    pub count_table_reach: bool,
    /// Add the forward sensitivities of [`Options::model`] (or the root) with respect to
    /// these free params or states' initial values: variables `d(x)/d(k)` of the
    /// generated model (`docs/sensitivities.md`). Empty: none, the code unchanged.
    pub sensitivities: Vec<String>,
}

/// The generated source of one `.sit` file.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The Rust source, formatted, starting with the `@generated` header.
    pub code: String,
    /// Every `.sit` file read (the root and its imports), for rebuild tracking.
    pub files: Vec<PathBuf>,
    /// The model's warnings, with their sources (empty when there are none); render
    /// them with [`Report::render`] or `Display`, or as JSON with [`Report::to_json`].
    pub warnings: Report,
}

/// Why code could not be generated from a file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read, or the model has errors (see [`sit_driver::Error`]).
    #[error("{0}")]
    Compile(#[from] sit_driver::Error),
    /// The generator failed (an unknown `--model`, a model too large to lower).
    #[error("{0}")]
    Generate(#[from] sit_codegen::Error),
    /// Two inputs of one build would write the same output file.
    #[error("`{first}` and `{second}` would both be generated as `{output}`")]
    SameOutput {
        /// The first input.
        first: PathBuf,
        /// The second input.
        second: PathBuf,
        /// The output file name.
        output: String,
    },
    /// An output file could not be written.
    #[error("cannot write `{}`: {}", path.display(), sit_middle::load::io_reason(source))]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl Error {
    /// The `.sit` files this error depends on (to rerun a build when they change).
    pub fn files(&self) -> Vec<PathBuf> {
        match self {
            Error::Compile(e) => e.files(),
            _ => Vec::new(),
        }
    }

    /// The model's diagnostics, when the model has errors.
    pub fn report(&self) -> Option<&Report> {
        match self {
            Error::Compile(sit_driver::Error::Model(report)) => Some(report),
            _ => None,
        }
    }
}

/// Compiles the `.sit` or `.sch` file at `path` (with its imports) and generates all
/// its models.
pub fn compile_file(path: impl AsRef<Path>) -> Result<Generated, Error> {
    compile_file_with(path, &Options::default())
}

/// Compiles the `.sit` or `.sch` file at `path` (with its imports) and generates code
/// as `opts` say.
pub fn compile_file_with(path: impl AsRef<Path>, opts: &Options) -> Result<Generated, Error> {
    let compiled = sit_driver::compile(
        &sit_driver::Source::path(path.as_ref()),
        &sit_driver::Options {
            method: opts.method,
            events: opts.events,
            allow: Vec::new(),
            probes: Vec::new(),
            sensitivities: (!opts.sensitivities.is_empty()).then(|| sit_driver::Sensitivities {
                model: opts.model.clone(),
                wrt: opts.sensitivities.clone(),
            }),
        },
    )?;
    let code = sit_codegen::generate(
        &compiled.lowered,
        &sit_codegen::Options {
            model: opts.model.clone(),
            batch: opts.batch,
            front_end: opts.front_end,
            count_table_reach: opts.count_table_reach,
        },
    )?;
    Ok(Generated {
        code,
        files: compiled.files(),
        warnings: compiled.warnings,
    })
}
