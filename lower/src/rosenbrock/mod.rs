//! The adaptive step of a Rosenbrock method (`rodas4`, `rodas5p`): a host step rewritten as plain rules around one bounded loop of internal steps, each with the exact Jacobian as hidden rules, one LU of `I/(γh) − J` and its stage solves.
//!
//! The continuous part is that of `rk4` (`crate::ir`'s `split`); the method's
//! coefficients are data (`tableau`). Within each host step, with `n`
//! continuous states, hidden states `yc`, `k1` … `ks` per state (`s` stages; `k_i`
//! holds the stage's `u_i`), the Jacobian's entries `J_ij` (the pattern's, and
//! `J_i,time = ∂rate_i/∂t` when the continuous part reads `time`), the tangents of the
//! stage rules, the matrix `W_ij` and the pivots, and `t`, `h`, `hs`, `err`, `q`,
//! `steps`, `rh`, `diag` for the model:
//!
//! ```text
//! steps = 0; t = 0; if h <= 0 { h = dt }; yc = y
//! repeat {
//!     steps = steps + 1
//!     if h <= 1e-14·(|time + t| + dt) and h < dt - t { stop: step underflow (a fault) }
//!     hs = h; if h >= dt - t { hs = dt - t }              (the last step cut to the end)
//!     err = 0; if hs > 0 {           (the attempt, to the error norm; none in a step of 0)
//!     y = yc; the tangents and J = 0; the tangent pass at t (`time` reading time + t)
//!     rh = 1/hs; diag = 1/(γ·hs); W_ij = −J_ij (0 off the pattern), W_ii = diag − J_ii
//!     factor W (sit_runtime::stage_factor: a singular W is a model fault;
//!               sit_runtime::stage_band_factor when W is held as a band)
//!     stage i = 1..s: y = yc + Σ_j a_ij·k_j (y = yc at stage 1); k_i = 0;
//!                     the stage pass, `time` reading time + (t + α_i·hs);
//!                     k_i = k_i + (Σ_j C_ij·k_j)·rh + (hs·γ_i)·J_i,time
//!                     (each term only where it is not zero); solve W·k_i = k_i
//!     y = yc + Σ_j b_j·k_j
//!     err = 0; per state: q = Σ_j e_j·k_j / (atol + rtol·max(|yc|, |y|)); err = err + q·q
//!     err = sqrt(err / n) }
//!     if err <= 1 { yc = y; (t and h move on as under dopri5) }
//!     if !(err <= 1) { h = hs·max(0.2, 0.9·err^(-1/4)) }
//! } until t >= dt   (at most LIMIT runs)
//! the discrete pass (as under rk4)
//! ```
//!
//! `W` is dense (`n·n` hidden states, row-major) unless `super::band` chooses a band
//! from the Jacobian's pattern (many states, a narrow band after reordering them): then
//! only the band's cells are hidden states, rows and columns in the band's order of the
//! states, and each solve's right-hand side lists the stages' `k_i` in that order.
//!
//! A small dense `W` (up to 11 states) whose symbolic LU leaves cells out is held with
//! that pattern (`Storage::Pattern`), factorised and solved by the masked runtime
//! functions.
//!
//! Above 11 states `W` is held on the pattern of its sparse LU factors when that takes
//! fewer cells than the band and at most half of `n²` (`super::band`, `super::sparse`):
//! the cells in the order of little fill-in the lowering chose, no pivot states.
//!
//! with `fac = min(10, max(0.2, 0.9·err^(-1/4)))` on acceptance as under `dopri5`
//! (`crate::explicit`, the exponent `−1/(order + 1)` of the embedded order: 3 for `rodas4`,
//! `−1/4`; 4 for `rodas5p`, `−1/5`). Events are
//! located as under `dopri5` (`super::located`), on the method's continuous extension.

mod tableau;

use tableau::Rosenbrock;
pub(super) use tableau::of;

