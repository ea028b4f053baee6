//! `sitc`: the Sit command-line tool.

mod axis;
mod emit;
mod events;
mod fail;
mod finite;
mod fit;
mod fmt;
mod fmu;
mod gpu;
mod info;
mod input;
mod marks;
mod method;
mod out;
mod params;
mod plot;
mod progress;
mod quiet;
mod rowtime;
mod run;
mod schematic;
mod sweep;
mod units;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc rather than the system's malloc: the lowering and the interpreter's load
/// allocate and free many small expression trees, a third of `sitc run`'s start-up
/// with glibc (docs/performance.md §20).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Check, compile and run `.sit` models.
#[derive(Parser)]
#[command(name = "sitc", version, about, long_about = None, after_help = SEE_ALSO)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where `sitc --help` sends a newcomer for what the subcommands' options do not say.
const SEE_ALSO: &str = "\
See also, in the Sit repository:
  docs/language.md#integration-methods  --method and its seven methods, events
  docs/events.md                        --events and --explain: what changed, and why
  README.md#inputs-from-data            --input NAME=FILE.csv: drive an input from data
  docs/language.md#lookup-tables        `table`: data on a grid, inline or from a CSV file
  docs/examples.md                      the library's models and what each shows";

#[derive(Subcommand)]
enum Command {
    /// Check files for errors and warnings (exit 0: valid, 1: errors, 2: usage or I/O).
    Check {
        /// The `.sit` files, or folders: every `.sit` file below them, sorted.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        warnings: quiet::Warnings,
    },
    /// Generate the Rust code of a model (exit 0: written, 1: model errors, 2: usage or I/O).
    Emit {
        /// The `.sit` file.
        file: PathBuf,
        /// Write to this file instead of stdout (`-`: stdout).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Emit only this model and the models it instantiates.
        #[arg(long)]
        model: Option<String>,
        /// Also emit the batch form of every model (`NameBatch<const N: usize>`).
        #[arg(long)]
        batch: bool,
        #[command(flatten)]
        method: method::MethodArgs,
        /// Build every model for the event log: hidden whys and `event_table()` (see
        /// docs/events.md).
        #[arg(long)]
        events: bool,
        /// Count each table read outside its grid, as `sitc run` does; read the counts
        /// with `sit_runtime::Model::table_reach` (see docs/embedding.md).
        #[arg(long)]
        count_table_reach: bool,
        /// Add the forward sensitivities of the model with respect to these params (or
        /// states, for their initial values), comma-separated: variables `d(x)/d(k)`
        /// (see docs/sensitivities.md).
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        sensitivities: Vec<String>,
        #[command(flatten)]
        warnings: quiet::Warnings,
    },
    /// Simulate a model with the interpreter and write its CSV trace (exit 0; 1: the
    /// model has errors; 2: usage or I/O).
    Run(run::RunArgs),
    /// Draw a CSV trace written by `sitc run` as an SVG figure (exit 0; 2: usage or I/O).
    Plot(plot::PlotArgs),
    /// Run a model for every combination of parameter values, in parallel, and write one
    /// CSV row per combination (exit 0; 1: the model has errors; 2: usage or I/O).
    Sweep(sweep::SweepArgs),
    /// Fit a model's params to measured data (Levenberg–Marquardt on the exact
    /// sensitivities) and report their values, standard errors and correlations (exit
    /// 0; 1: the model has errors; 2: usage, data or I/O).
    Fit(fit::FitArgs),
    /// Build an FMI 2.0 co-simulation FMU of a model (exit 0; 1: the model has errors;
    /// 2: usage, I/O, or the build failed).
    Fmu(fmu::FmuArgs),
    /// List a model's variables (kind, type, initial value, doc, where declared) and its
    /// submodel tree (exit 0; 1: the model has errors; 2: usage or I/O).
    Info(info::InfoArgs),
    /// Rewrite `.sit` files in the canonical layout; `--check` only reports (exit 0:
    /// formatted; 1: syntax errors, or `--check` found a file to change; 2: usage or I/O).
    Fmt(fmt::FmtArgs),
    /// Print a schematic's (`.sch`) incidence matrices, its generated `.sit` model
    /// (`--sit`) or its drawing (`--svg`) (exit 0; 1: errors; 2: usage or I/O).
    Schematic(schematic::SchematicArgs),
    /// Run the language server on standard input and output, for editors (exit 0 when
    /// the editor shuts it down; 2: the connection failed).
    Lsp,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Human-readable text, like rustc.
    Text,
    /// One JSON object per diagnostic, one per line.
    Json,
}

fn main() -> ExitCode {
    // A fault of the model is reported as an error by the command that ran it.
    sit_runtime::quiet_fault_panics();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Check {
            files,
            format,
            warnings,
        } => check(&files, format, &warnings),
        Command::Emit {
            file,
            out,
            model,
            batch,
            method,
            events,
            count_table_reach,
            sensitivities,
            warnings,
        } => match method.method() {
            Ok(method) => {
                let opts = sit_build::Options {
                    model,
                    batch,
                    method,
                    front_end: sit_build::FrontEnd::Cli,
                    events,
                    count_table_reach,
                    sensitivities,
                };
                emit::run(&file, out.as_ref(), &opts, &warnings)
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Run(args) => run::run(args),
        Command::Plot(args) => plot::plot(args),
        Command::Sweep(args) => sweep::sweep(args),
        Command::Fmu(args) => fmu::fmu(args),
        Command::Fit(args) => fit::fit(args),
        Command::Info(args) => info::info(args),
        Command::Fmt(args) => fmt::fmt(args),
        Command::Schematic(args) => schematic::schematic(args),
        Command::Lsp => match sit_lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: the language server stopped: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn check(paths: &[PathBuf], format: Format, warnings: &quiet::Warnings) -> ExitCode {
    let mut worst = 0u8;
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = sit_build::sit_files(path);
            if found.is_empty() {
                eprintln!("error: no `.sit` file under `{}`", path.display());
                worst = 2;
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    for f in &files {
        let out = match sit_driver::check(&sit_driver::Source::path(f)) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                worst = 2;
                continue;
            }
        };
        let (_, report) = out.into_report();
        let out = warnings.filter(&report);
        match format {
            Format::Text => {
                let text = out.render();
                if !text.is_empty() {
                    eprint!("{text}");
                }
            }
            Format::Json => {
                for json in out.to_json() {
                    out::print(format_args!("{json}\n"));
                }
            }
        }
        if out.has_errors() {
            worst = worst.max(1);
        }
    }
    ExitCode::from(worst)
}
