//! The error nobody sees of a fixed-step run (`euler`, `rk4`): an estimate by step doubling, and the bound past which a value is a probable instability.
//!
//! A fixed-step method has no error control: under the default `euler` an oscillator's
//! energy grows from 0.5 to 1.36 by t = 100 at `--dt 0.01`, and a fast relaxation at a
//! step past its stability limit grows to −2.7e70, both with exit 0 (issue 47, item 2).
//! Every host that runs a model (`sitc run`, `Model.run` in Python, the page) therefore
//!
//! - estimates the error of the run, for each continuous state (the target of an
//!   `integral` or a `lag` of a model integrated by `euler` or `rk4`), in two stages
//!   that leave the run itself (its rows, bit for bit) untouched:
//!   1. *local*, cheap: at [`SAMPLES`] evenly spaced steps, one step of `dt` and two of
//!      `dt/2` from the run's values, on copies; their difference times `2^p/(2^p − 1)`
//!      (`p` the method's order: 1, 4) is the step's local error (Richardson), taken
//!      relative to the largest magnitude the state has had at the samples so far. The
//!      median of the samples times the number of steps bounds the error of a run whose
//!      local errors add up (an oscillator's under explicit Euler). A sample in which a
//!      flag (an event, a `flag`) changed is left out. The run's values at the even
//!      sampled steps, and at every even step of the first 64, are kept;
//!   2. *global*, only when the local bound is past a tenth of [`THRESHOLD`], or one
//!      sample's local error alone is past [`THRESHOLD`] (a fast transient: `x' = −20·x`
//!      at `dt = 0.02` errs by 9% in its first steps and decays, so the median sample,
//!      taken where `x` is gone, says nothing): after the
//!      run (not under `sitc run -q`, which would not show its warning), a copy of the model
//!      as it started runs again at twice the step, and its difference to the kept
//!      values, divided by `2^p − 1`, is Richardson's estimate of the run's error; its
//!      largest value, relative to the largest magnitude of the state at the start and
//!      at those steps, is the estimate. It tells a drift that accumulates
//!      (an oscillator's energy under `euler`) from local errors that do not (the
//!      semi-implicit Euler of `v = integral(a); x = integral(v);`, whose energy stays,
//!      where the local bound is as large), and counts the error of an event's time (a
//!      bounce that the copy meets at another step).
//!
//!   Past [`THRESHOLD`], one warning after the run names the state, the estimate and
//!   what makes it smaller;
//! - (`sitc run`, Python and the page) take a value whose magnitude reaches 1e100
//!   (`sit_interp::replay::BLOWUP`) on a row for a probable instability: the run stops (as at a non-finite value, and not under
//!   `--allow-non-finite`, which warns once instead) with the rule that first stored
//!   such a value (`sit_interp::replay::Checkpoint::locate_beyond`).
//!
//! - ([`Doubling::grown`], `sitc run`) takes a continuous state whose magnitude grows in one step to [`GROWTH`] times its
//!   magnitude before (and at least `GROWTH`) for a probable instability too, the same
//!   way, in a run that writes a row at every step (the default): an unstable step
//!   multiplies a state by the same factor each step and reaches 1e100 soon after, but
//!   a step over a pole of a rate (`integral(1 / (time - a))` stepped across `a`) jumps
//!   once and ends finite and wrong. Not with `--every N`: reading the states after
//!   every step cost a third of a fast model's step (performance.md, section 21).
//!
//! The cost: during the run at most `3·SAMPLES` steps and `2·SAMPLES` copies of the
//! model whatever its length, and one scan of the public values per row written (the
//! non-finite watch's scan); after a run whose local bound is past the threshold, half
//! its steps again.

use crate::{Model, ValueType};
use std::collections::BTreeMap;
use std::format;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// The steps sampled in a run (at most; every step of a shorter run).
pub const SAMPLES: u64 = 64;

/// The first steps whose values are kept (the even ones) whatever the sampling.
const EARLY: u64 = 64;

/// The estimated error of a run, relative to the state's largest magnitude, past which
/// `sitc run` warns: 5%.
pub const THRESHOLD: f64 = 0.05;

/// The local bound past which the copy at `2·dt` is run: a tenth of [`THRESHOLD`], as
/// the local bound may fall short of the error where it grows (the phase of a limit
/// cycle: Van der Pol's at `--dt 0.01` errs by 11% where its local bound is 4%).
const SUSPECT: f64 = THRESHOLD / 10.0;

