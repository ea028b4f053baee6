//! The adaptive step of `radau5` (Radau IIA of order 5, Hairer and Wanner's RADAU5 as SciPy's `Radau` steps it): a host step rewritten as plain rules around one bounded loop of internal steps, each solving the collocation equations by a simplified Newton iteration whose Jacobian and LU factors are kept from step to step.
//!
//! The continuous part is that of `rk4` (`crate::ir`'s `split`). The three stages at
//! `c = ((4 − √6)/10, (4 + √6)/10, 1)` are implicit; their increments `Z_s = Y_s − y`
//! solve `Z = h·(A ⊗ I)·F(Z)`, which the transformation `W = (T⁻¹ ⊗ I)·Z` splits into
//! one real system with `μ_r/h·I − J` and one complex system with `μ_c/h·I − J`
//! (`μ_r`, `μ_c` the eigenvalues of `A⁻¹`), the complex one held from 6 states on as
//! complex cells on the sparse LU pattern of `J` (`super::matrix`), below as the real
//! system `[[a·I − J, −b·I], [b·I, a·I − J]]` of twice the size (`μ_c/h = a + i·b`,
//! its imaginary rows halved; the complex form is not halved). Within
//! each host step, with `n` continuous states and hidden states per state `yc`, `z1`
//! … `z3`, `w1` … `w3`, the stages' rates `g1` … `g3`, the Newton corrections `d1` …
//! `d3`, the rate at the step's start `f0`, the last accepted step's polynomial
//! `e1` … `e3`, the error `r`, and for the model the Jacobian's entries, the two
//! matrices and their pivots and the controller's values:
//!
//! ```text
//! steps = 0; t = 0; if h <= 0 { h = dt }; yc = y
//! repeat {
//!     steps = steps + 1
//!     if h <= 1e-14·(|time + t| + dt) and h < dt - t { stop: step underflow (a fault) }
//!     hs = h; if h >= dt - t { hs = dt - t }
//!     err = 0; if hs > 0 {
//!     if jok = 0 { y = yc; the tangents and J = 0; the tangent pass at t;
//!                  jok = 1; jnew = 1; hlu = 0 }                 (the Jacobian when due)
//!     if hs != hlu { mr = μ_r/hs; ma = Re μ_c/hs; mb = Im μ_c/hs;
//!                    WR = mr·I − J; WC = [[ma·I − J, −mb·I], [mb·I, ma·I − J]·0.5]
//!                    (its imaginary rows halved, below);
//!                    factor WR and WC (a singular one is a model fault); hlu = hs }
//!     z_s = 0, or when hq > 0 (the last step's polynomial continued to
//!         1 + u, u = c_s·hs/hq): x = hs/hq; per stage u1 = c_s·x, u2 = u1·(2 + u1),
//!         u3 = u1·(3 + u1·(3 + u1)) (`(1 + u)^j − 1`); z_s = e1·u1 + e2·u2 + e3·u3
//!     w = T⁻¹·z; conv = 0; it = 0
//!     repeat {                                               (the Newton iteration)
//!         it = it + 1; stage s = 1..3: y = yc + z_s; g_s = 0; the stage pass,
//!             `time` reading time + (t + c_s·hs)
//!         d1 = T⁻¹₁·g − mr·w1; d2 = T⁻¹₂·g − (ma·w2 − mb·w3);
//!         d3 = (T⁻¹₃·g − (ma·w3 + mb·w2))·0.5; solve WR·d1 = d1;
//!         solve WC·(d2, d3) = (d2, d3)
//!         dn = sqrt(Σ (d1² + d2² + d3²)·rs² / 3n), rs = 1/(atol + rtol·|yc|) (once
//!             an attempt)
//!         if it > 1 { rate = dn/dno }
//!         if !(dn <= 1e300) or it > 1 and (rate >= 1 or rate^(7 − it)/(1 − rate)·dn > κ)
//!             { conv = −1 }                                   (diverging, or too slow)
//!         if conv = 0 { w = w + d; z = T·w;
//!             if dn = 0 or it > 1 and rate/(1 − rate)·dn < κ { conv = 1 }; dno = dn }
//!     } until conv != 0   (at most 6 runs, left with conv = 0 then: `AtLimit::Leave`)
//!     if conv = 1 {
//!         y = yc; f0 = 0; the stage pass at t (its rates into f0)
//!         y = yc + z3; r = f0 + (E1·z1 + E2·z2 + E3·z3)·(1/hs); solve WR·r = r
//!         err = sqrt(Σ (r/(atol + rtol·max(|yc|, |y|)))² / n)
//!         safety = 0.9·13/(12 + it)
//!         mult = 1; if hold > 0 and eold > 0 and err > 0 {
//!             mult = hs/hold · (err/eold)^(−1/4) }
//!         fac = min(1, mult)·err^(−1/4)
//!         if err <= 1 { fac = min(10, safety·fac); if !(it > 2 and rate > 1e-3) and
//!                       fac < 1.2 { fac = 1 } }           (the factors kept: h kept)
//!         else { fac = max(0.2, safety·fac) } }
//!     if conv != 1 { err = 2; fac = 0.5, or when jnew = 0 { fac = 1; jok = 0 } } }
//!     (accepted:) if it > 2 and rate > 1e-3 { jok = 0 }; jnew = 0; hold = hs;
//!         eold = err; e_j = Σ_s z_s·P_sj; hq = hs; yc = y; then t and h move on with
//!         `fac` as under dopri5 (rejected: h = hs·max(0.2, fac))
//! } until t >= dt   (at most LIMIT runs)
//! the discrete pass (as under rk4)
//! ```
//!
//! `κ = max(10·ε/rtol, min(0.03, √rtol))`. The Jacobian is computed again only when
//! the iteration converged slowly on the last step (`it > 2`, `rate > 1e-3`) or
//! failed with a Jacobian not fresh; the factors only when the step or the Jacobian
//! changes, and an accepted step keeps its size unless the controller would grow it
//! by 1.2 or more. Where this departs from SciPy: the rate at the step's start is
//! evaluated by each attempt that converged (SciPy carries it from the step before),
//! a rejected step's error is not estimated a second time, and the predictive
//! factor is 1 after an error of 0 as after none. Events are located as under
//! `dopri5` (`super::located`) on the collocation polynomial,
//! `y(θ) = yc + θ·(e1 + θ·(e2 + θ·e3))`.

