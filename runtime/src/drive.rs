//! Models whose inputs follow time series, and the step count of a run: what `sitc run`, `sitc sweep` and the Python package share.
//!
//! A [`Driven`] model sets each driven input to its series' value at the model's time
//! whenever that time changes (after construction, after `reset` and after each step),
//! so step k+1 runs with `u(t_k)`, the value at its start time, and a row recorded at
//! `t_k` shows `u(t_k)`. A real input follows its series linearly between rows
//! ([`Signal::sample`](crate::signal::Signal::sample)); a flag (logical) input holds
//! each row's value until the next row's time ([`Hold::Zero`], zero-order hold), and its
//! values must be 0 or 1. A step sees a flag input true when its series is true at any
//! time in the step, from its start time up to (not including) its end
//! ([`Driven::enter_step`]): a press shorter than the step, between two step times, is
//! not lost; the rows still show each flag's value at the row's time.
//!
//! ```
//! use sit_runtime::drive::{Driven, Input, steps};
//! use sit_runtime::signal::OwnedSignal;
//! use sit_runtime::Model;
//! # fn run(model: impl Model, u: usize, on: usize) -> Result<(), Box<dyn std::error::Error>> {
//! // `u` ramps from 0 to 1 over 2 s; the flag `on` is 1 from t = 0.5 to t = 1.5.
//! let ramp = OwnedSignal::new(vec![0.0, 2.0], vec![0.0, 1.0])?;
//! let gate = OwnedSignal::new(vec![0.0, 0.5, 1.5], vec![0.0, 1.0, 0.0])?;
//! let mut driven = Driven::new(model, vec![Input::real(u, ramp), Input::flag(on, gate)?]);
//! for _ in 0..steps(0.01, 2.0)? {
//!     driven.step(0.01);
//! }
//! # Ok(()) }
//! ```

use crate::signal::OwnedSignal;
use crate::{Model, SetError, VarInfo};
use core::fmt;
use std::vec::Vec;

/// How a driven input follows its series between rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Linear interpolation between rows (a real input).
    Linear,
    /// Each row's value held until the next row's time (a flag input).
    Zero,
}

/// A value of a flag's series that is neither 0 nor 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotLogical {
    /// The row, counted from 0.
    pub row: usize,
    /// The value.
    pub value: f64,
}

impl fmt::Display for NotLogical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "row {}: {} is not a logical value; a flag's series holds 0 (false) or 1 (true)",
            self.row, self.value
        )
    }
}

impl core::error::Error for NotLogical {}

/// One driven input: the variable's index, its series and how it follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The index of the input among the model's variables.
    pub index: usize,
    /// The series.
    pub signal: OwnedSignal,
    /// Linear (real) or held (flag).
    pub hold: Hold,
}

impl Input {
    /// A real input following `signal` linearly.
    pub fn real(index: usize, signal: OwnedSignal) -> Input {
        Input {
            index,
            signal,
            hold: Hold::Linear,
        }
    }

    /// A flag input holding each value of `signal` (0 or 1, else [`NotLogical`]) until
    /// the next row.
    pub fn flag(index: usize, signal: OwnedSignal) -> Result<Input, NotLogical> {
        if let Some((row, &value)) =
            (signal.values().iter().enumerate()).find(|(_, v)| **v != 0.0 && **v != 1.0)
        {
            return Err(NotLogical { row, value });
        }
        Ok(Input {
            index,
            signal,
            hold: Hold::Zero,
        })
    }

    /// The input's value at time `t`.
    pub fn sample(&mut self, t: f64) -> f64 {
        match self.hold {
            Hold::Linear => self.signal.sample(t),
            Hold::Zero => self.signal.sample_held(t),
        }
    }

    /// The value a step from `t` of length `dt` runs with, set before it
    /// ([`Driven::enter_step`]): a flag's, 1 if its series is true at any time in the
    /// step ([`Input::true_within`]) else 0; `None` for a real input, which keeps its
    /// value at `t` ([`Input::sample`], set after the step before). The rule of every
    /// host that drives inputs (the interpreter's [`Driven`], a compiled sweep's lanes).
    pub fn entering(&mut self, t: f64, dt: f64) -> Option<f64> {
        match self.hold {
            Hold::Zero => Some(if self.true_within(t, t + dt) {
                1.0
            } else {
                0.0
            }),
            Hold::Linear => None,
        }
    }

