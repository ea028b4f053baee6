//! The explicit Runge–Kutta methods as data: Butcher tableaus (`c`, `a`, `b`, the embedded error weights, the dense output) that one stage builder writes out.
//!
//! A method is a [`Tableau`]; [`of`] gives the one of an [`crate::ir::Method`]. The stage
//! builder (`super::stages`) writes its stage passes, its solution and its error
//! estimate as plain rules, in the association [`Form`] says; the step around them is
//! the fixed step (`super::fixed`, a loop when events are located) for a
//! tableau without [`Embedded`] weights and the adaptive step (`super::explicit`) for one
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
//!    `super::explicit`, with the exponent `−1/(order + 1)`), and a [`Dense`] output for
//!    the event search: [`Dense::Weights`] if the continuous extension is
//!    `y0 + h·Σ_j b_j(θ)·k_j` with polynomials `b_j` (Tsitouras 5(4), Verner's pairs);
//!    a new variant of [`Dense`], evaluated in `super::dense`, if it needs kept terms
//!    of its own like Dormand–Prince's ([`Dense::Hairer`]) or extra stages
//!    ([`Dense::Hairer8`], DOP853's three, run by the event search through
//!    `super::dense::DenseOutput::extra_nodes`). Give [`Embedded::stiff`], the bound
//!    of Hairer's stiffness test (`super::explicit`'s stiffness test), below the point where the
//!    method's stability region meets the negative real axis.
//! 3. The tests of `super::stages` check the tableau's consistency (each row of `a`
//!    sums to its node, the weights to 1, the dense output to `b` at `θ = 1`); add
//!    convergence and bit-identity cases as for `rk4` and `dopri5` in
//!    `tests/tests/models_methods.rs`.
//!
//! A method that is not an explicit Runge–Kutta method has a stage builder of its own:
//! the Rosenbrock methods (`rodas4`, which solve a linear system per stage) are data in
//! `super::rosenbrock::tableau`, written out by `super::rosenbrock`, which reuses the stage pass
//! (`super::pass`), the hidden states (`super::hidden`) and the event search.

use crate::ir::Method;

/// How the controller takes the root `err^(−1/q)` of its step factor (`q` = the
/// embedded order + 1): part of a method's data, read by the controller of
/// `super::adaptive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Root {
    /// `pow(err, −1/q)` (`libm::pow`): `dopri5`'s, whose results are kept bit for bit
    /// as they were before the other methods came.
    Pow,
    /// `inv_root(err, q)` (`sit_runtime::math::inv_root`: IEEE operations, several
    /// times faster, within 4·2⁻⁵² of the exact root): every other adaptive method's.
    Inv,
}

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
    /// `err^(−1/(order + 1))`. DOP853's estimate combines two (below) and behaves as
    /// one of order 7, the order its codes (Hairer's, SciPy's) control with.
    pub(super) order: u32,
    /// A second estimate `h·Σ_j e3_j·k_j` (DOP853's third-order one), combined with the
    /// first as Hairer's DOP853 does: with `E5` and `E3` the sums of the squared
    /// scaled components, `err = E5 / sqrt(n·(E5 + 0.01·E3))` (the denominator 1 when
    /// it is not positive); `None`: `err = sqrt(E5 / n)`.
    pub(super) e3: Option<&'static [f64]>,
    /// Hairer's test for stiffness: a step counts as stiff when `h·λ`, estimated from
    /// the last two stages (both at the step's end), is above this bound (where the
    /// method's stability region meets the negative real axis).
    pub(super) stiff: f64,
    /// How the controller takes `err^(−1/(order + 1))`.
    pub(super) root: Root,
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
    /// Dormand and Prince's extension of order 7 in the form of Hairer's DOP853: three
    /// more stages once a step is taken (`k_(s+1)` … `k_(s+3)`, at nodes `c` with rows
    /// `a` over every stage before them), then kept terms `r2` … `r8`: `r2 = y1 − y0`,
    /// `r3 = h·k_1 − r2`, `r4 = (r2 − h·k_s) − r3`, `r_(5+i) = h·Σ_j d_ij·k_j` over the
    /// `s + 3` stages, and
    /// `y(θ) = y0 + θ·(r2 + (1 − θ)·(r3 + θ·(r4 + (1 − θ)·(r5 + θ·(r6 + (1 − θ)·(r7 + θ·r8))))))`.
    Hairer8 {
        /// The nodes of the extra stages.
        c: &'static [f64],
        /// Their coefficients, row `i` over the `s + i` stages before it.
        a: &'static [&'static [f64]],
        /// The weights `d_ij`, four rows over the `s + 3` stages.
        d: &'static [&'static [f64]],
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
        e3: None,
        // Hairer's DOPRI5 (its stability region meets the real axis near −3.3).
        stiff: 3.25,
        root: Root::Pow,
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
        e3: None,
        // Its stability region meets the real axis at −3.506 (`super::stages` tests):
        // below it in the ratio of DOPRI5's 3.25 to its −3.306.
        stiff: 3.45,
        root: Root::Inv,
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

