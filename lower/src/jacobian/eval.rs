//! The reference evaluation of a tangent pass: the rates and the Jacobian at given states, by the runtime's functions, with the branches taken (for the tests against finite differences and for printing values).

use super::{Jacobian, Slope, Tangent, Target};
use crate::ir::{Expr, Func, LookupTable, Model, VarId};
use std::collections::BTreeMap;

/// The value of `sit_runtime::partial`'s function [`partial_name`]`(f, arg)` at `xs`.
fn partial_value(f: Func, arg: usize, xs: &[f64]) -> f64 {
    crate::ir::Partial::of(f, arg).map_or(0.0, |p| p.eval(xs))
}

/// The rates and the Jacobian at one point, and the branches the pass took there.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The rate of each continuous state.
    pub rates: Vec<f64>,
    /// `matrix[i][j] = ∂rate_i/∂x_j`.
    pub matrix: Vec<Vec<f64>>,
    /// Every decision the pass took, in order (guards, `otherwise` flags, the branch of
    /// each piecewise procedure and the segment of each table read): two points with
    /// the same decisions lie in the same piece.
    pub branches: Vec<u64>,
}

/// The evaluation of a tangent pass (see [`Jacobian::evaluate`]).
struct Eval<'a> {
    m: &'a Model,
    states: &'a [VarId],
    x: &'a [f64],
    read: &'a dyn Fn(&Expr) -> Option<f64>,
    vars: BTreeMap<VarId, f64>,
    rates: Vec<f64>,
    tangents: BTreeMap<(Target, usize), f64>,
    flags: Vec<bool>,
    branches: Vec<u64>,
}

impl Eval<'_> {
    fn num(&mut self, e: &Expr) -> Option<f64> {
        Some(match e {
            Expr::Num(x) => *x,
            Expr::Bool(b) => f64::from(u8::from(*b)),
            Expr::Var(v) => {
                if let Some(i) = self.states.iter().position(|s| s == v) {
                    self.x[i]
                } else if let Some(x) = self.vars.get(v) {
                    *x
                } else if self.m.vars[*v].is_derived() {
                    let init = self.m.vars[*v].init.clone();
                    self.num(&init)?
                } else {
                    (self.read)(e)?
                }
            }
            Expr::Cond(c) => {
                let c = self.m.conds[*c].expr.clone();
                self.num(&c)?
            }
            Expr::Neg(a) => -self.num(a)?,
            Expr::Not(a) => f64::from(u8::from(self.truth(a)? == 0.0)),
            Expr::Arith(op, a, b) => op.apply(self.num(a)?, self.num(b)?),
            Expr::Cmp(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                f64::from(u8::from(op.holds(a, b)))
            }
            Expr::And(a, b) => {
                let (a, b) = (self.truth(a)?, self.truth(b)?);
                f64::from(u8::from(a != 0.0 && b != 0.0))
            }
            Expr::Or(a, b) => {
                let (a, b) = (self.truth(a)?, self.truth(b)?);
                f64::from(u8::from(a != 0.0 || b != 0.0))
            }
            Expr::Call(f, xs) => {
                let xs = xs.iter().map(|x| self.num(x)).collect::<Option<Vec<_>>>()?;
                // The branch of a piecewise procedure: the slopes of its arguments.
                if matches!(
                    f,
                    Func::Abs | Func::Min | Func::Max | Func::Limit | Func::Deadzone
                ) {
                    for k in 0..xs.len() {
                        self.branches.push(partial_value(*f, k, &xs).to_bits());
                    }
                }
                call(*f, &xs)
            }
            Expr::Table(t, xs) => {
                let xs = xs.iter().map(|x| self.num(x)).collect::<Option<Vec<_>>>()?;
                for (k, x) in xs.iter().enumerate() {
                    let g = &t.grids[k];
                    self.branches.push(g.partition_point(|&p| p <= *x) as u64);
                }
                lookup(t, &xs)
            }
            Expr::TableSlope(t, k, xs) => {
                let xs = xs.iter().map(|x| self.num(x)).collect::<Option<Vec<_>>>()?;
                table_slope(t, *k, &xs)
            }
            other => (self.read)(other)?,
        })
    }

    fn truth(&mut self, e: &Expr) -> Option<f64> {
        self.num(e)
    }

    fn slope(&mut self, s: &Slope, col: usize) -> Option<f64> {
        Some(match s {
            Slope::Num(x) => *x,
            Slope::Value(e) => self.num(e)?,
            Slope::Tangent(t) => self.tangents.get(&(*t, col)).copied().unwrap_or(0.0),
            Slope::Neg(a) => -self.slope(a, col)?,
            Slope::Arith(op, a, b) => op.apply(self.slope(a, col)?, self.slope(b, col)?),
            Slope::Partial(f, k, xs) => {
                let xs = xs.iter().map(|x| self.num(x)).collect::<Option<Vec<_>>>()?;
                partial_value(*f, *k, &xs)
            }
            Slope::Table(t, k, xs) => {
                let xs = xs.iter().map(|x| self.num(x)).collect::<Option<Vec<_>>>()?;
                table_slope(t, *k, &xs)
            }
        })
    }

    fn run(&mut self, pass: &[Tangent]) -> Option<()> {
        for s in pass {
            match s {
                Tangent::If { cond, then } => {
                    let c = self.truth(cond)? != 0.0;
                    self.branches.push(u64::from(c));
                    if c {
                        self.run(then)?;
                    }
                }
                Tangent::Rule {
                    target,
                    value,
                    slopes,
                    sets,
                    otherwise,
                } => {
                    if let Some(f) = otherwise {
                        let set = self.flags.get(*f).copied().unwrap_or(false);
                        self.branches.push(u64::from(set));
                        if set {
                            continue;
                        }
                    }
                    let ds = slopes
                        .iter()
                        .map(|(j, s)| {
                            let v = match s {
                                Some(s) => self.slope(s, *j)?,
                                None => 0.0,
                            };
                            Some((*j, v))
                        })
                        .collect::<Option<Vec<_>>>()?;
                    let v = self.num(value)?;
                    for (j, d) in ds {
                        self.tangents.insert((*target, j), d);
                    }
                    match target {
                        Target::Var(x) => {
                            self.vars.insert(*x, v);
                        }
                        Target::Rate(i) => self.rates[*i] = v,
                    }
                    if let Some(f) = sets {
                        if *f >= self.flags.len() {
                            self.flags.resize(f + 1, false);
                        }
                        self.flags[*f] = true;
                    }
                }
            }
        }
        Some(())
    }
}

