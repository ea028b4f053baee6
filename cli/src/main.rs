//! `sitc`: the Sit command-line tool.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check, compile and run `.sit` models.
#[derive(Parser)]
#[command(name = "sitc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check files for errors and warnings (exit 0: valid, 1: errors, 2: usage or I/O).
    Check {
        /// The `.sit` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Human-readable text, like rustc.
    Text,
    /// One JSON object per diagnostic, one per line.
    Json,
}

fn main() -> ExitCode {
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
        Command::Check { files, format } => check(&files, format),
    }
}

fn check(files: &[PathBuf], format: Format) -> ExitCode {
    let mut worst = 0u8;
    for f in files {
        let out = match sit_parser::check_file(f) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                worst = 2;
                continue;
            }
        };
        match format {
            Format::Text => {
                let text = out.render();
                if !text.is_empty() {
                    eprint!("{text}");
                }
            }
            Format::Json => {
                for d in &out.diagnostics {
                    println!("{}", d.to_json(&out.sources));
                }
            }
        }
        if out.has_errors() {
            worst = worst.max(1);
        }
    }
    let _ = std::io::stderr().is_terminal();
    ExitCode::from(worst)
}
