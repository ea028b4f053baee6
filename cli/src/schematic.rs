//! `sitc schematic FILE.sch`: a schematic's incidence matrices (tables or JSON), its
//! generated `.sit` model (`--sit`) or its drawing (`--svg OUT.svg`).

use crate::fail::{Fail, exit};
use sit_schematic::Form;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `sitc schematic`.
#[derive(clap::Args)]
pub struct SchematicArgs {
    /// The `.sch` file.
    pub file: PathBuf,
    /// Output format of the matrices.
    #[arg(long, value_enum, default_value_t = MatrixFormat::Text)]
    pub format: MatrixFormat,
    /// Print the generated `.sit` model instead of the matrices.
    #[arg(long)]
    pub sit: bool,
    /// The torque form of the equations (default: the file's `equations` item, else
    /// power-consistent).
    #[arg(long, value_enum)]
    pub form: Option<FormArg>,
    /// Also draw the schematic as an SVG file (`-`: the drawing alone to standard
    /// output, instead of the matrices).
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
}

/// The output formats of `sitc schematic`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum MatrixFormat {
    /// Tables like the paper's.
    Text,
    /// One JSON object: `matrices`, `rows`, `columns`, `paths`.
    Json,
}

/// The torque forms.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormArg {
    /// Pole weights in the moments as in the kinematics: conserves power.
    PowerConsistent,
    /// As printed in the paper's equations (1).
    Printed,
}

/// `sitc schematic` (exit 0; 1: the schematic or its model has errors; 2: usage or I/O).
pub fn schematic(args: SchematicArgs) -> ExitCode {
    exit(try_schematic(&args))
}

fn try_schematic(args: &SchematicArgs) -> Result<(), Fail> {
    let form = args.form.map(|f| match f {
        FormArg::PowerConsistent => Form::PowerConsistent,
        FormArg::Printed => Form::Printed,
    });
    let (found, report) = sit_schematic::analyse_file(&args.file).map_err(|e| e.to_string())?;
    let Some(a) = found else {
        if let MatrixFormat::Json = args.format {
            // Diagnostics as `sitc check --format json` prints them: one object a line.
            for d in report.to_json() {
                crate::out::print(format_args!("{d}\n"));
            }
            return Err(Fail::Model(String::new()));
        }
        return Err(Fail::Model(report.render()));
    };
    if !report.is_empty() {
        eprint!("{}", report.render());
    }
    if args.svg.as_deref().is_some_and(crate::out::is_stdout) {
        // `--svg -`: the drawing is what goes to standard output.
        if args.sit {
            return Err(Fail::Usage(
                "the drawing (`--svg -`) and the model (`--sit`) cannot both go to standard \
                 output; write the drawing to a file (`--svg OUT.svg`)"
                    .into(),
            ));
        }
        crate::out::print(sit_schematic::svg::draw(&a));
        return Ok(());
    }
    if let Some(svg) = &args.svg {
        std::fs::write(svg, sit_schematic::svg::draw(&a))
            .map_err(|e| format!("cannot write `{}`: {e}", svg.display()))?;
    }
    if args.sit {
        let text = std::fs::read_to_string(&args.file).map_err(|e| e.to_string())?;
        let out = sit_driver::check_schematic(&args.file, &text, form);
        if out.has_errors() {
            return Err(Fail::Model(out.render()));
        }
        crate::out::print(a.to_sit(form).text);
        return Ok(());
    }
    match args.format {
        MatrixFormat::Text => crate::out::print(format_args!(
            "{}{}",
            a.matrices().to_text(),
            form_note(form.unwrap_or(a.form()))
        )),
        MatrixFormat::Json => crate::out::print(format_args!("{}\n", a.to_json())),
    }
    Ok(())
}

/// What the equations of `--sit` are, under the matrices: the matrices are the paper's,
/// but the default equations are not its printed equations (1).
fn form_note(form: Form) -> &'static str {
    match form {
        Form::PowerConsistent => {
            "Equations (--sit): the power-consistent torque form, a pole's weight in the\n\
             moment it passes on as in the speed it reads; not the paper's printed\n\
             equations (1), which leave it out of the moment and do not conserve power\n\
             (--form printed, or `equations printed;` in the file, gives those).\n"
        }
        Form::Printed => {
            "Equations (--sit): the paper's printed equations (1), a pole's weight in the\n\
             speed it reads but not in the moment it passes on, which does not conserve\n\
             power (the power-consistent form is the default: --form power-consistent).\n"
        }
    }
}
