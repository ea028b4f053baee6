//! The Rosenbrock methods as data: the coefficients `γ`, `α`, `a`, `C`, `γ_i`, the weights, the error weights and the dense output that one implicit stage builder (`super`) writes out.
//!
//! A Rosenbrock method in the form of Hairer and Wanner (*Solving ODEs II*, IV.7, their
//! code RODAS) solves, per stage `i = 1 … s`, with `W = I/(γh) − J` (`J` the Jacobian
//! of the rates at the step's start, `f_t` their derivative in time there):
//!
//! ```text
//! W·u_i = f(t + α_i·h, y0 + Σ_{j<i} a_ij·u_j) + (Σ_{j<i} C_ij·u_j)/h + h·γ_i·f_t
//! y1 = y0 + Σ_j b_j·u_j        err = Σ_j e_j·u_j
//! ```
//!
//! one LU of `W` per step, no Newton iteration. The continuous extension is
//! `y(θ) = y0 + θ·(r2 + (1 − θ)·(r3 + θ·(r4 + θ·r5 …)))` (Horner's form, one term per
//! dense row) with `r2 = y1 − y0` and `r_(j+1) = Σ_i d_j,i·u_i` for the dense rows
//! `d2 …`: two for RODAS (`rodas4`), three for Rodas5P (`rodas5p`).
//!
//! # Adding a method
//!
//! A `const` [`Rosenbrock`] with the coefficients as the literature gives them (as
//! `RODAS5P` was added beside `RODAS4`), a variant of [`crate::ir::Method`] and its line
//! in [`of`]; the builder, the controller and the event search read nothing else. The
//! tests of `tests/tests/models_methods.rs` measure the order and check the references.

use crate::Span;
use crate::build::{add, assign, mul, num, sub, var, weighted};
use crate::dense::{DenseOutput, Memories};
use crate::hidden::Hidden;
use crate::ir::{Expr, Method, VarId};
use crate::rewrite::Stmt;

/// A Rosenbrock method with `s` stages (see the module documentation).
#[derive(Debug)]
pub(crate) struct Rosenbrock {
    /// The method's name in `.sit` source: its hidden states are named `…_NAME_…`.
    pub(super) name: &'static str,
    /// `γ`, the diagonal of the method: `W = I/(γh) − J`.
    pub(super) gamma: f64,
    /// The nodes `α_i`, one per stage: stage `i` reads `time` at `t + α_i·h`.
    pub(super) alpha: &'static [f64],
    /// `γ_i`, one per stage: the weight of `h·f_t` in stage `i` (0: none).
    pub(super) gamma_t: &'static [f64],
    /// The rows `a_i1 … a_i(i−1)` of the stage values.
    pub(super) a: &'static [&'static [f64]],
    /// The rows `C_i1 … C_i(i−1)` of the stages' right-hand sides (divided by `h`).
    pub(super) c: &'static [&'static [f64]],
    /// The weights `b_j` of the solution.
    pub(super) b: &'static [f64],
    /// The error weights `e_j` (the solution minus the embedded one).
    pub(super) e: &'static [f64],
    /// The order of the embedded solution: the step size scales by `err^(−1/(order+1))`.
    pub(super) order: u32,
    /// The rows `d2` … `dm` of the dense output (two for `rodas4`, three for
    /// `rodas5p`): `r_j = Σ_i d_j,i·u_i`.
    pub(super) dense: &'static [&'static [f64]],
}

