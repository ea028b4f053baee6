//! `sit_runtime::sweep`: order, thread-count independence, identity with single runs,
//! summaries against closed forms, and errors.

use sit_runtime::sweep::{Collect, Sweep, SweepError, apply, grid, linspace};
use sit_runtime::{Model, SetError, ValueType, VarInfo, VarKind, from_logical, integral, logical};

/// The Van der Pol oscillator of `examples/models/van_der_pol.sit`, forward Euler, with a
/// flag `frozen` (a state) that stops it.
#[derive(Clone, Debug)]
struct VanDerPol {
    t: f64,
    mu: f64,
    x0: f64,
    x1: f64,
    frozen: bool,
}

impl VanDerPol {
    fn new() -> Self {
        let mut m = VanDerPol {
            t: 0.0,
            mu: 1.0,
            x0: 0.0,
            x1: 0.0,
            frozen: false,
        };
        m.reset();
        m
    }
}

const VARS: [(&str, VarKind, ValueType); 4] = [
    ("mu", VarKind::Param, ValueType::Real),
    ("x0", VarKind::State, ValueType::Real),
    ("x1", VarKind::State, ValueType::Real),
    ("frozen", VarKind::State, ValueType::Logical),
];

impl Model for VanDerPol {
    fn step(&mut self, dt: f64) {
        if !self.frozen {
            let d0 = self.x1;
            let d1 = self.mu * ((1.0 - self.x0 * self.x0) * self.x1) - self.x0;
            self.x0 = integral(self.x0, d0, dt);
            self.x1 = integral(self.x1, d1, dt);
        }
        self.t += dt;
    }
    fn reset(&mut self) {
        self.t = 0.0;
        self.x0 = 2.0;
        self.x1 = 0.0;
        self.frozen = false;
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn var_count(&self) -> usize {
        VARS.len()
    }
    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        let (name, kind, ty) = *VARS.get(index)?;
        Some(VarInfo {
            name,
            kind,
            ty,
            output: true,
            settable: true,
        })
    }
    fn get_at(&self, index: usize) -> Option<f64> {
        [self.mu, self.x0, self.x1, logical(self.frozen)]
            .get(index)
            .copied()
    }
    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        match index {
            0 => self.mu = value,
            1 => self.x0 = value,
            2 => self.x1 = value,
            3 => self.frozen = from_logical(index, value)?,
            _ => return Err(SetError::Unknown(index.into())),
        }
        Ok(())
    }
}

/// Dahlquist's test equation `x' = -k·x` (`examples/models/dahlquist.sit`).
#[derive(Clone, Debug)]
struct Dahlquist {
    t: f64,
    k: f64,
    x: f64,
}

impl Model for Dahlquist {
    fn step(&mut self, dt: f64) {
        let der = -self.k * self.x;
        self.x = integral(self.x, der, dt);
        self.t += dt;
    }
    fn reset(&mut self) {
        self.t = 0.0;
        self.x = 1.0;
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn var_count(&self) -> usize {
        2
    }
    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        let (name, kind) = [("k", VarKind::Param), ("x", VarKind::State)]
            .get(index)
            .copied()?;
        Some(VarInfo {
            name,
            kind,
            ty: ValueType::Real,
            output: true,
            settable: true,
        })
    }
    fn get_at(&self, index: usize) -> Option<f64> {
        [self.k, self.x].get(index).copied()
    }
    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        match index {
            0 => self.k = value,
            1 => self.x = value,
            _ => return Err(SetError::Unknown(index.into())),
        }
        Ok(())
    }
}

fn vdp_sweep() -> Sweep {
    Sweep::new(0.01, 2000)
        .collect(Collect::Final(1))
        .collect(Collect::Final(2))
        .collect(Collect::Max(1))
        .collect(Collect::Min(2))
        .collect(Collect::FirstCrossing {
            var: 1,
            threshold: 0.0,
        })
}

