//! The error nobody sees of a fixed-step run (`euler`, `rk4`): an estimate by step doubling at a few steps of the run, and the bound past which a value is a probable instability.
//!
//! A fixed-step method has no error control: under the default `euler` an oscillator's
//! energy grows from 0.5 to 1.36 by t = 100 at `--dt 0.01`, and a fast relaxation at a
//! step past its stability limit grows to −2.7e70, both with exit 0 (issue 47, item 2).
//! `sitc run` therefore
//!
//! - runs a copy of the model along with the run, at twice the step (one step of `2·dt`
//!   every second step), so that the run itself (its rows, bit for bit) is untouched;
//!   at [`SAMPLES`] evenly spaced even steps and at the last, the difference of the two
//!   on each continuous state (the target of an `integral` or a `lag` of a model
//!   integrated by `euler` or `rk4`), divided by `2^p − 1` (`p` the method's order: 1,
//!   4), is the error of the run at `dt` (Richardson's estimate of the global error);
//!   its largest value over the run, relative to the largest magnitude the state had at
//!   the start and at the comparisons, is the estimate: a drift that accumulates (an
//!   oscillator's energy under `euler`) shows in it, a local error that does not (the
//!   semi-implicit Euler of `v = integral(a); x = integral(v);`, whose energy stays) does
//!   not. Past [`THRESHOLD`], one warning after the run names the state, the estimate
//!   and what makes it smaller;
//! - takes a value whose magnitude reaches [`BLOWUP`] on a row written for a probable
//!   instability: the run stops (as at a non-finite value, and not under
//!   `--allow-non-finite`, which warns once instead) with the rule that first stored
//!   such a value (`sit_interp::replay::Checkpoint::locate_beyond`).
//!
//! The cost is half a step per step (the copy's), at most `SAMPLES + 1` comparisons per
//! run, and one scan of the public values per row written (the non-finite watch's scan).

use sit_interp::Instance;
use sit_middle::ir::{Method, ModelId, Program, Rhs, Stmt};
use sit_runtime::Model;
use sit_runtime::drive::Driven;
use std::collections::HashMap;

/// The steps sampled in a run (at most; every step of a shorter run).
pub(crate) const SAMPLES: u64 = 64;

/// The estimated error of a run, relative to the state's largest magnitude, past which
/// `sitc run` warns: 5%.
pub(crate) const THRESHOLD: f64 = 0.05;

/// The magnitude past which a value on a row is taken for a probable instability.
pub(crate) const BLOWUP: f64 = 1e100;

/// A continuous state followed by the estimate.
struct Tracked {
    /// Its index in the model's public list.
    index: usize,
    /// The name of its model's method.
    method: &'static str,
    /// `2^p − 1`: the global error of the run at `dt` is the difference to the run at
    /// `2·dt` divided by it.
    richardson: f64,
    /// The largest estimate so far.
    worst: f64,
    /// The largest magnitude seen at the comparisons so far (and at the start).
    scale: f64,
}

/// The estimate of a run's error by a copy at twice the step (see the module
/// documentation).
pub(crate) struct Doubling {
    tracked: Vec<Tracked>,
    /// Steps between two comparisons (even).
    every: u64,
    steps: u64,
    dt: f64,
    /// The copy at `2·dt`; `None` once it met a fault of the model (a phase past its
    /// bound, ...) or a value that is not finite: no more comparisons.
    coarse: Option<Driven<Instance>>,
}

/// What the estimate found past [`THRESHOLD`].
pub(crate) struct Finding {
    /// The state's dotted name.
    pub name: String,
    /// The method of its model.
    pub method: &'static str,
    /// The estimate, relative to the state's largest magnitude.
    pub relative: f64,
}

