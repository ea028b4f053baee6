//! A lean variable-order BDF (SciPy's `BDF`: the NDF of Shampine and Reichelt, orders 1 to
//! 5, quasi-constant steps, a simplified Newton iteration with its Jacobian and LU kept)
//! and SciPy's `Radau`, both on fixed-size arrays with hand-written rates and Jacobians:
//! what a compiled BDF or Radau would cost against the generated `rodas5p` step, at the
//! same error (docs/performance.md §19, "`radau5` against `rodas5p`").
//!
//! Usage, from the repository root (the references are those `scripts/peer_scipy.py
//! --stiff` keeps in `target/peer-stiff-reference.json`):
//! `cargo run --release --manifest-path bench/peers/ndf/Cargo.toml --target-dir
//! target/peers/ndf -- [robertson|hires|vdp|all]`, `SOLVER=radau` for Radau. Each line:
//! the model, the tolerance, the largest relative error at the end, the counts (steps,
//! rejected, evaluations, Jacobians, LU factorisations) and the median of 21 runs.
mod radau;
use std::hint::black_box;
use std::time::Instant;

const MAX_ORDER: usize = 5;
const NEWTON_MAXITER: usize = 4;
pub(crate) const MIN_FACTOR: f64 = 0.2;
pub(crate) const MAX_FACTOR: f64 = 10.0;

#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct Counts {
    steps: u64,
    rejected: u64,
    evals: u64,
    jacs: u64,
    lus: u64,
}

pub(crate) fn norm<const N: usize>(x: &[f64; N], scale: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        let q = x[i] / scale[i];
        s += q * q;
    }
    (s / N as f64).sqrt()
}

pub(crate) struct Lu<const N: usize> {
    a: [[f64; N]; N],
    piv: [usize; N],
}

pub(crate) fn lu<const N: usize>(mut a: [[f64; N]; N]) -> Lu<N> {
    let mut piv = [0; N];
    for k in 0..N {
        let mut p = k;
        let mut m = a[k][k].abs();
        for i in k + 1..N {
            if a[i][k].abs() > m {
                m = a[i][k].abs();
                p = i;
            }
        }
        piv[k] = p;
        if p != k {
            a.swap(p, k);
        }
        let inv = 1.0 / a[k][k];
        for i in k + 1..N {
            let l = a[i][k] * inv;
            a[i][k] = l;
            for j in k + 1..N {
                a[i][j] -= l * a[k][j];
            }
        }
    }
    Lu { a, piv }
}

