//! The execution engine: flat programs of operations over slots, and the loop that runs them.
//!
//! A program ([`Op`] list) is the step or the reset of a model instance tree, lowered from
//! the statement trees of [`crate::code`] by [`crate::lower`]. Every operand is a slot:
//! the model's own reals and flags, literals (real slots written once at construction)
//! and temporaries (slots past the model's, reused from statement to statement). Each
//! arithmetic operation is exactly one IEEE operation of the IR tree, in the tree's order,
//! stored to a slot (an `f64` store rounds nothing), so values are those of the generated
//! code to the bit. Control flow is forward jumps; `&` and `|` are lowered to jumps.

use sit_runtime::{Deriv, hysteresis, integral, integral_limited, lag, rising};

/// A slot index (reals or flags, depending on the operation).
pub(crate) type Slot = u32;

/// One operation. `d` is the slot written, `a`, `b`, ... the slots read, `t` a jump
/// target (an index into the program).
#[derive(Debug, Clone)]
pub(crate) enum Op {
    /// `r[d] = r[a]`.
    Copy { d: Slot, a: Slot },
    /// `r[d] = -r[a]`.
    Neg { d: Slot, a: Slot },
    /// `r[d] = r[a] + r[b]`.
    Add { d: Slot, a: Slot, b: Slot },
    /// `r[d] = r[a] - r[b]`.
    Sub { d: Slot, a: Slot, b: Slot },
    /// `r[d] = r[a] * r[b]`.
    Mul { d: Slot, a: Slot, b: Slot },
    /// `r[d] = r[a] / r[b]`.
    Div { d: Slot, a: Slot, b: Slot },
    /// `r[d] = f(r[a])`.
    F1 { f: fn(f64) -> f64, d: Slot, a: Slot },
    /// `r[d] = f(r[a], r[b])`.
    F2 {
        f: fn(f64, f64) -> f64,
        d: Slot,
        a: Slot,
        b: Slot,
    },
    /// `r[d] = f(r[a], r[b], r[c])` (boxed: rare, and it would double the size of `Op`).
    F3(Box<(fn(f64, f64, f64) -> f64, [Slot; 4])>),
    /// `r[d] = integral(r[d], r[a], dt)`.
    Integral { d: Slot, a: Slot },
    /// `r[d] = integral_limited(r[d], r[a], r[lo], r[hi], dt)`.
    IntegralLimited {
        d: Slot,
        a: Slot,
        lo: Slot,
        hi: Slot,
    },
    /// `r[d] = lag(r[d], r[a], r[t], r[k], dt)`.
    Lag { d: Slot, a: Slot, t: Slot, k: Slot },
    /// `r[d] = derivs[mem].next(r[a], dt)`.
    Deriv { d: Slot, a: Slot, mem: Slot },
    /// `r[d] = hysteresis(r[d], r[a], r[lo], r[hi], r[b])`.
    Hysteresis {
        d: Slot,
        a: Slot,
        lo: Slot,
        hi: Slot,
        b: Slot,
    },
    /// `r[d] = dt`.
    SetDt { d: Slot },
    /// `r[d] += dt`.
    AdvanceTime { d: Slot },
    /// Stops the program with the fault `(site, r[a])` if `r[a]` is not finite (only in
    /// checked programs).
    Check { a: Slot, site: u32 },
    /// `f[d] = v`.
    SetFlag { d: Slot, v: bool },
    /// `f[d] = f[a]`.
    CopyFlag { d: Slot, a: Slot },
    /// `f[start..end] = false`.
    ClearFlags { start: Slot, end: Slot },
    /// `f[d] = rising(f[a], &mut f[prev])`.
    Rising { d: Slot, a: Slot, prev: Slot },
    /// Resets the `deriv` memories `start..end`.
    ResetDerivs { start: Slot, end: Slot },
    /// Runs the reset program of node `node` (its checked one if `check`).
    Reset { node: Slot, check: bool },
    /// Jumps to `t`.
    Jump { t: Slot },
    /// Jumps to `t` if `f[a]`.
    JumpIf { a: Slot, t: Slot },
    /// Jumps to `t` unless `f[a]`.
    JumpUnless { a: Slot, t: Slot },
    /// Jumps to `t` if `r[a] < r[b]`.
    JumpIfLt { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` unless `r[a] < r[b]` (also when either is NaN).
    JumpUnlessLt { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` if `r[a] <= r[b]`.
    JumpIfLe { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` unless `r[a] <= r[b]`.
    JumpUnlessLe { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` if `r[a] == r[b]`.
    JumpIfEq { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` unless `r[a] == r[b]`.
    JumpUnlessEq { a: Slot, b: Slot, t: Slot },
}

/// The first non-finite value stored: the index of its site, and the value.
pub(crate) type Fault = (usize, f64);

/// The mutable values a program works on.
pub(crate) struct Regs<'s> {
    /// Real slots (model values, literals, temporaries).
    pub r: &'s mut [f64],
    /// Flag slots.
    pub f: &'s mut [bool],
    /// `deriv` memories.
    pub m: &'s mut [Deriv],
}

/// The reset programs of every node, unchecked and checked (for [`Op::Reset`]).
pub(crate) trait Resets {
    /// The reset program of `node`.
    fn reset(&self, node: usize, check: bool) -> &[Op];
}

/// Runs `ops` from the first operation to the end, `dt` being the current step.
pub(crate) fn run(
    ops: &[Op],
    s: &mut Regs<'_>,
    dt: f64,
    resets: &impl Resets,
) -> Result<(), Fault> {
    let (r, f) = (&mut *s.r, &mut *s.f);
    let mut pc = 0;
    while let Some(op) = ops.get(pc) {
        pc += 1;
        macro_rules! r {
            ($i:expr) => {
                r[$i as usize]
            };
        }
        macro_rules! f {
            ($i:expr) => {
                f[$i as usize]
            };
        }
        macro_rules! jump {
            ($cond:expr, $t:expr) => {
                if $cond {
                    pc = $t as usize;
                }
            };
        }
        match *op {
            Op::Copy { d, a } => r!(d) = r!(a),
            Op::Neg { d, a } => r!(d) = -r!(a),
            Op::Add { d, a, b } => r!(d) = r!(a) + r!(b),
            Op::Sub { d, a, b } => r!(d) = r!(a) - r!(b),
            Op::Mul { d, a, b } => r!(d) = r!(a) * r!(b),
            Op::Div { d, a, b } => r!(d) = r!(a) / r!(b),
            Op::F1 { f, d, a } => r!(d) = f(r!(a)),
            Op::F2 { f, d, a, b } => r!(d) = f(r!(a), r!(b)),
            Op::F3(ref x) => {
                let (f, [d, a, b, c]) = **x;
                r!(d) = f(r!(a), r!(b), r!(c));
            }
            Op::Integral { d, a } => r!(d) = integral(r!(d), r!(a), dt),
            Op::IntegralLimited { d, a, lo, hi } => {
                r!(d) = integral_limited(r!(d), r!(a), r!(lo), r!(hi), dt)
            }
            Op::Lag { d, a, t, k } => r!(d) = lag(r!(d), r!(a), r!(t), r!(k), dt),
            Op::Deriv { d, a, mem } => r!(d) = s.m[mem as usize].next(r!(a), dt),
            Op::Hysteresis { d, a, lo, hi, b } => {
                r!(d) = hysteresis(r!(d), r!(a), r!(lo), r!(hi), r!(b))
            }
            Op::SetDt { d } => r!(d) = dt,
            Op::AdvanceTime { d } => r!(d) += dt,
            Op::Check { a, site } => {
                if !r!(a).is_finite() {
                    return Err((site as usize, r!(a)));
                }
            }
            Op::SetFlag { d, v } => f!(d) = v,
            Op::CopyFlag { d, a } => f!(d) = f!(a),
            Op::ClearFlags { start, end } => f[start as usize..end as usize].fill(false),
            Op::Rising { d, a, prev } => {
                let mut p = f!(prev);
                f!(d) = rising(f!(a), &mut p);
                f!(prev) = p;
            }
            Op::ResetDerivs { start, end } => {
                for m in &mut s.m[start as usize..end as usize] {
                    m.reset();
                }
            }
            Op::Reset { node, check } => {
                let mut inner = Regs {
                    r: &mut *r,
                    f: &mut *f,
                    m: &mut *s.m,
                };
                run(resets.reset(node as usize, check), &mut inner, dt, resets)?;
            }
            Op::Jump { t } => pc = t as usize,
            Op::JumpIf { a, t } => jump!(f!(a), t),
            Op::JumpUnless { a, t } => jump!(!f!(a), t),
            Op::JumpIfLt { a, b, t } => jump!(r!(a) < r!(b), t),
            Op::JumpUnlessLt { a, b, t } => jump!(!(r!(a) < r!(b)), t),
            Op::JumpIfLe { a, b, t } => jump!(r!(a) <= r!(b), t),
            Op::JumpUnlessLe { a, b, t } => jump!(!(r!(a) <= r!(b)), t),
            Op::JumpIfEq { a, b, t } => jump!(r!(a) == r!(b), t),
            Op::JumpUnlessEq { a, b, t } => jump!(r!(a) != r!(b), t),
        }
    }
    Ok(())
}
