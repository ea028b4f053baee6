//! Non-finite values seen in a run: the one scan and the one message every host uses.
//!
//! A run without a checked mode goes on past a NaN or an infinity (the rules may mean a
//! value to be infinite); the hosts (`sitc run`, `sitc sweep`, Python, the FMU) report
//! the first one seen, once, with the same words. [`first_non_finite`] is the scan of
//! a model's variables; [`Watch`] keeps the first one over a run; [`NonFiniteSeen`] says
//! what was found and formats the report ([`NonFiniteSeen::describe`]).
//!
//! ```
//! use sit_runtime::finite::{NonFiniteSeen, Watch};
//!
//! let seen = NonFiniteSeen { index: 0, value: f64::NAN, time: 4.0, from: Some(3.5) };
//! assert_eq!(
//!     seen.describe("level").to_string(),
//!     "`level` became NaN in the step from t = 3.5 to t = 4"
//! );
//! assert!(Watch::new().seen().is_none());
//! ```

use crate::model::{Model, ValueType};
use core::fmt;

/// The first real variable of the public list (params, derived params, inputs, states,
/// in index order) whose value is not finite: its index and value. Flags are skipped.
/// [`Model::first_non_finite`], the scan the model itself may make faster.
pub fn first_non_finite<M: Model + ?Sized>(model: &M) -> Option<(usize, f64)> {
    model.first_non_finite()
}

/// [`Model::first_non_finite`]'s default: every variable through [`Model::var_info`] and
/// [`Model::get_at`], in index order (the answer a faster override must give).
pub fn scan_variables<M: Model + ?Sized>(model: &M) -> Option<(usize, f64)> {
    (0..model.var_count()).find_map(|i| {
        let info = model.var_info(i)?;
        if info.ty != ValueType::Real {
            return None;
        }
        let value = model.get_at(i)?;
        (!value.is_finite()).then_some((i, value))
    })
}

/// [`Model::first_beyond`]'s default: the first real variable, in index order, whose
/// magnitude is not below `bound` (NaN and infinities included), through
/// [`Model::var_info`] and [`Model::get_at`].
pub fn scan_beyond<M: Model + ?Sized>(model: &M, bound: f64) -> Option<(usize, f64)> {
    (0..model.var_count()).find_map(|i| {
        let info = model.var_info(i)?;
        if info.ty != ValueType::Real {
            return None;
        }
        let value = model.get_at(i)?;
        (value.is_nan() || value.abs() >= bound).then_some((i, value))
    })
}

/// A non-finite value found in a run by [`Watch::look`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonFiniteSeen {
    /// The variable's index in the model's public list ([`Model::var_info`]).
    pub index: usize,
    /// The value (NaN, `inf` or `-inf`).
    pub value: f64,
    /// The model's time when it was seen.
    pub time: f64,
    /// The time at the start of the step (or steps) that made it; `None`: it was in the
    /// initial values.
    pub from: Option<f64>,
}

impl NonFiniteSeen {
    /// What was seen, in words, the variable named `name` (its dotted path):
    /// ``` `x` became NaN in the step from t = 3.5 to t = 4 ``` or
    /// ``` `x` became inf in the initial values (t = 0) ```.
    pub fn describe<'a>(&'a self, name: &'a str) -> impl fmt::Display + 'a {
        Describe { seen: self, name }
    }
}

struct Describe<'a> {
    seen: &'a NonFiniteSeen,
    name: &'a str,
}

impl fmt::Display for Describe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NonFiniteSeen {
            value, time, from, ..
        } = *self.seen;
        let name = self.name;
        // `{}` of f64 writes `NaN`, `inf`, `-inf`.
        match from {
            Some(from) => write!(
                f,
                "`{name}` became {value} in the step from t = {from} to t = {time}"
            ),
            None => write!(
                f,
                "`{name}` became {value} in the initial values (t = {time})"
            ),
        }
    }
}

