//! Lookup tables in random models: a 1-D and a 2-D table, inline, read in an integrated rule.

use super::{Decls, Gen};
use std::fmt::Write as _;

/// A strictly increasing grid of 2 to 5 points.
fn grid(rng: &mut fastrand::Rng) -> Vec<f64> {
    let mut x = -(rng.u8(..4) as f64) + 0.5 * rng.f64();
    (0..rng.usize(2..6))
        .map(|_| {
            let p = x;
            x += 0.1 + 2.0 * rng.f64();
            p
        })
        .collect()
}

/// `[a, b, …]`.
fn list(xs: &[f64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", items.join(", "))
}

/// Random values, one per point.
fn values(rng: &mut fastrand::Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| (rng.f64() * 4.0 - 2.0) * 3.0).collect()
}

impl Gen {
    /// Appends to `body`, for about two models in three, a 1-D table `tb1` and a 2-D
    /// table `tb2` (each clamped or extrapolated at random) and a state `xt` that
    /// integrates `tb1(…) - tb2(…, …)` of random expressions (so that under `rk4` the
    /// tables are read at the stage points too). Drawn from a generator of its own, so
    /// that the rest of the file is what it would be without tables.
    pub(crate) fn tables(&mut self, d: &Decls, earlier: &[Decls], seed: u64, body: &mut String) {
        let mut own = fastrand::Rng::with_seed(seed ^ 0x7461_626c_6573);
        if own.u8(..3) == 0 {
            return;
        }
        let mut beyond = || ["clamp", "extrapolate"][own.usize(..2)];
        let (b1, b2) = (beyond(), beyond());
        let g = grid(&mut own);
        let v = values(&mut own, g.len());
        let _ = writeln!(
            body,
            "    table tb1(a) = {} -> {} {b1};",
            list(&g),
            list(&v)
        );
        let (g1, g2) = (grid(&mut own), grid(&mut own));
        let rows: Vec<String> = g1
            .iter()
            .map(|_| list(&values(&mut own, g2.len())))
            .collect();
        let _ = writeln!(
            body,
            "    table tb2(a, b) = {}, {} -> [{}] {b2};",
            list(&g1),
            list(&g2),
            rows.join(", ")
        );
        let saved = std::mem::replace(&mut self.rng, own);
        let x = self.real_expr(d, earlier, 2);
        let y = self.real_expr(d, earlier, 2);
        let z = self.real_expr(d, earlier, 2);
        self.rng = saved;
        let _ = writeln!(body, "    real xt = 0;");
        let _ = writeln!(body, "    xt = integral(tb1({x}) - tb2({y}, {z}));");
    }
}
