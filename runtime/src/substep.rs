//! The number of sub-steps of a model that divides its step (`substeps N when C limit L;`), and its run-time fault.

use crate::fault::{FaultKind, raise};

/// The number of sub-steps `n = ceil(count)` of one step of model `model` at its time
/// `time`, when it is a whole number from 1 to `limit`; otherwise (`count` NaN,
/// infinite, at most 0, or above `limit`) stops the program with a message naming the
/// model, the time and the count ([`FaultKind::SubstepCount`]).
///
/// Called by the generated code and by the interpreter, so that both divide the step
/// alike and stop with the same fault.
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
/// from 1 to `limit` once rounded up (a fault of the model: [`FaultKind::SubstepCount`]).
#[cold]
#[track_caller]
pub fn substep_count_error(count: f64, limit: u64, model: &str, time: f64) -> ! {
    raise(
        model,
        time,
        FaultKind::SubstepCount { count, limit },
        format_args!(
            "the sub-step count of `{model}` is {count} at t = {time}, not a number from 1 to its limit of {limit}"
        ),
    )
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::catch_fault;
    use std::string::{String, ToString};

    #[test]
    fn the_count_is_rounded_up_and_bounded() {
        assert_eq!(substep_count(1.0, 1, "M", 0.0), 1);
        assert_eq!(substep_count(99.01, 100, "M", 0.0), 100);
        assert_eq!(substep_count(0.5, 100, "M", 0.0), 1);
    }

    /// The message of the fault of `substep_count(count, 10, "Rod", time)`.
    fn message(count: f64, time: f64) -> String {
        let fault = catch_fault(|| substep_count(count, 10, "Rod", time)).unwrap_err();
        assert!(matches!(
            fault.kind,
            FaultKind::SubstepCount { limit: 10, .. }
        ));
        fault.to_string()
    }

    #[test]
    fn nan_is_an_error_naming_the_model_the_time_and_the_value() {
        assert_eq!(
            message(f64::NAN, 0.5),
            "the sub-step count of `Rod` is NaN at t = 0.5, not a number from 1 to its limit of 10"
        );
    }

    #[test]
    fn a_count_over_the_limit_is_an_error() {
        assert_eq!(
            message(10.5, 0.25),
            "the sub-step count of `Rod` is 10.5 at t = 0.25, not a number from 1 to its limit of 10"
        );
    }

    #[test]
    fn an_infinite_count_is_an_error() {
        assert!(message(f64::INFINITY, 0.0).starts_with("the sub-step count of `Rod` is inf"));
    }

    #[test]
    fn zero_is_an_error() {
        assert!(message(0.0, 0.0).starts_with("the sub-step count of `Rod` is 0 "));
    }
}
