//! The run-time faults of an adaptive integration method: a host step not finished within its bound of internal steps or of located events.

use crate::fault::{FaultKind, raise};

/// Stops the program: model `model`, in its step from time `time`, tried `steps` internal
/// steps of its integration method `method` (their bound) without reaching the end of
/// the step: the method kept rejecting its steps or shrinking them. The message names
/// the likely causes: a stiff model, rates that are not finite (an error estimate that
/// is not a number rejects the step), or tolerances below what `f64` resolves.
///
/// Called by the generated code and by the interpreter, so that both stop with the same
/// fault ([`FaultKind::InternalSteps`]); like a phase's overrun, it is a fault of the
/// model (a stiff or singular continuous part, or a tolerance too tight for `f64`),
/// reported with what a reader needs to find it.
#[cold]
#[track_caller]
pub fn internal_steps_overrun(model: &str, method: &str, time: f64, steps: u64) -> ! {
    raise(
        model,
        time,
        FaultKind::InternalSteps { limit: steps },
        format_args!(
            "`{model}` did not finish its step at t = {time} within {steps} internal steps of \
             `{method}`: its steps were rejected or shrank again and again. Likely a stiff \
             model (fast and slow time scales: an explicit method needs tiny steps), rates \
             that are not finite (run with --check-finite to find the first), or \
             tolerances below what f64 resolves"
        ),
    )
}

/// Stops the program: model `model`, in its step from time `time`, located more than
/// `events` events inside that one step (its bound): its events chatter, each
/// discrete pass bringing the next crossing closer (Zeno behaviour, such as a ball
/// bouncing ever lower without a speed below which it rests).
///
/// Called by the generated code and by the interpreter alike; a fault of the model
/// ([`FaultKind::EventsChatter`]).
#[cold]
#[track_caller]
pub fn events_overrun(model: &str, time: f64, events: u64) -> ! {
    raise(
        model,
        time,
        FaultKind::EventsChatter { limit: events },
        format_args!(
            "`{model}` located more than {events} events inside its step at t = {time}: its events chatter (Zeno behaviour); give the chattering a condition that ends it, such as a speed below which the ball rests"
        ),
    )
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use crate::{FaultKind, catch_fault};
    use std::string::ToString;

    #[test]
    fn chattering_names_the_model_the_time_and_the_bound() {
        let fault = catch_fault(|| {
            super::events_overrun("Ball", 2.5, 1000);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "`Ball` located more than 1000 events inside its step at t = 2.5: its events \
             chatter (Zeno behaviour); give the chattering a condition that ends it, such as \
             a speed below which the ball rests"
        );
        assert_eq!((fault.model.as_str(), fault.time), ("Ball", 2.5));
        assert_eq!(fault.kind, FaultKind::EventsChatter { limit: 1000 });
    }

    #[test]
    fn the_message_names_the_model_the_time_and_the_steps() {
        let fault = catch_fault(|| {
            super::internal_steps_overrun("Ball", "dopri5", 0.5, 10000);
        })
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "`Ball` did not finish its step at t = 0.5 within 10000 internal steps of \
             `dopri5`: its steps were rejected or shrank again and again. Likely a stiff \
             model (fast and slow time scales: an explicit method needs tiny steps), rates \
             that are not finite (run with --check-finite to find the first), or \
             tolerances below what f64 resolves"
        );
        assert_eq!(fault.kind, FaultKind::InternalSteps { limit: 10000 });
    }
}