mod tableau;

use super::adaptive::{Clock, Close, Control};
use super::build::{add, arith, assign, call, cmp, div, error_scale, mul, num, sub, var, when};
use super::hidden::Hidden;
use super::jacobian::of_model;
use super::jacobian::rules::Cells;
use super::located::{Located, watched};
use super::pass::Stage;
use super::probe::{Probe, Probes};
use super::rewrite::{self, AtLimit, Rewrite, Stmt};
use crate::ir::{ArithOp, CmpOp, Expr, Func, Model, Tolerance, VarId, split, split_located};

use super::matrix::{Matrix, Names};
use tableau::{C, E, MU_IM, MU_RE, MU_REAL, NEWTON_MAXITER, RADAU, SLOW, T, TI, polynomial};

/// The hidden states of one continuous state.
struct Mem {
    yc: VarId,
    z: [VarId; 3],
    w: [VarId; 3],
    g: [VarId; 3],
    d: [VarId; 3],
    f0: VarId,
    e: [VarId; 3],
    r: VarId,
    rs: VarId,
}

/// `Σ_j w_j·x_j` over three terms, none left out (the transformations' sums).
fn dot(w: [f64; 3], x: [Expr; 3]) -> Expr {
    let [a, b, c] = x;
    add(add(mul(num(w[0]), a), mul(num(w[1]), b)), mul(num(w[2]), c))
}

