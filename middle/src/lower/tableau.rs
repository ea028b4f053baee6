//! The explicit Runge–Kutta methods as data: Butcher tableaus (`c`, `a`, `b`, the embedded error weights, the dense output) that one stage builder writes out.
//!
//! A method is a [`Tableau`]; [`of`] gives the one of an [`crate::ir::Method`]. The stage
//! builder (`super::stages`) writes its stage passes, its solution and its error
//! estimate as plain rules, in the association [`Form`] says; the step around them is
//! the fixed step (`super::method`, or `super::rk4_loop` when events are located) for a
//! tableau without [`Embedded`] weights and the adaptive step (`super::dopri5`) for one
//! with them; the event search (`super::located`) evaluates [`Dense`] through
//! `super::dense`.
//!
//! # Adding a method
//!
//! 1. A variant of [`crate::ir::Method`] (its name, in `Method::ALL`; tolerances if it is
//!    adaptive), and its line in [`of`].
//! 2. A `const` [`Tableau`] here, its coefficients written as the literature gives them
//!    (`f64` expressions such as `3.0 / 40.0`, rounded once by the compiler), with
//!    [`Form::Weighted`] (every method but `rk4`, whose form is kept for its traces).
//!    Give `b` and set `fsal` when the last row of `a` is `b` and the last node is 1
//!    (the solution is then the last stage's value); give [`Embedded`] weights
//!    `e = b − b̂` for an adaptive method (the step size control is that of
//!    `super::dopri5`, with the exponent `−1/(order + 1)`), and a [`Dense`] output for
//!    the event search: [`Dense::Weights`] if the continuous extension is
//!    `y0 + h·Σ_j b_j(θ)·k_j` with polynomials `b_j` (Tsitouras 5(4), Verner's pairs);
//!    a new variant of [`Dense`], evaluated in `super::dense`, if it needs kept terms
//!    of its own like Dormand–Prince's ([`Dense::Hairer`]) or extra stages (DOP853).
//! 3. The tests of `super::stages` check the tableau's consistency (each row of `a`
//!    sums to its node, the weights to 1, the dense output to `b` at `θ = 1`); add
//!    convergence and bit-identity cases as for `rk4` and `dopri5` in
//!    `tests/tests/models_methods.rs`.
//!
//! A method that is not an explicit Runge–Kutta method (a Rosenbrock method solves a
//! linear system per stage) needs a stage builder of its own; it may reuse the stage
//! pass (`super::pass`), the hidden states (`super::hidden`) and the event search,
//! which reads only the [`Dense`] evaluation.

use crate::ir::Method;

/// An explicit Runge–Kutta method with `s` stages: stage `i` evaluates the rates at
/// `y0 + h·Σ_{j<i} a_ij·k_j` and time `t + c_i·h`; the solution is
/// `y0 + h·Σ_j b_j·k_j`.
#[derive(Debug)]
pub(super) struct Tableau {
    /// The method's name in `.sit` source: its hidden states are named `…_NAME_…`.
    pub(super) name: &'static str,
    /// The nodes `c_i`, one per stage.
    pub(super) c: &'static [f64],
    /// The coefficients: row `i` holds `a_i1 … a_i(i−1)` (the first row is empty).
    pub(super) a: &'static [&'static [f64]],
    /// The weights `b_j` times [`Tableau::b_den`], one per stage.
    pub(super) b: &'static [f64],
    /// The common denominator of [`Tableau::b`]: the solution is written
    /// `y0 + (h·Σ_j b_j·k_j)/b_den` (without the division when it is 1).
    pub(super) b_den: f64,
    /// First same as last: the last row of `a` is `b` and the last node is 1, so the
    /// last stage's value is the solution (not written again) and its rates are those
    /// of the step's end.
    pub(super) fsal: bool,
    /// The embedded error estimate of an adaptive method.
    pub(super) embedded: Option<Embedded>,
    /// The continuous extension, for locating events inside a step.
    pub(super) dense: Dense,
    /// How the stage values are written.
    pub(super) form: Form,
}