fn vdp_sets() -> Vec<Vec<(usize, f64)>> {
    grid(&[(0, linspace(0.0, 3.0, 7)), (1, vec![-1.0, 0.5, 2.5])])
}

fn bits(rows: &[Vec<f64>]) -> Vec<Vec<u64>> {
    rows.iter()
        .map(|r| r.iter().map(|v| v.to_bits()).collect())
        .collect()
}

fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}

#[test]
fn rows_do_not_depend_on_the_number_of_threads() {
    let (proto, sets, sweep) = (VanDerPol::new(), vdp_sets(), vdp_sweep());
    let one = in_pool(1, || sweep.run(&proto, &sets)).unwrap();
    let two = in_pool(2, || sweep.run(&proto, &sets)).unwrap();
    let four = in_pool(4, || sweep.run(&proto, &sets)).unwrap();
    assert_eq!(one.len(), sets.len());
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(bits(&one), bits(&four));
}

/// A row is the single run with the same values, written out by hand here.
#[test]
fn a_row_is_the_single_run() {
    let (proto, sets, sweep) = (VanDerPol::new(), vdp_sets(), vdp_sweep());
    let rows = in_pool(2, || sweep.run(&proto, &sets)).unwrap();
    for (set, row) in sets.iter().zip(&rows) {
        let mut m = VanDerPol::new();
        m.mu = set[0].1;
        m.reset();
        m.x0 = set[1].1;
        let (mut max, mut min, mut crossing) = (m.x0, m.x1, f64::NAN);
        for _ in 0..2000 {
            let (t0, before) = (m.t, m.x0);
            m.step(0.01);
            max = max.max(m.x0);
            min = min.min(m.x1);
            // x0 reaches 0 from either side: the time on the line between the rows.
            let reached = (before < 0.0 && m.x0 >= 0.0) || (before > 0.0 && m.x0 <= 0.0);
            if crossing.is_nan() && reached {
                crossing = if m.x0 == 0.0 {
                    m.t
                } else {
                    (t0 + (m.t - t0) * ((0.0 - before) / (m.x0 - before))).min(m.t)
                };
            }
        }
        let expected = [m.x0, m.x1, max, min, crossing];
        let got: Vec<u64> = row.iter().map(|v| v.to_bits()).collect();
        let want: Vec<u64> = expected.iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, want, "set {set:?}");
    }
}

/// Rows come back in input order: a set's own param is its first collected value.
#[test]
fn rows_keep_the_input_order() {
    let sets: Vec<Vec<(usize, f64)>> = (0..100).rev().map(|k| vec![(0, k as f64)]).collect();
    let sweep = Sweep::new(0.1, 3).collect(Collect::Final(0));
    let rows = in_pool(2, || sweep.run(&VanDerPol::new(), &sets)).unwrap();
    let mus: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    let want: Vec<f64> = (0..100).rev().map(|k| k as f64).collect();
    assert_eq!(mus, want);
}

