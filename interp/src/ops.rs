//! The execution engine: flat programs of operations over slots and an accumulator.
//!
//! A program ([`Op`] list) is the step or the reset of a model instance tree, lowered from
//! the statement trees of [`crate::code`] by [`crate::flatten`]. Operands are slots (the
//! model's reals and flags, literals written once at construction, temporaries) or the
//! accumulator `acc`, a local of [`run`] that stays in a register: every real operation
//! leaves its result in `acc` *and* stores it to its slot `d`, so the next operation of
//! an expression chain reads it from the register instead of waiting for the store to
//! be forwarded from memory (which would double the latency of a dependency chain).
//!
//! Each arithmetic operation is exactly one IEEE operation of the IR tree, in the tree's
//! order (an `f64` in a register or a slot is the same value: nothing is fused or
//! widened), so values are those of the generated code to the bit. Control flow is
//! forward jumps; `&` and `|` are lowered to jumps.

pub(crate) use crate::linear::Linear;
use sit_runtime::table::TableReach;
use sit_runtime::{Clock, Deriv, hysteresis, integral, integral_limited, lag, rising, timer};

const _: () = assert!(std::mem::size_of::<Op>() == 16);

/// A slot index (reals or flags, depending on the operation).
pub(crate) type Slot = u32;

/// One operation. `d` is the real slot written (the result is also left in `acc`), `a`,
/// `b`, ... the slots read, `t` a jump target (an index into the program). In names,
/// `SS` reads `r[a]` and `r[b]`, `AS` reads `acc` and `r[b]`, `SA` reads `r[a]` and `acc`.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    /// `r[a]`.
    Copy { d: Slot, a: Slot },
    /// `r[a]` unless `f[flag]` (then nothing is stored and `acc` is left alone).
    CopyUnless { flag: Slot, d: Slot, a: Slot },
    /// `-r[a]`.
    NegS { d: Slot, a: Slot },
    /// `-acc`.
    NegA { d: Slot },
    /// `r[a] + r[b]`.
    AddSS { d: Slot, a: Slot, b: Slot },
    /// `acc + r[b]`.
    AddAS { d: Slot, b: Slot },
    /// `r[a] + acc`.
    AddSA { d: Slot, a: Slot },
    /// `r[a] - r[b]`.
    SubSS { d: Slot, a: Slot, b: Slot },
    /// `acc - r[b]`.
    SubAS { d: Slot, b: Slot },
    /// `r[a] - acc`.
    SubSA { d: Slot, a: Slot },
    /// `r[a] * r[b]`.
    MulSS { d: Slot, a: Slot, b: Slot },
    /// `acc * r[b]`.
    MulAS { d: Slot, b: Slot },
    /// `r[a] * acc`.
    MulSA { d: Slot, a: Slot },
    /// `r[a] / r[b]`.
    DivSS { d: Slot, a: Slot, b: Slot },
    /// `acc / r[b]`.
    DivAS { d: Slot, b: Slot },
    /// `r[a] / acc`.
    DivSA { d: Slot, a: Slot },
    /// `integral(r[d], r[a], r[dt])`.
    IntegralS { d: Slot, a: Slot, dt: Slot },
    /// `integral(r[d], acc, r[dt])`.
    IntegralA { d: Slot, dt: Slot },
    /// `integral(r[d], acc, r[dt])` stored to `r[d]`, then `integral(r[e], r[d],
    /// r[dt])` (a velocity, then the position it moves).
    Integral2A { d: Slot, e: Slot, dt: Slot },
    /// [`Op::Copy`], then `f[fl] = true` (a rule that sets its `otherwise` flag; the
    /// flag is a `u16`, so that the operation still takes 16 bytes).
    CopyF { fl: u16, d: Slot, a: Slot },
    /// [`Op::AddSS`], then `f[fl] = true`.
    AddSSF { fl: u16, d: Slot, a: Slot, b: Slot },
    /// [`Op::AddAS`], then `f[fl] = true`.
    AddASF { fl: u16, d: Slot, b: Slot },
    /// [`Op::AddSA`], then `f[fl] = true`.
    AddSAF { fl: u16, d: Slot, a: Slot },
    /// [`Op::SubSS`], then `f[fl] = true`.
    SubSSF { fl: u16, d: Slot, a: Slot, b: Slot },
    /// [`Op::SubAS`], then `f[fl] = true`.
    SubASF { fl: u16, d: Slot, b: Slot },
    /// [`Op::SubSA`], then `f[fl] = true`.
    SubSAF { fl: u16, d: Slot, a: Slot },
    /// [`Op::MulSS`], then `f[fl] = true`.
    MulSSF { fl: u16, d: Slot, a: Slot, b: Slot },
    /// [`Op::MulAS`], then `f[fl] = true`.
    MulASF { fl: u16, d: Slot, b: Slot },
    /// [`Op::MulSA`], then `f[fl] = true`.
    MulSAF { fl: u16, d: Slot, a: Slot },
    /// [`Op::DivSS`], then `f[fl] = true`.
    DivSSF { fl: u16, d: Slot, a: Slot, b: Slot },
    /// [`Op::DivAS`], then `f[fl] = true`.
    DivASF { fl: u16, d: Slot, b: Slot },
    /// [`Op::DivSA`], then `f[fl] = true`.
    DivSAF { fl: u16, d: Slot, a: Slot },
    /// [`Op::IntegralS`], then `f[fl] = true`.
    IntegralSF { fl: u16, d: Slot, a: Slot, dt: Slot },
    /// [`Op::IntegralA`], then `f[fl] = true`.
    IntegralAF { fl: u16, d: Slot, dt: Slot },
    /// A call of a runtime function or procedure other than `integral` (boxed, so
    /// that an `Op` takes 16 bytes).
    Call(Box<Call>),
    /// Stops the program with the fault `(site, r[a])` if `|r[a]|` is not below the
    /// check's bound ([`crate::finite::bound`]: infinity, so not finite, unless
    /// [`crate::Instance::step_checked_below`] set it) (only in checked programs).
    Check { a: Slot, site: u32 },
    /// `f[d] = v`.
    SetFlag { d: Slot, v: bool },
    /// `f[d] = v; f[e] = w`.
    SetFlag2 { d: Slot, e: Slot, v: bool, w: bool },
    /// `f[d] = f[a]`.
    CopyFlag { d: Slot, a: Slot },
    /// `f[start..end] = false`.
    ClearFlags { start: Slot, end: Slot },
    /// `f[d] = rising(f[a], &mut f[prev])`.
    Rising { d: Slot, a: Slot, prev: Slot },
    /// Resets the `deriv` memories `start..end`.
    ResetDerivs { start: Slot, end: Slot },
    /// `r[d] = clocks[clock].advance(r[dt])`: a submodel's time.
    Tick { d: Slot, clock: Slot, dt: Slot },
    /// `clocks[clock].reset()`.
    ResetClock { clock: Slot },
    /// `r[d] = timer(r[d], f[a], r[dt])`.
    Timer { d: Slot, a: Slot, dt: Slot },
    /// Runs the reset program of node `node` (its checked one if `check`).
    Reset { node: Slot, check: bool },
    /// Runs instantaneous phase `id` to its end (its checked programs if `check`).
    Phase { id: Slot, check: bool },
    /// Steps the node of sub-step program `id` by `r[dt]`, divided as its condition
    /// and count say (its checked programs if `check`).
    Substeps { id: Slot, dt: Slot, check: bool },
    /// The end of a loop's body (see [`Again`]).
    Again(Box<Again>),
    /// An implicit method's factorisation, stage solve or step underflow (see
    /// [`Linear`]).
    Linear(Box<Linear>),
    /// Jumps to `t`.
    Jump { t: Slot },
    /// Jumps to `t` if `f[a]`.
    JumpIf { a: Slot, t: Slot },
    /// Jumps to `t` unless `f[a]`.
    JumpUnless { a: Slot, t: Slot },
    /// Jumps to `t` if `f[a]` or `f[b]`.
    JumpIfEither { a: Slot, b: Slot, t: Slot },
    /// Jumps to `t` if `x < y` (`x`, `y` as in the names of the arithmetic).
    JumpIfLtSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpIfLtSS`].
    JumpIfLtAS { b: Slot, t: Slot },
    /// See [`Op::JumpIfLtSS`].
    JumpIfLtSA { a: Slot, t: Slot },
    /// Jumps to `t` unless `x < y` (also when either is NaN).
    JumpUnlessLtSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpUnlessLtSS`].
    JumpUnlessLtAS { b: Slot, t: Slot },
    /// See [`Op::JumpUnlessLtSS`].
    JumpUnlessLtSA { a: Slot, t: Slot },
    /// Jumps to `t` if `x <= y`.
    JumpIfLeSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpIfLeSS`].
    JumpIfLeAS { b: Slot, t: Slot },
    /// See [`Op::JumpIfLeSS`].
    JumpIfLeSA { a: Slot, t: Slot },
    /// Jumps to `t` unless `x <= y`.
    JumpUnlessLeSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpUnlessLeSS`].
    JumpUnlessLeAS { b: Slot, t: Slot },
    /// See [`Op::JumpUnlessLeSS`].
    JumpUnlessLeSA { a: Slot, t: Slot },
    /// Jumps to `t` if `x == y`.
    JumpIfEqSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpIfEqSS`].
    JumpIfEqAS { b: Slot, t: Slot },
    /// Jumps to `t` unless `x == y`.
    JumpUnlessEqSS { a: Slot, b: Slot, t: Slot },
    /// See [`Op::JumpUnlessEqSS`].
    JumpUnlessEqAS { b: Slot, t: Slot },
}

/// The operations of [`Op::Call`]; each stores its result to `r[d]` and `acc`.
#[derive(Debug, Clone)]
pub(crate) enum Call {
    /// `f(r[a])`.
    F1S { f: fn(f64) -> f64, d: Slot, a: Slot },
    /// `f(acc)`.
    F1A { f: fn(f64) -> f64, d: Slot },
    /// `f(r[a], r[b])`.
    F2 {
        f: fn(f64, f64) -> f64,
        d: Slot,
        a: Slot,
        b: Slot,
    },
    /// `f(r[a], r[b], r[c])`.
    F3 {
        f: fn(f64, f64, f64) -> f64,
        d: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
    },
    /// A 1-D lookup table at `r[a]`, its reads counted in `reach[k]`.
    Table1 {
        t: std::sync::Arc<sit_lir::LookupTable>,
        k: Slot,
        d: Slot,
        a: Slot,
    },
    /// A 2-D lookup table at `(r[a], r[b])`, its reads counted in `reach[k]`.
    Table2 {
        t: std::sync::Arc<sit_lir::LookupTable>,
        k: Slot,
        d: Slot,
        a: Slot,
        b: Slot,
    },
    /// The slope of a 1-D lookup table at `r[a]` (not counted as a read).
    Slope1 {
        t: std::sync::Arc<sit_lir::LookupTable>,
        d: Slot,
        a: Slot,
    },
    /// The slope of a 2-D lookup table along argument `axis` at `(r[a], r[b])`.
    Slope2 {
        t: std::sync::Arc<sit_lir::LookupTable>,
        axis: u8,
        d: Slot,
        a: Slot,
        b: Slot,
    },
    /// `integral_limited(r[d], r[a], r[lo], r[hi], r[dt])`.
    IntegralLimited {
        d: Slot,
        a: Slot,
        lo: Slot,
        hi: Slot,
        dt: Slot,
    },
    /// `lag(r[d], r[a], r[t], r[k], r[dt])`.
    Lag {
        d: Slot,
        a: Slot,
        t: Slot,
        k: Slot,
        dt: Slot,
    },
    /// `derivs[mem].next(r[a], r[dt])`.
    Deriv {
        d: Slot,
        a: Slot,
        mem: Slot,
        dt: Slot,
    },
    /// `hysteresis(r[d], r[a], r[lo], r[hi], r[b])`.
    Hysteresis {
        d: Slot,
        a: Slot,
        lo: Slot,
        hi: Slot,
        b: Slot,
    },
}

/// Runs one [`Call`]; returns the value stored (kept out of [`run`]'s loop, whose
/// registers it would otherwise crowd).
#[inline(never)]
fn call(c: &Call, r: &mut [f64], m: &mut [Deriv], reach: &mut [TableReach], acc: f64) -> f64 {
    let r_ = |i: Slot| r[i as usize];
    let (d, value) = match *c {
        Call::F1S { f, d, a } => (d, f(r_(a))),
        Call::F1A { f, d } => (d, f(acc)),
        Call::F2 { f, d, a, b } => (d, f(r_(a), r_(b))),
        Call::F3 { f, d, a, b, c } => (d, f(r_(a), r_(b), r_(c))),
        Call::Table1 { ref t, k, d, a } => {
            let x = r_(a);
            // Counting reads the argument only: the value is the lookup's.
            if let Some(reach) = reach.get_mut(k as usize) {
                reach.note1(x);
            }
            (d, lookup1(t, x))
        }
        Call::Table2 { ref t, k, d, a, b } => {
            let (x, y) = (r_(a), r_(b));
            if let Some(reach) = reach.get_mut(k as usize) {
                reach.note2(x, y);
            }
            (d, lookup2(t, x, y))
        }
        Call::Slope1 { ref t, d, a } => (d, slope1(t, r_(a))),
        Call::Slope2 {
            ref t,
            axis,
            d,
            a,
            b,
        } => (d, slope2(t, axis, r_(a), r_(b))),
        Call::IntegralLimited { d, a, lo, hi, dt } => {
            (d, integral_limited(r_(d), r_(a), r_(lo), r_(hi), r_(dt)))
        }
        Call::Lag { d, a, t, k, dt } => (d, lag(r_(d), r_(a), r_(t), r_(k), r_(dt))),
        Call::Deriv { d, a, mem, dt } => (d, m[mem as usize].next(r_(a), r_(dt))),
        Call::Hysteresis { d, a, lo, hi, b } => {
            (d, hysteresis(r_(d), r_(a), r_(lo), r_(hi), r_(b)))
        }
    };
    r[d as usize] = value;
    value
}

/// `sit_runtime::table::lookup1` on the data of a checked 1-D table.
pub(crate) fn lookup1(t: &sit_lir::LookupTable, x: f64) -> f64 {
    let grid = t.grids.first().map_or(&[][..], |g| g.as_slice());
    sit_runtime::table::lookup1(grid, &t.values, beyond(t.beyond), x)
}

/// `sit_runtime::table::lookup2` on the data of a checked 2-D table.
pub(crate) fn lookup2(t: &sit_lir::LookupTable, x: f64, y: f64) -> f64 {
    let grid = |k: usize| t.grids.get(k).map_or(&[][..], |g| g.as_slice());
    sit_runtime::table::lookup2(grid(0), grid(1), &t.values, beyond(t.beyond), x, y)
}

/// `sit_runtime::table::slope1` on the data of a checked 1-D table.
pub(crate) fn slope1(t: &sit_lir::LookupTable, x: f64) -> f64 {
    let grid = t.grids.first().map_or(&[][..], |g| g.as_slice());
    sit_runtime::table::slope1(grid, &t.values, beyond(t.beyond), x)
}

/// `sit_runtime::table::slope2_x` (`axis` 0) or `slope2_y` (1) on the data of a
/// checked 2-D table.
pub(crate) fn slope2(t: &sit_lir::LookupTable, axis: u8, x: f64, y: f64) -> f64 {
    let grid = |k: usize| t.grids.get(k).map_or(&[][..], |g| g.as_slice());
    let slope = match axis {
        0 => sit_runtime::table::slope2_x,
        _ => sit_runtime::table::slope2_y,
    };
    slope(grid(0), grid(1), &t.values, beyond(t.beyond), x, y)
}

pub(crate) fn beyond(b: sit_lir::Beyond) -> sit_runtime::table::Beyond {
    match b {
        sit_lir::Beyond::Clamp => sit_runtime::table::Beyond::Clamp,
        sit_lir::Beyond::Extrapolate => sit_runtime::table::Beyond::Extrapolate,
    }
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
    /// The clock of each node.
    pub c: &'s mut [Clock],
    /// The reads of each table.
    pub t: &'s mut [TableReach],
}

/// The end of the body of a loop (`sit_lir::Stmt::Repeat`): unless `f[until]`,
/// if `r[count] >= limit` leave the loop when `leave`, else stop the program; else go
/// back to `to`, the loop's first operation (the only backward jump).
#[derive(Debug, Clone)]
pub(crate) struct Again {
    /// The flag slot of the end condition.
    pub until: Slot,
    /// The real slot of the counter of runs.
    pub count: Slot,
    /// The most runs.
    pub limit: u64,
    /// Whether the loop is left at `limit` rather than stopping the program.
    pub leave: bool,
    /// The real slot of the counter of located events and the most allowed.
    pub events: Option<(Slot, u64)>,
    /// The loop's first operation.
    pub to: usize,
    /// The real slot of the model's time (for the run-time error).
    pub time: Slot,
    /// The model's name (for the run-time error).
    pub model: String,
    /// The integration method's name (for the run-time error).
    pub method: &'static str,
}

/// The reset programs of every node, unchecked and checked (for [`Op::Reset`]), and the
/// programs of the phases (for [`Op::Phase`]).
pub(crate) trait Resets {
    /// The reset program of `node`.
    fn reset(&self, node: usize, check: bool) -> &[Op];

    /// The programs of phase `id`.
    fn phase(&self, id: usize) -> &crate::flatten::PhaseProgram;

    /// The sub-step programs `id`.
    fn substeps(&self, id: usize) -> &crate::flatten::SubstepProgram;
}

/// One step of `dt` of the node of `p`, divided as the contract says
/// (`sit_lir::SubstepLink`).
fn substeps(
    p: &crate::flatten::SubstepProgram,
    dt: f64,
    check: bool,
    s: &mut Regs<'_>,
    resets: &impl Resets,
) -> Result<(), Fault> {
    let c = usize::from(check);
    s.r[p.dt as usize] = dt;
    run(&p.enter[c], s, resets)?;
    if !s.f[p.go[c] as usize] {
        return run(&p.step[c], s, resets);
    }
    let count = s.r[p.count[c] as usize];
    let n = sit_runtime::substep_count(count, p.limit, &p.model, s.r[p.time as usize]);
    let h = dt / n as f64;
    let clock = s.c[p.node];
    for _ in 0..n {
        s.r[p.dt as usize] = h;
        run(&p.step[c], s, resets)?;
    }
    s.c[p.node] = clock;
    s.r[p.time as usize] = s.c[p.node].advance(dt);
    Ok(())
}

/// The number of slots of a small bank: a program whose real and flag slots all fit runs
/// [`fast`] over arrays of this length indexed by a `u8`, where no access needs a bounds
/// check (see [`Bank`]).
pub(crate) const SMALL: usize = 256;

/// Slots of one kind (reals or flags) as [`fast`] reads them: a slice, where each access
/// is checked against its length, or an array of [`SMALL`] slots indexed by the slot's
/// low byte, where the compiler elides every check (`u8` cannot exceed the length).
/// Programs run over arrays only when every slot they name is below [`SMALL`]
/// ([`run`] checks the lengths), so the low byte is the slot itself.
pub(crate) trait Bank<T> {
    /// The slot `i`.
    fn at(&mut self, i: Slot) -> &mut T;
    /// Every slot, as a slice.
    fn all(&mut self) -> &mut [T];
}

impl<T> Bank<T> for [T] {
    #[inline(always)]
    fn at(&mut self, i: Slot) -> &mut T {
        &mut self[i as usize]
    }

    #[inline(always)]
    fn all(&mut self) -> &mut [T] {
        self
    }
}

impl<T> Bank<T> for [T; SMALL] {
    #[inline(always)]
    fn at(&mut self, i: Slot) -> &mut T {
        // Exact: the programs run over arrays name no slot beyond `SMALL`.
        &mut self[usize::from(i as u8)]
    }

    #[inline(always)]
    fn all(&mut self) -> &mut [T] {
        self
    }
}

/// Runs `ops` from the first operation to the end.
///
/// The operations that call functions (runtime functions, resets, clearing ranges)
/// leave the loop of [`fast`] and are run here: the loop itself makes no call, so the
/// compiler keeps its values in registers (the calling convention saves no
/// floating-point register, and few general ones, across a call). The step's `dt` is
/// read from its slot for the same reason.
///
/// When the state has exactly [`SMALL`] real and flag slots (the lowering pads the
/// slots of every program that fits), the loop runs over arrays without bounds checks.
pub(crate) fn run(ops: &[Op], s: &mut Regs<'_>, resets: &impl Resets) -> Result<(), Fault> {
    match (
        <&mut [f64; SMALL]>::try_from(&mut *s.r),
        <&mut [bool; SMALL]>::try_from(&mut *s.f),
    ) {
        (Ok(r), Ok(f)) => run_in(ops, r, f, s.m, s.c, s.t, resets),
        _ => run_in(ops, &mut *s.r, &mut *s.f, s.m, s.c, s.t, resets),
    }
}

/// [`run`] over banks `r` and `f`.
#[inline(always)]
fn run_in<R: Bank<f64> + ?Sized, F: Bank<bool> + ?Sized>(
    ops: &[Op],
    r: &mut R,
    f: &mut F,
    m: &mut [Deriv],
    c: &mut [Clock],
    t: &mut [TableReach],
    resets: &impl Resets,
) -> Result<(), Fault> {
    let mut acc = 0.0f64;
    let mut pc = 0;
    while let Some(op) = fast(ops, &mut pc, r, f, &mut acc)? {
        let s = Regs {
            r: r.all(),
            f: f.all(),
            m: &mut *m,
            c: &mut *c,
            t: &mut *t,
        };
        match *op {
            Op::Call(ref c) => acc = call(c, s.r, s.m, s.t, acc),
            Op::ClearFlags { start, end } => s.f[start as usize..end as usize].fill(false),
            Op::ResetDerivs { start, end } => {
                for m in &mut s.m[start as usize..end as usize] {
                    m.reset();
                }
            }
            Op::Tick { d, clock, dt } => {
                s.r[d as usize] = s.c[clock as usize].advance(s.r[dt as usize]);
            }
            Op::ResetClock { clock } => s.c[clock as usize].reset(),
            Op::Timer { d, a, dt } => {
                let d = d as usize;
                s.r[d] = timer(s.r[d], s.f[a as usize], s.r[dt as usize]);
            }
            Op::Reset { node, check } => {
                let mut inner = Regs {
                    r: &mut *s.r,
                    f: &mut *s.f,
                    m: &mut *s.m,
                    c: &mut *s.c,
                    t: &mut *s.t,
                };
                run(resets.reset(node as usize, check), &mut inner, resets)?;
            }
            Op::Phase { id, check } => {
                let p = resets.phase(id as usize);
                let c = usize::from(check);
                let mut inner = Regs {
                    r: &mut *s.r,
                    f: &mut *s.f,
                    m: &mut *s.m,
                    c: &mut *s.c,
                    t: &mut *s.t,
                };
                run(&p.enter[c], &mut inner, resets)?;
                let mut steps: u64 = 0;
                loop {
                    run(&p.step[c], &mut inner, resets)?;
                    steps += 1;
                    if inner.f[p.done[c] as usize] {
                        break;
                    }
                    if steps == p.limit {
                        sit_runtime::phase_overrun(
                            &p.model,
                            &p.name,
                            inner.r[p.time as usize],
                            steps,
                        );
                    }
                }
            }
            Op::Substeps { id, dt, check } => {
                let p = resets.substeps(id as usize);
                let mut inner = Regs {
                    r: &mut *s.r,
                    f: &mut *s.f,
                    m: &mut *s.m,
                    c: &mut *s.c,
                    t: &mut *s.t,
                };
                substeps(p, inner.r[dt as usize], check, &mut inner, resets)?;
            }
            Op::Again(ref a) => {
                if let Some((e, most)) = a.events
                    && s.r[e as usize] > most as f64
                {
                    sit_runtime::events_overrun(&a.model, s.r[a.time as usize], most);
                }
                if !s.f[a.until as usize] {
                    if s.r[a.count as usize] >= a.limit as f64 {
                        if !a.leave {
                            sit_runtime::internal_steps_overrun(
                                &a.model,
                                a.method,
                                s.r[a.time as usize],
                                a.limit,
                            );
                        }
                    } else {
                        pc = a.to;
                    }
                }
            }
            Op::Linear(ref l) => l.run(s.r),
            // `fast` runs every other operation.
            _ => {}
        }
    }
    Ok(())
}

/// Runs `ops` from `pc` on until the end (`None`) or an operation that calls a
/// function (returned, with `pc` after it), or a failed [`Op::Check`].
#[inline(always)]
#[expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "`!(x < y)` is the guard's negation, also true when x or y is NaN"
)]
fn fast<'o, R: Bank<f64> + ?Sized, F: Bank<bool> + ?Sized>(
    ops: &'o [Op],
    pc_: &mut usize,
    r: &mut R,
    f: &mut F,
    acc_: &mut f64,
) -> Result<Option<&'o Op>, Fault> {
    let (mut pc, mut acc) = (*pc_, *acc_);
    let out = loop {
        let Some(op) = ops.get(pc) else {
            break Ok(None);
        };
        pc += 1;
        macro_rules! r {
            ($i:expr) => {
                *r.at($i)
            };
        }
        macro_rules! f {
            ($i:expr) => {
                *f.at(Slot::from($i))
            };
        }
        // `acc = value; r[d] = acc`.
        macro_rules! set {
            ($d:expr, $value:expr) => {{
                acc = $value;
                r!($d) = acc;
            }};
        }
        // A taken jump goes through `black_box`, so that the compiler keeps a real
        // (predicted) branch instead of selecting the next `pc` with a conditional
        // move, which would make every following operation wait for the comparison.
        macro_rules! jump {
            ($cond:expr, $t:expr) => {
                if $cond {
                    pc = std::hint::black_box($t) as usize;
                }
            };
        }
        match *op {
            Op::Copy { d, a } => set!(d, r!(a)),
            Op::CopyUnless { flag, d, a } => {
                if !f!(flag) {
                    set!(d, r!(a));
                }
            }
            Op::NegS { d, a } => set!(d, -r!(a)),
            Op::NegA { d } => set!(d, -acc),
            Op::AddSS { d, a, b } => set!(d, r!(a) + r!(b)),
            Op::AddAS { d, b } => set!(d, acc + r!(b)),
            Op::AddSA { d, a } => set!(d, r!(a) + acc),
            Op::SubSS { d, a, b } => set!(d, r!(a) - r!(b)),
            Op::SubAS { d, b } => set!(d, acc - r!(b)),
            Op::SubSA { d, a } => set!(d, r!(a) - acc),
            Op::MulSS { d, a, b } => set!(d, r!(a) * r!(b)),
            Op::MulAS { d, b } => set!(d, acc * r!(b)),
            Op::MulSA { d, a } => set!(d, r!(a) * acc),
            Op::DivSS { d, a, b } => set!(d, r!(a) / r!(b)),
            Op::DivAS { d, b } => set!(d, acc / r!(b)),
            Op::DivSA { d, a } => set!(d, r!(a) / acc),
            Op::IntegralS { d, a, dt } => set!(d, integral(r!(d), r!(a), r!(dt))),
            Op::IntegralA { d, dt } => set!(d, integral(r!(d), acc, r!(dt))),
            Op::Integral2A { d, e, dt } => {
                set!(d, integral(r!(d), acc, r!(dt)));
                set!(e, integral(r!(e), acc, r!(dt)));
            }
            Op::CopyF { fl, d, a } => {
                set!(d, r!(a));
                f!(fl) = true;
            }
            Op::AddSSF { fl, d, a, b } => {
                set!(d, r!(a) + r!(b));
                f!(fl) = true;
            }
            Op::AddASF { fl, d, b } => {
                set!(d, acc + r!(b));
                f!(fl) = true;
            }
            Op::AddSAF { fl, d, a } => {
                set!(d, r!(a) + acc);
                f!(fl) = true;
            }
            Op::SubSSF { fl, d, a, b } => {
                set!(d, r!(a) - r!(b));
                f!(fl) = true;
            }
            Op::SubASF { fl, d, b } => {
                set!(d, acc - r!(b));
                f!(fl) = true;
            }
            Op::SubSAF { fl, d, a } => {
                set!(d, r!(a) - acc);
                f!(fl) = true;
            }
            Op::MulSSF { fl, d, a, b } => {
                set!(d, r!(a) * r!(b));
                f!(fl) = true;
            }
            Op::MulASF { fl, d, b } => {
                set!(d, acc * r!(b));
                f!(fl) = true;
            }
            Op::MulSAF { fl, d, a } => {
                set!(d, r!(a) * acc);
                f!(fl) = true;
            }
            Op::DivSSF { fl, d, a, b } => {
                set!(d, r!(a) / r!(b));
                f!(fl) = true;
            }
            Op::DivASF { fl, d, b } => {
                set!(d, acc / r!(b));
                f!(fl) = true;
            }
            Op::DivSAF { fl, d, a } => {
                set!(d, r!(a) / acc);
                f!(fl) = true;
            }
            Op::IntegralSF { fl, d, a, dt } => {
                set!(d, integral(r!(d), r!(a), r!(dt)));
                f!(fl) = true;
            }
            Op::IntegralAF { fl, d, dt } => {
                set!(d, integral(r!(d), acc, r!(dt)));
                f!(fl) = true;
            }
            Op::Check { a, site } => {
                if !(r!(a).abs() < crate::finite::bound()) {
                    break Err((site as usize, r!(a)));
                }
            }
            Op::SetFlag { d, v } => f!(d) = v,
            Op::SetFlag2 { d, e, v, w } => {
                f!(d) = v;
                f!(e) = w;
            }
            Op::CopyFlag { d, a } => f!(d) = f!(a),
            Op::Rising { d, a, prev } => {
                let mut p = f!(prev);
                f!(d) = rising(f!(a), &mut p);
                f!(prev) = p;
            }
            Op::Call(_)
            | Op::ClearFlags { .. }
            | Op::ResetDerivs { .. }
            | Op::Tick { .. }
            | Op::ResetClock { .. }
            | Op::Timer { .. }
            | Op::Reset { .. }
            | Op::Phase { .. }
            | Op::Substeps { .. }
            | Op::Again(_)
            | Op::Linear(_) => {
                break Ok(Some(op));
            }
            Op::Jump { t } => pc = t as usize,
            Op::JumpIf { a, t } => jump!(f!(a), t),
            Op::JumpUnless { a, t } => jump!(!f!(a), t),
            Op::JumpIfEither { a, b, t } => jump!(f!(a) | f!(b), t),
            Op::JumpIfLtSS { a, b, t } => jump!(r!(a) < r!(b), t),
            Op::JumpIfLtAS { b, t } => jump!(acc < r!(b), t),
            Op::JumpIfLtSA { a, t } => jump!(r!(a) < acc, t),
            Op::JumpUnlessLtSS { a, b, t } => jump!(!(r!(a) < r!(b)), t),
            Op::JumpUnlessLtAS { b, t } => jump!(!(acc < r!(b)), t),
            Op::JumpUnlessLtSA { a, t } => jump!(!(r!(a) < acc), t),
            Op::JumpIfLeSS { a, b, t } => jump!(r!(a) <= r!(b), t),
            Op::JumpIfLeAS { b, t } => jump!(acc <= r!(b), t),
            Op::JumpIfLeSA { a, t } => jump!(r!(a) <= acc, t),
            Op::JumpUnlessLeSS { a, b, t } => jump!(!(r!(a) <= r!(b)), t),
            Op::JumpUnlessLeAS { b, t } => jump!(!(acc <= r!(b)), t),
            Op::JumpUnlessLeSA { a, t } => jump!(!(r!(a) <= acc), t),
            Op::JumpIfEqSS { a, b, t } => jump!(r!(a) == r!(b), t),
            Op::JumpIfEqAS { b, t } => jump!(acc == r!(b), t),
            Op::JumpUnlessEqSS { a, b, t } => jump!(r!(a) != r!(b), t),
            Op::JumpUnlessEqAS { b, t } => jump!(acc != r!(b), t),
        }
    };
    *pc_ = pc;
    *acc_ = acc;
    out
}
