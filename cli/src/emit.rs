//! `sitc emit FILE [-o OUT.rs] [--model NAME] [--batch] [--method METHOD] [--events] [--count-table-reach]`: the generated Rust of a `.sit` file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Generates the Rust code of `file` as `opts` say (all its models, or `opts.model` and
/// the models it instantiates; with `opts.batch`, followed by their batch forms) into
/// `out`, or on stdout. Diagnostics go to stderr. Exit status: 0
/// done, 1 model errors, 2 I/O or usage (unknown model, unreadable or unwritable file).
pub fn run(
    file: &Path,
    out: Option<&PathBuf>,
    opts: &sit_build::Options,
    warnings: &crate::quiet::Warnings,
) -> ExitCode {
    let generated = match sit_build::compile_file_with(file, opts) {
        Ok(g) => g,
        Err(sit_build::Error::Compile(sit_driver::Error::Model(report))) => {
            eprint!("{report}");
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    warnings.print(&generated.warnings);
    let io_reason = sit_middle::load::io_reason;
    match out.filter(|p| !crate::out::is_stdout(p)) {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &generated.code) {
                eprintln!(
                    "error: cannot write `{}`: {}",
                    path.display(),
                    io_reason(&e)
                );
                return ExitCode::from(2);
            }
        }
        None => {
            crate::out::print(&generated.code);
        }
    }
    ExitCode::SUCCESS
}
