//! Execution of compiled code: one step, reset and construction, in the order of `ir.rs`.
//!
//! Every function has a `CHECK` parameter: with `CHECK = true` each real value stored
//! is tested and the first one that is not finite stops the run with the index of its
//! site ([`crate::code::Code::sites`]); with `CHECK = false` the tests compile away and
//! the functions never fail.

use crate::code::{Code, State, Stmt, Update};
use sit_runtime::{Deriv, hysteresis, integral, integral_limited, lag, rising};

/// The first non-finite value stored: the index of its site, and the value.
pub(crate) type Fault = (usize, f64);

/// A fresh state for `code`: every free param and input at its default, then reset.
pub(crate) fn construct(code: &Code) -> State {
    let mut s = State {
        reals: vec![0.0; code.reals],
        flags: vec![false; code.flags],
        derivs: vec![Deriv::new(); code.mems],
    };
    for node in &code.nodes {
        for d in &node.defaults {
            let _ = d.apply::<false>(&mut s);
        }
    }
    let _ = reset::<false>(code, &mut s, 0);
    s
}

/// Resets node `n` and its submodels (params and inputs are left alone).
pub(crate) fn reset<const CHECK: bool>(code: &Code, s: &mut State, n: usize) -> Result<(), Fault> {
    let node = &code.nodes[n];
    for sub in &node.subs {
        for b in &sub.params {
            b.apply::<CHECK>(s)?;
        }
        reset::<CHECK>(code, s, sub.node)?;
    }
    for sub in &node.subs {
        s.flags[sub.on] = sub.initially_on;
    }
    for init in &node.inits {
        init.apply::<CHECK>(s)?;
    }
    for d in &mut s.derivs[node.mems.clone()] {
        d.reset();
    }
    s.flags[node.fired.clone()].fill(false);
    s.reals[node.time] = 0.0;
    s.reals[node.dt] = 0.0;
    for ev in &node.events {
        s.flags[ev.value] = false;
        s.flags[ev.prev] = ev.cond.eval(&s.reals, &s.flags);
    }
    Ok(())
}

/// Advances node `n` (and its switched-on submodels) by one step of `dt`.
pub(crate) fn step<const CHECK: bool>(
    code: &Code,
    s: &mut State,
    n: usize,
    dt: f64,
) -> Result<(), Fault> {
    let node = &code.nodes[n];
    s.reals[node.dt] = dt;
    for sub in &node.subs {
        if s.flags[sub.on] {
            for b in &sub.inputs {
                b.apply::<CHECK>(s)?;
            }
            step::<CHECK>(code, s, sub.node, dt)?;
        }
    }
    for ev in &node.events {
        let cond = ev.cond.eval(&s.reals, &s.flags);
        let mut prev = s.flags[ev.prev];
        s.flags[ev.value] = rising(cond, &mut prev);
        s.flags[ev.prev] = prev;
    }
    s.flags[node.fired.clone()].fill(false);
    run::<CHECK>(code, s, &node.body, dt)?;
    s.reals[node.time] += dt;
    Ok(())
}

/// Runs statements top to bottom.
fn run<const CHECK: bool>(code: &Code, s: &mut State, body: &[Stmt], dt: f64) -> Result<(), Fault> {
    for st in body {
        match st {
            Stmt::Assign {
                slot,
                rhs,
                fired,
                site,
            } => {
                let value = assign(s, *slot, rhs, *fired, dt);
                if CHECK && !value.is_finite() {
                    return Err((*site, value));
                }
            }
            Stmt::Otherwise { fired, assign: a } => {
                if !s.flags[*fired] {
                    run::<CHECK>(code, s, std::slice::from_ref(a), dt)?;
                }
            }
            Stmt::If { cond, then } => {
                if cond.eval(&s.reals, &s.flags) {
                    run::<CHECK>(code, s, then, dt)?;
                }
            }
            Stmt::SetFlag { slot, value } => s.flags[*slot] = *value,
            Stmt::Reset(node) => reset::<CHECK>(code, s, *node)?,
        }
    }
    Ok(())
}

/// `slot = rhs`, calling the runtime procedure of the right-hand side; returns the
/// value stored.
#[inline]
fn assign(s: &mut State, slot: usize, rhs: &Update, fired: Option<usize>, dt: f64) -> f64 {
    let r = &s.reals;
    let y = r[slot];
    let value = match rhs {
        Update::Expr(e) => e.eval(r),
        Update::Integral(x) => integral(y, x.eval(r), dt),
        Update::IntegralLimited(xs) => {
            let (x, lo, hi) = (xs.0.eval(r), xs.1.eval(r), xs.2.eval(r));
            integral_limited(y, x, lo, hi, dt)
        }
        Update::Lag(xs) => {
            let (x, t, k) = (xs.0.eval(r), xs.1.eval(r), xs.2.eval(r));
            lag(y, x, t, k, dt)
        }
        Update::Deriv(x, mem) => {
            let x = x.eval(r);
            s.derivs[*mem].next(x, dt)
        }
        Update::Hysteresis(xs) => {
            let (x, lo, hi, a) = (xs.0.eval(r), xs.1.eval(r), xs.2.eval(r), xs.3.eval(r));
            hysteresis(y, x, lo, hi, a)
        }
    };
    s.reals[slot] = value;
    if let Some(f) = fired {
        s.flags[f] = true;
    }
    value
}