/// The model `m` stepped by `radau5` with tolerances `tol`, as plain rules (method
/// `euler`) around one [`Rewrite::Repeat`]; `id` is its index; the summaries `probes`
/// of its states are kept as [`Probes::new`] says.
pub(super) fn rewrite(
    m: &Model,
    id: usize,
    tol: Tolerance,
    (probes, kept): (&[Probe], &mut Vec<(Probe, VarId)>),
) -> rewrite::Model {
    let sp = split(m);
    let mut hid = Hidden::of(m);
    if sp.states.is_empty() {
        return hid.out.widen();
    }
    let span = m.span;
    let method = "radau5";
    let n = sp.states.len();
    let f = m.fired;
    let jac = of_model(m, id, false);
    let clock = Clock::new(&mut hid, method);
    let Clock { t, hs, err, q, .. } = clock;
    let global = |hid: &mut Hidden<'_>, what: &str, doc: &str| hid.global(method, what, doc);
    let jok = global(
        &mut hid,
        "jok",
        "1 while the Jacobian held is to be used, 0 when it is due",
    );
    let jnew = global(
        &mut hid,
        "jnew",
        "1 when the Jacobian was computed at this step's start",
    );
    let hlu = global(
        &mut hid,
        "hlu",
        "The internal step the LU factors were made for (0: none)",
    );
    let hq = global(
        &mut hid,
        "hq",
        "The last accepted internal step, of the polynomial kept (0: none)",
    );
    let hold = global(&mut hid, "hold", "The last accepted internal step");
    let eold = global(
        &mut hid,
        "eold",
        "The error norm of the last accepted internal step",
    );
    let mr = global(&mut hid, "mr", "μ_r/hs, the real system's diagonal");
    let ma = global(&mut hid, "ma", "Re μ_c/hs, the complex system's diagonal");
    let mb = global(&mut hid, "mb", "Im μ_c/hs, the complex system's coupling");
    let x = global(&mut hid, "x", "hs/hq: the step against the last one's");
    let pow = [1, 2, 3].map(|j| {
        global(
            &mut hid,
            &format!("u{j}"),
            &format!("(1 + c·hs/hq)^{j} − 1 at a stage's node on the last step's polynomial"),
        )
    });
    let conv = global(
        &mut hid,
        "conv",
        "The Newton iteration: 0 running, 1 converged, −1 failed",
    );
    let it = global(&mut hid, "it", "Newton iterations made in this attempt");
    let dn = global(
        &mut hid,
        "dn",
        "The scaled norm of the last Newton correction",
    );
    let dno = global(
        &mut hid,
        "dno",
        "The scaled norm of the Newton correction before it",
    );
    let rate = global(
        &mut hid,
        "rate",
        "The Newton iteration's rate of convergence",
    );
    let fac = global(&mut hid, "fac", "The step factor the controller chose");
    let mult = global(&mut hid, "mult", "The predictive controller's multiplier");
    let safety = global(&mut hid, "safety", "The controller's safety factor");
    let name = |v: VarId| m.vars[v].name.clone();
    let mems: Vec<Mem> = sp
        .states
        .iter()
        .map(|&(v, rule)| {
            let nm = name(v);
            let mut new = |what: &str, doc: String| {
                hid.new_var(
                    format!("{nm}_{method}_{what}"),
                    format!(" {doc} ({method})."),
                    rule,
                )
            };
            let yc = new(
                "yc",
                format!("`{nm}` at the end of the last accepted internal step"),
            );
            let z = [1, 2, 3]
                .map(|s| new(&format!("z{s}"), format!("Stage {s}'s increment of `{nm}`")));
            let w = [1, 2, 3].map(|s| {
                new(
                    &format!("w{s}"),
                    format!("Transformed increment {s} of `{nm}`"),
                )
            });
            let g = [1, 2, 3]
                .map(|s| new(&format!("g{s}"), format!("The rate of `{nm}` at stage {s}")));
            let d = [1, 2, 3]
                .map(|s| new(&format!("d{s}"), format!("Newton correction {s} of `{nm}`")));
            let f0 = new("f0", format!("The rate of `{nm}` at the step's start"));
            let e = [1, 2, 3].map(|s| {
                new(
                    &format!("e{s}"),
                    format!("Coefficient {s} of the last step's polynomial of `{nm}`"),
                )
            });
            let r = new("r", format!("The error estimate of `{nm}`"));
            let rs = new(
                "rs",
                format!("The reciprocal of the Newton iteration's scale of `{nm}`"),
            );
            Mem {
                yc,
                z,
                w,
                g,
                d,
                f0,
                e,
                r,
                rs,
            }
        })
        .collect();
    // The Jacobian's cells: tangents of the stage rules and entries of the rates.
    let col_name = |c: usize| name(sp.states[c].0);
    let jcells = Cells::new(&mut hid, &jac, &sp, method, &col_name);
    let entries = &jcells.entries;
    // The real matrix `mr·I − J`, and the complex one on its sparse pattern or as a
    // real one of size 2n.
    let pivot = |what: &str| {
        let what = what.to_string();
        move |k: usize| {
            (
                format!("{method}_{what}_pivot{}", k + 1),
                format!(
                    " The pivot row of column {} of {what}'s LU factors ({method}).",
                    k + 1
                ),
            )
        }
    };
    let (rpivot, cpivot) = (pivot("WR"), pivot("WC"));
    let real = Matrix::new(
        &mut hid,
        n,
        entries.keys().copied().collect(),
        &Names {
            method,
            what: "WR",
            doc: "WR",
            pivot: &rpivot,
            unknown: &col_name,
        },
    );
    let complex = match Matrix::complex(
        &mut hid,
        n,
        entries.keys().copied().collect(),
        &Names {
            method,
            what: "WC",
            doc: "WC",
            pivot: &cpivot,
            unknown: &col_name,
        },
    ) {
        Some(c) => c,
        None => {
            let mut cpattern = Vec::new();
            for &(i, j) in entries.keys() {
                cpattern.extend([(i, j), (n + i, n + j)]);
            }
            for i in 0..n {
                cpattern.extend([(i, n + i), (n + i, i)]);
            }
            let cname = |k: usize| {
                if k < n {
                    format!("{}re", col_name(k))
                } else {
                    format!("{}im", col_name(k - n))
                }
            };
            Matrix::new(
                &mut hid,
                2 * n,
                cpattern,
                &Names {
                    method,
                    what: "WC",
                    doc: "WC",
                    pivot: &cpivot,
                    unknown: &cname,
                },
            )
        }
    };
    // Held on its sparse pattern, the complex system is solved as complex numbers;
    // held as a real one of twice the order, its imaginary rows are halved (below).
    let halved = !complex.is_complex();
    let lsp = split_located(m);
    let guards = watched(m, &lsp);
    let loc_mems: Vec<(VarId, Vec<VarId>)> = mems.iter().map(|mm| (mm.yc, mm.z.to_vec())).collect();
    // Offsets of the `otherwise` flags: the stage passes 1 ..= 3 (of every Newton
    // iteration), the rate at the start 4, the tangent pass 5, the location from 6.
    let passes = C.len() + 3;
    let located = (!guards.is_empty())
        .then(|| Located::new(&mut hid, &RADAU, (&sp, &lsp), guards, &loc_mems, passes * f));
    let probes = Probes::new(&mut hid, &RADAU, &sp, &loc_mems, probes, kept);

    let starts = mems
        .iter()
        .zip(&sp.states)
        .map(|(mm, &(v, vspan))| (mm.yc, v, vspan));
    let body = clock.open(span, starts, located.as_ref());
    let mut inner = clock.head(span, method);
    let set = |v: VarId, e: Expr| assign(v, e, None, span);
    let is = |v: VarId, value: f64| cmp(CmpOp::Eq, var(v), num(value));
    let mut attempt: Vec<Stmt> = Vec::new();
    // The Jacobian, when due, at the step's start.
    let mut due: Vec<Stmt> = mems
        .iter()
        .zip(&sp.states)
        .map(|(mm, &(v, vspan))| assign(v, var(mm.yc), None, vspan))
        .collect();
    due.extend(jcells.pass((m, &sp), &jac, t, (passes - 1) * f));
    due.extend([set(jok, num(1.0)), set(jnew, num(1.0)), set(hlu, num(0.0))]);
    attempt.push(when(is(jok, 0.0), due, span));
    // The factors, when the step or the Jacobian changed.
    let jentry = |i: usize, j: usize| entries.get(&(i, j)).map(|&x| var(x));
    let shifted = |d: VarId, i: usize, j: usize| match (i == j, jentry(i, j)) {
        (true, Some(e)) => sub(var(d), e),
        (true, None) => var(d),
        (false, Some(e)) => Expr::Neg(Box::new(e)),
        (false, None) => num(0.0),
    };
    let mut refactor = vec![
        set(mr, div(num(MU_REAL), var(hs))),
        set(ma, div(num(MU_RE), var(hs))),
        set(mb, div(num(MU_IM), var(hs))),
    ];
    let none = |_: usize, _: usize| num(0.0);
    refactor.extend(real.fill(n, &|i, j| shifted(mr, i, j), &none, span));
    // The imaginary rows halved (exactly), with their right-hand sides: `|Im μ_c|`
    // exceeds `Re μ_c`, so that unscaled, every column's pivot would be the coupling
    // `mb` of the row below and each factorisation would swap rows (leaving the
    // generated step's straight-line LU for the runtime's) wherever `J` is small
    // beside `1/hs`.
    let half = |e: Expr| match e {
        e if !halved => e,
        Expr::Num(x) => num(0.5 * x),
        e => mul(num(0.5), e),
    };
    let centry = |i: usize, j: usize| match (i < n, j < n) {
        (true, true) => shifted(ma, i, j),
        (false, false) => half(shifted(ma, i - n, j - n)),
        (true, false) if j - n == i => Expr::Neg(Box::new(var(mb))),
        (false, true) if i - n == j => half(var(mb)),
        _ => num(0.0),
    };
    if halved {
        refactor.extend(complex.fill(2 * n, &centry, &none, span));
    } else {
        let imag = |i: usize, j: usize| if i == j { var(mb) } else { num(0.0) };
        refactor.extend(complex.fill(n, &|i, j| shifted(ma, i, j), &imag, span));
    }
    refactor.push(real.factor(span));
    refactor.push(complex.factor(span));
    refactor.push(set(hlu, var(hs)));
    attempt.push(when(cmp(CmpOp::Ne, var(hs), var(hlu)), refactor, span));
    // The first iterate: the last step's polynomial continued, or zero.
    let mut guess = vec![set(x, div(var(hs), var(hq)))];
    let mut zero = Vec::new();
    for (s, &c) in C.iter().enumerate() {
        // `u = c_s·hs/hq`, and `(1 + u)^j − 1` for j = 1, 2, 3 once for every state.
        let [u1, u2, u3] = pow;
        guess.extend([
            set(u1, mul(num(c), var(x))),
            set(u2, mul(var(u1), add(num(2.0), var(u1)))),
            set(
                u3,
                mul(var(u1), add(num(3.0), mul(var(u1), add(num(3.0), var(u1))))),
            ),
        ]);
        for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
            let value = add(
                add(mul(var(mm.e[0]), var(u1)), mul(var(mm.e[1]), var(u2))),
                mul(var(mm.e[2]), var(u3)),
            );
            guess.push(assign(mm.z[s], value, None, vspan));
            zero.push(assign(mm.z[s], num(0.0), None, vspan));
        }
    }
    attempt.push(when(cmp(CmpOp::Gt, var(hq), num(0.0)), guess, span));
    attempt.push(when(
        Expr::Not(Box::new(cmp(CmpOp::Gt, var(hq), num(0.0)))),
        zero,
        span,
    ));
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        for (&w, ti) in mm.w.iter().zip(TI) {
            attempt.push(assign(w, dot(ti, mm.z.map(var)), None, vspan));
        }
    }
    // The Newton iteration's scale, as a reciprocal: `1/(atol + rtol·|yc|)`.
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        let sc = add(
            num(tol.atol),
            mul(num(tol.rtol), call(Func::Abs, vec![var(mm.yc)])),
        );
        attempt.push(assign(mm.rs, div(num(1.0), sc), None, vspan));
    }
    attempt.extend([set(conv, num(0.0)), set(it, num(0.0))]);
    // The Newton iteration: a loop of at most NEWTON_MAXITER runs while `conv = 0`,
    // left unconverged (`conv = 0`) at its limit; its stage passes are fresh in each run
    // (their `otherwise` flags cleared).
    let rows = sp.rows();
    let index = |v: VarId| rows.get(v).copied().flatten();
    let ntol = (10.0 * f64::EPSILON / tol.rtol).max(0.03f64.min(tol.rtol.sqrt()));
    let mut iter = vec![set(it, add(var(it), num(1.0)))];
    for (s, &c) in C.iter().enumerate() {
        for (mm, &(v, vspan)) in mems.iter().zip(&sp.states) {
            iter.push(assign(v, add(var(mm.yc), var(mm.z[s])), None, vspan));
            iter.push(assign(mm.g[s], num(0.0), None, vspan));
        }
        let node = if c == 1.0 {
            add(var(t), var(hs))
        } else {
            add(var(t), mul(num(c), var(hs)))
        };
        let stage = Stage {
            m,
            sp: &sp,
            node: Some(node),
            offset: (1 + s) * f,
            rate: &|v| index(v).map(|i| mems[i].g[s]),
        };
        iter.extend(stage.stmts(&m.body));
    }
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        let g = || mm.g.map(var);
        let d1 = sub(dot(TI[0], g()), mul(var(mr), var(mm.w[0])));
        let d2 = sub(
            dot(TI[1], g()),
            sub(mul(var(ma), var(mm.w[1])), mul(var(mb), var(mm.w[2]))),
        );
        let d3 = half(sub(
            dot(TI[2], g()),
            add(mul(var(ma), var(mm.w[2])), mul(var(mb), var(mm.w[1]))),
        ));
        iter.push(assign(mm.d[0], d1, None, vspan));
        iter.push(assign(mm.d[1], d2, None, vspan));
        iter.push(assign(mm.d[2], d3, None, vspan));
    }
    iter.push(real.solve(&|i| mems[i].d[0], &|i| mems[i].d[0], span));
    iter.push(complex.solve(
        &|u| {
            if u < n {
                mems[u].d[1]
            } else {
                mems[u - n].d[2]
            }
        },
        &|i| mems[i].d[2],
        span,
    ));
    iter.push(set(dn, num(0.0)));
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        for r in 0..3 {
            iter.push(assign(q, mul(var(mm.d[r]), var(mm.rs)), None, vspan));
            iter.push(assign(dn, add(var(dn), mul(var(q), var(q))), None, vspan));
        }
    }
    iter.push(set(
        dn,
        call(Func::Sqrt, vec![div(var(dn), num((3 * n) as f64))]),
    ));
    let later = || cmp(CmpOp::Gt, var(it), num(1.0));
    iter.push(when(later(), vec![set(rate, div(var(dn), var(dno)))], span));
    // Too slow: rate^(NEWTON_MAXITER + 1 − it)/(1 − rate)·dn > κ, the power as products
    // left to right, one test per iteration from the second (only that of `it` holds),
    // so that no power is stored.
    let slow = (2..=NEWTON_MAXITER)
        .map(|i| {
            let power = (1..NEWTON_MAXITER + 1 - i).fold(var(rate), |p, _| mul(p, var(rate)));
            let slow = cmp(
                CmpOp::Gt,
                mul(div(power, sub(num(1.0), var(rate))), var(dn)),
                num(ntol),
            );
            Expr::And(Box::new(is(it, i as f64)), Box::new(slow))
        })
        .reduce(|a, b| Expr::Or(Box::new(a), Box::new(b)))
        .expect("at least two iterations");
    let fails = Expr::Or(
        Box::new(cmp(CmpOp::Ge, var(rate), num(1.0))),
        Box::new(slow),
    );
    let diverged = Expr::Or(
        Box::new(Expr::Not(Box::new(cmp(CmpOp::Le, var(dn), num(1e300))))),
        Box::new(Expr::And(Box::new(later()), Box::new(fails))),
    );
    iter.push(when(diverged, vec![set(conv, num(-1.0))], span));
    let mut update = Vec::new();
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        for r in 0..3 {
            update.push(assign(
                mm.w[r],
                add(var(mm.w[r]), var(mm.d[r])),
                None,
                vspan,
            ));
        }
        for (&z, t) in mm.z.iter().zip(T) {
            update.push(assign(z, dot(t, mm.w.map(var)), None, vspan));
        }
    }
    let fast = cmp(
        CmpOp::Lt,
        mul(div(var(rate), sub(num(1.0), var(rate))), var(dn)),
        num(ntol),
    );
    let done = Expr::Or(
        Box::new(is(dn, 0.0)),
        Box::new(Expr::And(Box::new(later()), Box::new(fast))),
    );
    update.push(when(done, vec![set(conv, num(1.0))], span));
    update.push(set(dno, var(dn)));
    iter.push(when(is(conv, 0.0), update, span));
    attempt.push(Stmt::Added(Rewrite::Repeat {
        body: iter,
        until: Expr::Not(Box::new(is(conv, 0.0))),
        count: it,
        limit: NEWTON_MAXITER as u64,
        at_limit: AtLimit::Leave,
        method,
        events: None,
        span,
    }));
    // Converged: the solution, its error, the step factor.
    let mut solved = Vec::new();
    for (mm, &(v, vspan)) in mems.iter().zip(&sp.states) {
        solved.push(assign(v, var(mm.yc), None, vspan));
        solved.push(assign(mm.f0, num(0.0), None, vspan));
    }
    let stage = Stage {
        m,
        sp: &sp,
        node: Some(var(t)),
        offset: (passes - 2) * f,
        rate: &|v| index(v).map(|i| mems[i].f0),
    };
    solved.extend(stage.stmts(&m.body));
    for (mm, &(v, vspan)) in mems.iter().zip(&sp.states) {
        solved.push(assign(v, add(var(mm.yc), var(mm.z[2])), None, vspan));
        let ze = dot(E, mm.z.map(var));
        solved.push(assign(mm.r, add(var(mm.f0), div(ze, var(hs))), None, vspan));
    }
    solved.push(real.solve(&|i| mems[i].r, &|i| mems[i].r, span));
    solved.push(set(err, num(0.0)));
    for (mm, &(v, vspan)) in mems.iter().zip(&sp.states) {
        let scale = error_scale(tol, mm.yc, v);
        solved.push(assign(
            q,
            arith(ArithOp::Div, var(mm.r), scale),
            None,
            vspan,
        ));
        solved.push(assign(err, add(var(err), mul(var(q), var(q))), None, vspan));
    }
    solved.push(set(
        err,
        call(Func::Sqrt, vec![div(var(err), num(n as f64))]),
    ));
    let iterations = (2 * NEWTON_MAXITER) as f64;
    solved.push(set(
        safety,
        div(num(0.9 * (iterations + 1.0)), add(num(iterations), var(it))),
    ));
    solved.push(set(mult, num(1.0)));
    let known = Expr::And(
        Box::new(Expr::And(
            Box::new(cmp(CmpOp::Gt, var(hold), num(0.0))),
            Box::new(cmp(CmpOp::Gt, var(eold), num(0.0))),
        )),
        Box::new(cmp(CmpOp::Gt, var(err), num(0.0))),
    );
    solved.push(when(
        known,
        vec![set(
            mult,
            mul(
                div(var(hs), var(hold)),
                call(Func::InvRoot, vec![div(var(err), var(eold)), num(4.0)]),
            ),
        )],
        span,
    ));
    solved.push(set(
        fac,
        mul(
            call(Func::Min, vec![num(1.0), var(mult)]),
            call(Func::InvRoot, vec![var(err), num(4.0)]),
        ),
    ));
    let slow = || {
        Expr::And(
            Box::new(cmp(CmpOp::Gt, var(it), num(2.0))),
            Box::new(cmp(CmpOp::Gt, var(rate), num(SLOW))),
        )
    };
    let accepted = cmp(CmpOp::Le, var(err), num(1.0));
    solved.push(when(
        accepted.clone(),
        vec![
            set(
                fac,
                call(Func::Min, vec![num(10.0), mul(var(safety), var(fac))]),
            ),
            when(
                Expr::And(
                    Box::new(Expr::Not(Box::new(slow()))),
                    Box::new(cmp(CmpOp::Lt, var(fac), num(1.2))),
                ),
                vec![set(fac, num(1.0))],
                span,
            ),
        ],
        span,
    ));
    solved.push(when(
        Expr::Not(Box::new(accepted)),
        vec![set(
            fac,
            call(Func::Max, vec![num(0.2), mul(var(safety), var(fac))]),
        )],
        span,
    ));
    attempt.push(when(is(conv, 1.0), solved, span));
    // Not converged: a fresh Jacobian at the same step, or half the step.
    attempt.push(when(
        Expr::Not(Box::new(is(conv, 1.0))),
        vec![
            set(err, num(2.0)),
            set(fac, num(0.5)),
            when(
                is(jnew, 0.0),
                vec![set(fac, num(1.0)), set(jok, num(0.0))],
                span,
            ),
        ],
        span,
    ));
    inner.push(set(err, num(0.0)));
    inner.push(set(fac, num(1.0)));
    inner.push(when(cmp(CmpOp::Gt, var(hs), num(0.0)), attempt, span));
    // An accepted step: the Jacobian due when the iteration was slow, the polynomial
    // kept for the next step's first iterate, then the states' new start values.
    let mut accept = vec![
        when(slow(), vec![set(jok, num(0.0))], span),
        set(jnew, num(0.0)),
        set(hold, var(hs)),
        set(eold, var(err)),
        set(hq, var(hs)),
    ];
    for (mm, &(_, vspan)) in mems.iter().zip(&sp.states) {
        for (j, &e) in mm.e.iter().enumerate() {
            accept.push(assign(e, polynomial(&mm.z, j), None, vspan));
        }
    }
    for (mm, &(v, vspan)) in mems.iter().zip(&sp.states) {
        accept.push(assign(mm.yc, var(v), None, vspan));
    }
    // A step that located an event runs none of `accept`: its polynomial is not kept
    // (the next step starts inside it), so the next first iterate is zero.
    inner.push(when(
        cmp(CmpOp::Le, var(err), num(1.0)),
        vec![set(hq, num(0.0))],
        span,
    ));
    let close = Close {
        m,
        method,
        control: Control::Computed(fac),
        accept,
        located,
        dense: &RADAU,
        passes,
        probes,
    };
    clock.close(hid, body, inner, close)
}