/// The factor by which a continuous state growing in one step is taken for a probable
/// instability (from a magnitude of at least 1: a state that leaves 0 is not growing).
pub const GROWTH: f64 = 1e10;

/// A continuous state followed by the estimate.
struct Tracked {
    /// Its index in the model's public list.
    index: usize,
    /// The name of its model's method.
    method: &'static str,
    /// The method's order `p`: `2^p`.
    two_p: f64,
    /// The local error of the step at each sample kept, relative to `scale` then.
    local: Vec<f64>,
    /// The largest magnitude seen so far (at the start and at the samples).
    scale: f64,
}

/// The estimate of a run's error (see the module documentation), with copies of the
/// model of type `C` (the run's model, or the plain model behind a logged one: a copy
/// steps as the run does, without its event log).
pub struct Doubling<C> {
    tracked: Vec<Tracked>,
    /// The public flags: a sample in which one changed is left out.
    flags: Vec<usize>,
    /// Steps between two samples.
    every: u64,
    /// The next step sampled (a comparison per step, no division).
    next: u64,
    steps: u64,
    dt: f64,
    /// The model as it started (for the copy at `2·dt`).
    start: C,
    /// The run's values of the tracked states after the even sampled steps: the step
    /// and the values.
    kept: Vec<(u64, Vec<f64>)>,
    /// A copy met a fault of the model (a phase past its bound, ...): no more samples.
    stopped: bool,
    /// The tracked states' values after the last step (for [`Doubling::grown`]).
    before: Vec<f64>,
}

/// A continuous state that grew by [`GROWTH`] in one step.
#[derive(Debug, Clone, Copy)]
pub struct Growth {
    /// Its index in the model's public list.
    pub index: usize,
    /// Its value before the step.
    pub from: f64,
    /// Its value after it.
    pub to: f64,
}

impl Growth {
    /// The magnitude past which a stored value is the growth's (for the replay that
    /// names its rule).
    pub fn bound(&self) -> f64 {
        GROWTH * self.from.abs().max(1.0)
    }
}

/// What the estimate found past [`THRESHOLD`].
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The state's dotted name.
    pub name: String,
    /// The method of its model.
    pub method: &'static str,
    /// The estimate, relative to the state's largest magnitude.
    pub relative: f64,
}