/// RODAS of Hairer and Wanner (*Solving ODEs II*, 2nd ed., VI.4, Table 4.2; their code
/// RODAS, `METH = 1`): order 4, embedded order 3, 6 stages, L-stable and stiffly
/// accurate (the last two stages' values are the solution's: `α_5 = α_6 = 1`, row 6 of
/// `a` is row 5 with 1 for `u_5`, and `b` is row 6 with 1 for `u_6`), with the
/// continuous extension of order 3 of their code.
pub(super) const RODAS4: Rosenbrock = Rosenbrock {
    name: "rodas4",
    gamma: 0.25,
    alpha: &[0.0, 0.386, 0.21, 0.63, 1.0, 1.0],
    gamma_t: &[0.25, -0.1043, 0.1035, -0.3620000000000023e-01, 0.0, 0.0],
    a: &[
        &[],
        &[1.544],
        &[0.9466785280815826, 0.2557011698983284],
        &[3.314825187068521, 2.896124015972201, 0.9986419139977817],
        &[
            1.221224509226641,
            6.019134481288629,
            12.53708332932087,
            -0.687886036105895,
        ],
        &[
            1.221224509226641,
            6.019134481288629,
            12.53708332932087,
            -0.687886036105895,
            1.0,
        ],
    ],
    c: &[
        &[],
        &[-5.6688],
        &[-2.430093356833875, -0.2063599157091915],
        &[-0.1073529058151375, -9.594562251023355, -20.47028614809616],
        &[
            7.496443313967647,
            -10.24680431464352,
            -33.99990352819905,
            11.7089089320616,
        ],
        &[
            8.083246795921522,
            -7.981132988064893,
            -31.52159432874371,
            16.31930543123136,
            -6.058818238834054,
        ],
    ],
    b: &[
        1.221224509226641,
        6.019134481288629,
        12.53708332932087,
        -0.687886036105895,
        1.0,
        1.0,
    ],
    e: &[0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    order: 3,
    dense: &[
        &[
            10.12623508344586,
            -7.487995877610167,
            -34.80091861555747,
            -7.992771707568823,
            1.025137723295662,
            0.0,
        ],
        &[
            -0.6762803392801253,
            6.087714651680015,
            16.43084320892478,
            24.76722511418386,
            -6.594389125716872,
            0.0,
        ],
    ],
};

/// Rodas5P of Steinebach (*Construction of Rosenbrock–Wanner method Rodas5P and
/// numerical benchmarks within the Julia Differential Equations package*, BIT 63, 27,
/// 2023): order 5, embedded order 4, 8 stages, L-stable and stiffly accurate (stages 6
/// to 8 at `α = 1`, each row of `a` the one before with 1 for the last `u`, `b` row 8
/// with 1 for `u_8`, the estimate `u_8`), built to keep its order on stiff problems
/// and index-1 algebraic components, where RODAS loses it; a continuous extension of
/// order 4 with three dense rows. The coefficients as Julia's OrdinaryDiffEq gives
/// them (`RODAS5PA`, `RODAS5PC`, `RODAS5Pc`, `RODAS5Pd`, `RODAS5PH`), in the same
/// transformed form as RODAS above (its `RODAS4*` there are this module's digits).
pub(super) const RODAS5P: Rosenbrock = Rosenbrock {
    name: "rodas5p",
    gamma: 0.21193756319429014,
    alpha: &[
        0.0,
        0.6358126895828704,
        0.4095798393397535,
        0.9769306725060716,
        0.4288403609558664,
        1.0,
        1.0,
        1.0,
    ],
    gamma_t: &[
        0.21193756319429014,
        -0.42387512638858027,
        -0.3384627126235924,
        1.8046452872882734,
        2.325825639765069,
        0.0,
        0.0,
        0.0,
    ],
    a: &[
        &[],
        &[3.0],
        &[2.849394379747939, 0.45842242204463923],
        &[-6.954028509809101, 2.489845061869568, -10.358996098473584],
        &[
            2.8029986275628964,
            0.5072464736228206,
            -0.3988312541770524,
            -0.04721187230404641,
        ],
        &[
            -7.502846399306121,
            2.561846144803919,
            -11.627539656261098,
            -0.18268767659942256,
            0.030198172008377946,
        ],
        &[
            -7.502846399306121,
            2.561846144803919,
            -11.627539656261098,
            -0.18268767659942256,
            0.030198172008377946,
            1.0,
        ],
        &[
            -7.502846399306121,
            2.561846144803919,
            -11.627539656261098,
            -0.18268767659942256,
            0.030198172008377946,
            1.0,
            1.0,
        ],
    ],
    c: &[
        &[],
        &[-14.155112264123755],
        &[-17.97296035885952, -2.859693295451294],
        &[147.12150275711716, -1.41221402718213, 71.68940251302358],
        &[
            165.43517024871676,
            -0.4592823456491126,
            42.90938336958603,
            -5.961986721573306,
        ],
        &[
            24.854864614690072,
            -3.0009227002832186,
            47.4931110020768,
            5.5814197821558125,
            -0.6610691825249471,
        ],
        &[
            30.91273214028599,
            -3.1208243349937974,
            77.79954646070892,
            34.28646028294783,
            -19.097331116725623,
            -28.087943162872662,
        ],
        &[
            37.80277123390563,
            -3.2571969029072276,
            112.26918849496327,
            66.9347231244047,
            -40.06618937091002,
            -54.66780262877968,
            -9.48861652309627,
        ],
    ],
    b: &[
        -7.502846399306121,
        2.561846144803919,
        -11.627539656261098,
        -0.18268767659942256,
        0.030198172008377946,
        1.0,
        1.0,
        1.0,
    ],
    e: &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    order: 4,
    dense: &[
        &[
            25.948786856663858,
            -2.5579724845846235,
            10.433815404888879,
            -2.3679251022685204,
            0.524948541321073,
            1.1241088310450404,
            0.4272876194431874,
            -0.17202221070155493,
        ],
        &[
            -9.91568850695171,
            -0.9689944594115154,
            3.0438037242978453,
            -24.495224566215796,
            20.176138334709044,
            15.98066361424651,
            -6.789040303419874,
            -6.710236069923372,
        ],
        &[
            11.419903575922262,
            2.8879645146136994,
            72.92137995996029,
            80.12511834622643,
            -52.072871366152654,
            -59.78993625266729,
            -0.15582684282751913,
            4.883087185713722,
        ],
    ],
};

/// The Rosenbrock method of `method`, if it is one.
pub(crate) fn of(method: Method) -> Option<&'static Rosenbrock> {
    match method {
        Method::Rodas4(_) => Some(&RODAS4),
        Method::Rodas5p(_) => Some(&RODAS5P),
        _ => None,
    }
}

