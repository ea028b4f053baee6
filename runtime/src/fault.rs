//! Faults of a model at run time (a phase past its limit, a sub-step count out of bounds, an adaptive method past its bounds) as a typed panic payload.
//!
//! A model's step has no error path: a fault stops it with a panic, raised by the
//! functions of this crate that the generated code and the interpreter both call
//! ([`crate::phase_overrun`], [`crate::substep_count_error`],
//! [`crate::internal_steps_overrun`], [`crate::events_overrun`]). With the `std`
//! feature the panic's payload is a [`ModelFault`] (raised with
//! [`std::panic::panic_any`]), which a host recognises by its type, never by its text:
//! [`catch_fault`] runs a closure and returns the fault as an `Err`, letting every
//! other panic (a bug) go on unwinding. Without `std` the panic carries the same
//! message, formatted, and nothing catches it.

use core::fmt;

/// Which fault stopped a model: one variant per fault, with the bound it passed.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum FaultKind {
    /// A phase took `limit` steps (its limit) without its end condition holding.
    PhaseOverrun {
        /// The phase's limit of steps.
        limit: u64,
    },
    /// The sub-step count was `count`, not a whole number from 1 to `limit` once
    /// rounded up (NaN, infinite, at most 0 or above the limit).
    SubstepCount {
        /// The count as computed.
        count: f64,
        /// Its upper bound.
        limit: u64,
    },
    /// An adaptive method took `limit` internal steps (its bound) without finishing a
    /// host step: a stiff or singular continuous part, or a tolerance too tight for
    /// `f64`.
    InternalSteps {
        /// The bound of internal steps.
        limit: u64,
    },
    /// More than `limit` events were located inside one host step: the events chatter
    /// (Zeno behaviour).
    EventsChatter {
        /// The bound of events in one step.
        limit: u64,
    },
    /// An implicit method's iteration matrix `I/(γh) − J` had no nonzero finite pivot
    /// in column `column` (0-based) when factorised: singular to working precision, or
    /// not finite (a Jacobian entry that is infinite or NaN).
    SingularMatrix {
        /// The column of the elimination without a pivot.
        column: usize,
    },
    /// An adaptive method's internal step shrank below what the time resolves: `step`
    /// is at most `1e-14·(|t| + dt)`, short of the host step's end.
    StepUnderflow {
        /// The internal step proposed.
        step: f64,
    },
}

impl FaultKind {
    /// Whether the fault is one of an adaptive integration method (its bound of
    /// internal steps or of events located in one step), rather than of the model's
    /// phases or sub-steps.
    pub fn is_method(&self) -> bool {
        matches!(
            self,
            FaultKind::InternalSteps { .. }
                | FaultKind::EventsChatter { .. }
                | FaultKind::SingularMatrix { .. }
                | FaultKind::StepUnderflow { .. }
        )
    }

    /// The kind's name in `snake_case` (`phase_overrun`, `substep_count`,
    /// `internal_steps`, `events_chatter`, `singular_matrix`, `step_underflow`), for
    /// hosts that name it as text (Python).
    pub fn name(&self) -> &'static str {
        match self {
            FaultKind::PhaseOverrun { .. } => "phase_overrun",
            FaultKind::SubstepCount { .. } => "substep_count",
            FaultKind::InternalSteps { .. } => "internal_steps",
            FaultKind::EventsChatter { .. } => "events_chatter",
            FaultKind::SingularMatrix { .. } => "singular_matrix",
            FaultKind::StepUnderflow { .. } => "step_underflow",
        }
    }
}

/// A fault of a model at run time: which model, at what time, which fault, and the
/// message that a reader needs to find it (what [`fmt::Display`] writes).
///
/// The payload of the panic that stops a step (with `std`); catch it with
/// [`catch_fault`]. The step was left half done: [`crate::Model::reset`] before
/// stepping the model again.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ModelFault {
    /// The name of the model (or submodel type) that faulted.
    pub model: std::string::String,
    /// That model's time at the start of the step (or the phase's run) that faulted.
    pub time: f64,
    /// Which fault, with its bound.
    pub kind: FaultKind,
    /// The message: it names the model, the time and the bound.
    pub message: std::string::String,
}

#[cfg(feature = "std")]
impl ModelFault {
    /// A fault of `model` at `time`, of kind `kind`, reported as `message`.
    pub fn new(
        model: impl Into<std::string::String>,
        time: f64,
        kind: FaultKind,
        message: impl Into<std::string::String>,
    ) -> ModelFault {
        ModelFault {
            model: model.into(),
            time,
            kind,
            message: message.into(),
        }
    }

