//! Input signals from data: a time series sampled with linear interpolation, held beyond its ends.
//!
//! A [`Signal`] borrows two slices, the times and the values of a series, checked once by
//! [`Signal::new`]; [`Signal::sample`] then returns the value at any time without
//! allocating. The rule, for times `t_0 ≤ t_1 ≤ … ≤ t_{n-1}` and values `v_i`:
//!
//! - `t ≤ t_0`: `v_0`, and `t ≥ t_{n-1}`: `v_{n-1}` (held beyond the ends, never
//!   extrapolated);
//! - `t_i ≤ t < t_{i+1}`: `v_i + (v_{i+1} − v_i) · ((t − t_i) / (t_{i+1} − t_i))`, so
//!   `sample(t_i)` is `v_i` exactly;
//! - a time may appear twice in a row (`t_i = t_{i+1}`): a jump, right-continuous: the
//!   series approaches `v_i` from the left and is `v_{i+1}` from `t_i` on;
//! - a NaN time gives NaN.
//!
//! Times must be finite and non-decreasing, values finite, and no time may appear more
//! than twice ([`SignalError`]). A cursor remembers the last segment, so a sequence of
//! non-decreasing sample times (a simulation) costs O(1) amortised per sample; going
//! back (after a reset) costs a binary search.
//!
//! To drive a model's input, set it to the signal's value at the model's time before
//! each step, as `sitc run --input` does:
//!
//! ```
//! use sit_runtime::signal::Signal;
//!
//! // A ramp from 0 to 2 over 2 s, then held at 2; `y' = u`, forward Euler.
//! let (times, values) = ([0.0, 2.0], [0.0, 2.0]);
//! let mut u = Signal::new(&times, &values)?;
//! let (mut t, mut y, dt) = (0.0_f64, 0.0_f64, 0.5);
//! for _ in 0..6 {
//!     let u_now = u.sample(t); // model.set("u", u.sample(model.time())) for a Model
//!     y += u_now * dt;
//!     t += dt;
//! }
//! // u at t = 0, 0.5, ..., 2.5: 0, 0.5, 1, 1.5, 2, 2.
//! assert_eq!(y, (0.0 + 0.5 + 1.0 + 1.5 + 2.0 + 2.0) * dt);
//! # Ok::<(), sit_runtime::signal::SignalError>(())
//! ```

use core::fmt;

/// Why a series cannot be a signal. Rows are counted from 0 (the first time/value pair).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SignalError {
    /// No rows.
    Empty,
    /// The times and the values have different lengths.
    Lengths {
        /// Number of times.
        times: usize,
        /// Number of values.
        values: usize,
    },
    /// A time is NaN or infinite.
    TimeNotFinite {
        /// The row.
        row: usize,
        /// The time.
        time: f64,
    },
    /// A value is NaN or infinite.
    ValueNotFinite {
        /// The row.
        row: usize,
        /// The value.
        value: f64,
    },
    /// A time is smaller than the time of the row before.
    Decreasing {
        /// The row.
        row: usize,
        /// Its time.
        time: f64,
        /// The time of the row before.
        previous: f64,
    },
    /// A time appears a third time in a row (twice is a jump; three times leaves the
    /// middle value unused).
    Repeated {
        /// The row of the third occurrence.
        row: usize,
        /// The time.
        time: f64,
    },
}

impl fmt::Display for SignalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SignalError::Empty => f.write_str("the series has no rows"),
            SignalError::Lengths { times, values } => {
                write!(f, "{times} times but {values} values")
            }
            SignalError::TimeNotFinite { row, time } => {
                write!(f, "row {row}: the time is {time}, expected a finite number")
            }
            SignalError::ValueNotFinite { row, value } => {
                write!(
                    f,
                    "row {row}: the value is {value}, expected a finite number"
                )
            }
            SignalError::Decreasing {
                row,
                time,
                previous,
            } => write!(
                f,
                "row {row}: the time {time} is before the previous row's {previous}; \
                 times must not decrease"
            ),
            SignalError::Repeated { row, time } => write!(
                f,
                "row {row}: the time {time} appears a third time; a time may appear at \
                 most twice in a row (a jump)"
            ),
        }
    }
}

impl core::error::Error for SignalError {}

/// Checks a series: the rules of [`Signal::new`].
pub fn check(times: &[f64], values: &[f64]) -> Result<(), SignalError> {
    if times.len() != values.len() {
        return Err(SignalError::Lengths {
            times: times.len(),
            values: values.len(),
        });
    }
    if times.is_empty() {
        return Err(SignalError::Empty);
    }
    for (row, (&time, &value)) in times.iter().zip(values).enumerate() {
        if !time.is_finite() {
            return Err(SignalError::TimeNotFinite { row, time });
        }
        if !value.is_finite() {
            return Err(SignalError::ValueNotFinite { row, value });
        }
        if row >= 1 && time < times[row - 1] {
            return Err(SignalError::Decreasing {
                row,
                time,
                previous: times[row - 1],
            });
        }
        if row >= 2 && time == times[row - 2] {
            return Err(SignalError::Repeated { row, time });
        }
    }
    Ok(())
}

