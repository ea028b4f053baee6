//! The run-time errors of an adaptive integration method: a host step not finished within its bound of internal steps or of located events.

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

/// Stops the program: model `model`, in its step from time `time`, located more than
/// `events` events inside that one step (its bound): its events chatter, each
/// discrete pass bringing the next crossing closer (Zeno behaviour, such as a ball
/// bouncing ever lower without a speed below which it rests).
///
/// Called by the generated code and by the interpreter alike; a fault of the model.
#[cold]
#[track_caller]
pub fn events_overrun(model: &str, time: f64, events: u64) -> ! {
    panic!(
        "`{model}` located more than {events} events inside its step at t = {time}: its events chatter (Zeno behaviour); give the chattering a condition that ends it, such as a speed below which the ball rests"
    )
}

/// Whether a panic message is a fault of an integration method: [`internal_steps_overrun`]
/// or [`events_overrun`] (a subset of [`crate::is_model_fault`]).
pub fn is_method_fault(message: &str) -> bool {
    is_internal_steps_overrun(message) || is_events_overrun(message)
}

/// Whether a panic message is that of [`events_overrun`].
pub fn is_events_overrun(message: &str) -> bool {
    message.starts_with('`')
        && message.contains("` located more than ")
        && message.contains(" events inside its step at t = ")
        && message.contains("its events chatter (Zeno behaviour)")
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(
        expected = "`Ball` located more than 1000 events inside its step at t = 2.5: its events chatter (Zeno behaviour)"
    )]
    fn chattering_names_the_model_the_time_and_the_bound() {
        super::events_overrun("Ball", 2.5, 1000);
    }

    #[test]
    fn chattering_is_recognised() {
        let m = std::panic::catch_unwind(|| super::events_overrun("Ball", 2.5, 1000))
            .expect_err("it stops")
            .downcast::<std::string::String>()
            .expect("a formatted message");
        assert!(super::is_events_overrun(&m) && super::is_method_fault(&m));
        assert!(!super::is_internal_steps_overrun(&m));
        assert!(crate::is_model_fault(&m));
    }

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