impl<C: Model + Clone> Doubling<C> {
    /// The estimate for a run of `steps` steps of `dt` of `model` (set up, before its
    /// first step; `start` its copy), following `states`: the continuous states of its
    /// models that a fixed step integrates, each its dotted name, its method's name and
    /// order (`sit_check::ir::fixed_step_states`). `None` when none of them is a
    /// variable of `model`, or the run is shorter than two steps.
    pub fn new<M: Model + ?Sized>(
        states: impl IntoIterator<Item = (String, &'static str, u32)>,
        model: &M,
        start: C,
        dt: f64,
        steps: u64,
    ) -> Option<Doubling<C>> {
        let index: BTreeMap<&str, usize> = (0..model.var_count())
            .filter_map(|i| Some((model.var_info(i)?.name, i)))
            .collect();
        let mut tracked = Vec::new();
        for (name, method, order) in states {
            if let Some(&index) = index.get(name.as_str()) {
                tracked.push(Tracked {
                    index,
                    method,
                    two_p: f64::from(1u32 << order),
                    local: Vec::new(),
                    scale: model.get_at(index).unwrap_or(0.0).abs(),
                });
            }
        }
        if tracked.is_empty() || steps < 2 {
            return None;
        }
        tracked.sort_by_key(|t| t.index);
        let flags = (0..model.var_count())
            .filter(|&i| {
                model
                    .var_info(i)
                    .is_some_and(|v| v.ty == ValueType::Logical)
            })
            .collect();
        Some(Doubling {
            tracked,
            flags,
            every: steps.div_ceil(SAMPLES),
            next: 0,
            steps,
            dt,
            start,
            kept: Vec::new(),
            stopped: false,
            before: Vec::new(),
        })
    }

    /// The estimate with at most one sample in `steps` steps of the run (and the first
    /// step's always): a sweep's many short runs would otherwise spend up to three
    /// times their steps on the samples of [`SAMPLES`] (a run of 100 steps samples
    /// every other one). With 32, the samples cost at most about a tenth of the run.
    #[must_use]
    pub fn sampling_at_most_every(mut self, steps: u64) -> Doubling<C> {
        self.every = self.every.max(steps.max(1));
        self
    }

    /// The first tracked state (in index order) whose value after the step just taken is
    /// finite and at least [`GROWTH`] times its magnitude before it and 1; called after
    /// every step (`k = 0`: with the values before the first, which it keeps). The
    /// values are kept for the next call.
    #[inline]
    pub fn grown<M: Model + ?Sized>(&mut self, k: u64, model: &M) -> Option<Growth> {
        if k == 0 || self.before.len() != self.tracked.len() {
            self.before = (self.tracked.iter())
                .map(|t| model.get_at(t.index).unwrap_or(f64::NAN))
                .collect();
            return None;
        }
        let mut found = None;
        for (t, before) in self.tracked.iter().zip(&mut self.before) {
            let now = model.get_at(t.index).unwrap_or(f64::NAN);
            if found.is_none() && now.is_finite() && now.abs() >= GROWTH * before.abs().max(1.0) {
                found = Some(Growth {
                    index: t.index,
                    from: *before,
                    to: now,
                });
            }
            *before = now;
        }
        found
    }

    /// Called with the model after its step `k` (`k = 0`: before the first): a sampled
    /// step is sampled (from a copy of the model that `copy` makes), and the run's values
    /// kept when `k` is even.
    #[inline]
    pub fn after<M: Model + ?Sized>(&mut self, k: u64, model: &M, copy: impl FnOnce() -> C) {
        if k != self.next {
            // The first steps' values are kept whatever the sampling, for the copy at
            // 2·dt to see a transient that is gone by the next sample.
            if k <= EARLY && k.is_multiple_of(2) && !self.stopped {
                self.keep(k, model);
            }
            return;
        }
        self.next += self.every;
        self.sample_at(k, model, copy);
    }

    /// [`Doubling::after`] at a sampled step.
    #[cold]
    fn sample_at<M: Model + ?Sized>(&mut self, k: u64, model: &M, copy: impl FnOnce() -> C) {
        if self.stopped {
            return;
        }
        if k > 0 && k.is_multiple_of(2) {
            self.keep(k, model);
        }
        if k < self.steps {
            self.sample(model, copy());
        }
    }

    /// Keeps the run's values after its even step `k`, for the copy at `2·dt`.
    fn keep<M: Model + ?Sized>(&mut self, k: u64, model: &M) {
        let values = (self.tracked.iter())
            .map(|t| model.get_at(t.index).unwrap_or(f64::NAN))
            .collect();
        self.kept.push((k, values));
    }

    /// The local error of the step after `model`'s values (`full` its copy).
    fn sample<M: Model + ?Sized>(&mut self, model: &M, mut full: C) {
        let dt = self.dt;
        let mut half = full.clone();
        let stepped = crate::catch_fault(|| {
            full.step(dt);
            half.step(dt * 0.5);
            half.step(dt * 0.5);
        });
        if stepped.is_err() {
            self.stopped = true;
            return;
        }
        let read = |m: &dyn Model, i: usize| m.get_at(i).unwrap_or(f64::NAN);
        let (full, half): (&dyn Model, &dyn Model) = (&full, &half);
        let at = |i: usize| model.get_at(i).unwrap_or(f64::NAN);
        // An event or a flag that changed: the step is not smooth.
        if (self.flags.iter()).any(|&i| read(full, i) != read(half, i) || read(full, i) != at(i)) {
            return;
        }
        for t in &mut self.tracked {
            let (y0, y1, y2) = (at(t.index), read(full, t.index), read(half, t.index));
            if !(y0.is_finite() && y1.is_finite() && y2.is_finite()) {
                continue;
            }
            t.scale = t.scale.max(y0.abs()).max(y1.abs()).max(y2.abs());
            if t.scale > 0.0 {
                let error = (y1 - y2).abs() * t.two_p / (t.two_p - 1.0);
                t.local.push(error / t.scale);
            }
        }
    }

    /// The state whose estimate is the largest, when it is past [`THRESHOLD`]: the
    /// local bound first, then, where it is past it, the copy at `2·dt`.
    pub fn finding<M: Model + ?Sized>(&self, model: &M) -> Option<Finding> {
        let steps = self.steps as f64;
        let suspect = (self.tracked.iter()).any(|t| {
            !t.local.is_empty()
                && (steps * median(&t.local) > SUSPECT || t.local.iter().any(|&e| e > THRESHOLD))
        });
        if !suspect {
            return None;
        }
        let estimates = self.global()?;
        let (k, relative) = (estimates.iter().enumerate())
            .filter(|&(_, &r)| r > THRESHOLD)
            .max_by(|a, b| a.1.total_cmp(b.1))?;
        let t = &self.tracked[k];
        Some(Finding {
            name: model.var_info(t.index)?.name.to_string(),
            method: t.method,
            relative: *relative,
        })
    }

    /// Richardson's estimate of each state's error over the run: the copy of the model as
    /// it started, run at `2·dt` to the kept steps and compared there; `None` when the
    /// copy met a fault of the model.
    fn global(&self) -> Option<Vec<f64>> {
        let mut coarse = self.start.clone();
        let mut worst = vec![0.0f64; self.tracked.len()];
        let mut scale: Vec<f64> = self.tracked.iter().map(|t| t.scale).collect();
        let mut at = 0;
        for (k, values) in &self.kept {
            let dt = 2.0 * self.dt;
            let steps = (k - at) / 2;
            crate::catch_fault(|| {
                for _ in 0..steps {
                    coarse.step(dt);
                }
            })
            .ok()?;
            at = *k;
            for (i, t) in self.tracked.iter().enumerate() {
                let (y, y2) = (values[i], coarse.get_at(t.index).unwrap_or(f64::NAN));
                if !(y.is_finite() && y2.is_finite()) {
                    // Past what the copy can tell.
                    continue;
                }
                scale[i] = scale[i].max(y.abs()).max(y2.abs());
                worst[i] = worst[i].max((y - y2).abs() / (t.two_p - 1.0));
            }
        }
        Some(
            worst
                .iter()
                .zip(&scale)
                .map(|(&w, &s)| if s > 0.0 { w / s } else { 0.0 })
                .collect(),
        )
    }
}

/// The median of `xs` (not empty): the middle one, or the mean of the two middle ones.
fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) * 0.5
    }
}