/// A time series over borrowed slices, sampled by linear interpolation and held beyond
/// its ends (the rules are in the [module documentation](self)). No allocation; `Clone`
/// copies the cursor, so clones sample independently.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal<'a> {
    times: &'a [f64],
    values: &'a [f64],
    cursor: usize,
}

impl<'a> Signal<'a> {
    /// A signal over `times` and `values` (equal lengths, at least one row, finite,
    /// times non-decreasing, no time more than twice in a row).
    pub fn new(times: &'a [f64], values: &'a [f64]) -> Result<Signal<'a>, SignalError> {
        check(times, values)?;
        Ok(Signal {
            times,
            values,
            cursor: 0,
        })
    }

    /// The value at time `t`: `v_i` at a row's time, linear between rows, the first value
    /// before the first time, the last value after the last time, the later value at a
    /// repeated time, NaN for a NaN `t`.
    #[inline]
    pub fn sample(&mut self, t: f64) -> f64 {
        sample(self.times, self.values, &mut self.cursor, t)
    }

    /// The value at time `t` held from each row to the next (zero-order hold, for a
    /// logical input): `v_i` for `t_i <= t < t_{i+1}`, the first value before the first
    /// time, the last value from the last time on, the later value at a repeated time,
    /// NaN for a NaN `t`.
    #[inline]
    pub fn sample_held(&mut self, t: f64) -> f64 {
        held(self.times, self.values, &mut self.cursor, t)
    }

    /// The times.
    pub fn times(&self) -> &'a [f64] {
        self.times
    }

    /// The values.
    pub fn values(&self) -> &'a [f64] {
        self.values
    }
}

/// The value at `t`, moving `cursor` to the last row whose time is `<= t` (0 if none).
/// `times` and `values` must have passed [`check`].
#[inline]
fn sample(times: &[f64], values: &[f64], cursor: &mut usize, t: f64) -> f64 {
    let n = times.len();
    if t.is_nan() {
        return f64::NAN;
    }
    if t <= times[0] {
        *cursor = 0;
        // At a repeated first time, the later value (right-continuous).
        return if n > 1 && t == times[1] {
            values[1]
        } else {
            values[0]
        };
    }
    if t >= times[n - 1] {
        *cursor = n - 1;
        return values[n - 1];
    }
    // Here t_0 < t < t_{n-1}: the last row i with t_i <= t has i < n - 1.
    let mut i = (*cursor).min(n - 1);
    if times[i] > t {
        // Back in time: binary search (partition_point >= 1 since t > t_0).
        i = times.partition_point(|&x| x <= t) - 1;
    } else {
        while times[i + 1] <= t {
            i += 1;
        }
    }
    *cursor = i;
    let (t0, t1, v0, v1) = (times[i], times[i + 1], values[i], values[i + 1]);
    // t0 <= t < t1, so t1 > t0.
    v0 + (v1 - v0) * ((t - t0) / (t1 - t0))
}

/// The value of the last row whose time is `<= t` (the first row's before it), moving
/// `cursor` there. `times` and `values` must have passed [`check`].
#[inline]
fn held(times: &[f64], values: &[f64], cursor: &mut usize, t: f64) -> f64 {
    let n = times.len();
    if t.is_nan() {
        return f64::NAN;
    }
    if t < times[0] {
        *cursor = 0;
        return values[0];
    }
    let mut i = (*cursor).min(n - 1);
    if times[i] > t {
        // Back in time: binary search (partition_point >= 1 since t >= t_0).
        i = times.partition_point(|&x| x <= t) - 1;
    }
    while i + 1 < n && times[i + 1] <= t {
        i += 1;
    }
    *cursor = i;
    values[i]
}

/// A signal that owns its series (shared: clones are cheap and each clone has its own
/// cursor), for programs that read the data at run time.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedSignal {
    times: std::sync::Arc<[f64]>,
    values: std::sync::Arc<[f64]>,
    cursor: usize,
}

#[cfg(feature = "std")]
impl OwnedSignal {
    /// A signal over `times` and `values`, with the checks of [`Signal::new`].
    pub fn new(
        times: std::vec::Vec<f64>,
        values: std::vec::Vec<f64>,
    ) -> Result<OwnedSignal, SignalError> {
        check(&times, &values)?;
        Ok(OwnedSignal {
            times: times.into(),
            values: values.into(),
            cursor: 0,
        })
    }

    /// The value at time `t`, as [`Signal::sample`].
    #[inline]
    pub fn sample(&mut self, t: f64) -> f64 {
        sample(&self.times, &self.values, &mut self.cursor, t)
    }

    /// The value at time `t` held from row to row, as [`Signal::sample_held`].
    #[inline]
    pub fn sample_held(&mut self, t: f64) -> f64 {
        held(&self.times, &self.values, &mut self.cursor, t)
    }

    /// The times.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The values.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [f64; 5] = [0.0, 1.0, 3.0, 3.0, 4.0];
    const V: [f64; 5] = [1.0, 3.0, -1.0, 5.0, 5.5];