    /// Stops the program with this fault as the panic's payload.
    #[cold]
    #[track_caller]
    pub fn raise(self) -> ! {
        std::panic::panic_any(self)
    }

    /// The fault a panic's payload is, if it is one (`None` for any other panic).
    pub fn of(payload: &(dyn core::any::Any + Send)) -> Option<&ModelFault> {
        payload.downcast_ref::<ModelFault>()
    }
}

#[cfg(feature = "std")]
impl fmt::Display for ModelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ModelFault {}

/// Stops the program: a fault of kind `kind` of `model` at `time`, reported as
/// `message` (a [`ModelFault`] payload with `std`, the message alone without).
#[cold]
#[track_caller]
pub(crate) fn raise(model: &str, time: f64, kind: FaultKind, message: fmt::Arguments<'_>) -> ! {
    #[cfg(feature = "std")]
    {
        ModelFault::new(model, time, kind, std::fmt::format(message)).raise()
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = (model, time, kind);
        panic!("{message}")
    }
}

/// Runs `f`; a [`ModelFault`] raised inside it is returned as `Err`, and every other
/// panic (a bug, not a fault of the model) goes on unwinding.
///
/// What `f` changed is left as the fault left it (a model's step half done), which
/// is why `f` need not be [`std::panic::UnwindSafe`]: reset a faulted model before
/// stepping it again.
///
/// ```
/// use sit_runtime::{FaultKind, catch_fault};
///
/// let fault = catch_fault(|| {
///     sit_runtime::events_overrun("Ball", 2.5, 1000);
/// })
/// .unwrap_err();
/// assert_eq!((fault.model.as_str(), fault.time), ("Ball", 2.5));
/// assert_eq!(fault.kind, FaultKind::EventsChatter { limit: 1000 });
/// assert_eq!(catch_fault(|| 1 + 1), Ok(2));
/// ```
#[cfg(feature = "std")]
pub fn catch_fault<T>(f: impl FnOnce() -> T) -> Result<T, ModelFault> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<ModelFault>() {
            Ok(fault) => Err(*fault),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// Makes the panic hook print nothing for a [`ModelFault`], and everything else as
/// before: for a host that reports the faults it catches itself (`sitc`, the FMU,
/// Python). Without it the default hook would print `Box<dyn Any>` for each (the
/// payload is not text). Only the first call in a process changes the hook.
#[cfg(feature = "std")]
pub fn quiet_fault_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(std::boxed::Box::new(move |info| {
            if !info.payload().is::<ModelFault>() {
                previous(info);
            }
        }));
    });
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use std::string::{String, ToString};

    #[test]
    fn a_fault_is_recognised_by_its_type_whatever_its_message() {
        // Rewording a message must not change what a host does with the fault.
        let reworded = ModelFault::new("Rod", 0.5, FaultKind::PhaseOverrun { limit: 10 }, "?");
        let caught = catch_fault(|| reworded.clone().raise()).unwrap_err();
        assert_eq!(caught, reworded);
        assert_eq!(caught.to_string(), "?");
    }

    #[test]
    fn a_panic_with_a_faults_text_is_not_a_fault() {
        let text =
            "phase `impact` of `Rod` did not end within its limit of 10 steps (run at t = 0.5)";
        let payload = std::panic::catch_unwind(|| {
            catch_fault::<()>(|| std::panic::panic_any(String::from(text)))
        })
        .expect_err("a bug goes on unwinding");
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some(text)
        );
        assert!(ModelFault::of(&*payload).is_none());
    }

    #[test]
    fn every_raiser_raises_its_kind() {
        let kind = |f: fn()| catch_fault(f).unwrap_err().kind;
        assert_eq!(
            kind(|| crate::phase_overrun("Rod", "impact", 0.5, 10)),
            FaultKind::PhaseOverrun { limit: 10 }
        );
        assert_eq!(
            kind(|| {
                crate::substep_count(11.0, 10, "Rod", 0.5);
            }),
            FaultKind::SubstepCount {
                count: 11.0,
                limit: 10
            }
        );
        assert_eq!(
            kind(|| crate::internal_steps_overrun("Rod", "rk4", 0.5, 10_000)),
            FaultKind::InternalSteps { limit: 10_000 }
        );
        assert_eq!(
            kind(|| crate::events_overrun("Rod", 0.5, 1000)),
            FaultKind::EventsChatter { limit: 1000 }
        );
        assert_eq!(
            FaultKind::SubstepCount {
                count: 0.0,
                limit: 1
            }
            .name(),
            "substep_count"
        );
        assert!(FaultKind::EventsChatter { limit: 1 }.is_method());
        assert!(!FaultKind::PhaseOverrun { limit: 1 }.is_method());
    }
}
