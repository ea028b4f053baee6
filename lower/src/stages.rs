//! The stage builder: one step of an explicit Runge–Kutta method, from its [`Tableau`], written as the stage passes, the solution and the error estimate of plain rules.
//!
//! The steps around it (the fixed step of `super::fixed`, the
//! adaptive step of `super::explicit`) choose the step's start and length; everything a
//! method's coefficients decide is written here, in the association of the tableau's
//! [`Form`]: sums left to right, zero coefficients left out, a weight of 1 left out, each
//! coefficient the tableau's `f64` literal.

use super::build::{add, assign, div, mul, num, var, weighted};
use super::hidden::Hidden;
use super::pass::Stage;
use super::rewrite;
use super::tableau::{Form, Tableau};
use crate::ir::{Expr, Model, Split, VarId};

/// The stage memories of one continuous state.
pub(super) struct Mem {
    /// The state at the start of the step.
    pub(super) y0: VarId,
    /// Its rate at each stage.
    pub(super) k: Vec<VarId>,
}

/// Which start of step a method's memories hold, as they are named and documented.
#[derive(Debug, Clone, Copy)]
pub(super) enum Start {
    /// `NAME_METHOD_y0`, the start of the (fixed) step, located at the state's declaration.
    Step,
    /// `NAME_METHOD_yc`, the end of the last accepted internal step (adaptive), located
    /// at the state's first rule.
    Accepted,
}

/// The stage memories of `tab` for each continuous state of `sp`, added to `hid`: the
/// start (see [`Start`]), then `NAME_METHOD_k1` … one per stage.
pub(super) fn memories(hid: &mut Hidden<'_>, tab: &Tableau, sp: &Split, start: Start) -> Vec<Mem> {
    let method = tab.name;
    sp.states
        .iter()
        .map(|&(v, rule)| {
            let (name, decl) = (hid.m.vars[v].name.clone(), hid.m.vars[v].span);
            let (y0, span) = match start {
                Start::Step => (
                    hid.new_var(
                        format!("{name}_{method}_y0"),
                        format!(" `{name}` at the start of the step ({method})"),
                        decl,
                    ),
                    decl,
                ),
                Start::Accepted => (
                    hid.new_var(
                        format!("{name}_{method}_yc"),
                        format!(
                            " `{name}` at the end of the last accepted internal step ({method})."
                        ),
                        rule,
                    ),
                    rule,
                ),
            };
            let k = (1..=tab.c.len())
                .map(|s| {
                    hid.new_var(
                        format!("{name}_{method}_k{s}"),
                        format!(" The rate of `{name}` at stage {s} ({method})."),
                        span,
                    )
                })
                .collect();
            Mem { y0, k }
        })
        .collect()
}

/// One step of a tableau's method over the continuous part of a model.
pub(super) struct Step<'a> {
    /// The method.
    pub(super) tab: &'a Tableau,
    /// The model as written.
    pub(super) m: &'a Model,
    /// Its split: the stage passes evaluate its continuous part.
    pub(super) sp: &'a Split,
    /// The memories of each continuous state of `sp`.
    pub(super) mems: &'a [Mem],
    /// The time into the host step of the step's start (`None`: the host step's start).
    pub(super) t: Option<VarId>,
    /// The step's length (`dt`, or a hidden state).
    pub(super) h: Expr,
}