pub(crate) fn solve<const N: usize>(lu: &Lu<N>, b: &mut [f64; N]) {
    for k in 0..N {
        b.swap(k, lu.piv[k]);
    }
    for i in 0..N {
        let mut s = b[i];
        for j in 0..i {
            s -= lu.a[i][j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..N).rev() {
        let mut s = b[i];
        for j in i + 1..N {
            s -= lu.a[i][j] * b[j];
        }
        b[i] = s / lu.a[i][i];
    }
}

fn compute_r(order: usize, factor: f64) -> [[f64; 6]; 6] {
    let mut r = [[0.0; 6]; 6];
    for j in 0..=order {
        r[0][j] = 1.0;
    }
    for i in 1..=order {
        for j in 0..=order {
            let m = if j == 0 { 0.0 } else { (i as f64 - 1.0 - factor * j as f64) / i as f64 };
            r[i][j] = r[i - 1][j] * m;
        }
    }
    r
}

fn change_d<const N: usize>(d: &mut [[f64; N]; MAX_ORDER + 3], order: usize, factor: f64) {
    let r = compute_r(order, factor);
    let u = compute_r(order, 1.0);
    let mut ru = [[0.0; 6]; 6];
    for i in 0..=order {
        for j in 0..=order {
            let mut s = 0.0;
            for l in 0..=order {
                s += r[i][l] * u[l][j];
            }
            ru[i][j] = s;
        }
    }
    let mut nd = [[0.0; N]; 6];
    for i in 0..=order {
        for k in 0..N {
            let mut s = 0.0;
            for j in 0..=order {
                s += ru[j][i] * d[j][k];
            }
            nd[i][k] = s;
        }
    }
    d[..=order].copy_from_slice(&nd[..=order]);
}

fn integrate_bdf<const N: usize>(
    f: impl Fn(f64, &[f64; N]) -> [f64; N],
    jac: impl Fn(f64, &[f64; N]) -> [[f64; N]; N],
    y0: [f64; N],
    t_end: f64,
    rtol: f64,
    atol: f64,
) -> ([f64; N], Counts) {
    let mut c = Counts::default();
    let kappa = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];
    let mut gamma = [0.0; 6];
    for k in 1..6 {
        gamma[k] = gamma[k - 1] + 1.0 / k as f64;
    }
    let mut alpha = [0.0; 6];
    let mut error_const = [0.0; 7];
    for k in 0..6 {
        alpha[k] = (1.0 - kappa[k]) * gamma[k];
        error_const[k] = kappa[k] * gamma[k] + 1.0 / (k as f64 + 1.0);
    }
    error_const[6] = 1.0 / 7.0; // unused past MAX_ORDER
    let newton_tol = (10.0 * f64::EPSILON / rtol).max(0.03f64.min(rtol.sqrt()));
    let t0 = 0.0;
    let mut t = t0;
    let mut y = y0;
    let f0 = f(t0, &y0);
    c.evals += 1;
    // select_initial_step, order 1
    let mut scale = [0.0; N];
    for i in 0..N {
        scale[i] = atol + y0[i].abs() * rtol;
    }
    let d0 = norm(&y0, &scale);
    let d1 = norm(&f0, &scale);
    let mut h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
    h0 = h0.min(t_end - t0);
    let mut y1 = [0.0; N];
    for i in 0..N {
        y1[i] = y0[i] + h0 * f0[i];
    }
    let f1 = f(t0 + h0, &y1);
    c.evals += 1;
    let mut df = [0.0; N];
    for i in 0..N {
        df[i] = f1[i] - f0[i];
    }
    let d2 = norm(&df, &scale) / h0;
    let h1 = if d1 <= 1e-15 && d2 <= 1e-15 {
        (1e-6f64).max(h0 * 1e-3)
    } else {
        (0.01 / d1.max(d2)).powf(0.5)
    };
    let mut h_abs = (100.0 * h0).min(h1).min(t_end - t0);

    let mut d = [[0.0; N]; MAX_ORDER + 3];
    d[0] = y0;
    for i in 0..N {
        d[1][i] = f0[i] * h_abs;
    }
    let mut order = 1usize;
    let mut n_equal_steps = 0usize;
    let mut jm = jac(t0, &y0);
    c.jacs += 1;
    let mut lu_w: Option<Lu<N>> = None;

    while t < t_end {
        let min_step = 10.0 * (t.next_up() - t).abs();
        if h_abs < min_step {
            h_abs = min_step;
        }
        let mut current_jac = false;
        let (t_new, y_new, dd, n_iter, error_norm, scale);
        loop {
            if h_abs < min_step {
                panic!("step too small at t = {t}: rtol {rtol} is too tight for the NDF here");
            }
            let mut h = h_abs;
            let mut tn = t + h;
            if tn > t_end {
                tn = t_end;
                change_d(&mut d, order, (tn - t).abs() / h_abs);
                n_equal_steps = 0;
                lu_w = None;
            }
            h = tn - t;
            h_abs = h.abs();
            let mut y_predict = [0.0; N];
            for j in 0..=order {
                for i in 0..N {
                    y_predict[i] += d[j][i];
                }
            }
            let mut sc = [0.0; N];
            for i in 0..N {
                sc[i] = atol + rtol * y_predict[i].abs();
            }
            let mut psi = [0.0; N];
            for j in 1..=order {
                for i in 0..N {
                    psi[i] += d[j][i] * gamma[j];
                }
            }
            for i in 0..N {
                psi[i] /= alpha[order];
            }
            let cc = h / alpha[order];
            let mut conv;
            let mut res;
            loop {
                if lu_w.is_none() {
                    let mut w = [[0.0; N]; N];
                    for i in 0..N {
                        for j in 0..N {
                            w[i][j] = -cc * jm[i][j];
                        }
                        w[i][i] += 1.0;
                    }
                    lu_w = Some(lu(w));
                    c.lus += 1;
                }
                // solve_bdf_system
                let luw = lu_w.as_ref().unwrap();
                let mut dsum = [0.0; N];
                let mut yy = y_predict;
                let mut dy_norm_old: Option<f64> = None;
                conv = false;
                let mut it = 0;
                for k in 0..NEWTON_MAXITER {
                    it = k + 1;
                    let fv = f(tn, &yy);
                    c.evals += 1;
                    if !fv.iter().all(|v| v.is_finite()) {
                        break;
                    }
                    let mut dy = [0.0; N];
                    for i in 0..N {
                        dy[i] = cc * fv[i] - psi[i] - dsum[i];
                    }
                    solve(luw, &mut dy);
                    let dy_norm = norm(&dy, &sc);
                    let rate = dy_norm_old.map(|o| dy_norm / o);
                    if let Some(r) = rate {
                        if r >= 1.0
                            || r.powi((NEWTON_MAXITER - k) as i32) / (1.0 - r) * dy_norm
                                > newton_tol
                        {
                            break;
                        }
                    }
                    for i in 0..N {
                        yy[i] += dy[i];
                        dsum[i] += dy[i];
                    }
                    if dy_norm == 0.0
                        || rate.is_some_and(|r| r / (1.0 - r) * dy_norm < newton_tol)
                    {
                        conv = true;
                        break;
                    }
                    dy_norm_old = Some(dy_norm);
                }
                res = (yy, dsum, it);
                if conv {
                    break;
                }
                if current_jac {
                    break;
                }
                jm = jac(tn, &y_predict);
                c.jacs += 1;
                lu_w = None;
                current_jac = true;
            }
            if !conv {
                h_abs *= 0.5;
                change_d(&mut d, order, 0.5);
                n_equal_steps = 0;
                lu_w = None;
                c.rejected += 1;
                continue;
            }
            let (yn, dsum, it) = res;
            let safety =
                0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + it) as f64;
            let mut sc2 = [0.0; N];
            let mut err = [0.0; N];
            for i in 0..N {
                sc2[i] = atol + rtol * yn[i].abs();
                err[i] = error_const[order] * dsum[i];
            }
            let en = norm(&err, &sc2);
            if en > 1.0 {
                let factor = MIN_FACTOR.max(safety * en.powf(-1.0 / (order as f64 + 1.0)));
                h_abs *= factor;
                change_d(&mut d, order, factor);
                n_equal_steps = 0;
                c.rejected += 1;
                continue;
            }
            t_new = tn;
            y_new = yn;
            dd = dsum;
            n_iter = it;
            error_norm = en;
            scale = sc2;
            break;
        }
        c.steps += 1;
        n_equal_steps += 1;
        t = t_new;
        y = y_new;
        for i in 0..N {
            d[order + 2][i] = dd[i] - d[order + 1][i];
            d[order + 1][i] = dd[i];
        }
        for j in (0..=order).rev() {
            for i in 0..N {
                d[j][i] += d[j + 1][i];
            }
        }
        if n_equal_steps < order + 1 {
            continue;
        }
        let safety = 0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + n_iter) as f64;
        let em = if order > 1 {
            let mut e = [0.0; N];
            for i in 0..N {
                e[i] = error_const[order - 1] * d[order][i];
            }
            norm(&e, &scale)
        } else {
            f64::INFINITY
        };
        let ep = if order < MAX_ORDER {
            let mut e = [0.0; N];
            for i in 0..N {
                e[i] = error_const[order + 1] * d[order + 2][i];
            }
            norm(&e, &scale)
        } else {
            f64::INFINITY
        };
        let norms = [em, error_norm, ep];
        let mut best = 0;
        let mut fmax = f64::NEG_INFINITY;
        for (k, &en) in norms.iter().enumerate() {
            let fac = en.powf(-1.0 / (order + k) as f64);
            if fac > fmax {
                fmax = fac;
                best = k;
            }
        }
        order = order + best - 1;
        let factor = MAX_FACTOR.min(safety * fmax);
        h_abs *= factor;
        change_d(&mut d, order, factor);
        n_equal_steps = 0;
        lu_w = None;
    }
    (y, c)
}