use super::adaptive::{Clock, Close, Control};
use super::build::{
    add, arith, assign, call, cmp, div, error_scale, mul, num, sub, var, weighted, when,
};
use super::hidden::Hidden;
use super::jacobian::of_model;
use super::jacobian::rules::Cells;
use super::located::{Located, watched};
use super::matrix::{Matrix, Names};
use super::pass::Stage;
use super::probe::{Probe, Probes};
use super::rewrite;
use crate::ir::{ArithOp, CmpOp, Expr, Func, Model, Tolerance, VarId, split, split_located};

/// The model `m` stepped by the Rosenbrock method `ros` with tolerances `tol`, as plain
/// rules (method `euler`) around one [`Rewrite::Repeat`]; `id` is its index; the
/// summaries `probes` of its states are kept as [`Probes::new`] says.
pub(super) fn rewrite(
    m: &Model,
    id: usize,
    ros: &'static Rosenbrock,
    tol: Tolerance,
    (probes, kept): (&[Probe], &mut Vec<(Probe, VarId)>),
) -> rewrite::Model {
    let sp = split(m);
    let mut hid = Hidden::of(m);
    if sp.states.is_empty() {
        return hid.out.widen();
    }
    let span = m.span;
    let method = ros.name;
    let n = sp.states.len();
    let stages = ros.alpha.len();
    let f = m.fired;
    let jac = of_model(m, id, true);
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global(method, what, doc);
    let clock = Clock::new(&mut hid, method);
    let Clock { t, hs, err, q, .. } = clock;
    let diag = global(
        &mut hid,
        "diag",
        "1/(γ·hs), the diagonal of the iteration matrix",
    );
    let rh = global(
        &mut hid,
        "rh",
        "1/hs, which the stages' sums of earlier solutions are multiplied by",
    );
    let name = |v: VarId| m.vars[v].name.clone();
    let col_name = |c: usize| {
        if c == n {
            "time".to_string()
        } else {
            name(sp.states[c].0)
        }
    };
    // The stage memories: `yc` and one `k` (holding `u`) per stage.
    let mems: Vec<(VarId, Vec<VarId>)> = sp
        .states
        .iter()
        .map(|&(v, rule)| {
            let nm = name(v);
            let yc = hid.new_var(
                format!("{nm}_{method}_yc"),
                format!(" `{nm}` at the end of the last accepted internal step ({method})."),
                rule,
            );
            let k = (1..=stages)
                .map(|s| {
                    hid.new_var(
                        format!("{nm}_{method}_k{s}"),
                        format!(" The solution `u` of stage {s} for `{nm}` ({method})."),
                        rule,
                    )
                })
                .collect();
            (yc, k)
        })
        .collect();
    // The Jacobian's cells: tangents of the stage rules and entries of the rates.
    let jcells = Cells::new(&mut hid, &jac, &sp, method, &col_name);
    let entries = &jcells.entries;
    // The iteration matrix, in the storage `super::band` chooses.
    let pivot = |k: usize| {
        (
            format!("{method}_pivot{}", k + 1),
            format!(
                " The pivot row of column {} of the LU factors ({method}).",
                k + 1
            ),
        )
    };
    let w = Matrix::new(
        &mut hid,
        n,
        entries.keys().copied().collect(),
        &Names {
            method,
            what: "W",
            doc: "I/(γh) − J",
            pivot: &pivot,
            unknown: &col_name,
        },
    );
    let lsp = split_located(m);
    let guards = watched(m, &lsp);
    let located = (!guards.is_empty())
        .then(|| Located::new(&mut hid, ros, (&sp, &lsp), guards, &mems, (stages + 2) * f));
    let probes = Probes::new(&mut hid, ros, &sp, &mems, probes, kept);

    let starts = mems
        .iter()
        .zip(&sp.states)
        .map(|(&(yc, _), &(v, vspan))| (yc, v, vspan));
    let body = clock.open(span, starts, located.as_ref());
    // The step proposed below what the time resolves: a model fault, before the
    // attempt (as in Hairer's codes; accepted steps may shrink it too).
    let mut inner = clock.head(span, method);
    // The attempt, for a step of positive length (a host step of 0 takes none).
    let attempt = inner.len();
    // The Jacobian at the step's start.
    for ((yc, _), &(v, vspan)) in mems.iter().zip(&sp.states) {
        inner.push(assign(v, var(*yc), None, vspan));
    }
    inner.extend(jcells.pass((m, &sp), &jac, t, (stages + 1) * f));
    // The iteration matrix, factorised.
    inner.push(assign(rh, div(num(1.0), var(hs)), None, span));
    inner.push(assign(
        diag,
        div(num(1.0), mul(num(ros.gamma), var(hs))),
        None,
        span,
    ));
    let entry = |i: usize, j: usize| {
        let entry = entries.get(&(i, j)).map(|&x| var(x));
        match (i == j, entry) {
            (true, Some(e)) => sub(var(diag), e),
            (true, None) => var(diag),
            (false, Some(e)) => Expr::Neg(Box::new(e)),
            (false, None) => num(0.0),
        }
    };
    inner.extend(w.fill(n, &entry, &|_, _| num(0.0), span));
    inner.push(w.factor(span));
    // The stages.
    let rows = sp.rows();
    let index = |v: VarId| rows.get(v).copied().flatten();
    for s in 0..stages {
        for (i, &(v, vspan)) in sp.states.iter().enumerate() {
            let (yc, k) = &mems[i];
            let value = match weighted(ros.a[s], k) {
                Some(sum) => add(var(*yc), sum),
                None => var(*yc),
            };
            inner.push(assign(v, value, None, vspan));
            inner.push(assign(k[s], num(0.0), None, vspan));
        }
        let node = match ros.alpha[s] {
            0.0 => var(t),
            1.0 => add(var(t), var(hs)),
            c => add(var(t), mul(num(c), var(hs))),
        };
        let stage = Stage {
            m,
            sp: &sp,
            node: Some(node),
            offset: (s + 1) * f,
            rate: &|v| index(v).map(|i| mems[i].1[s]),
        };
        inner.extend(stage.stmts(&m.body));
        for (i, &(_, vspan)) in sp.states.iter().enumerate() {
            let k = &mems[i].1;
            let mut rhs = var(k[s]);
            if let Some(sum) = weighted(ros.c[s], k) {
                rhs = add(rhs, mul(sum, var(rh)));
            }
            if let (g, Some(&ft)) = (ros.gamma_t[s], entries.get(&(i, n)))
                && g != 0.0
            {
                rhs = add(rhs, mul(mul(var(hs), num(g)), var(ft)));
            }
            if !matches!(rhs, Expr::Var(_)) {
                inner.push(assign(k[s], rhs, None, vspan));
            }
        }
        inner.push(w.solve(&|i| mems[i].1[s], &|i| mems[i].1[s], span));
    }
    // The solution and the error.
    for ((yc, k), &(v, vspan)) in mems.iter().zip(&sp.states) {
        let sum = weighted(ros.b, k).expect("the weights are not all zero");
        inner.push(assign(v, add(var(*yc), sum), None, vspan));
    }
    inner.push(assign(err, num(0.0), None, span));
    for ((yc, k), &(v, vspan)) in mems.iter().zip(&sp.states) {
        let estimate = weighted(ros.e, k).expect("the error weights are not all zero");
        let scale = error_scale(tol, *yc, v);
        inner.push(assign(q, arith(ArithOp::Div, estimate, scale), None, vspan));
        inner.push(assign(err, add(var(err), mul(var(q), var(q))), None, vspan));
    }
    inner.push(assign(
        err,
        call(
            Func::Sqrt,
            vec![arith(ArithOp::Div, var(err), num(n as f64))],
        ),
        None,
        span,
    ));
    let attempt = inner.split_off(attempt);
    inner.push(assign(err, num(0.0), None, span));
    inner.push(when(cmp(CmpOp::Gt, var(hs), num(0.0)), attempt, span));
    // The controller: dopri5's, with the exponent of the embedded order.
    let accept: Vec<rewrite::Stmt> = mems
        .iter()
        .zip(&sp.states)
        .map(|((yc, _), &(v, vspan))| assign(*yc, var(v), None, vspan))
        .collect();
    let close = Close {
        m,
        method,
        control: Control::Hairer {
            order: ros.order,
            root: super::tableau::Root::Inv,
        },
        accept,
        located,
        dense: ros,
        passes: stages + 2,
        probes,
    };
    clock.close(hid, body, inner, close)
}
