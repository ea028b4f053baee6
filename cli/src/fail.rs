//! How a command that runs a model fails: usage or I/O (exit 2) or the model (exit 1).

use std::process::ExitCode;

/// Why a command stopped: a usage or I/O error (exit 2) or an error in the model (exit 1).
pub enum Fail {
    /// A one-line message, printed after `error: `.
    Usage(String),
    /// Rendered diagnostics, printed as they are.
    Model(String),
}

impl From<String> for Fail {
    fn from(message: String) -> Fail {
        Fail::Usage(message)
    }
}

/// The exit code of a command's result, printing the failure: 0, 1 (the model
/// has errors) or 2 (usage, I/O).
pub fn exit(result: Result<(), Fail>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Fail::Model(rendered)) => {
            eprint!("{rendered}");
            ExitCode::from(1)
        }
    }
}