fn robertson(t_end: f64, rtol: f64, atol: f64) -> ([f64; 3], Counts) {
    let (k1, k2, k3) = (0.04, 3e7, 1e4);
    integrate(
        |_, y: &[f64; 3]| {
            [
                -k1 * y[0] + k3 * y[1] * y[2],
                k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1],
                k2 * y[1] * y[1],
            ]
        },
        |_, y: &[f64; 3]| {
            [
                [-k1, k3 * y[2], k3 * y[1]],
                [k1, -k3 * y[2] - 2.0 * k2 * y[1], -k3 * y[1]],
                [0.0, 2.0 * k2 * y[1], 0.0],
            ]
        },
        [1.0, 0.0, 0.0],
        t_end,
        rtol,
        atol,
    )
}

fn hires(t_end: f64, rtol: f64, atol: f64) -> ([f64; 8], Counts) {
    integrate(
        |_, y: &[f64; 8]| {
            [
                -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
                1.71 * y[0] - 8.75 * y[1],
                -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
                8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
                -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
                -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
                280.0 * y[5] * y[7] - 1.81 * y[6],
                -280.0 * y[5] * y[7] + 1.81 * y[6],
            ]
        },
        |_, y: &[f64; 8]| {
            let mut j = [[0.0; 8]; 8];
            j[0][0] = -1.71;
            j[0][1] = 0.43;
            j[0][2] = 8.32;
            j[1][0] = 1.71;
            j[1][1] = -8.75;
            j[2][2] = -10.03;
            j[2][3] = 0.43;
            j[2][4] = 0.035;
            j[3][1] = 8.32;
            j[3][2] = 1.71;
            j[3][3] = -1.12;
            j[4][4] = -1.745;
            j[4][5] = 0.43;
            j[4][6] = 0.43;
            j[5][3] = 0.69;
            j[5][4] = 1.71;
            j[5][5] = -280.0 * y[7] - 0.43;
            j[5][6] = 0.69;
            j[5][7] = -280.0 * y[5];
            j[6][5] = 280.0 * y[7];
            j[6][6] = -1.81;
            j[6][7] = 280.0 * y[5];
            j[7][5] = -280.0 * y[7];
            j[7][6] = 1.81;
            j[7][7] = -280.0 * y[5];
            j
        },
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057],
        t_end,
        rtol,
        atol,
    )
}

