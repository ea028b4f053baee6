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

/// The failure of a run stopped by a panic: a phase that did not end within its limit,
/// a count of sub-steps out of its bounds, or an adaptive method that did not finish a
/// step within its bound of internal steps (faults of the model, exit 1, their message
/// as an error); any other panic is a bug of Sit, raised again so that it is seen as one.
pub fn model_fault(payload: Box<dyn std::any::Any + Send>) -> Fail {
    let message = (payload.downcast_ref::<String>().map(String::as_str))
        .or_else(|| payload.downcast_ref::<&str>().copied());
    match message {
        Some(m) if sit_runtime::is_model_fault(m) => Fail::Model(format!("error: {m}\n")),
        _ => std::panic::resume_unwind(payload),
    }
}

/// Keeps the default panic message for every panic but a fault of the model (a phase's
/// overrun, a count of sub-steps out of bounds), which the
/// command that runs the model reports as an error (see [`model_fault`]).
pub fn quiet_model_faults() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info
            .payload_as_str()
            .is_some_and(sit_runtime::is_model_fault)
        {
            default(info);
        }
    }));
}