/// The embedded method of an adaptive pair: the error estimate of a step is
/// `h·Σ_j e_j·k_j`.
#[derive(Debug)]
pub(super) struct Embedded {
    /// `e_j = b_j − b̂_j`, the solution's weights minus the embedded method's, as
    /// literals (their differences rounded once, not `b_j − b̂_j` in `f64`).
    pub(super) e: &'static [f64],
    /// The order of the lower of the two methods: the step size grows or shrinks by
    /// `err^(−1/(order + 1))`.
    pub(super) order: u32,
}

/// The continuous extension of a step: `y(θ)` for `θ` in `[0, 1]` through the step.
#[derive(Debug)]
pub(super) enum Dense {
    /// `y(θ) = y0 + h·Σ_j b_j(θ)·k_j`, the sum left to right.
    Weights(&'static [Poly]),
    /// Dormand and Prince's extension in the form of Hairer's DOPRI5, from terms kept
    /// when the step is taken (hidden states `…_r2` … `…_r5`): `r2 = y1 − y0`,
    /// `r3 = h·k_1 − r2`, `r4 = (r2 − h·k_s) − r3`, `r5 = h·Σ_j d_j·k_j`, and
    /// `y(θ) = y0 + θ·(r2 + (1 − θ)·(r3 + θ·(r4 + (1 − θ)·r5)))`.
    Hairer {
        /// The weights `d_j`, one per stage.
        d: &'static [f64],
    },
}

/// A weight `b_j(θ)` of [`Dense::Weights`]: `θ^power·(q_0 + θ·(q_1 + … + θ·q_n))`,
/// `θ^2` written `θ·θ`, and the innermost `q_(n−1) + θ·q_n` written
/// `q_(n−1) − θ·|q_n|` when `q_n` is negative (the same value).
#[derive(Debug)]
pub(super) struct Poly {
    /// The power of `θ` factored out (1 or 2).
    pub(super) power: u32,
    /// `q_0 … q_n`, at least two.
    pub(super) horner: &'static [f64],
}

/// How a stage value is written; the association of its sums is part of a method's
/// traces, so a method keeps its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// Before each stage `i`, state by state: `y = y0 + h·Σ_j a_ij·k_j` (`y = y0` at the
    /// first stage, where a rejected step left `y` elsewhere), then `k_i = 0`. The
    /// form of every new method.
    Weighted,
    /// The classical form of `rk4`: before each stage, `k_i = 0` for every state;
    /// after each stage but the last, for every state, `y = y0 + (a·h)·k_j` for the
    /// nonzero `a` of the next row (`h·k_j` when `a` is 1), left to right.
    Classic,
}

