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

/// Runs `f`, a run of the model: a fault of the model raised inside it (a phase that
/// did not end within its limit, a count of sub-steps out of its bounds, an adaptive
/// method past its bound of internal steps or of events in one step, recognised by its
/// type, [`sit_runtime::ModelFault`]) is the model's error (exit 1, its message as an
/// error); any other panic is a bug of Sit and goes on unwinding, to be seen as one.
pub fn catch_model_fault<T>(f: impl FnOnce() -> T) -> Result<T, Fail> {
    sit_runtime::catch_fault(f).map_err(|fault| Fail::Model(format!("error: {fault}\n")))
}