/// Whose words a [`Finding`] is told in: the option or argument that sets the step and
/// the method differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// `sitc run`: `--dt`, `--method`, and `warning: ` first.
    Cli,
    /// `Model.run` in Python: `dt=`, the model's `method` (a warning's category says
    /// what it is).
    Python,
    /// The page: its Step and Method boxes.
    Page,
}

impl Finding {
    /// The warning, once after the run of steps of `dt` to `t_end`, in `voice`'s words.
    pub fn warning(&self, dt: f64, t_end: f64, voice: Voice) -> String {
        let Finding {
            name,
            method,
            relative,
        } = self;
        let (step, better) = match voice {
            Voice::Cli => (
                format!("--dt {dt}"),
                [
                    "(--method rk4, --method dopri5)",
                    "(--method dopri5)",
                    "--dt",
                ],
            ),
            Voice::Python => (format!("dt={dt}"), ["", "", "dt"]),
            Voice::Page => (
                format!("dt {dt}"),
                ["(or the method box)", "(or the method box)", "dt"],
            ),
        };
        let paren = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!(" {s}")
            }
        };
        let suggestion = match *method {
            "euler" => format!(
                "`method rk4;` or `method dopri5;` in the model{}, or a smaller {}",
                paren(better[0]),
                better[2]
            ),
            _ => format!(
                "`method dopri5;` in the model{}, or a smaller {}",
                paren(better[1]),
                better[2]
            ),
        };
        let head = if voice == Voice::Cli { "warning: " } else { "" };
        format!(
            "{head}the fixed steps of `{method}` at {step} may be off by about {} of \
             `{name}`'s magnitude by t = {t_end} (estimated from a run at 2·dt; this warning \
             is for more than {}); for a smaller error: {suggestion}",
            percent(*relative),
            percent(THRESHOLD),
        )
    }
}

/// `x` as a percentage, two significant digits (`23%`, `1.5%`, `4e+03%`).
fn percent(x: f64) -> String {
    let p = x * 100.0;
    if p >= 1e4 {
        format!("{p:.0e}%")
    } else if p >= 10.0 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_percentages() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(percent(0.01), "1.0%");
        assert_eq!(percent(0.234), "23%");
        assert_eq!(percent(2.6e3), "3e5%");
    }
}