impl Step<'_> {
    /// What `time` adds at node `c`: `t + c·h` (`t`, `t + h` at 0 and 1; without `t`,
    /// nothing, `h`, `c·h`).
    fn node(&self, c: f64) -> Option<Expr> {
        let h = self.scaled(c);
        match (self.t, h) {
            (None, h) => h,
            (Some(t), None) => Some(var(t)),
            (Some(t), Some(h)) => Some(add(var(t), h)),
        }
    }

    /// `c·h` (`h` when `c` is 1, nothing when 0).
    fn scaled(&self, c: f64) -> Option<Expr> {
        match c {
            0.0 => None,
            1.0 => Some(self.h.clone()),
            c => Some(mul(num(c), self.h.clone())),
        }
    }

    /// The value of state `i` at stage `s` ([`Form::Weighted`]).
    fn weighted_value(&self, i: usize, s: usize) -> Expr {
        let mem = &self.mems[i];
        match weighted(self.tab.a[s], &mem.k) {
            Some(sum) => add(var(mem.y0), mul(self.h.clone(), sum)),
            None => var(mem.y0),
        }
    }

    /// The value of state `i` at stage `s` ([`Form::Classic`]).
    fn classic_value(&self, i: usize, s: usize) -> Expr {
        let mem = &self.mems[i];
        self.tab.a[s]
            .iter()
            .zip(&mem.k)
            .filter_map(|(&a, &k)| Some(mul(self.scaled(a)?, var(k))))
            .fold(var(mem.y0), add)
    }

    /// The stage passes: per stage, the states' values and rates cleared as the form
    /// says, then the stage pass writing the rates, its `otherwise` flags the model's
    /// shifted by `(stage + 1)·fired`.
    pub(super) fn stages(&self) -> Vec<rewrite::Stmt> {
        let states = &self.sp.states;
        let rows = self.sp.rows();
        let f = self.m.fired;
        let mut out = Vec::new();
        for (s, &c) in self.tab.c.iter().enumerate() {
            match self.tab.form {
                Form::Weighted => {
                    for (i, &(v, span)) in states.iter().enumerate() {
                        out.push(assign(v, self.weighted_value(i, s), None, span));
                        out.push(assign(self.mems[i].k[s], num(0.0), None, span));
                    }
                }
                Form::Classic => {
                    for (i, &(_, span)) in states.iter().enumerate() {
                        out.push(assign(self.mems[i].k[s], num(0.0), None, span));
                    }
                }
            }
            let index = |v: VarId| rows.get(v).copied().flatten();
            let stage = Stage {
                m: self.m,
                sp: self.sp,
                node: self.node(c),
                offset: (s + 1) * f,
                rate: &|v| index(v).map(|i| self.mems[i].k[s]),
            };
            out.extend(stage.stmts(&self.m.body));
            if self.tab.form == Form::Classic && s + 1 < self.tab.c.len() {
                for (i, &(v, span)) in states.iter().enumerate() {
                    out.push(assign(v, self.classic_value(i, s + 1), None, span));
                }
            }
        }
        out
    }

    /// The solution `y = y0 + (h·Σ_j b_j·k_j)/b_den` for every state (nothing under
    /// `fsal`: the last stage's value is the solution).
    pub(super) fn solution(&self) -> Vec<rewrite::Stmt> {
        if self.tab.fsal {
            return Vec::new();
        }
        self.sp
            .states
            .iter()
            .zip(self.mems)
            .map(|(&(v, span), mem)| {
                let sum = weighted(self.tab.b, &mem.k).expect("the weights are not all zero");
                let inc = mul(self.h.clone(), sum);
                let inc = match self.tab.b_den {
                    1.0 => inc,
                    d => div(inc, num(d)),
                };
                assign(v, add(var(mem.y0), inc), None, span)
            })
            .collect()
    }

    /// The second error estimate `h·Σ_j e3_j·k_j` of state `i` (`None` without one:
    /// DOP853's third-order estimate, [`super::tableau::Embedded::e3`]).
    pub(super) fn error3(&self, i: usize) -> Option<Expr> {
        let e = self.tab.embedded.as_ref()?.e3?;
        let sum = weighted(e, &self.mems[i].k).expect("the error weights are not all zero");
        Some(mul(self.h.clone(), sum))
    }

    /// The value of state `i` at stage `s` (0-based) of the [`Form::Weighted`] form,
    /// recomputed from the step's start and rates (Hairer's stiffness test reads the
    /// next to last stage's).
    pub(super) fn stage_value(&self, i: usize, s: usize) -> Expr {
        self.weighted_value(i, s)
    }

    /// The error estimate `h·Σ_j e_j·k_j` of state `i` (`None` without embedded weights).
    pub(super) fn error(&self, i: usize) -> Option<Expr> {
        let e = self.tab.embedded.as_ref()?.e;
        let sum = weighted(e, &self.mems[i].k).expect("the error weights are not all zero");
        Some(mul(self.h.clone(), sum))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tableau::{DOP853, DOPRI5, Dense, RK4, TSIT5, Tableau};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-14 * (1.0 + b.abs())
    }

    fn consistent(t: &Tableau) {
        let s = t.c.len();
        assert_eq!(t.a.len(), s, "{}: one row of a per stage", t.name);
        assert_eq!(t.b.len(), s, "{}: one weight per stage", t.name);
        assert_eq!(
            t.c[0], 0.0,
            "{}: explicit, the first stage at the start",
            t.name
        );
        for (i, row) in t.a.iter().enumerate() {
            assert_eq!(
                row.len(),
                i,
                "{}: row {} is below the diagonal",
                t.name,
                i + 1
            );
            let sum: f64 = row.iter().sum();
            assert!(close(sum, t.c[i]), "{}: row {} sums to c", t.name, i + 1);
        }
        let b: f64 = t.b.iter().sum::<f64>() / t.b_den;
        assert!(close(b, 1.0), "{}: the weights sum to 1", t.name);
        if t.fsal {
            assert_eq!(t.c[s - 1], 1.0, "{}: the last stage at the end", t.name);
            let last = t.a[s - 1];
            for (j, &a) in last.iter().enumerate() {
                assert_eq!(
                    a.to_bits(),
                    (t.b[j] / t.b_den).to_bits(),
                    "{}: a_sj = b_j",
                    t.name
                );
            }
            assert_eq!(t.b[s - 1], 0.0, "{}: b_s = 0", t.name);
        }
        if let Some(emb) = &t.embedded {
            assert_eq!(emb.e.len(), s, "{}: one error weight per stage", t.name);
            let e: f64 = emb.e.iter().sum();
            assert!(close(e, 0.0), "{}: both methods are consistent", t.name);
        }
    }

    /// `b_j(θ)` of a [`Dense::Weights`] output, in `f64`.
    fn poly(p: &super::super::tableau::Poly, th: f64) -> f64 {
        let h = p.horner.iter().rev().fold(0.0, |acc, q| q + th * acc);
        th.powi(p.power as i32) * h
    }

    #[test]
    fn the_tableaus_are_consistent() {
        consistent(&RK4);
        consistent(&DOPRI5);
        consistent(&TSIT5);
        consistent(&DOP853);
    }

    /// `Σ_j w_j·c_j^q` over the stages.
    fn moment(w: &[f64], c: &[f64], q: i32) -> f64 {
        w.iter().zip(c).map(|(w, c)| w * c.powi(q)).sum()
    }

    #[test]
    #[allow(clippy::excessive_precision)] // Hairer's `bhh`, digits as printed.
    fn dop853_integrates_polynomials_as_its_orders_say() {
        let t = &DOP853;
        let emb = t.embedded.as_ref().expect("adaptive");
        // Order 8: exact on y' = t^q for q < 8 (Σ_j b_j·c_j^q = 1/(q + 1)), not on t^8.
        for q in 0..8 {
            let m = moment(t.b, t.c, q);
            assert!(close(m, 1.0 / f64::from(q + 1)), "b: q = {q}: {m}");
        }
        assert!((moment(t.b, t.c, 8) - 1.0 / 9.0).abs() > 1e-8);
        // The error weights vanish on low powers: the fifth-order estimate up to t^4 and
        // the third-order one up to t^2 (each estimate is b minus a method of that order).
        for q in 0..5 {
            assert!(moment(emb.e, t.c, q).abs() < 1e-14, "e5: q = {q}");
        }
        let e3 = emb.e3.expect("DOP853 has a second estimate");
        for q in 0..3 {
            assert!(moment(e3, t.c, q).abs() < 1e-14, "e3: q = {q}");
        }
        // e3 = b − bhh, bhh on stages 1, 9 and 12 as Hairer prints them (the literals are
        // the exact differences, within an ulp of the difference in f64).
        let bhh = [
            (0, 0.244094488188976377952755905512),
            (8, 0.733846688281611857341361741547),
            (11, 0.220588235294117647058823529412e-1),
        ];
        for (j, (&b, &e)) in t.b.iter().zip(e3).enumerate() {
            let h = bhh.iter().find(|&&(k, _)| k == j).map_or(0.0, |&(_, v)| v);
            assert!((b - h - e).abs() <= f64::EPSILON * e.abs(), "e3_{j}");
        }
    }

    #[test]
    fn dop853s_dense_output_is_of_order_7() {
        let Dense::Hairer8 { c, a, d } = &DOP853.dense else {
            panic!("dop853's dense output is Hairer's of order 7")
        };
        let s = DOP853.c.len();
        assert_eq!((c.len(), a.len(), d.len()), (3, 3, 4));
        let nodes: Vec<f64> = DOP853.c.iter().chain(c.iter()).copied().collect();
        for (e, row) in a.iter().enumerate() {
            assert_eq!(row.len(), s + e, "extra row {e} over the stages before it");
            assert!(
                close(row.iter().sum(), c[e]),
                "extra row {e} sums to its node"
            );
        }
        // On y' = t^q from y(0) = 0 with h = 1 (k_j = c_j^q), y(θ) = θ^(q+1)/(q+1)
        // for q ≤ 6, at every θ: the terms as the rewrite keeps them.
        for q in 0..7 {
            let k: Vec<f64> = nodes.iter().map(|c| c.powi(q)).collect();
            let r2: f64 = DOP853.b.iter().zip(&k).map(|(b, k)| b * k).sum();
            let r3 = k[0] - r2;
            let r4 = r2 - k[s - 1] - r3;
            let r: Vec<f64> = d
                .iter()
                .map(|row| row.iter().zip(&k).map(|(d, k)| d * k).sum())
                .collect();
            for th in [0.1, 0.3, 0.5, 0.77, 0.9] {
                let u = 1.0 - th;
                let y = th
                    * (r2
                        + u * (r3 + th * (r4 + u * (r[0] + th * (r[1] + u * (r[2] + th * r[3]))))));
                let want = th.powi(q + 1) / f64::from(q + 1);
                assert!((y - want).abs() < 1e-13, "q = {q}, θ = {th}: {y} vs {want}");
            }
        }
    }

    /// Where the stability region of `t` meets the negative real axis: the first `x`
    /// (in steps of 0.001) with `|R(−x)| > 1`, `R(z) = 1 + z·Σ_j b_j·g_j`,
    /// `g_i = 1 + z·Σ_j a_ij·g_j`.
    fn real_bound(t: &Tableau) -> f64 {
        let r = |z: f64| {
            let mut g: Vec<f64> = Vec::new();
            for row in t.a {
                let sum: f64 = row.iter().zip(&g).map(|(a, g)| a * g).sum();
                g.push(1.0 + z * sum);
            }
            1.0 + z * t.b.iter().zip(&g).map(|(b, g)| b * g).sum::<f64>() / t.b_den
        };
        let mut x = 0.0;
        while r(-(x + 0.001)).abs() <= 1.0 {
            x += 0.001;
        }
        x
    }

    #[test]
    fn the_stiffness_bounds_are_below_the_stability_bounds() {
        // Measured: dopri5 3.306, tsit5 3.506, dop853 6.393; Hairer's codes test
        // h·λ > 3.25 (DOPRI5) and 6.1 (DOP853), tsit5 as DOPRI5 in proportion.
        for (t, want) in [(&DOPRI5, 3.306), (&TSIT5, 3.506), (&DOP853, 6.393)] {
            let bound = real_bound(t);
            assert!((bound - want).abs() < 0.002, "{}: {bound}", t.name);
            let stiff = t.embedded.as_ref().expect("adaptive").stiff;
            assert!(
                stiff < bound && stiff > 0.95 * bound,
                "{}: {stiff} against {bound}",
                t.name
            );
        }
    }

    #[test]
    fn the_dense_outputs_end_on_the_solution() {
        for t in [&RK4, &TSIT5] {
            let Dense::Weights(w) = &t.dense else {
                panic!("{}'s dense output is polynomial weights", t.name)
            };
            assert_eq!(w.len(), t.c.len());
            for (j, p) in w.iter().enumerate() {
                assert!(
                    close(poly(p, 1.0), t.b[j] / t.b_den),
                    "{}: b_{}(1) = b_{}",
                    t.name,
                    j + 1,
                    j + 1
                );
                assert_eq!(poly(p, 0.0), 0.0);
            }
            // Exact on y' = 1 for every θ (order ≥ 1): Σ_j b_j(θ) = θ.
            for th in [0.25, 0.5, 0.75] {
                let sum: f64 = w.iter().map(|p| poly(p, th)).sum();
                assert!(close(sum, th), "{}: Σ b_j({th}) = {sum}", t.name);
            }
        }
        let Dense::Hairer { d } = &DOPRI5.dense else {
            panic!("dopri5's dense output is Hairer's")
        };
        assert_eq!(d.len(), DOPRI5.c.len());
        // The continuous extension is of order 4 only if Σ d_j = 0 (y(θ) is exact on
        // y' = 1 for every θ).
        assert!(close(d.iter().sum(), 0.0));
    }

    #[test]
    fn the_step_size_exponent_is_the_literal_of_dopri5() {
        let order = DOPRI5.embedded.as_ref().expect("adaptive").order;
        assert_eq!((-1.0 / f64::from(order + 1)).to_bits(), (-0.2f64).to_bits());
    }
}