/// Forward Euler on `x' = -k·x` gives `x_n = (1 - k·dt)^n`: the final value, the max
/// (the start, 1), the min (the end) and the time x reaches 1/2, on the line between the
/// rows `n - 1` and `n`, the first at or below 1/2: `n = ceil(ln(1/2) / ln(1 - k·dt))`,
/// `t = (n - 1)·dt + dt·(x_{n-1} - 1/2)/(x_{n-1} - x_n)`.
#[test]
fn summaries_match_the_closed_form() {
    let proto = Dahlquist {
        t: 0.0,
        k: 1.0,
        x: 1.0,
    };
    let (dt, steps) = (0.01, 300u64);
    let ks = [0.2, 0.5, 1.0, 2.0, 3.0];
    let sets = grid(&[(0, ks.to_vec())]);
    let sweep = Sweep::new(dt, steps)
        .collect(Collect::Final(1))
        .collect(Collect::Max(1))
        .collect(Collect::Min(1))
        .collect(Collect::FirstCrossing {
            var: 1,
            threshold: 0.5,
        });
    let rows = sweep.run(&proto, &sets).unwrap();
    for (k, row) in ks.iter().zip(&rows) {
        let factor: f64 = 1.0 - k * dt;
        let exact = factor.powi(steps as i32);
        // x + (-k·x)·dt rounds twice per step where factor^n rounds log2(n) times: the
        // relative error stays below 300 steps × 2 ulps.
        assert!((row[0] - exact).abs() <= exact * 1e-13, "k = {k}: {row:?}");
        assert_eq!(row[1], 1.0);
        assert_eq!(row[2], row[0]);
        let n = (0.5f64.ln() / factor.ln()).ceil();
        let before = factor.powi(n as i32 - 1);
        let t = (n - 1.0) * dt + dt * (before - 0.5) / (before - before * factor);
        // The rows' times are sums of steps of 0.01 (not n·0.01), their values rounded
        // twice a step: a few ulps apart.
        if n <= steps as f64 {
            assert!(
                (row[3] - t).abs() < 1e-12,
                "k = {k}: {} vs {t} (n = {n})",
                row[3]
            );
            assert!(row[3] > (n - 1.0) * dt && row[3] < n * dt, "k = {k}");
        } else {
            assert!(row[3].is_nan());
        }
    }
    assert!(
        rows[0][3].is_nan(),
        "k = 0.2 stays above 1/2 for 3 s: 0.998^300 = 0.549"
    );
}