/// The first non-finite value of a run: call [`Watch::look`] on the initial values and
/// after each step; once one is seen the scans stop (a run costs one scan per step until
/// then, none after).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Watch {
    seen: Option<NonFiniteSeen>,
}

impl Watch {
    /// A watch that has seen nothing.
    pub const fn new() -> Watch {
        Watch { seen: None }
    }

    /// Scans `model` unless a value was seen already; `from` is the time at the start of
    /// the step just taken (`None` for the initial values). True when this look found
    /// the first one.
    #[inline]
    pub fn look<M: Model + ?Sized>(&mut self, model: &M, from: Option<f64>) -> bool {
        if self.seen.is_some() {
            return false;
        }
        match first_non_finite(model) {
            Some((index, value)) => {
                self.seen = Some(NonFiniteSeen {
                    index,
                    value,
                    time: model.time(),
                    from,
                });
                true
            }
            None => false,
        }
    }

    /// The first non-finite value seen, if any.
    pub fn seen(&self) -> Option<&NonFiniteSeen> {
        self.seen.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SetError, VarInfo, VarKind};
    use std::string::ToString;

    /// `a` (real), `on` (flag, non-finite bits never read as a real), `b` (real).
    struct Three([f64; 3], f64);

    impl Model for Three {
        fn step(&mut self, dt: f64) {
            self.1 += dt;
        }
        fn reset(&mut self) {}
        fn time(&self) -> f64 {
            self.1
        }
        fn var_count(&self) -> usize {
            3
        }
        fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
            let (name, ty) = [
                ("a", ValueType::Real),
                ("on", ValueType::Logical),
                ("b", ValueType::Real),
            ]
            .get(index)
            .copied()?;
            Some(VarInfo {
                name,
                kind: VarKind::State,
                ty,
                output: true,
                settable: true,
            })
        }
        fn get_at(&self, index: usize) -> Option<f64> {
            self.0.get(index).copied()
        }
        fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
            *self
                .0
                .get_mut(index)
                .ok_or(SetError::Unknown(index.into()))? = value;
            Ok(())
        }
    }

    #[test]
    fn the_first_real_in_index_order() {
        let m = Three([1.0, f64::NAN, f64::INFINITY], 0.0);
        assert_eq!(first_non_finite(&m), Some((2, f64::INFINITY)));
        assert_eq!(first_non_finite(&Three([1.0, 0.0, 2.0], 0.0)), None);
        let m = Three([f64::NEG_INFINITY, 0.0, f64::NAN], 0.0);
        assert_eq!(first_non_finite(&m), Some((0, f64::NEG_INFINITY)));
    }

    #[test]
    fn the_first_real_past_a_bound() {
        let m = Three([1.0, 1e300, -2e100], 0.0);
        assert_eq!(scan_beyond(&m, 1e100), Some((2, -2e100)));
        assert_eq!(scan_beyond(&m, 1e101), None);
        assert_eq!(
            scan_beyond(&Three([f64::NAN, 0.0, 0.0], 0.0), 1e100).map(|x| x.0),
            Some(0)
        );
    }

    #[test]
    fn a_watch_keeps_the_first() {
        let mut m = Three([1.0, 0.0, 2.0], 0.0);
        let mut w = Watch::new();
        assert!(!w.look(&m, None));
        m.step(0.5);
        m.0[2] = f64::NAN;
        assert!(w.look(&m, Some(0.0)));
        m.step(0.5);
        m.0[0] = f64::INFINITY;
        assert!(!w.look(&m, Some(0.5)));
        let seen = *w.seen().unwrap();
        assert_eq!((seen.index, seen.time, seen.from), (2, 0.5, Some(0.0)));
        assert_eq!(
            seen.describe("b").to_string(),
            "`b` became NaN in the step from t = 0 to t = 0.5"
        );
        let initial = NonFiniteSeen {
            index: 0,
            value: f64::NEG_INFINITY,
            time: 0.0,
            from: None,
        };
        assert_eq!(
            initial.describe("a").to_string(),
            "`a` became -inf in the initial values (t = 0)"
        );
    }
}