/// Dormand–Prince 8(5,3) (Dormand and Prince, 1980; Hairer, Nørsett and Wanner,
/// *Solving ODEs I*, 2nd ed., II.5 and II.6) with the coefficients of Hairer's code
/// DOP853 (version of 2002, `dop853.f`), digits as printed there: twelve stages and
/// the solution's rates as a thirteenth (first same as last), the error weights `er`
/// as `e`, `b − bhh` as `e3` (the differences of the printed digits, exact), the
/// stiffness bound 6.1 and the continuous extension of order 7 (three more stages
/// `c14`, `c15`, `c16`, weights `d4j` … `d7j`) of the same code. Checked against
/// SciPy's `dop853_coefficients.py` (the same values to the last bit of `f64`, see
/// `super::stages` tests).
#[allow(clippy::excessive_precision)]
pub(super) const DOP853: Tableau = Tableau {
    name: "dop853",
    c: &[
        0.0,
        0.526001519587677318785587544488e-1,
        0.789002279381515978178381316732e-1,
        0.118350341907227396726757197510,
        0.281649658092772603273242802490,
        0.333333333333333333333333333333,
        0.25,
        0.307692307692307692307692307692,
        0.651282051282051282051282051282,
        0.6,
        0.857142857142857142857142857142,
        1.0,
        1.0,
    ],
    a: &[
        &[],
        &[5.26001519587677318785587544488e-2],
        &[
            1.97250569845378994544595329183e-2,
            5.91751709536136983633785987549e-2,
        ],
        &[
            2.95875854768068491816892993775e-2,
            0.0,
            8.87627564304205475450678981324e-2,
        ],
        &[
            2.41365134159266685502369798665e-1,
            0.0,
            -8.84549479328286085344864962717e-1,
            9.24834003261792003115737966543e-1,
        ],
        &[
            3.7037037037037037037037037037e-2,
            0.0,
            0.0,
            1.70828608729473871279604482173e-1,
            1.25467687566822425016691814123e-1,
        ],
        &[
            3.7109375e-2,
            0.0,
            0.0,
            1.70252211019544039314978060272e-1,
            6.02165389804559606850219397283e-2,
            -1.7578125e-2,
        ],
        &[
            3.70920001185047927108779319836e-2,
            0.0,
            0.0,
            1.70383925712239993810214054705e-1,
            1.07262030446373284651809199168e-1,
            -1.53194377486244017527936158236e-2,
            8.27378916381402288758473766002e-3,
        ],
        &[
            6.24110958716075717114429577812e-1,
            0.0,
            0.0,
            -3.36089262944694129406857109825,
            -8.68219346841726006818189891453e-1,
            2.75920996994467083049415600797e1,
            2.01540675504778934086186788979e1,
            -4.34898841810699588477366255144e1,
        ],
        &[
            4.77662536438264365890433908527e-1,
            0.0,
            0.0,
            -2.48811461997166764192642586468,
            -5.90290826836842996371446475743e-1,
            2.12300514481811942347288949897e1,
            1.52792336328824235832596922938e1,
            -3.32882109689848629194453265587e1,
            -2.03312017085086261358222928593e-2,
        ],
        &[
            -9.3714243008598732571704021658e-1,
            0.0,
            0.0,
            5.18637242884406370830023853209,
            1.09143734899672957818500254654,
            -8.14978701074692612513997267357,
            -1.85200656599969598641566180701e1,
            2.27394870993505042818970056734e1,
            2.49360555267965238987089396762,
            -3.0467644718982195003823669022,
        ],
        &[
            2.27331014751653820792359768449,
            0.0,
            0.0,
            -1.05344954667372501984066689879e1,
            -2.00087205822486249909675718444,
            -1.79589318631187989172765950534e1,
            2.79488845294199600508499808837e1,
            -2.85899827713502369474065508674,
            -8.87285693353062954433549289258,
            1.23605671757943030647266201528e1,
            6.43392746015763530355970484046e-1,
        ],
        // The solution's rates (first same as last): the row is `b`.
        &[
            5.42937341165687622380535766363e-2,
            0.0,
            0.0,
            0.0,
            0.0,
            4.45031289275240888144113950566,
            1.89151789931450038304281599044,
            -5.8012039600105847814672114227,
            3.1116436695781989440891606237e-1,
            -1.52160949662516078556178806805e-1,
            2.01365400804030348374776537501e-1,
            4.47106157277725905176885569043e-2,
        ],
    ],
    b: &[
        5.42937341165687622380535766363e-2,
        0.0,
        0.0,
        0.0,
        0.0,
        4.45031289275240888144113950566,
        1.89151789931450038304281599044,
        -5.8012039600105847814672114227,
        3.1116436695781989440891606237e-1,
        -1.52160949662516078556178806805e-1,
        2.01365400804030348374776537501e-1,
        4.47106157277725905176885569043e-2,
        0.0,
    ],
    b_den: 1.0,
    fsal: true,
    embedded: Some(Embedded {
        e: &[
            0.1312004499419488073250102996e-1,
            0.0,
            0.0,
            0.0,
            0.0,
            -0.1225156446376204440720569753e1,
            -0.4957589496572501915214079952,
            0.1664377182454986536961530415e1,
            -0.3503288487499736816886487290,
            0.3341791187130174790297318841,
            0.8192320648511571246570742613e-1,
            -0.2235530786388629525884427845e-1,
            0.0,
        ],
        order: 7,
        e3: Some(&[
            -0.1898007540724076157147023288757,
            0.0,
            0.0,
            0.0,
            0.0,
            4.45031289275240888144113950566,
            1.89151789931450038304281599044,
            -5.8012039600105847814672114227,
            -0.422682321323791962932445679177,
            -1.52160949662516078556178806805e-1,
            2.01365400804030348374776537501e-1,
            2.26517921983608258118062039631e-2,
            0.0,
        ]),
        stiff: 6.1,
        root: Root::Inv,
    }),
    dense: Dense::Hairer8 {
        c: &[0.1, 0.2, 0.777777777777777777777777777778],
        a: &[
            &[
                5.61675022830479523392909219681e-2,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                2.53500210216624811088794765333e-1,
                -2.46239037470802489917441475441e-1,
                -1.24191423263816360469010140626e-1,
                1.5329179827876569731206322685e-1,
                8.20105229563468988491666602057e-3,
                7.56789766054569976138603589584e-3,
                -8.298e-3,
            ],
            &[
                3.18346481635021405060768473261e-2,
                0.0,
                0.0,
                0.0,
                0.0,
                2.83009096723667755288322961402e-2,
                5.35419883074385676223797384372e-2,
                -5.49237485713909884646569340306e-2,
                0.0,
                0.0,
                -1.08347328697249322858509316994e-4,
                3.82571090835658412954920192323e-4,
                -3.40465008687404560802977114492e-4,
                1.41312443674632500278074618366e-1,
            ],
            &[
                -4.28896301583791923408573538692e-1,
                0.0,
                0.0,
                0.0,
                0.0,
                -4.69762141536116384314449447206,
                7.68342119606259904184240953878,
                4.06898981839711007970213554331,
                3.56727187455281109270669543021e-1,
                0.0,
                0.0,
                0.0,
                -1.39902416515901462129418009734e-3,
                2.9475147891527723389556272149,
                -9.15095847217987001081870187138,
            ],
        ],
        d: &[
            &[
                -0.84289382761090128651353491142e1,
                0.0,
                0.0,
                0.0,
                0.0,
                0.56671495351937776962531783590,
                -0.30689499459498916912797304727e1,
                0.23846676565120698287728149680e1,
                0.21170345824450282767155149946e1,
                -0.87139158377797299206789907490,
                0.22404374302607882758541771650e1,
                0.63157877876946881815570249290,
                -0.88990336451333310820698117400e-1,
                0.18148505520854727256656404962e2,
                -0.91946323924783554000451984436e1,
                -0.44360363875948939664310572000e1,
            ],
            &[
                0.10427508642579134603413151009e2,
                0.0,
                0.0,
                0.0,
                0.0,
                0.24228349177525818288430175319e3,
                0.16520045171727028198505394887e3,
                -0.37454675472269020279518312152e3,
                -0.22113666853125306036270938578e2,
                0.77334326684722638389603898808e1,
                -0.30674084731089398182061213626e2,
                -0.93321305264302278729567221706e1,
                0.15697238121770843886131091075e2,
                -0.31139403219565177677282850411e2,
                -0.93529243588444783865713862664e1,
                0.35816841486394083752465898540e2,
            ],
            &[
                0.19985053242002433820987653617e2,
                0.0,
                0.0,
                0.0,
                0.0,
                -0.38703730874935176555105901742e3,
                -0.18917813819516756882830838328e3,
                0.52780815920542364900561016686e3,
                -0.11573902539959630126141871134e2,
                0.68812326946963000169666922661e1,
                -0.10006050966910838403183860980e1,
                0.77771377980534432092869265740,
                -0.27782057523535084065932004339e1,
                -0.60196695231264120758267380846e2,
                0.84320405506677161018159903784e2,
                0.11992291136182789328035130030e2,
            ],
            &[
                -0.25693933462703749003312586129e2,
                0.0,
                0.0,
                0.0,
                0.0,
                -0.15418974869023643374053993627e3,
                -0.23152937917604549567536039109e3,
                0.35763911791061412378285349910e3,
                0.93405324183624310003907691704e2,
                -0.37458323136451633156875139351e2,
                0.10409964950896230045147246184e3,
                0.29840293426660503123344363579e2,
                -0.43533456590011143754432175058e2,
                0.96324553959188282948394950600e2,
                -0.39177261675615439165231486172e2,
                -0.14972683625798562581422125276e3,
            ],
        ],
    },
    form: Form::Weighted,
};

/// The tableau of `method` (`None` for `euler`, which is not rewritten, and for
/// `rodas4`, a Rosenbrock method: `super::rosenbrock`).
pub(super) fn of(method: Method) -> Option<&'static Tableau> {
    match method {
        Method::Euler | Method::Rodas4(_) | Method::Rodas5p(_) | Method::Radau5(_) => None,
        Method::Rk4 => Some(&RK4),
        Method::Dopri5(_) => Some(&DOPRI5),
        Method::Tsit5(_) => Some(&TSIT5),
        Method::Dop853(_) => Some(&DOP853),
    }
}
