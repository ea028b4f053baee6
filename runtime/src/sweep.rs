//! Parameter studies: many parameter sets of one model, run in parallel on rayon's pool.
//!
//! A [`Sweep`] says how to run one set (the step `dt`, the number of steps) and what to
//! collect from it ([`Collect`]: final values and summaries over the run). [`Sweep::run`]
//! takes a prototype model and a list of parameter sets and returns one row per set, in
//! the order of the sets. Each set runs on its own clone of the prototype, exactly as a
//! single run would ([`Sweep::run_one`]):
//!
//! 1. clone the prototype;
//! 2. set the set's params and inputs, in the set's order;
//! 3. `reset()` (so derived params, param bindings and initial values follow them);
//! 4. set the set's other variables (states, `NAME.on`), in the set's order;
//! 5. `steps` steps of `dt`, updating the summaries after each step (and on the values
//!    before the first step).
//!
//! The sets are independent and every step is deterministic, so a row is bit-identical to
//! a single run with the same values, whatever the number of threads and however rayon
//! splits the work. Run inside `ThreadPool::install` to choose the pool.
//!
//! ```
//! use sit_runtime::sweep::{Collect, Sweep, grid, linspace};
//! use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind, integral};
//!
//! /// `v' = a`, `a` a param.
//! #[derive(Clone)]
//! struct Ramp { t: f64, a: f64, v: f64 }
//!
//! impl Model for Ramp {
//!     fn step(&mut self, dt: f64) { self.v = integral(self.v, self.a, dt); self.t += dt; }
//!     fn reset(&mut self) { self.t = 0.0; self.v = 0.0; }
//!     fn time(&self) -> f64 { self.t }
//!     fn var_count(&self) -> usize { 2 }
//!     fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
//!         let (name, kind) = [("a", VarKind::Param), ("v", VarKind::State)].get(index).copied()?;
//!         Some(VarInfo { name, kind, ty: ValueType::Real, output: true, settable: true })
//!     }
//!     fn get_at(&self, index: usize) -> Option<f64> { [self.a, self.v].get(index).copied() }
//!     fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
//!         match index {
//!             0 => self.a = value,
//!             1 => self.v = value,
//!             _ => return Err(SetError::Unknown(index.into())),
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let ramp = Ramp { t: 0.0, a: 1.0, v: 0.0 };
//! let sets = grid(&[(0, linspace(1.0, 3.0, 3))]); // a = 1, 2, 3
//! let sweep = Sweep::new(0.5, 4)
//!     .collect(Collect::Final(1))
//!     .collect(Collect::FirstCrossing { var: 1, threshold: 2.0 });
//! let rows = sweep.run(&ramp, &sets).unwrap();
//! // v(2) = 2a; v = a·t reaches 2 at t = 2/a: at a row for a = 1 and 2, between the rows
//! // of t = 0.5 and 1 for a = 3 (v = 1.5, then 3), where the line through them is exact.
//! assert_eq!(rows[..2], [vec![2.0, 2.0], vec![4.0, 1.0]]);
//! assert_eq!(rows[2][0], 6.0);
//! assert!((rows[2][1] - 2.0 / 3.0).abs() < 1e-15);
//! ```

use crate::accuracy::{Doubling, Finding};
use crate::finite::{NonFiniteSeen, Watch};
use crate::model::{Model, SetError};
pub use crate::summary::{Collect, apply};
use crate::summary::{crossing, extreme};
use core::fmt;
use rayon::prelude::*;
use std::string::String;
use std::vec::Vec;

/// Why a sweep did not run: the first parameter set, in input order, that could not be
/// applied (or a collected variable that does not exist, reported for set 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepError {
    /// Index of the parameter set in the list given to [`Sweep::run`].
    pub set: usize,
    /// Why its value could not be set, or `Unknown` for a collected index out of range.
    pub error: SetError<'static>,
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parameter set #{}: {}", self.set, self.error)
    }
}

impl std::error::Error for SweepError {}

/// One run of [`Sweep::run_watched`]: its row, the first non-finite value it met, and
/// what its `end` read of the model after the last step.
#[derive(Clone, Debug, PartialEq)]
pub struct Watched<R> {
    /// The collected values, as [`Sweep::run`] gives them.
    pub row: Vec<f64>,
    /// The first non-finite value of the run (before the first step or after a step).
    pub non_finite: Option<NonFiniteSeen>,
    /// The estimated error of the run's fixed steps, when [`Sweep::estimate`] asked for
    /// it and it is past [`crate::accuracy::THRESHOLD`] (as `sitc run` warns).
    pub accuracy: Option<Finding>,
    /// What `end` returned.
    pub end: R,
}