impl DenseOutput for Rosenbrock {
    fn name(&self) -> &'static str {
        self.name
    }

    /// The last stage runs on `y5 + u5`, not on the solution.
    fn last_stage_at_end(&self) -> bool {
        false
    }

    fn memories(&self, hid: &mut Hidden<'_>, state: &str, span: Span) -> Vec<VarId> {
        crate::dense::dense_terms(hid, self.name, state, span, 2 + self.dense.len())
    }

    /// `r2 = y1 − y0`, `r3 = Σ_j d2_j·u_j`, `r4 = Σ_j d3_j·u_j` (the stages' `u` are
    /// held in the rate memories).
    fn keep(&self, mem: &Memories<'_>, _h: &Expr, span: Span) -> Vec<Stmt> {
        let r = mem.kept;
        let mut out = vec![assign(r[0], sub(var(mem.y), var(mem.y0)), None, span)];
        for (row, &rj) in self.dense.iter().zip(&r[1..]) {
            let sum = weighted(row, mem.k).expect("the dense weights are not all zero");
            out.push(assign(rj, sum, None, span));
        }
        out
    }

    /// `y0 + θ·(r2 + (1 − θ)·(r3 + θ·(r4 + θ·r5)))` (Horner's form; `rodas4` ends at
    /// `r4`).
    fn value(&self, mem: &Memories<'_>, _h: &Expr, th: &dyn Fn() -> Expr) -> Expr {
        let r = mem.kept;
        let last = self.dense.len();
        let inner = (1..last)
            .rev()
            .fold(var(r[last]), |inner, j| add(var(r[j]), mul(th(), inner)));
        let inner = add(var(r[0]), mul(sub(num(1.0), th()), inner));
        add(var(mem.y0), mul(th(), inner))
    }
}

#[cfg(test)]
mod tests {
    use super::{RODAS4, RODAS5P, Rosenbrock};

    /// The rows the literature repeats are written out as it prints them; this checks
    /// that they say what the methods are (stiffly accurate): the last stages at
    /// `α = 1` without a time term, each of their rows of `a` the one before with 1 for
    /// the `u` before, `b` the last row of `a` with 1 for the last `u`, the estimate the
    /// last `u` alone; and one weight per stage in every row.
    #[test]
    fn the_methods_are_stiffly_accurate_as_written() {
        let check = |m: &Rosenbrock, last_at_one: usize| {
            let s = m.alpha.len();
            assert_eq!(m.gamma_t.len(), s, "{}", m.name);
            assert_eq!((m.a.len(), m.c.len()), (s, s), "{}", m.name);
            assert!(m.dense.iter().all(|row| row.len() == s), "{}", m.name);
            for i in 0..s {
                assert_eq!((m.a[i].len(), m.c[i].len()), (i, i), "{} row {i}", m.name);
            }
            for i in s - last_at_one..s {
                assert_eq!(
                    (m.alpha[i], m.gamma_t[i]),
                    (1.0, 0.0),
                    "{} stage {i}",
                    m.name
                );
                if i > s - last_at_one {
                    assert_eq!(m.a[i][..i - 1], *m.a[i - 1], "{} row {i}", m.name);
                    assert_eq!(m.a[i][i - 1], 1.0, "{} row {i}", m.name);
                }
            }
            assert_eq!(m.b[..s - 1], *m.a[s - 1], "{}: b", m.name);
            assert_eq!(m.b[s - 1], 1.0, "{}: b", m.name);
            let mut unit = vec![0.0; s];
            unit[s - 1] = 1.0;
            assert_eq!(m.e, unit.as_slice(), "{}: e", m.name);
        };
        check(&RODAS4, 2);
        check(&RODAS5P, 3);
    }
}