    /// Whether a flag's series is true (nonzero) at any time in `[t0, t1)`: held
    /// true at `t0`, or a row with its time in `(t0, t1)` that is true. A row within
    /// 1e-9 of the interval's length before `t1` counts as at `t1` (in the next step): a
    /// model's time is a sum of steps, and `0.1` added eight times ends just past `0.8`.
    pub fn true_within(&mut self, t0: f64, t1: f64) -> bool {
        if self.signal.sample_held(t0) != 0.0 {
            return true;
        }
        let end = t1 - 1e-9 * (t1 - t0);
        let times = self.signal.times();
        let first = times.partition_point(|&x| x <= t0);
        (times[first..].iter().zip(&self.signal.values()[first..]))
            .take_while(|(x, _)| **x < end)
            .any(|(_, v)| *v != 0.0)
    }
}

/// A model whose inputs follow series: each driven input is set to its value at the
/// model's time after construction ([`Driven::new`]), after `reset` and after every
/// step, so each step starts with the values at its start time.
#[derive(Clone)]
pub struct Driven<M> {
    /// The model.
    pub model: M,
    inputs: Vec<Input>,
}

impl<M: Model> Driven<M> {
    /// `model` with `inputs` (settable inputs of the model), set at its current time.
    pub fn new(model: M, inputs: Vec<Input>) -> Driven<M> {
        let mut driven = Driven { model, inputs };
        driven.drive();
        driven
    }

    /// Whether variable `index` is driven by a series.
    pub fn drives(&self, index: usize) -> bool {
        self.inputs.iter().any(|i| i.index == index)
    }

    /// Before a step of length `dt`: sets each flag input to whether its series is true
    /// at any time in the step (`[t, t + dt)`, [`Input::true_within`]), so that a pulse
    /// shorter than the step is seen by the step that holds it. [`Model::step`] calls
    /// it; a host that steps the inner model itself (a checked step) calls it first.
    pub fn enter_step(&mut self, dt: f64) {
        let t = self.model.time();
        for input in &mut self.inputs {
            if let Some(v) = input.entering(t, dt) {
                let _ = self.model.set_at(input.index, v);
            }
        }
    }

    /// The driven inputs.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// `model` (in the state of this one's model: the plain model behind a wrapper)
    /// driven by copies of these inputs, as they are now: not driven again.
    pub fn with_model<N: Model>(&self, model: N) -> Driven<N> {
        Driven {
            model,
            inputs: self.inputs.clone(),
        }
    }

    /// Sets every driven input to its value at the model's time.
    pub fn drive(&mut self) {
        let t = self.model.time();
        for input in &mut self.inputs {
            // A settable input takes any finite value, and a checked series gives finite
            // values (0 or 1 for a flag) at a finite time.
            let _ = self.model.set_at(input.index, input.sample(t));
        }
    }
}

impl<M: Model> Model for Driven<M> {
    fn step(&mut self, dt: f64) {
        self.enter_step(dt);
        self.model.step(dt);
        self.drive();
    }

    fn reset(&mut self) {
        self.model.reset();
        self.drive();
    }

    fn time(&self) -> f64 {
        self.model.time()
    }

    fn var_count(&self) -> usize {
        self.model.var_count()
    }

    fn hidden_count(&self) -> usize {
        self.model.hidden_count()
    }

    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        self.model.var_info(index)
    }

    fn get_at(&self, index: usize) -> Option<f64> {
        self.model.get_at(index)
    }

    fn first_non_finite(&self) -> Option<(usize, f64)> {
        self.model.first_non_finite()
    }

    fn first_beyond(&self, bound: f64) -> Option<(usize, f64)> {
        self.model.first_beyond(bound)
    }

    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        self.model.set_at(index, value)
    }

    fn var_index(&self, name: &str) -> Option<usize> {
        self.model.var_index(name)
    }

    fn mode_state(&self, index: usize, state: usize) -> Option<&str> {
        self.model.mode_state(index, state)
    }
}

/// Why a run's step count cannot be computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepsError {
    /// The step is not a finite number > 0.
    Dt(f64),
    /// The end time is not a finite number >= 0.
    TEnd(f64),
    /// More than 2^53 steps.
    TooMany {
        /// The step.
        dt: f64,
        /// The end time.
        t_end: f64,
    },
}

