//! The run-time fault of an instantaneous phase that does not end within its limit.

use crate::fault::{FaultKind, raise};

/// Stops the program: the phase `phase` of model `model`, run at the model's time
/// `time`, took `steps` steps (its limit) without its end condition holding.
///
/// Called by the generated code and by the interpreter, so that both stop with the
/// same fault ([`FaultKind::PhaseOverrun`]); a phase's limit is part of the model, and
/// a run that reaches it is a fault of the model (like a division by zero checked with
/// `--check-finite`), reported with the names a reader needs to find it.
#[cold]
#[track_caller]
pub fn phase_overrun(model: &str, phase: &str, time: f64, steps: u64) -> ! {
    raise(
        model,
        time,
        FaultKind::PhaseOverrun { limit: steps },
        format_args!(
            "phase `{phase}` of `{model}` did not end within its limit of {steps} steps (run at t = {time})"
        ),
    )
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use crate::{FaultKind, catch_fault};
    use std::string::ToString;

    #[test]
    fn the_message_names_the_phase_the_model_the_time_and_the_steps() {
        let fault = catch_fault(|| {
            super::phase_overrun("Rod", "impact", 0.5, 10);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "phase `impact` of `Rod` did not end within its limit of 10 steps (run at t = 0.5)"
        );
        assert_eq!((fault.model.as_str(), fault.time), ("Rod", 0.5));
        assert_eq!(fault.kind, FaultKind::PhaseOverrun { limit: 10 });
    }
}
