//! The clock of a model instance: `time` as an exact multiple of a constant step, not a sum of rounded steps.
//!
//! Summing `t = t + dt` rounds at every step, so after 100 steps of 0.1 the clock reads
//! `9.99999999999998` and the time column of a trace `0.30000000000000004`. A [`Clock`]
//! instead counts the steps of the current *run* of equal steps and computes the time
//! from the count:
//!
//! - a run starts at construction, at `reset` and whenever `dt` differs (bit for bit)
//!   from the previous step's; it starts at the time the clock reads then (`t₀`, 0 after
//!   a reset) with a count `n = 0`;
//! - after `n` steps of `h` in a run, the time is `t₀ + n·h`, computed as
//!   `t₀ + (n·m)/10^k` when `h` is the double nearest to a decimal `m·10^-k` (the
//!   shortest such, `k ≤ 22`, `|m| ≤ 2^53`) and `n·m` is exact (`|n·m| ≤ 2^53`), else
//!   `t₀ + n·h` in `f64`. From `t₀ = 0` (every run that starts at a reset), the first form
//!   is the double nearest to the exact decimal product: with `h = 0.1` the clock reads
//!   `0.3` after 3 steps and `10` after 100; with `h = 1e-4`, `0.05` after 500 steps.
//!
//! So a host that keeps `dt` constant sees the times the FMI Reference FMUs compute
//! (`n·h`, the decimal rounded once), and a host that changes `dt` continues from where
//! the clock was, exactly for each run.

/// `2^53`: every integer up to it is an `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// The clock of one model instance (see the module documentation for the rule).
///
/// ```
/// use sit_runtime::Clock;
///
/// let mut c = Clock::new();
/// let mut t = 0.0;
/// for _ in 0..3 {
///     t = c.advance(0.1);
/// }
/// assert_eq!(t, 0.3);
/// // A different step starts a new run at the current time.
/// assert_eq!(c.advance(0.25), 0.55);
/// assert_eq!(c.advance(0.25), 0.8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// `t₀`: the time at which the current run started.
    start: f64,
    /// `n`: the steps taken in the current run.
    steps: f64,
    /// `h`: the step of the current run.
    step: f64,
    /// `m` of `h ≈ m·10^-k`, when there is one.
    num: f64,
    /// `10^k`, or 0 when `h` is not near a short decimal.
    den: f64,
}

impl Clock {
    /// A clock at time 0, before any step.
    pub const fn new() -> Clock {
        Clock {
            start: 0.0,
            steps: 0.0,
            step: 0.0,
            num: 0.0,
            den: 1.0,
        }
    }

    /// Takes one step of `dt` and returns the new time.
    #[inline]
    pub fn advance(&mut self, dt: f64) -> f64 {
        if dt.to_bits() != self.step.to_bits() {
            *self = Clock::resume(self.time(), 0.0, dt);
        }
        self.steps += 1.0;
        self.time()
    }

    /// The time after the steps taken: `t₀ + n·h` as the module documentation says.
    #[inline]
    pub fn time(&self) -> f64 {
        if self.steps == 0.0 {
            return self.start;
        }
        let a = self.steps * self.num;
        let offset = if self.den != 0.0 && a.abs() <= EXACT {
            a / self.den
        } else {
            self.steps * self.step
        };
        self.start + offset
    }

    /// The clock back at time 0, before any step (what `reset` does).
    pub fn reset(&mut self) {
        *self = Clock::new();
    }

    /// The state that defines the clock: `(t₀, n, h)`, for saving it.
    pub fn state(&self) -> (f64, f64, f64) {
        (self.start, self.steps, self.step)
    }

    /// The clock with the state `(t₀, n, h)` of [`Clock::state`]: it continues exactly as
    /// the clock that state was read from.
    pub fn resume(start: f64, steps: f64, step: f64) -> Clock {
        let (num, den) = decimal(step);
        Clock {
            start,
            steps,
            step,
            num,
            den,
        }
    }
}

