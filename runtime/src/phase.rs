//! The run-time error of an instantaneous phase that does not end within its limit.

/// Stops the program: the phase `phase` of model `model`, run at the model's time
/// `time`, took `steps` steps (its limit) without its end condition holding.
///
/// Called by the generated code and by the interpreter, so that both stop with the
/// same message; a phase's limit is part of the model, and a run that reaches it is
/// a fault of the model (like a division by zero checked with `--check-finite`),
/// reported with the names a reader needs to find it.
#[cold]
#[track_caller]
pub fn phase_overrun(model: &str, phase: &str, time: f64, steps: u64) -> ! {
    panic!(
        "phase `{phase}` of `{model}` did not end within its limit of {steps} steps (run at t = {time})"
    )
}

/// Whether a panic message is that of [`phase_overrun`] (a fault of the model, which a
/// host such as `sitc` reports as an error rather than as a crash).
pub fn is_phase_overrun(message: &str) -> bool {
    message.starts_with("phase `") && message.contains("` did not end within its limit of ")
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(
        expected = "phase `impact` of `Rod` did not end within its limit of 10 steps (run at t = 0.5)"
    )]
    fn the_message_names_the_phase_the_model_the_time_and_the_steps() {
        super::phase_overrun("Rod", "impact", 0.5, 10);
    }

    #[test]
    fn the_message_is_recognised() {
        let m = "phase `impact` of `Rod` did not end within its limit of 10 steps (run at t = 0.5)";
        assert!(super::is_phase_overrun(m));
        assert!(!super::is_phase_overrun("index out of bounds"));
    }
}