impl Doubling {
    /// The estimate for a run of `steps` steps of `dt` of `model` (set up, before its
    /// first step), whose program is `program` (rooted at `root`); `None` when no model
    /// of the tree integrates a continuous state with a fixed step, or the run is shorter
    /// than two steps.
    pub(crate) fn new(
        program: &Program,
        root: ModelId,
        model: &Driven<Instance>,
        dt: f64,
        steps: u64,
    ) -> Option<Doubling> {
        let index: HashMap<&str, usize> = (0..model.var_count())
            .filter_map(|i| Some((model.var_info(i)?.name, i)))
            .collect();
        let mut tracked = Vec::new();
        let mut todo = vec![(root, String::new())];
        while let Some((id, prefix)) = todo.pop() {
            let Some(m) = program.models.get(id) else {
                continue;
            };
            for s in &m.subs {
                todo.push((s.model, format!("{prefix}{}.", s.name)));
            }
            let (method, order) = match m.method {
                Method::Euler => ("euler", 1),
                Method::Rk4 => ("rk4", 4),
                _ => continue,
            };
            let mut targets = Vec::new();
            sit_middle::ir::walk(&m.body, &mut |s| {
                if let Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } = s
                    && matches!(
                        a.rhs,
                        Rhs::Integral { .. } | Rhs::IntegralLimited { .. } | Rhs::Lag { .. }
                    )
                    && !targets.contains(&a.target)
                {
                    targets.push(a.target);
                }
            });
            let p = f64::from(1u32 << order);
            for v in targets {
                let name = format!("{prefix}{}", m.vars[v].name);
                if let Some(&index) = index.get(name.as_str()) {
                    tracked.push(Tracked {
                        index,
                        method,
                        richardson: p - 1.0,
                        worst: 0.0,
                        scale: model.get_at(index).unwrap_or(0.0).abs(),
                    });
                }
            }
        }
        if tracked.is_empty() || steps < 2 {
            return None;
        }
        tracked.sort_by_key(|t| t.index);
        Some(Doubling {
            tracked,
            every: 2 * steps.div_ceil(2 * SAMPLES),
            steps,
            dt,
            coarse: Some(model.clone()),
        })
    }

    /// Called with the model after its step `k`: every second step the copy takes a
    /// step of `2·dt`, and at the comparisons the two are compared.
    #[inline]
    pub(crate) fn after(&mut self, k: u64, model: &Driven<Instance>) {
        if k % 2 == 1 {
            return;
        }
        let Some(coarse) = self.coarse.as_mut() else {
            return;
        };
        let dt = 2.0 * self.dt;
        if sit_runtime::catch_fault(|| coarse.step(dt)).is_err() {
            self.coarse = None;
            return;
        }
        if k.is_multiple_of(self.every) || k + 1 >= self.steps {
            self.compare(model);
        }
    }

    fn compare(&mut self, model: &Driven<Instance>) {
        let Some(coarse) = self.coarse.as_ref() else {
            return;
        };
        for t in &mut self.tracked {
            let y = model.get_at(t.index).unwrap_or(f64::NAN);
            let y2 = coarse.get_at(t.index).unwrap_or(f64::NAN);
            if !(y.is_finite() && y2.is_finite()) {
                // The copy (or the run) is past what it can tell.
                self.coarse = None;
                return;
            }
            t.scale = t.scale.max(y.abs()).max(y2.abs());
            t.worst = t.worst.max((y - y2).abs() / t.richardson);
        }
    }

    /// The state whose estimate is the largest, when it is past [`THRESHOLD`].
    pub(crate) fn finding(&self, model: &Driven<Instance>) -> Option<Finding> {
        let relative = |t: &Tracked| {
            if t.scale > 0.0 {
                t.worst / t.scale
            } else {
                0.0
            }
        };
        let t = (self.tracked.iter())
            .filter(|t| relative(t) > THRESHOLD)
            .max_by(|a, b| relative(a).total_cmp(&relative(b)))?;
        Some(Finding {
            name: model.var_info(t.index)?.name.to_string(),
            method: t.method,
            relative: relative(t),
        })
    }
}

impl Finding {
    /// The warning, once after the run.
    pub(crate) fn warning(&self, dt: f64, t_end: f64) -> String {
        let Finding {
            name,
            method,
            relative,
        } = self;
        let suggestion = match *method {
            "euler" => {
                "`method rk4;` or `method dopri5;` in the model (--method rk4, \
                        --method dopri5), or a smaller --dt"
            }
            _ => "`method dopri5;` in the model (--method dopri5), or a smaller --dt",
        };
        format!(
            "warning: the fixed steps of `{method}` at --dt {dt} may be off by about {} of \
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
    fn percentages() {
        assert_eq!(percent(0.01), "1.0%");
        assert_eq!(percent(0.234), "23%");
        assert_eq!(percent(2.5e3), "3e5%");
    }
}