/// Timer: `timer(y, c, dt)` is how long `c` has held, exactly as the clock counts:
/// `0` when `c` is false; when it is true and `dt > 0`, `(n + 1)·dt` as [`Clock`]
/// computes it (the double nearest to the decimal product), where `n = round(y / dt)` is
/// the number of steps `y` already counts.
///
/// So `y = timer(c)` reads `k·dt` after `c` held in `k` consecutive steps, without the
/// drift of summing `dt` (100 steps of 0.1 give exactly 10), and `y >= T` first holds
/// after `⌈T/dt⌉` steps (decimal `T` and `dt`: 100 steps for 10 s at 0.1, 34 steps, that
/// is 10.2 s, at 0.3). A time already counted that is not a whole number of the new
/// steps (to within `1e-9·dt`: after steps of other lengths, such as the pieces of a
/// `dopri5` step split at located events) is continued by adding `dt`; once it is a whole
/// number of steps again (to within that), it is counted exactly again. A step with
/// `dt` not positive (or NaN) leaves `y` as it is.
///
/// ```
/// use sit_runtime::timer;
///
/// let mut y = 0.0;
/// for _ in 0..100 {
///     y = timer(y, true, 0.1);
/// }
/// assert_eq!(y, 10.0);
/// assert_eq!(timer(y, false, 0.1), 0.0);
/// ```
#[inline]
pub fn timer(y: f64, c: bool, dt: f64) -> f64 {
    if !c {
        return 0.0;
    }
    if dt.is_nan() || dt <= 0.0 {
        return y;
    }
    let n = libm::round(y / dt);
    let (num, den) = memo::decimal(dt);
    let after = |steps: f64| {
        Clock {
            start: 0.0,
            steps,
            step: dt,
            num,
            den,
        }
        .time()
    };
    if libm::fabs(y - after(n)) <= 1e-9 * dt {
        after(n + 1.0)
    } else {
        y + dt
    }
}

/// The decimal of the last step [`timer`] was called with, so that a run of equal steps
/// searches for it once rather than at every call (the search takes up to 23
/// multiplications and divisions: 17–45 ns).
///
/// One process-wide memory, read and written atomically in one word, so that threads
/// stepping models with different steps at once only cost each other a search. The word
/// holds `m` and `k` of the decimal `m·10^-k`; a word read is used only if `m / 10^k`
/// is the step itself, which makes it the step's shortest decimal (it was the shortest
/// decimal of the step it was found for, and `m / 10^k` names one double). A step with
/// no decimal is remembered in a word of its own. The values are those of
/// [`decimal`] in every case; without 64-bit atomics the search runs each time.
mod memo {
    #[cfg(target_has_atomic = "64")]
    use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

    /// `10^k` for `k ≤ 22`, each exact.
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];

    /// `m << 5 | k` of the last decimal found (`m` an integer up to `2^53`, `k ≤ 22`);
    /// 0 (the decimal `0·10^0`) before any.
    #[cfg(target_has_atomic = "64")]
    static FOUND: AtomicU64 = AtomicU64::new(0);

    /// The bits of the last positive step that has no decimal; 0 (the bits of `+0.0`,
    /// never a timer's step) before any.
    #[cfg(target_has_atomic = "64")]
    static NONE: AtomicU64 = AtomicU64::new(0);

    /// [`super::decimal`]`(h)` for a positive `h`, remembered.
    #[cfg(target_has_atomic = "64")]
    #[inline]
    pub(super) fn decimal(h: f64) -> (f64, f64) {
        let word = FOUND.load(Relaxed);
        let (m, k) = unpack(word);
        let p = POW10[k];
        if m / p == h {
            return (m, p);
        }
        if NONE.load(Relaxed) == h.to_bits() {
            return (0.0, 0.0);
        }
        let (m, p) = super::decimal(h);
        if p == 0.0 {
            NONE.store(h.to_bits(), Relaxed);
        } else if let Some(k) = POW10.iter().position(|&q| q == p) {
            FOUND.store(pack(m, k), Relaxed);
        }
        (m, p)
    }

    /// [`super::decimal`]`(h)`: no atomics to remember it in.
    #[cfg(not(target_has_atomic = "64"))]
    #[inline]
    pub(super) fn decimal(h: f64) -> (f64, f64) {
        super::decimal(h)
    }

    /// The word of the decimal `m·10^-k` (`m` a non-negative integer up to `2^53`).
    #[cfg(target_has_atomic = "64")]
    fn pack(m: f64, k: usize) -> u64 {
        // Exact: `m` is a whole number of at most 54 bits, `k` below 32.
        ((m as u64) << 5) | k as u64
    }

    /// `(m, k)` of a word of [`pack`].
    #[cfg(target_has_atomic = "64")]
    #[inline]
    fn unpack(word: u64) -> (f64, usize) {
        // Exact: `m` has at most 54 bits; `k` is masked to 5 bits and clamped to 22.
        ((word >> 5) as f64, ((word & 31) as usize).min(22))
    }
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new()
    }
}