/// The classical Runge–Kutta method of order 4 (Kutta, 1901), with the continuous
/// extension of order 3 of Hairer, Nørsett and Wanner, *Solving ODEs I*, II.6.
pub(super) const RK4: Tableau = Tableau {
    name: "rk4",
    c: &[0.0, 0.5, 0.5, 1.0],
    a: &[&[], &[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
    b: &[1.0, 2.0, 2.0, 1.0],
    b_den: 6.0,
    fsal: false,
    embedded: None,
    dense: Dense::Weights(&[
        Poly {
            power: 1,
            horner: &[1.0, -1.5, 2.0 / 3.0],
        },
        Poly {
            power: 2,
            horner: &[1.0, -2.0 / 3.0],
        },
        Poly {
            power: 2,
            horner: &[1.0, -2.0 / 3.0],
        },
        Poly {
            power: 2,
            horner: &[-0.5, 2.0 / 3.0],
        },
    ]),
    form: Form::Classic,
};

/// Dormand–Prince 5(4) (Dormand and Prince, 1980), with the coefficients and the
/// continuous extension of order 4 of Hairer's code DOPRI5.
pub(super) const DOPRI5: Tableau = Tableau {
    name: "dopri5",
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ],
    b: &[
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
        0.0,
    ],
    b_den: 1.0,
    fsal: true,
    embedded: Some(Embedded {
        e: &[
            71.0 / 57600.0,
            0.0,
            -71.0 / 16695.0,
            71.0 / 1920.0,
            -17253.0 / 339200.0,
            22.0 / 525.0,
            -1.0 / 40.0,
        ],
        order: 4,
    }),
    dense: Dense::Hairer {
        d: &[
            -12715105075.0 / 11282082432.0,
            0.0,
            87487479700.0 / 32700410799.0,
            -10690763975.0 / 1880347072.0,
            701980252875.0 / 199316789632.0,
            -1453857185.0 / 822651844.0,
            69997945.0 / 29380423.0,
        ],
    },
    form: Form::Weighted,
};

/// Tsitouras 5(4) (Ch. Tsitouras, "Runge–Kutta pairs of order 5(4) satisfying only the
/// first column simplifying assumption", *Computers & Mathematics with Applications*
/// 62 (2011) 770–775), with its continuous extension of order 4 (the polynomials of the
/// same paper, expanded). The coefficients are the paper's, to the 17 significant digits
/// that round to `f64`; the error weights `e = b − b̂` are the paper's differences, not
/// differences computed here.
pub(super) const TSIT5: Tableau = Tableau {
    name: "tsit5",
    c: &[0.0, 0.161, 0.327, 0.9, 0.9800255409045097, 1.0, 1.0],
    a: &[
        &[],
        &[0.161],
        &[-0.008480655492356989, 0.335480655492357],
        &[2.8971530571054935, -6.359448489975075, 4.3622954328695815],
        &[
            5.325864828439257,
            -11.748883564062828,
            7.4955393428898365,
            -0.09249506636175525,
        ],
        &[
            5.86145544294642,
            -12.92096931784711,
            8.159367898576159,
            -0.071584973281401,
            -0.028269050394068383,
        ],
        &[
            0.09646076681806523,
            0.01,
            0.4798896504144996,
            1.379008574103742,
            -3.290069515436081,
            2.324710524099774,
        ],
    ],
    b: &[
        0.09646076681806523,
        0.01,
        0.4798896504144996,
        1.379008574103742,
        -3.290069515436081,
        2.324710524099774,
        0.0,
    ],
    b_den: 1.0,
    fsal: true,
    embedded: Some(Embedded {
        e: &[
            0.0017800110522257772,
            0.0008164344596567469,
            -0.007880878010261996,
            0.1447110071732629,
            -0.5823571654525552,
            0.45808210592918697,
            -1.0 / 66.0,
        ],
        order: 4,
    }),
    dense: Dense::Weights(&[
        Poly {
            power: 1,
            horner: &[
                1.0,
                -2.763706197274826,
                2.9132554618219126,
                -1.0530884977290216,
            ],
        },
        Poly {
            power: 2,
            horner: &[0.1317, -0.2234, 0.1017],
        },
        Poly {
            power: 2,
            horner: &[3.9302962368947516, -5.941033872131505, 2.490627285651253],
        },
        Poly {
            power: 2,
            horner: &[-12.411077166933676, 30.33818863028232, -16.548102889244902],
        },
        Poly {
            power: 2,
            horner: &[37.50931341651104, -88.1789048947664, 47.37952196281928],
        },
        Poly {
            power: 2,
            horner: &[-27.896526289197286, 65.09189467479366, -34.87065786149661],
        },
        Poly {
            power: 2,
            horner: &[1.5, -4.0, 2.5],
        },
    ]),
    form: Form::Weighted,
};

/// The tableau of `method` (`None` for `euler`, which is not rewritten).
pub(super) fn of(method: Method) -> Option<&'static Tableau> {
    match method {
        Method::Euler => None,
        Method::Rk4 => Some(&RK4),
        Method::Dopri5(_) => Some(&DOPRI5),
        Method::Tsit5(_) => Some(&TSIT5),
    }
}
