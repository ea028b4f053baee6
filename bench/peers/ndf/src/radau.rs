//! SciPy's Radau (Hairer and Wanner's RADAU5 as SciPy writes it) on fixed-size arrays.
use crate::{Counts, Lu, lu, norm, solve};

#[derive(Clone, Copy, Default, Debug)]
struct C {
    re: f64,
    im: f64,
}
impl C {
    fn new(re: f64, im: f64) -> C {
        C { re, im }
    }
    fn mul(self, o: C) -> C {
        C::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
    fn sub(self, o: C) -> C {
        C::new(self.re - o.re, self.im - o.im)
    }
    fn inv(self) -> C {
        let d = self.re * self.re + self.im * self.im;
        C::new(self.re / d, -self.im / d)
    }
    fn abs1(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
}

struct LuC<const N: usize> {
    a: [[C; N]; N],
    piv: [usize; N],
}

fn lu_c<const N: usize>(mut a: [[C; N]; N]) -> LuC<N> {
    let mut piv = [0; N];
    for k in 0..N {
        let mut p = k;
        for i in k + 1..N {
            if a[i][k].abs1() > a[p][k].abs1() {
                p = i;
            }
        }
        piv[k] = p;
        a.swap(p, k);
        let inv = a[k][k].inv();
        a[k][k] = inv;
        for i in k + 1..N {
            let l = a[i][k].mul(inv);
            a[i][k] = l;
            for j in k + 1..N {
                a[i][j] = a[i][j].sub(l.mul(a[k][j]));
            }
        }
    }
    LuC { a, piv }
}
fn solve_c<const N: usize>(lu: &LuC<N>, b: &mut [C; N]) {
    for k in 0..N {
        b.swap(k, lu.piv[k]);
    }
    for i in 0..N {
        for j in 0..i {
            b[i] = b[i].sub(lu.a[i][j].mul(b[j]));
        }
    }
    for i in (0..N).rev() {
        for j in i + 1..N {
            b[i] = b[i].sub(lu.a[i][j].mul(b[j]));
        }
        b[i] = b[i].mul(lu.a[i][i]);
    }
}

const NEWTON_MAXITER: usize = 6;

pub fn integrate<const N: usize>(
    f: impl Fn(f64, &[f64; N]) -> [f64; N],
    jac: impl Fn(f64, &[f64; N]) -> [[f64; N]; N],
    y0: [f64; N],
    t_end: f64,
    rtol: f64,
    atol: f64,
) -> ([f64; N], Counts) {
    let s6 = 6f64.sqrt();
    let cc = [(4.0 - s6) / 10.0, (4.0 + s6) / 10.0, 1.0];
    let e = [(-13.0 - 7.0 * s6) / 3.0, (-13.0 + 7.0 * s6) / 3.0, -1.0 / 3.0];
    let mu_real = 3.0 + 3f64.powf(2.0 / 3.0) - 3f64.powf(1.0 / 3.0);
    let mu_cx = C::new(
        3.0 + 0.5 * (3f64.powf(1.0 / 3.0) - 3f64.powf(2.0 / 3.0)),
        -0.5 * (3f64.powf(5.0 / 6.0) + 3f64.powf(7.0 / 6.0)),
    );
    let t_m = [
        [0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
        [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
        [1.0, 1.0, 0.0],
    ];
    let ti = [
        [4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
        [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
        [0.50287263494578682, -2.57192694985560522, 0.59603920482822492],
    ];
    let p = [
        [13.0 / 3.0 + 7.0 * s6 / 3.0, -23.0 / 3.0 - 22.0 * s6 / 3.0, 10.0 / 3.0 + 5.0 * s6],
        [13.0 / 3.0 - 7.0 * s6 / 3.0, -23.0 / 3.0 + 22.0 * s6 / 3.0, 10.0 / 3.0 - 5.0 * s6],
        [1.0 / 3.0, -8.0 / 3.0, 10.0 / 3.0],
    ];
    let mut c = Counts::default();
    let newton_tol = (10.0 * f64::EPSILON / rtol).max(0.03f64.min(rtol.sqrt()));
    let mut t = 0.0;
    let mut y = y0;
    let mut fy = f(t, &y);
    c.evals += 1;
    // select_initial_step, order 3
    let mut scale = [0.0; N];
    for i in 0..N {
        scale[i] = atol + y0[i].abs() * rtol;
    }
    let d0 = norm(&y0, &scale);
    let d1 = norm(&fy, &scale);
    let mut h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
    h0 = h0.min(t_end);
    let mut y1 = [0.0; N];
    for i in 0..N {
        y1[i] = y0[i] + h0 * fy[i];
    }
    let f1 = f(h0, &y1);
    c.evals += 1;
    let mut df = [0.0; N];
    for i in 0..N {
        df[i] = f1[i] - fy[i];
    }
    let d2 = norm(&df, &scale) / h0;
    let h1 = if d1 <= 1e-15 && d2 <= 1e-15 {
        (1e-6f64).max(h0 * 1e-3)
    } else {
        (0.01 / d1.max(d2)).powf(0.25)
    };
    let mut h_abs = (100.0 * h0).min(h1).min(t_end);
    let mut h_abs_old: Option<f64> = None;
    let mut err_old: Option<f64> = None;
    let mut jm = jac(t, &y);
    c.jacs += 1;
    let mut current_jac = true;
    let mut lus: Option<(Lu<N>, LuC<N>)> = None;
    // dense output: Q (N x 3) and y_old, h of last step
    let mut q: Option<[[f64; 3]; N]> = None;
    let mut h_last = 0.0;
    let predict = |h_abs: f64, h_old: Option<f64>, en: f64, en_old: Option<f64>| -> f64 {
        let mult = match (h_old, en_old) {
            (Some(ho), Some(eo)) if en != 0.0 => h_abs / ho * (eo / en).powf(0.25),
            _ => 1.0,
        };
        mult.min(1.0) * en.powf(-0.25)
    };
    while t < t_end {
        let min_step = 10.0 * (t.next_up() - t);
        if h_abs < min_step {
            h_abs = min_step;
            h_abs_old = None;
            err_old = None;
        }
        let mut rejected = false;
        let (h, z, n_iter, rate, en, y_new);
        loop {
            if h_abs < min_step {
                panic!("radau: step too small at {t}");
            }
            let mut tn = t + h_abs;
            if tn > t_end {
                tn = t_end;
            }
            let hh = tn - t;
            h_abs = hh;
            // Z0 from the last dense output
            let mut z0 = [[0.0; N]; 3];
            if let Some(qq) = &q {
                for s in 0..3 {
                    let x = (t + hh * cc[s] - (t - h_last)) / h_last;
                    let pw = [x, x * x, x * x * x];
                    for i in 0..N {
                        // y_old + Q·p − y, with y_old + Q·p(1) = y
                        let mut v = 0.0;
                        for k in 0..3 {
                            v += qq[i][k] * pw[k];
                        }
                        let mut v1 = 0.0;
                        for k in 0..3 {
                            v1 += qq[i][k];
                        }
                        z0[s][i] = v - v1;
                    }
                }
            }
            let mut sc = [0.0; N];
            for i in 0..N {
                sc[i] = atol + y[i].abs() * rtol;
            }
            let mut conv;
            let mut out;
            loop {
                if lus.is_none() {
                    let mut a = [[0.0; N]; N];
                    let mut b = [[C::default(); N]; N];
                    let mr = mu_real / hh;
                    let mc = C::new(mu_cx.re / hh, mu_cx.im / hh);
                    for i in 0..N {
                        for j in 0..N {
                            a[i][j] = -jm[i][j];
                            b[i][j] = C::new(-jm[i][j], 0.0);
                        }
                        a[i][i] += mr;
                        b[i][i] = C::new(b[i][i].re + mc.re, mc.im);
                    }
                    lus = Some((lu(a), lu_c(b)));
                    c.lus += 1;
                }
                let (lr, lc) = lus.as_ref().unwrap();
                // solve_collocation_system
                let m_real = mu_real / hh;
                let m_cx = C::new(mu_cx.re / hh, mu_cx.im / hh);
                let mut w = [[0.0; N]; 3];
                for r in 0..3 {
                    for i in 0..N {
                        w[r][i] = ti[r][0] * z0[0][i] + ti[r][1] * z0[1][i] + ti[r][2] * z0[2][i];
                    }
                }
                let mut z = z0;
                let mut dwn_old: Option<f64> = None;
                let mut rt: Option<f64> = None;
                conv = false;
                let mut it = 0;
                for k in 0..NEWTON_MAXITER {
                    it = k + 1;
                    let mut fs = [[0.0; N]; 3];
                    let mut finite = true;
                    for s in 0..3 {
                        let mut ys = [0.0; N];
                        for i in 0..N {
                            ys[i] = y[i] + z[s][i];
                        }
                        fs[s] = f(t + hh * cc[s], &ys);
                        c.evals += 1;
                        finite &= fs[s].iter().all(|v| v.is_finite());
                    }
                    if !finite {
                        break;
                    }
                    let mut fr = [0.0; N];
                    let mut fc = [C::default(); N];
                    for i in 0..N {
                        fr[i] = fs[0][i] * ti[0][0] + fs[1][i] * ti[0][1] + fs[2][i] * ti[0][2]
                            - m_real * w[0][i];
                        let re = fs[0][i] * ti[1][0] + fs[1][i] * ti[1][1] + fs[2][i] * ti[1][2];
                        let im = fs[0][i] * ti[2][0] + fs[1][i] * ti[2][1] + fs[2][i] * ti[2][2];
                        fc[i] = C::new(re, im).sub(m_cx.mul(C::new(w[1][i], w[2][i])));
                    }
                    solve(lr, &mut fr);
                    solve_c(lc, &mut fc);
                    let mut s2 = 0.0;
                    for i in 0..N {
                        let a = fr[i] / sc[i];
                        let b = fc[i].re / sc[i];
                        let d = fc[i].im / sc[i];
                        s2 += a * a + b * b + d * d;
                    }
                    let dwn = (s2 / (3 * N) as f64).sqrt();
                    if let Some(o) = dwn_old {
                        rt = Some(dwn / o);
                    }
                    if let Some(r) = rt {
                        if r >= 1.0
                            || r.powi((NEWTON_MAXITER - k) as i32) / (1.0 - r) * dwn > newton_tol
                        {
                            break;
                        }
                    }
                    for i in 0..N {
                        w[0][i] += fr[i];
                        w[1][i] += fc[i].re;
                        w[2][i] += fc[i].im;
                    }
                    for r in 0..3 {
                        for i in 0..N {
                            z[r][i] = t_m[r][0] * w[0][i] + t_m[r][1] * w[1][i] + t_m[r][2] * w[2][i];
                        }
                    }
                    if dwn == 0.0 || rt.is_some_and(|r| r / (1.0 - r) * dwn < newton_tol) {
                        conv = true;
                        break;
                    }
                    dwn_old = Some(dwn);
                }
                out = (z, it, rt);
                if conv || current_jac {
                    break;
                }
                jm = jac(t, &y);
                c.jacs += 1;
                current_jac = true;
                lus = None;
            }
            if !conv {
                h_abs *= 0.5;
                lus = None;
                c.rejected += 1;
                continue;
            }
            let (zz, it, rt) = out;
            let mut yn = [0.0; N];
            for i in 0..N {
                yn[i] = y[i] + zz[2][i];
            }
            let mut ze = [0.0; N];
            for i in 0..N {
                ze[i] = (zz[0][i] * e[0] + zz[1][i] * e[1] + zz[2][i] * e[2]) / hh;
            }
            let (lr, _) = lus.as_ref().unwrap();
            let mut er = [0.0; N];
            for i in 0..N {
                er[i] = fy[i] + ze[i];
            }
            solve(lr, &mut er);
            let mut sc2 = [0.0; N];
            for i in 0..N {
                sc2[i] = atol + y[i].abs().max(yn[i].abs()) * rtol;
            }
            let mut enorm = norm(&er, &sc2);
            let safety = 0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + it) as f64;
            if rejected && enorm > 1.0 {
                let mut ye = [0.0; N];
                for i in 0..N {
                    ye[i] = y[i] + er[i];
                }
                let fe = f(t, &ye);
                c.evals += 1;
                for i in 0..N {
                    er[i] = fe[i] + ze[i];
                }
                solve(lr, &mut er);
                enorm = norm(&er, &sc2);
            }
            if enorm > 1.0 {
                let fac = predict(h_abs, h_abs_old, enorm, err_old);
                h_abs *= crate::MIN_FACTOR.max(safety * fac);
                lus = None;
                rejected = true;
                c.rejected += 1;
                continue;
            }
            h = hh;
            z = zz;
            n_iter = it;
            rate = rt;
            en = enorm;
            y_new = yn;
            break;
        }
        c.steps += 1;
        let safety = 0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + n_iter) as f64;
        let recompute_jac = n_iter > 2 && rate.is_some_and(|r| r > 1e-3);
        let mut factor = predict(h_abs, h_abs_old, en, err_old);
        factor = crate::MAX_FACTOR.min(safety * factor);
        if !recompute_jac && factor < 1.2 {
            factor = 1.0;
        } else {
            lus = None;
        }
        let f_new = f(t + h, &y_new);
        c.evals += 1;
        if recompute_jac {
            jm = jac(t + h, &y_new);
            c.jacs += 1;
            current_jac = true;
        } else {
            current_jac = false;
        }
        h_abs_old = Some(h_abs);
        err_old = Some(en);
        h_abs *= factor;
        t += h;
        y = y_new;
        fy = f_new;
        let mut qq = [[0.0; 3]; N];
        for i in 0..N {
            for k in 0..3 {
                qq[i][k] = z[0][i] * p[0][k] + z[1][i] * p[1][k] + z[2][i] * p[2][k];
            }
        }
        q = Some(qq);
        h_last = h;
    }
    (y, c)
}