impl fmt::Display for StepsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepsError::Dt(dt) => write!(f, "dt must be a finite number > 0, not {dt}"),
            StepsError::TEnd(t) => write!(f, "t_end must be a finite number >= 0, not {t}"),
            StepsError::TooMany { dt, t_end } => {
                write!(f, "t_end {t_end} with dt {dt} is too many steps")
            }
        }
    }
}

impl core::error::Error for StepsError {}

/// `round(t_end / dt)` if `t_end / dt` is within 1e-9 (relative, at least 1e-9
/// absolute) of it: a whole number of steps, up to the rounding of decimal steps.
pub fn whole_steps(dt: f64, t_end: f64) -> Option<f64> {
    let ratio = t_end / dt;
    let steps = libm::round(ratio);
    (libm::fabs(ratio - steps) <= 1e-9 * steps.max(1.0)).then_some(steps)
}

/// The number of steps of a run to `t_end`: `t_end / dt` when that is a whole number
/// ([`whole_steps`]), else the whole steps that fit in `t_end` (never past it).
pub fn steps(dt: f64, t_end: f64) -> Result<u64, StepsError> {
    if !(dt.is_finite() && dt > 0.0) {
        return Err(StepsError::Dt(dt));
    }
    if !(t_end.is_finite() && t_end >= 0.0) {
        return Err(StepsError::TEnd(t_end));
    }
    let steps = whole_steps(dt, t_end).unwrap_or_else(|| libm::floor(t_end / dt));
    // 2^53: every step count is exact and the loop counter never overflows.
    if steps > 9_007_199_254_740_992.0 {
        return Err(StepsError::TooMany { dt, t_end });
    }
    Ok(steps as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn steps_round_the_ratio() {
        assert_eq!(steps(1e-4, 10.0), Ok(100_000));
        assert_eq!(steps(0.01, 0.0), Ok(0));
        assert_eq!(steps(0.3, 1.0), Ok(3));
        assert_eq!(steps(0.4, 1.0), Ok(2)); // never past T
        assert_eq!(steps(0.1, 0.3), Ok(3)); // 2.9999999999999996 is whole
        assert_eq!(steps(0.0, 1.0), Err(StepsError::Dt(0.0)));
        assert!(steps(f64::NAN, 1.0).is_err());
        assert_eq!(steps(0.1, -1.0), Err(StepsError::TEnd(-1.0)));
        assert!(matches!(
            steps(1e-300, 1e10),
            Err(StepsError::TooMany { .. })
        ));
    }

    #[test]
    fn flags_take_zero_or_one() {
        let s = |v: Vec<f64>| OwnedSignal::new(vec![0.0, 1.0, 2.0], v).unwrap();
        let mut on = Input::flag(3, s(vec![0.0, 1.0, 0.0])).unwrap();
        assert_eq!(
            (on.sample(0.5), on.sample(1.0), on.sample(1.99)),
            (0.0, 1.0, 1.0)
        );
        assert_eq!(on.sample(2.0), 0.0);
        assert_eq!(
            Input::flag(3, s(vec![0.0, 0.5, 1.0])),
            Err(NotLogical { row: 1, value: 0.5 })
        );
        let mut u = Input::real(0, s(vec![0.0, 1.0, 0.0]));
        assert_eq!(u.sample(0.5), 0.5);
    }

    #[test]
    fn a_flag_is_true_in_a_step_if_it_is_true_at_any_time_in_it() {
        // A 0.1 s press from t = 1.2 to 1.3, between the step times 1.0 and 1.5.
        let press = OwnedSignal::new(vec![0.0, 1.2, 1.3], vec![0.0, 1.0, 0.0]).unwrap();
        let mut on = Input::flag(0, press).unwrap();
        assert!(!on.true_within(0.5, 1.0));
        assert!(on.true_within(1.0, 1.5), "the press is inside the step");
        assert!(!on.true_within(1.5, 2.0));
        // Half-open: a rise at the step's end belongs to the next step.
        assert!(!on.true_within(0.7, 1.2));
        assert!(on.true_within(1.2, 1.7));
        // Held true at the start.
        assert!(on.true_within(1.25, 1.26));
    }
}
