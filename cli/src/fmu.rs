//! `sitc fmu FILE.sit|FILE.sch [--model NAME] [--dt DT] -o OUT.fmu`: an FMI 2.0 co-simulation FMU.

use std::path::PathBuf;
use std::process::ExitCode;

/// Build an FMI 2.0 co-simulation FMU of a model (exit 0; 1: the model has errors; 2:
/// usage, I/O, or the build failed).
#[derive(clap::Args)]
pub struct FmuArgs {
    /// The model file: `.sit`, or a schematic (`.sch`), exported as the model generated
    /// from it.
    pub file: PathBuf,
    /// The model to export (default: the one model of the file that no other model
    /// instantiates).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// The internal step: `fmi2DoStep` advances the model in steps of exactly DT
    /// (default: the `--dt` of the `sitc run` line in the model's documentation, else 0.01).
    #[arg(long, value_name = "DT", allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// `--method`, `--rtol`, `--atol`.
    #[command(flatten)]
    pub method: crate::method::MethodArgs,
    /// Also integrate the forward sensitivities with respect to these params (or states,
    /// for their start values), comma-separated, so that `fmi2GetDirectionalDerivative`
    /// gives the derivatives of the variables with respect to them
    /// (`providesDirectionalDerivative="true"`; docs/fmi.md).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub sensitivities: Vec<String>,
    /// The `.fmu` file to write (a file: `-` is refused, a zip archive cannot be written
    /// to a pipe).
    #[arg(short, long, value_name = "OUT.fmu")]
    pub out: PathBuf,
    /// Where the generated crates and their shared cargo target go (default:
    /// $SIT_FMU_BUILD_DIR, else TMPDIR/sit-fmu).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// The Sit sources the FMU crate depends on (default: $SIT_SOURCE_DIR, else the
    /// checkout sitc was built from).
    #[arg(long, value_name = "DIR")]
    pub sit_source: Option<PathBuf>,
    #[command(flatten)]
    pub warnings: crate::quiet::Warnings,
}

/// Runs `sitc fmu`.
pub fn fmu(args: FmuArgs) -> ExitCode {
    if crate::out::is_stdout(&args.out) {
        // The zip archive is written with seeks, which a pipe does not allow.
        eprintln!(
            "error: an FMU is a zip archive written to a file, not to standard output: give \
             `-o NAME.fmu`"
        );
        return ExitCode::from(2);
    }
    let warnings = args.warnings.clone();
    let mut opts = sit_fmi::build::Options::new(args.file, args.out);
    opts.model = args.model;
    opts.dt = args.dt;
    opts.sensitivities = args.sensitivities;
    opts.method = match args.method.method() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = args.build_dir {
        opts.build_dir = dir;
    }
    if let Some(dir) = args.sit_source {
        opts.sit_dir = dir;
    }
    match sit_fmi::build::build(&opts) {
        Ok(built) => {
            warnings.print(&built.warnings);
            ExitCode::SUCCESS
        }
        Err(e @ sit_fmi::build::Error::Model(_)) => {
            eprint!("{e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
