//! `radau5`'s coefficients (Radau IIA of order 5, as RADAU5 and SciPy print them, each to the last bit) and its continuous extension, the collocation polynomial.

use super::super::build::{add, assign, mul, var, weighted};
use super::super::dense::{DenseOutput, Memories};
use super::super::hidden::Hidden;
use super::super::rewrite::Stmt;
use crate::Span;
use crate::ir::{Expr, VarId};

/// The stages' nodes: `(4 − √6)/10`, `(4 + √6)/10`, 1.
pub(super) const C: [f64; 3] = [0.1550510257216822, 0.6449489742783178, 1.0];
/// The error estimate's weights on `z`: `(−13 − 7√6)/3`, `(−13 + 7√6)/3`, `−1/3`.
pub(super) const E: [f64; 3] = [-10.048809399827416, 1.382142733160749, -0.3333333333333333];
/// The real eigenvalue of `A⁻¹`: `3 + 3^(2/3) − 3^(1/3)`.
pub(super) const MU_REAL: f64 = 3.637834252744496;
/// The complex one: `3 + (3^(1/3) − 3^(2/3))/2 − i·(3^(5/6) + 3^(7/6))/2`.
pub(super) const MU_RE: f64 = 2.6810828736277523;
/// Its imaginary part.
pub(super) const MU_IM: f64 = -3.0504301992474105;
/// The eigenvectors of `A⁻¹` (columns: real, then the complex one's real and
/// imaginary parts), as SciPy and RADAU5 print them.
pub(super) const T: [[f64; 3]; 3] = [
    [
        0.09443876248897524,
        -0.1412552950209542,
        0.03002919410514742,
    ],
    [0.2502131229653333, 0.20412935229379994, -0.3829421127572619],
    [1.0, 1.0, 0.0],
];
/// `T⁻¹`.
pub(super) const TI: [[f64; 3]; 3] = [
    [4.178718591551904, 0.32768282076106237, 0.5233764454994495],
    [
        -4.178718591551904,
        -0.32768282076106237,
        0.47662355450055044,
    ],
    [0.5028726349457868, -2.571926949855605, 0.5960392048282249],
];
/// The collocation polynomial's coefficients: `e_j = Σ_s z_s·P_sj`, so that
/// `y(θ) = yc + Σ_j e_j·θ^j`.
const P: [[f64; 3]; 3] = [
    [10.048809399827416, -25.62959144707664, 15.580782047249224],
    [-1.382142733160749, 10.296258113743306, -8.914115380582556],
    [0.3333333333333333, -2.6666666666666665, 3.3333333333333335],
];
/// The most Newton iterations in an attempt.
pub(crate) const NEWTON_MAXITER: usize = 6;
/// The convergence rate above which an accepted step's Jacobian is computed again.
pub(super) const SLOW: f64 = 1e-3;

/// `radau5`'s continuous extension, for the event search.
pub(crate) struct Radau;

/// The one [`Radau`].
pub(crate) static RADAU: Radau = Radau;

impl DenseOutput for Radau {
    fn name(&self) -> &'static str {
        "radau5"
    }

    /// The last stage pass ran on the iterate before the last correction.
    fn last_stage_at_end(&self) -> bool {
        false
    }

    fn memories(&self, hid: &mut Hidden<'_>, state: &str, span: Span) -> Vec<VarId> {
        super::super::dense::dense_terms(hid, "radau5", state, span, 4)
    }

    /// `r_j = Σ_s z_s·P_sj` (the stages' `z` are held in the rate memories).
    fn keep(&self, mem: &Memories<'_>, _h: &Expr, span: Span) -> Vec<Stmt> {
        (mem.kept.iter().enumerate())
            .map(|(j, &r)| assign(r, polynomial(mem.k, j), None, span))
            .collect()
    }

    /// `y0 + θ·(r1 + θ·(r2 + θ·r3))`.
    fn value(&self, mem: &Memories<'_>, _h: &Expr, th: &dyn Fn() -> Expr) -> Expr {
        let r = mem.kept;
        let inner = add(var(r[1]), mul(th(), var(r[2])));
        let inner = add(var(r[0]), mul(th(), inner));
        add(var(mem.y0), mul(th(), inner))
    }
}

/// Coefficient `j` of the collocation polynomial of a step whose increments are `z`:
/// `Σ_s z_s·P_sj`.
pub(super) fn polynomial(z: &[VarId], j: usize) -> Expr {
    let col = [P[0][j], P[1][j], P[2][j]];
    weighted(&col, z).expect("a column of P is not zero")
}
