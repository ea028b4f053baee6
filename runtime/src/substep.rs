//! The number of sub-steps of a model that divides its step (`substeps N when C limit L;`), and its run-time error.

/// The number of sub-steps `n = ceil(count)` of one step of model `model` at its time
/// `time`, when it is a whole number from 1 to `limit`; otherwise (`count` NaN,
/// infinite, at most 0, or above `limit`) stops the program with a message naming the
/// model, the time and the count.
///
/// Called by the generated code and by the interpreter, so that both divide the step
/// alike and stop with the same message.
///
/// ```
/// assert_eq!(sit_runtime::substep_count(2.5, 10, "Rod", 0.0), 3);
/// assert_eq!(sit_runtime::substep_count(0.2, 10, "Rod", 0.0), 1);
/// ```
#[inline]
#[track_caller]
pub fn substep_count(count: f64, limit: u64, model: &str, time: f64) -> u64 {
    let n = crate::math::ceil(count);
    if n >= 1.0 && n <= limit as f64 {
        n as u64
    } else {
        substep_count_error(count, limit, model, time)
    }
}

/// Stops the program: the count of sub-steps of `model` at `time` is `count`, not
/// from 1 to `limit` once rounded up.
#[cold]
#[track_caller]
pub fn substep_count_error(count: f64, limit: u64, model: &str, time: f64) -> ! {
    panic!(
        "the sub-step count of `{model}` is {count} at t = {time}, not a number from 1 to its limit of {limit}"
    )
}

/// Whether a panic message is that of [`substep_count_error`] (a fault of the model).
pub fn is_substep_error(message: &str) -> bool {
    message.starts_with("the sub-step count of `")
        && message.contains("not a number from 1 to its limit of ")
}

/// Whether a panic message is a fault of the model that a host such as `sitc` reports as
/// an error rather than as a crash: a phase that does not end
/// ([`crate::is_phase_overrun`]), a count of sub-steps out of its bounds
/// ([`is_substep_error`]), or an adaptive method that does not finish a step within its
/// bound of internal steps ([`crate::is_internal_steps_overrun`]) or of events located
/// inside one step ([`crate::is_events_overrun`]).
pub fn is_model_fault(message: &str) -> bool {
    crate::is_phase_overrun(message) || is_substep_error(message) || crate::is_method_fault(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_rounded_up_and_bounded() {
        assert_eq!(substep_count(1.0, 1, "M", 0.0), 1);
        assert_eq!(substep_count(99.01, 100, "M", 0.0), 100);
        assert_eq!(substep_count(0.5, 100, "M", 0.0), 1);
    }

    #[test]
    #[should_panic(
        expected = "the sub-step count of `Rod` is NaN at t = 0.5, not a number from 1 to its limit of 10"
    )]
    fn nan_is_an_error_naming_the_model_the_time_and_the_value() {
        substep_count(f64::NAN, 10, "Rod", 0.5);
    }

    #[test]
    #[should_panic(
        expected = "the sub-step count of `Rod` is 10.5 at t = 0.25, not a number from 1 to its limit of 10"
    )]
    fn a_count_over_the_limit_is_an_error() {
        substep_count(10.5, 10, "Rod", 0.25);
    }

    #[test]
    #[should_panic(expected = "the sub-step count of `Rod` is inf")]
    fn an_infinite_count_is_an_error() {
        substep_count(f64::INFINITY, 10, "Rod", 0.0);
    }

    #[test]
    #[should_panic(expected = "the sub-step count of `Rod` is 0")]
    fn zero_is_an_error() {
        substep_count(0.0, 10, "Rod", 0.0);
    }

    #[test]
    fn the_messages_are_recognised() {
        let m =
            "the sub-step count of `Rod` is NaN at t = 0.5, not a number from 1 to its limit of 10";
        assert!(is_substep_error(m) && is_model_fault(m));
        assert!(is_model_fault(
            "phase `impact` of `Rod` did not end within its limit of 10 steps (run at t = 0.5)"
        ));
        assert!(!is_model_fault("index out of bounds"));
    }
}