#[test]
fn the_first_failing_set_is_reported() {
    let sets = vec![
        vec![(0, 1.0), (3, 0.0)],
        vec![(0, 1.0), (3, 1.0)],
        vec![(0, 1.0), (3, 0.5)],
        vec![(7, 1.0)],
    ];
    let sweep = Sweep::new(0.01, 10).collect(Collect::Final(1));
    let err = in_pool(2, || sweep.run(&VanDerPol::new(), &sets)).unwrap_err();
    assert_eq!(
        err,
        SweepError {
            set: 2,
            error: SetError::NotLogical {
                var: 3.into(),
                value: 0.5
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "parameter set #2: variable #3 is logical: expected 0 or 1, got 0.5"
    );
    let bad_column = Sweep::new(0.01, 10).collect(Collect::Max(9));
    assert_eq!(
        bad_column
            .run(&VanDerPol::new(), &sets[..1])
            .unwrap_err()
            .error,
        SetError::Unknown(9.into())
    );
}

/// A frozen oscillator (a state set after the reset) stays at its start.
#[test]
fn states_are_set_after_the_reset() {
    let mut m = VanDerPol::new();
    apply(&mut m, &[(3, 1.0), (0, 2.0), (1, 0.25)]).unwrap();
    assert_eq!((m.mu, m.x0, m.frozen), (2.0, 0.25, true));
    let rows = Sweep::new(0.1, 10)
        .collect(Collect::Final(1))
        .run(&VanDerPol::new(), &[vec![(3, 1.0), (1, 0.25)]])
        .unwrap();
    assert_eq!(rows, vec![vec![0.25]]);
}

/// A watched sweep finds the first non-finite value of each run (Euler on `x' = -k·x`
/// with `k = -1e308`, `dt = 1`: x = 1 + 1e308 after the first step, `1e308 · 1e308` is
/// `inf` in the second) and gives the rows of an unwatched one.
#[test]
fn watched_runs_report_their_first_non_finite_value() {
    let proto = Dahlquist {
        t: 0.0,
        k: 1.0,
        x: 1.0,
    };
    let sets = vec![vec![(0, 0.5)], vec![(0, -1e308)]];
    let sweep = Sweep::new(1.0, 4).collect(Collect::Final(1));
    let watched = in_pool(2, || {
        sweep.run_watched(&proto, &sets, &|| {}, &|m: &Dahlquist| m.t)
    })
    .unwrap();
    let plain = sweep.run(&proto, &sets).unwrap();
    assert_eq!(watched.len(), 2);
    for (w, p) in watched.iter().zip(&plain) {
        assert_eq!(w.row, *p);
        assert_eq!(w.end, 4.0);
    }
    assert_eq!(watched[0].non_finite, None);
    let seen = watched[1].non_finite.expect("the second run overflows");
    assert_eq!((seen.index, seen.value), (1, f64::INFINITY));
    assert_eq!((seen.from, seen.time), (Some(1.0), 2.0));
}

/// A watched sweep with [`Sweep::estimate`] estimates each run's error of its fixed
/// steps as `sitc run` does, on copies: Euler on `x' = -k·x` from 1 at `dt = 0.02` to
/// t = 2 is `(1 − k·dt)^n` against the exact `e^(−k·t)`. With `k = 20` the largest
/// error is 8.9% of the magnitude (at n = 2: 0.36 against 0.449), past the 5% threshold;
/// the Richardson estimate from the run at `2·dt` is within a factor 2 of it (its own
/// error at a step this long: `k·2dt = 0.8`). With `k = 0.01` the error is 1e-6: no
/// finding. The rows are those of the run without the estimate, bit for bit.
#[test]
fn watched_runs_estimate_the_error_of_their_fixed_steps() {
    let proto = Dahlquist {
        t: 0.0,
        k: 1.0,
        x: 1.0,
    };
    let sets = vec![vec![(0, 0.01)], vec![(0, 20.0)]];
    let (dt, steps) = (0.02, 100);
    let plain = Sweep::new(dt, steps).collect(Collect::Max(1));
    let sweep = plain.clone().estimate(vec![("x".into(), "euler", 1)]);
    let watched = in_pool(2, || {
        sweep.run_watched(&proto, &sets, &|| {}, &|m: &Dahlquist| m.t)
    })
    .unwrap();
    for (w, p) in watched.iter().zip(plain.run(&proto, &sets).unwrap()) {
        assert_eq!(w.row, p);
    }
    assert_eq!(watched[0].accuracy, None);
    let found = watched[1].accuracy.as_ref().expect("k = 20 errs by 8.9%");
    let exact = (0..=steps)
        .map(|n| {
            let t = n as f64 * dt;
            ((1.0 - 20.0 * dt).powi(n as i32) - (-20.0 * t).exp()).abs()
        })
        .fold(0.0, f64::max);
    assert!((exact - 0.089).abs() < 1e-3, "{exact}");
    assert_eq!((found.name.as_str(), found.method), ("x", "euler"));
    assert!(
        found.relative > 0.5 * exact && found.relative < 2.0 * exact,
        "{} against {exact}",
        found.relative
    );
}

/// What the estimate adds to a sweep's runs: the same rows run watched with and without
/// [`Sweep::estimate`], five rounds alternately, the ratio of the fastest of each
/// (`cargo test --release -p sit-runtime --features parallel --test sweep -- --ignored
/// --nocapture estimate_cost`). Recorded in docs/performance.md.
#[test]
#[ignore]
fn estimate_cost() {
    let proto = Dahlquist {
        t: 0.0,
        k: 1.0,
        x: 1.0,
    };
    let sets: Vec<Vec<(usize, f64)>> = (0..64).map(|k| vec![(0, 0.5 + f64::from(k))]).collect();
    for steps in [100_000, 10_000, 1_000, 100] {
        let plain = Sweep::new(1.0 / steps as f64, steps).collect(Collect::Max(1));
        let estimated = plain.clone().estimate(vec![("x".into(), "euler", 1)]);
        let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..5 {
            for (s, best) in [(&plain, &mut a), (&estimated, &mut b)] {
                let start = std::time::Instant::now();
                let rows = in_pool(1, || s.run_watched(&proto, &sets, &|| {}, &|_| ())).unwrap();
                std::hint::black_box(rows);
                *best = best.min(start.elapsed().as_secs_f64());
            }
        }
        println!(
            "64 runs of {steps} steps: watched {:.3} ms, with the estimate {:.3} ms, ratio {:.3}",
            a * 1e3,
            b * 1e3,
            b / a
        );
    }
}