/// How to run each parameter set, and what to collect from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    dt: f64,
    steps: u64,
    collect: Vec<Collect>,
    /// The continuous states of fixed steps whose error a watched run estimates.
    estimate: Vec<(String, &'static str, u32)>,
}

impl Sweep {
    /// Runs of `steps` steps of `dt`, collecting nothing yet (add with [`Sweep::collect`]).
    pub fn new(dt: f64, steps: u64) -> Sweep {
        Sweep {
            dt,
            steps,
            collect: Vec::new(),
            estimate: Vec::new(),
        }
    }

    /// Also estimates, in each watched run ([`Sweep::run_watched`]), the error of the
    /// fixed steps of `states` (each a continuous state's dotted name, its method's name
    /// and order: `sit_check::ir::fixed_step_states`), as `sitc run` does
    /// ([`crate::accuracy`]): on copies of the model, the row itself untouched.
    #[must_use]
    pub fn estimate(mut self, states: Vec<(String, &'static str, u32)>) -> Sweep {
        self.estimate = states;
        self
    }

    /// Also collects `what` (a column of each row, after the ones added before).
    #[must_use]
    pub fn collect(mut self, what: Collect) -> Sweep {
        self.collect.push(what);
        self
    }

    /// The step of every run.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The collected values, in column order.
    pub fn columns(&self) -> &[Collect] {
        &self.collect
    }

    /// One row per set of `sets` (pairs of variable index and value), in the order of
    /// `sets`, computed in parallel on the current rayon pool; each row holds the
    /// collected values in the order of [`Sweep::columns`]. Error: the first set (in input
    /// order) one of whose values cannot be set, or a collected variable out of range.
    pub fn run<M>(
        &self,
        prototype: &M,
        sets: &[Vec<(usize, f64)>],
    ) -> Result<Vec<Vec<f64>>, SweepError>
    where
        M: Model + Clone + Send,
    {
        self.run_with(prototype, sets, &|| {})
    }

    /// [`Sweep::run`], calling `done` once after each set has run (from the worker
    /// thread, in no particular order: for progress bars).
    pub fn run_with<M>(
        &self,
        prototype: &M,
        sets: &[Vec<(usize, f64)>],
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<Vec<f64>>, SweepError>
    where
        M: Model + Clone + Send,
    {
        self.check_columns(prototype)?;
        let rows: Vec<Result<Vec<f64>, SweepError>> = sets
            .par_iter()
            .enumerate()
            .map_with(prototype.clone(), |proto, (k, set)| {
                let row = self
                    .run_one(proto, set)
                    .map_err(|error| SweepError { set: k, error });
                done();
                row
            })
            .collect();
        // `collect` keeps the input order, so the first error is the lowest set.
        rows.into_iter().collect()
    }

    /// [`Sweep::run_with`], also watching each run for non-finite values (the first one,
    /// as [`crate::finite::Watch`] sees it on the values before the first step and after
    /// each step) and calling `end` on each model after its last step (to read what the
    /// run left, such as a table's reads). The rows are those of [`Sweep::run`], bit for
    /// bit: watching only reads.
    pub fn run_watched<M, R>(
        &self,
        prototype: &M,
        sets: &[Vec<(usize, f64)>],
        done: &(dyn Fn() + Sync),
        end: &(dyn Fn(&M) -> R + Sync),
    ) -> Result<Vec<Watched<R>>, SweepError>
    where
        M: Model + Clone + Send,
        R: Send,
    {
        self.check_columns(prototype)?;
        let rows: Vec<Result<Watched<R>, SweepError>> = sets
            .par_iter()
            .enumerate()
            .map_with(prototype.clone(), |proto, (k, set)| {
                let row = self
                    .run_one_watched(proto, set, end)
                    .map_err(|error| SweepError { set: k, error });
                done();
                row
            })
            .collect();
        rows.into_iter().collect()
    }

    /// One run, as described in the module documentation: the row [`Sweep::run`] computes
    /// for `set`, on a clone of `prototype`.
    pub fn run_one<M>(
        &self,
        prototype: &M,
        set: &[(usize, f64)],
    ) -> Result<Vec<f64>, SetError<'static>>
    where
        M: Model + Clone,
    {
        self.run_inner::<M, false>(prototype, set)
            .map(|(_, row, ..)| row)
    }

    /// [`Sweep::run_one`], watched for non-finite values, with `end` called on the model
    /// after its last step (see [`Sweep::run_watched`]).
    pub fn run_one_watched<M, R>(
        &self,
        prototype: &M,
        set: &[(usize, f64)],
        end: impl FnOnce(&M) -> R,
    ) -> Result<Watched<R>, SetError<'static>>
    where
        M: Model + Clone,
    {
        let (model, row, watch, accuracy) = self.run_inner::<M, true>(prototype, set)?;
        Ok(Watched {
            row,
            non_finite: watch.seen().copied(),
            accuracy,
            end: end(&model),
        })
    }

    /// The run of `set`: the model after it, its row, and (with `WATCH`) the first
    /// non-finite value seen and the estimate of its fixed steps' error.
    #[allow(clippy::type_complexity)]
    fn run_inner<M, const WATCH: bool>(
        &self,
        prototype: &M,
        set: &[(usize, f64)],
    ) -> Result<(M, Vec<f64>, Watch, Option<Finding>), SetError<'static>>
    where
        M: Model + Clone,
    {
        let mut model = prototype.clone();
        apply(&mut model, set)?;
        let mut acc: Vec<Acc> = self
            .collect
            .iter()
            .map(|c| Acc::start(c, &model))
            .collect::<Option<_>>()
            .ok_or_else(|| SetError::Unknown(self.first_missing(&model).into()))?;
        let mut watch = Watch::new();
        let mut doubling = None;
        if WATCH {
            watch.look(&model, None);
            if !self.estimate.is_empty() {
                let states = self.estimate.iter().cloned();
                // At most a tenth of the run on samples (a sweep's runs are often short).
                doubling = Doubling::new(states, &model, model.clone(), self.dt, self.steps)
                    .map(|d| d.sampling_at_most_every(32));
            }
            if let Some(d) = doubling.as_mut() {
                d.after(0, &model, || model.clone());
            }
        }
        for k in 1..=self.steps {
            let from = model.time();
            model.step(self.dt);
            let t = model.time();
            for (a, c) in acc.iter_mut().zip(&self.collect) {
                a.update(c, model.get_at(c.var()).unwrap_or(f64::NAN), t);
            }
            if WATCH {
                watch.look(&model, Some(from));
                if let Some(d) = doubling.as_mut() {
                    d.after(k, &model, || model.clone());
                }
            }
        }
        let row = acc
            .iter()
            .zip(&self.collect)
            .map(|(a, c)| a.value(c, &model))
            .collect();
        // An estimate only for a run that stayed finite (one that did not is reported
        // as such).
        let accuracy =
            (doubling.filter(|_| watch.seen().is_none())).and_then(|d| d.finding(&model));
        Ok((model, row, watch, accuracy))
    }

    fn first_missing(&self, model: &dyn Model) -> usize {
        (self.collect.iter().map(Collect::var))
            .find(|&v| v >= model.var_count() + model.hidden_count())
            .unwrap_or(0)
    }

    fn check_columns(&self, model: &dyn Model) -> Result<(), SweepError> {
        // A hidden state may be collected (its final value: a summary the lowering
        // keeps between the rows, `sit_host::between`).
        let count = model.var_count() + model.hidden_count();
        match self.collect.iter().find(|c| c.var() >= count) {
            Some(c) => Err(SweepError {
                set: 0,
                error: SetError::Unknown(c.var().into()),
            }),
            None => Ok(()),
        }
    }
}

/// The Cartesian product of `axes` (variable index and its values): every combination,
/// the first axis varying slowest (as nested loops in the order given). Empty if an axis
/// has no value; one empty set if there is no axis.
pub fn grid(axes: &[(usize, Vec<f64>)]) -> Vec<Vec<(usize, f64)>> {
    let mut sets: Vec<Vec<(usize, f64)>> = std::vec![Vec::new()];
    for (var, values) in axes {
        sets = sets
            .iter()
            .flat_map(|set| {
                values.iter().map(move |&v| {
                    let mut s = set.clone();
                    s.push((*var, v));
                    s
                })
            })
            .collect();
    }
    sets
}

/// `n` evenly spaced values from `lo` to `hi`, both included: `lo + (hi - lo) * k / (n -
/// 1)` for `k` in `0..n`, the last one exactly `hi`; `[lo]` for `n = 1`, empty for 0.
pub fn linspace(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    match n {
        0 => Vec::new(),
        1 => std::vec![lo],
        _ => (0..n)
            .map(|k| {
                if k == n - 1 {
                    hi
                } else {
                    lo + (hi - lo) * (k as f64) / ((n - 1) as f64)
                }
            })
            .collect(),
    }
}

/// The running state of one [`Collect`].
#[derive(Clone, Copy, Debug)]
enum Acc {
    /// Nothing to accumulate (`Final`).
    None,
    /// The extreme so far (`Max`, `Min`).
    Extreme(f64),
    /// The previous row's time and value and the crossing time found, if any.
    Crossing { t: f64, prev: f64, at: Option<f64> },
}

impl Acc {
    /// The state on the values before the first step; `None` if the variable is missing.
    fn start(c: &Collect, model: &dyn Model) -> Option<Acc> {
        let v = model.get_at(c.var())?;
        Some(match c {
            Collect::Final(_) => Acc::None,
            Collect::Max(_) | Collect::Min(_) => Acc::Extreme(v),
            Collect::FirstCrossing { threshold, .. } => Acc::Crossing {
                t: model.time(),
                prev: v,
                at: (v == *threshold).then(|| model.time()),
            },
        })
    }

    fn update(&mut self, c: &Collect, v: f64, t: f64) {
        match (self, *c) {
            (Acc::Extreme(m), Collect::Max(_)) => *m = extreme(*m, v, v > *m),
            (Acc::Extreme(m), Collect::Min(_)) => *m = extreme(*m, v, v < *m),
            (Acc::Crossing { t: t0, prev, at }, Collect::FirstCrossing { threshold, .. }) => {
                let reached =
                    (*prev < threshold && v >= threshold) || (*prev > threshold && v <= threshold);
                if at.is_none() && reached {
                    *at = Some(crossing(*t0, *prev, t, v, threshold));
                }
                (*t0, *prev) = (t, v);
            }
            _ => {}
        }
    }

    fn value(&self, c: &Collect, model: &dyn Model) -> f64 {
        match *self {
            Acc::None => model.get_at(c.var()).unwrap_or(f64::NAN),
            Acc::Extreme(m) => m,
            Acc::Crossing { at, .. } => at.unwrap_or(f64::NAN),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_ends_exactly() {
        assert_eq!(linspace(0.0, 1.0, 5), [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(linspace(0.1, 0.3, 3).last(), Some(&0.3));
        assert_eq!(linspace(2.0, 9.0, 1), [2.0]);
        assert!(linspace(2.0, 9.0, 0).is_empty());
    }

    #[test]
    fn grid_first_axis_slowest() {
        let g = grid(&[(0, std::vec![1.0, 2.0]), (3, std::vec![5.0, 6.0, 7.0])]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], [(0, 1.0), (3, 5.0)]);
        assert_eq!(g[1], [(0, 1.0), (3, 6.0)]);
        assert_eq!(g[3], [(0, 2.0), (3, 5.0)]);
        assert_eq!(grid(&[]), std::vec![Vec::new()]);
        assert!(grid(&[(0, Vec::new())]).is_empty());
    }

    #[test]
    fn crossings_are_linear_within_a_step() {
        assert_eq!(crossing(1.0, 0.0, 2.0, 4.0, 1.0), 1.25);
        assert_eq!(crossing(1.0, 4.0, 2.0, 0.0, 1.0), 1.75);
        assert_eq!(crossing(0.1, 0.3, 0.2, 0.7, 0.7), 0.2);
        // Never past the row that reached the threshold.
        let t = crossing(0.1, 0.0, 0.30000000000000004, 1.0 - 1e-16, 1.0 - 2e-16);
        assert!(t <= 0.30000000000000004);
    }

    #[test]
    fn extremes_keep_nan() {
        assert!(extreme(1.0, f64::NAN, false).is_nan());
        assert!(extreme(f64::NAN, 2.0, false).is_nan());
        assert_eq!(extreme(1.0, 2.0, true), 2.0);
        assert_eq!(extreme(1.0, 0.5, false), 1.0);
    }
}