fn vdp(mu: f64, t_end: f64, rtol: f64, atol: f64) -> ([f64; 2], Counts) {
    integrate(
        |_, y: &[f64; 2]| [y[1], mu * ((1.0 - y[0] * y[0]) * y[1]) - y[0]],
        |_, y: &[f64; 2]| {
            [
                [0.0, 1.0],
                [mu * (-2.0 * y[0] * y[1]) - 1.0, mu * (1.0 - y[0] * y[0])],
            ]
        },
        [2.0, 0.0],
        t_end,
        rtol,
        atol,
    )
}

fn med(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn timeit<T>(reps: usize, mut g: impl FnMut() -> T) -> f64 {
    let mut ts = vec![];
    for _ in 0..reps {
        let s = Instant::now();
        black_box(g());
        ts.push(s.elapsed().as_secs_f64());
    }
    med(ts)
}

fn relerr(y: &[f64], r: &[f64]) -> f64 {
    y.iter().zip(r).map(|(a, b)| ((a - b) / b).abs()).fold(0.0, f64::max)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("all");
    let reps = 21;
    // The references: SciPy's Radau at rtol 1e-13 (scripts/peer_scipy_stiff.py).
    let refs: std::collections::HashMap<String, Vec<f64>> = serde_less_refs();
    for k in [4, 5, 6, 7, 8, 9, 10, 11, 12] {
        let rtol = 10f64.powi(-k);
        if which == "all" || which == "robertson" {
            for t_end in [40.0, 1e5] {
                let atol = rtol * 1e-6;
                let (y, c) = robertson(t_end, black_box(rtol), atol);
                let s = timeit(reps, || robertson(t_end, black_box(rtol), atol));
                let e = refs.get(&format!("robertson {t_end:?}")).map(|r| relerr(&y, r));
                println!("robertson {t_end} rtol 1e-{k}: err {:.2e} {c:?} {:.1} us", e.unwrap_or(f64::NAN), s * 1e6);
            }
        }
        if which == "all" || which == "hires" {
            let atol = rtol * 1e-4;
            let (y, c) = hires(321.8122, black_box(rtol), atol);
            let s = timeit(reps, || hires(321.8122, black_box(rtol), atol));
            let e = refs.get("hires 321.8122").map(|r| relerr(&y, r));
            println!("hires rtol 1e-{k}: err {:.2e} {c:?} {:.1} us", e.unwrap_or(f64::NAN), s * 1e6);
        }
        if (which == "all" || which == "vdp") && (k <= 8 || std::env::var("SOLVER").as_deref() == Ok("radau")) {
            let atol = rtol * 1e-3;
            let (y, c) = vdp(1000.0, 1000.0, black_box(rtol), atol);
            let s = timeit(reps, || vdp(1000.0, 1000.0, black_box(rtol), atol));
            let e = refs.get("van_der_pol_1000 1000.0").map(|r| relerr(&y, r));
            println!("vdp1e3 rtol 1e-{k}: err {:.2e} {c:?} {:.1} us", e.unwrap_or(f64::NAN), s * 1e6);
        }
    }
}

fn serde_less_refs() -> std::collections::HashMap<String, Vec<f64>> {
    let text = std::fs::read_to_string("target/peer-stiff-reference.json").unwrap_or_default();
    // The file's lines are `"key": [v, v, ...]`: read as such, without a JSON crate.
    let mut out = std::collections::HashMap::new();
    let mut rest = text.as_str();
    while let Some(a) = rest.find('"') {
        let r = &rest[a + 1..];
        let Some(b) = r.find('"') else { break };
        let key = r[..b].to_string();
        let r2 = &r[b + 1..];
        let Some(o) = r2.find('[') else { break };
        let Some(cl) = r2.find(']') else { break };
        let inner = &r2[o + 1..cl];
        let vals: Vec<f64> = inner.split(',').filter_map(|s| s.trim().parse().ok()).collect();
        out.insert(key, vals);
        rest = &r2[cl + 1..];
    }
    out
}

fn integrate<const N: usize>(
    f: impl Fn(f64, &[f64; N]) -> [f64; N],
    jac: impl Fn(f64, &[f64; N]) -> [[f64; N]; N],
    y0: [f64; N],
    t_end: f64,
    rtol: f64,
    atol: f64,
) -> ([f64; N], Counts) {
    if std::env::var("SOLVER").as_deref() == Ok("radau") {
        radau::integrate(f, jac, y0, t_end, rtol, atol)
    } else {
        integrate_bdf(f, jac, y0, t_end, rtol, atol)
    }
}
