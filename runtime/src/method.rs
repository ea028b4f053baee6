//! The run-time error of an adaptive integration method that cannot finish a host step within its bound.

/// Stops the program: model `model`, in its step from time `time`, tried `steps` internal
/// steps of its adaptive method (its bound) without reaching the end of the step.
///
/// Called by the generated code and by the interpreter, so that both stop with the same
/// message; like a phase's overrun, it is a fault of the model (a stiff or singular
/// continuous part, or a tolerance too tight for `f64`), reported with what a reader
/// needs to find it.
#[cold]
#[track_caller]
pub fn internal_steps_overrun(model: &str, time: f64, steps: u64) -> ! {
    panic!(
        "`{model}` did not finish its step at t = {time} within {steps} internal steps of its integration method"
    )
}

/// Whether a panic message is that of [`internal_steps_overrun`] (a fault of the model,
/// which a host such as `sitc` reports as an error rather than as a crash).
pub fn is_internal_steps_overrun(message: &str) -> bool {
    message.starts_with('`')
        && message.contains("` did not finish its step at t = ")
        && message.ends_with(" internal steps of its integration method")
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(
        expected = "`Ball` did not finish its step at t = 0.5 within 10000 internal steps of its integration method"
    )]
    fn the_message_names_the_model_the_time_and_the_steps() {
        super::internal_steps_overrun("Ball", 0.5, 10000);
    }

    #[test]
    fn the_message_is_recognised() {
        let m = "`Ball` did not finish its step at t = 0.5 within 10000 internal steps of its integration method";
        assert!(super::is_internal_steps_overrun(m));
        assert!(!super::is_internal_steps_overrun("index out of bounds"));
    }
}