/// `f(xs)` by the runtime's function.
fn call(f: Func, xs: &[f64]) -> f64 {
    use sit_runtime::math as m;
    let x = |i: usize| xs.get(i).copied().unwrap_or(f64::NAN);
    match f {
        Func::Abs => m::abs(x(0)),
        Func::Sign => m::sign(x(0)),
        Func::Sqrt => m::sqrt(x(0)),
        Func::Exp => m::exp(x(0)),
        Func::Ln => m::ln(x(0)),
        Func::Log10 => m::log10(x(0)),
        Func::Sin => m::sin(x(0)),
        Func::Cos => m::cos(x(0)),
        Func::Tan => m::tan(x(0)),
        Func::Asin => m::asin(x(0)),
        Func::Acos => m::acos(x(0)),
        Func::Atan => m::atan(x(0)),
        Func::Atan2 => m::atan2(x(0), x(1)),
        Func::Sinh => m::sinh(x(0)),
        Func::Cosh => m::cosh(x(0)),
        Func::Tanh => m::tanh(x(0)),
        Func::Min => m::min(x(0), x(1)),
        Func::Max => m::max(x(0), x(1)),
        Func::Pow => m::pow(x(0), x(1)),
        Func::InvRoot => m::inv_root(x(0), x(1)),
        Func::Hypot => m::hypot(x(0), x(1)),
        Func::Floor => m::floor(x(0)),
        Func::Ceil => m::ceil(x(0)),
        Func::Round => m::round(x(0)),
        Func::Relay => sit_runtime::relay(x(0), x(1)),
        Func::Limit => sit_runtime::limit(x(0), x(1), x(2)),
        Func::Deadzone => sit_runtime::deadzone(x(0), x(1)),
        Func::Partial(p) => p.eval(xs),
    }
}

/// The runtime's rule beyond the grid of `t`.
fn beyond(t: &LookupTable) -> sit_runtime::table::Beyond {
    match t.beyond {
        crate::ir::Beyond::Clamp => sit_runtime::table::Beyond::Clamp,
        crate::ir::Beyond::Extrapolate => sit_runtime::table::Beyond::Extrapolate,
    }
}

/// The table `t` at `xs`.
fn lookup(t: &LookupTable, xs: &[f64]) -> f64 {
    use sit_runtime::table as tb;
    match (&t.grids[..], xs) {
        ([g], [x]) => tb::lookup1(g, &t.values, beyond(t), *x),
        ([g1, g2], [x, y]) => tb::lookup2(g1, g2, &t.values, beyond(t), *x, *y),
        _ => f64::NAN,
    }
}

/// The slope of table `t` along `axis` at `xs`.
fn table_slope(t: &LookupTable, axis: usize, xs: &[f64]) -> f64 {
    use sit_runtime::table as tb;
    match (&t.grids[..], xs, axis) {
        ([g], [x], 0) => tb::slope1(g, &t.values, beyond(t), *x),
        ([g1, g2], [x, y], 0) => tb::slope2_x(g1, g2, &t.values, beyond(t), *x, *y),
        ([g1, g2], [x, y], 1) => tb::slope2_y(g1, g2, &t.values, beyond(t), *x, *y),
        _ => f64::NAN,
    }
}

impl Jacobian {
    /// Runs the tangent pass of `model` (the program's model [`Jacobian::model`]) with
    /// the continuous states at `x` (in the order of [`Jacobian::states`]); every other
    /// value the pass reads (params, discrete states, the stage rules' targets before
    /// the pass writes them, `time`, `dt`, events, modes, submodels) comes from `read`,
    /// asked with the expression of the read. `None` if `read` has no value for one.
    ///
    /// This is the reference evaluation, in the operations of the pass as written: the
    /// values of the rates are those a stage of the explicit methods computes.
    pub fn evaluate(
        &self,
        model: &Model,
        x: &[f64],
        read: &dyn Fn(&Expr) -> Option<f64>,
    ) -> Option<Point> {
        let n = self.states.len();
        let mut eval = Eval {
            m: model,
            states: &self.states,
            x,
            read,
            vars: BTreeMap::new(),
            rates: vec![0.0; n],
            tangents: BTreeMap::new(),
            flags: vec![false; model.fired],
            branches: Vec::new(),
        };
        eval.run(&self.pass)?;
        let matrix = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        eval.tangents
                            .get(&(Target::Rate(i), j))
                            .copied()
                            .unwrap_or(0.0)
                    })
                    .collect()
            })
            .collect();
        Some(Point {
            rates: eval.rates,
            matrix,
            branches: eval.branches,
        })
    }
}