/// `(m, 10^k)` for the shortest decimal `m·10^-k` (`0 ≤ k ≤ 22`, `|m| ≤ 2^53`) whose
/// nearest double is `h`, or `(0, 0)` when there is none (`h` not finite, too small or
/// too large, or with more digits).
fn decimal(h: f64) -> (f64, f64) {
    let mut p = 1.0;
    for _ in 0..=22 {
        let m = libm::round(h * p);
        if m.abs() <= EXACT && m / p == h {
            return (m, p);
        }
        // Exact: every power of ten up to 10^22 is an `f64`.
        p *= 10.0;
    }
    (0.0, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn decimals_are_found_shortest() {
        assert_eq!(decimal(0.1), (1.0, 10.0));
        assert_eq!(decimal(1e-4), (1.0, 1e4));
        assert_eq!(decimal(0.3), (3.0, 10.0));
        assert_eq!(decimal(2.5), (25.0, 10.0));
        assert_eq!(decimal(3.0), (3.0, 1.0));
        assert_eq!(decimal(0.0), (0.0, 1.0));
        assert_eq!(decimal(-0.02), (-2.0, 100.0));
        assert_eq!(decimal(1.0 / 3.0), (3_333_333_333_333_333.0, 1e16));
        for h in [f64::NAN, f64::INFINITY, 1e-30, 1e300, f64::MIN_POSITIVE] {
            assert_eq!(decimal(h), (0.0, 0.0), "{h}");
        }
    }

    #[test]
    fn constant_steps_give_the_nearest_double_to_the_decimal_product() {
        for (h, text) in [(0.1, "0.1"), (0.3, "0.3"), (1e-4, "0.0001"), (0.05, "0.05")] {
            let mut c = Clock::new();
            for n in 1..=10_000u32 {
                let t = c.advance(h);
                let digits = text.len() - 2;
                let m: u64 = text[2..].parse().unwrap();
                let exact = format!("{}e-{digits}", u64::from(n) * m);
                assert_eq!(t, exact.parse::<f64>().unwrap(), "{n} steps of {text}");
            }
        }
    }

    #[test]
    fn a_sum_would_drift_the_clock_does_not() {
        let (mut c, mut sum) = (Clock::new(), 0.0);
        for _ in 0..100 {
            c.advance(0.1);
            sum += 0.1;
        }
        assert_eq!(c.time(), 10.0);
        assert_ne!(sum, 10.0);
    }

    #[test]
    fn a_new_step_continues_from_the_current_time() {
        let mut c = Clock::new();
        c.advance(0.1);
        c.advance(0.1);
        assert_eq!(c.advance(0.5), 0.2 + 0.5);
        assert_eq!(c.advance(0.5), 0.2 + 1.0);
        assert_eq!(c.advance(0.1), 0.2 + 1.0 + 0.1);
        c.reset();
        assert_eq!((c.time(), c.advance(0.3)), (0.0, 0.3));
    }

    #[test]
    fn steps_without_a_short_decimal_are_multiplied() {
        let h = 1.0 / 3.0;
        let mut c = Clock::new();
        for n in 1..=1000 {
            let t = c.advance(h);
            if n > 2 {
                assert_eq!(t, f64::from(n) * h, "{n}");
            }
        }
        let mut c = Clock::new();
        assert_eq!(c.advance(0.0), 0.0);
        assert_eq!(c.advance(0.0), 0.0);
        assert!(c.advance(f64::NAN).is_nan());
    }

    #[test]
    fn a_timer_counts_whole_steps_exactly() {
        for (dt, t, steps) in [
            (0.1, 10.0, 100),
            (0.3, 10.0, 34),
            (0.7, 2.1, 3),
            (1e-3, 2.0, 2000),
        ] {
            let (mut y, mut n) = (0.0, 0);
            while y < t {
                y = timer(y, true, dt);
                n += 1;
            }
            assert_eq!(n, steps, "{t} s at {dt}");
        }
        // 3 · 0.7 summed is 2.0999999999999996 < 2.1: the sum would take a fourth step.
        let sum = [0.7; 3].iter().sum::<f64>();
        assert!(sum < 2.1, "{sum}");
        assert_eq!(timer(5.0, false, 0.1), 0.0);
        assert_eq!(timer(0.3, true, 0.0), 0.3);
        assert_eq!(timer(0.3, true, f64::NAN), 0.3);
        // A new step: a time counted that is a whole number of the new steps goes on
        // exactly; one that is not goes on by sums until it is again.
        assert_eq!(timer(0.3, true, 0.1), 0.4);
        assert_eq!(timer(0.3, true, 0.25), 0.55);
        assert_eq!(timer(0.55, true, 0.45), 1.0);
        assert_eq!(timer(1.0, true, 0.1), 1.1);
        // Pieces of a step split by an event, then whole steps again.
        let mut y = timer(0.0, true, 0.1);
        for piece in [0.037, 0.063] {
            y = timer(y, true, piece);
        }
        assert!((y - 0.2).abs() < 1e-15, "{y}");
        for _ in 0..98 {
            y = timer(y, true, 0.1);
        }
        assert_eq!(y, 10.0);
    }

    /// `timer` without its memory: the clock of `n + 1` steps, the decimal searched.
    fn timer_searched(y: f64, dt: f64) -> f64 {
        Clock::resume(0.0, libm::round(y / dt) + 1.0, dt).time()
    }

    #[test]
    fn the_remembered_decimal_is_the_searched_one() {
        let steps: [f64; 10] = [
            0.1,
            1e-4,
            1.0 / 3.0,
            0.3,
            2.5,
            1e-22,
            5e-324,
            1e300,
            0.1,
            1.0 / 3.0,
        ];
        // Equal steps in a row, then alternating steps, then steps near each other.
        for round in 0..3 {
            for (i, &dt) in steps.iter().enumerate() {
                let dt = if round == 2 {
                    f64::from_bits(dt.to_bits() + 1)
                } else {
                    dt
                };
                let mut y = 0.0;
                for _ in 0..if round == 0 { 50 } else { 2 } {
                    let want = timer_searched(y, dt);
                    y = timer(y, true, dt);
                    assert_eq!(
                        y.to_bits(),
                        want.to_bits(),
                        "step {i} ({dt:e}), round {round}"
                    );
                }
            }
        }
        for h in [0.1, 1.0 / 3.0, 1e-30, f64::MIN_POSITIVE, 1e-30, 0.1, 0.1] {
            assert_eq!(memo::decimal(h), decimal(h), "{h:e}");
        }
        assert_eq!(memo::decimal(1e-30), (0.0, 0.0));
    }

    #[test]
    fn threads_with_different_steps_get_their_own_decimals() {
        let handles: std::vec::Vec<_> = [0.1, 0.25, 1.0 / 3.0, 1e-3, 0.7, 1.0 / 7.0]
            .into_iter()
            .map(|dt| {
                std::thread::spawn(move || {
                    let mut y = 0.0;
                    for _ in 0..20_000 {
                        let want = timer_searched(y, dt);
                        y = timer(y, true, dt);
                        assert_eq!(y.to_bits(), want.to_bits(), "{dt}");
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("no thread fails");
        }
    }

    #[test]
    fn a_resumed_clock_continues_identically() {
        let mut a = Clock::new();
        for _ in 0..7 {
            a.advance(0.2);
        }
        a.advance(0.01);
        let (t0, n, h) = a.state();
        let mut b = Clock::resume(t0, n, h);
        assert_eq!(a, b);
        for _ in 0..50 {
            assert_eq!(a.advance(0.01).to_bits(), b.advance(0.01).to_bits());
        }
    }
}