    #[test]
    fn held_from_row_to_row() {
        let mut s = Signal::new(&T, &V).unwrap();
        let want = [
            (-1.0, 1.0),
            (0.0, 1.0),
            (0.99, 1.0),
            (1.0, 3.0),
            (2.5, 3.0),
            (3.0, 5.0), // a repeated time: the later value from it on
            (3.5, 5.0),
            (4.0, 5.5),
            (9.0, 5.5),
            (0.5, 1.0), // back in time
            (3.0, 5.0),
        ];
        for (t, v) in want {
            assert_eq!(s.sample_held(t), v, "t = {t}");
        }
        assert!(s.sample_held(f64::NAN).is_nan());
    }

    #[test]
    fn at_rows_between_and_beyond() {
        let mut s = Signal::new(&T, &V).unwrap();
        // Before the first time and at it: v_0.
        assert_eq!(s.sample(-10.0), 1.0);
        assert_eq!(s.sample(0.0), 1.0);
        // Between rows 0 and 1: 1 + 2·t.
        assert_eq!(s.sample(0.25), 1.5);
        assert_eq!(s.sample(1.0), 3.0);
        // Between rows 1 and 2: 3 − 2·(t − 1).
        assert_eq!(s.sample(2.0), 1.0);
        assert_eq!(s.sample(2.5), 0.0);
        // The jump at 3: -1 is approached, 5 holds from 3 on.
        assert!((s.sample(2.999_999) - -0.999_998).abs() < 1e-12);
        assert_eq!(s.sample(3.0), 5.0);
        assert_eq!(s.sample(3.5), 5.25);
        // At and after the last time: held.
        assert_eq!(s.sample(4.0), 5.5);
        assert_eq!(s.sample(1e9), 5.5);
        assert!(s.sample(f64::NAN).is_nan());
    }

    #[test]
    fn going_back_gives_the_same_values() {
        let times: std::vec::Vec<f64> = (0..100).map(|k| k as f64 * 0.1).collect();
        let values: std::vec::Vec<f64> = times.iter().map(|t| t * t).collect();
        let mut s = Signal::new(&times, &values).unwrap();
        let forward: std::vec::Vec<f64> = (0..200).map(|k| s.sample(k as f64 * 0.05)).collect();
        let backward: std::vec::Vec<f64> =
            (0..200).rev().map(|k| s.sample(k as f64 * 0.05)).collect();
        assert!(forward.iter().eq(backward.iter().rev()));
        // A fresh signal at each point agrees with the cursor's answers.
        for (k, &v) in forward.iter().enumerate() {
            let mut fresh = Signal::new(&times, &values).unwrap();
            assert_eq!(fresh.sample(k as f64 * 0.05), v);
        }
        // Between 0.1 and 0.2 (values 0.01, 0.04): linear, not t².
        assert!((s.sample(0.15) - 0.025).abs() < 1e-15);
    }

    #[test]
    fn one_row_is_a_constant_and_a_repeated_first_time_jumps() {
        let mut s = Signal::new(&[2.0], &[7.0]).unwrap();
        assert_eq!(
            (s.sample(0.0), s.sample(2.0), s.sample(9.0)),
            (7.0, 7.0, 7.0)
        );
        let mut j = Signal::new(&[0.0, 0.0, 1.0], &[0.0, 1.0, 1.0]).unwrap();
        assert_eq!(
            (j.sample(-1.0), j.sample(0.0), j.sample(0.5)),
            (0.0, 1.0, 1.0)
        );
    }

    #[test]
    fn bad_series_are_refused() {
        assert_eq!(Signal::new(&[], &[]), Err(SignalError::Empty));
        assert_eq!(
            Signal::new(&[0.0], &[]),
            Err(SignalError::Lengths {
                times: 1,
                values: 0
            })
        );
        assert!(matches!(
            Signal::new(&[0.0, f64::NAN], &[1.0, 2.0]),
            Err(SignalError::TimeNotFinite { row: 1, .. })
        ));
        assert!(matches!(
            Signal::new(&[0.0, 1.0], &[1.0, f64::INFINITY]),
            Err(SignalError::ValueNotFinite { row: 1, .. })
        ));
        assert_eq!(
            Signal::new(&[0.0, 2.0, 1.0], &[0.0; 3]),
            Err(SignalError::Decreasing {
                row: 2,
                time: 1.0,
                previous: 2.0
            })
        );
        assert_eq!(
            Signal::new(&[0.0, 1.0, 1.0, 1.0], &[0.0; 4]),
            Err(SignalError::Repeated { row: 3, time: 1.0 })
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn owned_signals_share_the_data_not_the_cursor() {
        let mut a = OwnedSignal::new(T.to_vec(), V.to_vec()).unwrap();
        assert_eq!(a.sample(3.5), 5.25);
        let mut b = a.clone();
        assert_eq!(b.sample(0.25), 1.5);
        assert_eq!(a.sample(3.75), 5.375);
        assert_eq!(a.times(), &T);
        assert_eq!(b.values(), &V);
    }
}
