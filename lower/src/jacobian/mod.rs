//! The exact Jacobian of a model's continuous part, by forward-mode differentiation of its stage pass: the derivative of each rate with respect to each continuous state, its sparsity pattern, and a reference evaluation.
//!
//! The continuous part is the stage pass of the methods (`super::pass`): the stage
//! rules in textual order, each `integral` rule writing the rate `x` of its state, each
//! `lag` rule the rate `(k·x − y)/T`, under the guards and `otherwise` flags as written.
//! [`jacobian`] writes beside every rule of that pass its *tangent*: for each continuous
//! state `x_j` that the rule's value depends on, `∂value/∂x_j`, by the chain rule over
//! the expression ([`Slope`]), reading the tangents that the earlier rules of the pass
//! wrote. Within a piece of the trajectory (between two located events, issue 18) the
//! guards, the flags, modes, events, the discrete values and the submodels' outputs are
//! constants; so are params, `time`, `dt` and `prev`. The pure procedures are
//! differentiated by `sit_runtime::partial` (the slope of the branch each one takes),
//! lookup tables by `sit_runtime::table::slope1`, `slope2_x` and `slope2_y` (the slope of
//! the segment that `lookup1`/`lookup2` interpolate on at the same arguments: `g[i] <= x
//! < g[i+1]`, the one to the right of a breakpoint, the last at the last point; 0 beyond
//! a clamped grid).
//!
//! The tangents are sparse: a rule's tangent has an entry for a state only where the
//! state reaches the value through some operand, and products with the literal 0 or 1
//! are simplified away (`0·x` is no entry, `1·x` is `x`), so the [`Jacobian::pattern`]
//! is the structural one: entry `(i, j)` is present when the rate of state `i` reads
//! state `j`, directly or through stage rules, in an operand that is not multiplied by
//! a literal 0.
//!
//! [`Jacobian::evaluate`] runs the pass with its tangents at given states: the
//! definition of the entries' values (for `sitc info --jacobian` and the tests against
//! finite differences). A method that uses the Jacobian (an implicit one) lowers the
//! pass to plain rules so that every back end evaluates it alike.

use crate::ir::{ArithOp, Expr, FiredId, Func, LookupTable, Model, ModelId, Program};
use crate::ir::{Rhs, Stmt, VarId, split};
use std::collections::BTreeMap;
use std::sync::Arc;

mod eval;
pub(crate) mod rules;

pub use eval::Point;

/// What a rule of the tangent pass writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A stage rule's target (a plain variable of the model).
    Var(VarId),
    /// The rate of continuous state `i` (its index in [`Jacobian::states`]).
    Rate(usize),
}

/// The derivative of a value with respect to one continuous state: an expression over
/// the model's values at the point of the pass and the tangents written so far.
#[derive(Debug, Clone, PartialEq)]
pub enum Slope {
    /// A literal.
    Num(f64),
    /// A value of the model at this point of the pass (a subexpression as written).
    Value(Expr),
    /// The tangent, in the same column, that an earlier rule of the pass wrote for a
    /// target (0 if no rule of this pass wrote it yet).
    Tangent(Target),
    /// `−a`.
    Neg(Box<Slope>),
    /// `a op b` (`op` is `+`, `−`, `·` or `/`).
    Arith(ArithOp, Box<Slope>, Box<Slope>),
    /// The partial derivative of a pure procedure with respect to its argument `arg`,
    /// at the arguments as written: `sit_runtime::partial::NAME_dARG` (see
    /// [`partial_name`]).
    Partial(Func, usize, Vec<Expr>),
    /// The slope of a lookup table along its argument `axis`, at the arguments as
    /// written: `sit_runtime::table::slope1` (one grid) or `slope2` (two).
    Table(Arc<LookupTable>, usize, Vec<Expr>),
}

/// A statement of the tangent pass: the stage pass with the tangents of its rules.
#[derive(Debug, Clone, PartialEq)]
pub enum Tangent {
    /// `target = value` (when `otherwise` is given, only if that flag is not set), and
    /// for each `(column, slope)` the tangent of `target` in that column set to the
    /// slope (`None`: to 0, a column an earlier rule of the target wrote). The slopes
    /// are evaluated before the value is written. `sets` is the `otherwise` flag the
    /// rule sets when it runs.
    Rule {
        /// What the rule writes.
        target: Target,
        /// Its value (a real expression of the model).
        value: Expr,
        /// Its tangent, by column, columns ascending.
        slopes: Vec<(usize, Option<Slope>)>,
        /// The `otherwise` flag it sets, if any.
        sets: Option<FiredId>,
        /// The flag whose being unset it runs under, for an `otherwise` rule.
        otherwise: Option<FiredId>,
    },
    /// Statements run when `cond` holds (evaluated once, before the first of them).
    If {
        /// The guard.
        cond: Expr,
        /// The guarded statements.
        then: Vec<Tangent>,
    },
}

/// The Jacobian of one model's continuous part (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Jacobian {
    /// The model.
    pub model: ModelId,
    /// The continuous states, in the order of their first rule: the rows (rates) and
    /// the columns (states) of the matrix.
    pub states: Vec<VarId>,
    /// The tangent pass: `J[i][j]` is the tangent of [`Target::Rate`]`(i)` in column
    /// `j` at its end.
    pub pass: Vec<Tangent>,
    /// Per row, the columns of its structurally nonzero entries, ascending.
    pub pattern: Vec<Vec<usize>>,
}

/// The name of `sit_runtime::partial`'s function for `∂f/∂(argument arg)`; `None` where
/// the slope is 0 everywhere it is defined (`sign`, `floor`, `ceil`, `round`, `relay`
/// in its first argument).
pub fn partial_name(f: Func, arg: usize) -> Option<&'static str> {
    crate::ir::Partial::of(f, arg).map(crate::ir::Partial::name)
}

/// A sparse tangent: column → slope (absent: 0).
type Sparse = BTreeMap<usize, Slope>;

/// `a·b`, with the literals 0 and 1 simplified (`None` is 0).
fn mul(a: Slope, b: Slope) -> Option<Slope> {
    match (a, b) {
        (Slope::Num(z), _) | (_, Slope::Num(z)) if z == 0.0 => None,
        (Slope::Num(o), x) | (x, Slope::Num(o)) if o == 1.0 => Some(x),
        (a, b) => Some(Slope::Arith(ArithOp::Mul, Box::new(a), Box::new(b))),
    }
}

/// `−a`, a literal negated in place and `−(−a)` as `a`.
fn neg(a: Slope) -> Slope {
    match a {
        Slope::Num(x) => Slope::Num(-x),
        Slope::Neg(x) => *x,
        a => Slope::Neg(Box::new(a)),
    }
}

/// `a op b` for `+`, `−`, `/`.
fn arith(op: ArithOp, a: Slope, b: Slope) -> Slope {
    Slope::Arith(op, Box::new(a), Box::new(b))
}

/// A value as written, a literal as [`Slope::Num`].
fn value(e: &Expr) -> Slope {
    match e {
        Expr::Num(x) => Slope::Num(*x),
        e => Slope::Value(e.clone()),
    }
}

/// `Σ a` + `Σ b` column by column (`sub`: `a − b`).
fn combine(a: Sparse, b: Sparse, sub: bool) -> Sparse {
    let mut out = a;
    for (j, s) in b {
        let v = match out.remove(&j) {
            Some(x) => arith(if sub { ArithOp::Sub } else { ArithOp::Add }, x, s),
            None if sub => neg(s),
            None => s,
        };
        out.insert(j, v);
    }
    out
}

/// `tangent·factor`, column by column.
fn scale(t: Sparse, factor: &Slope) -> Sparse {
    t.into_iter()
        .filter_map(|(j, s)| Some((j, mul(factor.clone(), s)?)))
        .collect()
}

/// The differentiation of one model's stage pass.
struct Deriver {
    /// Per variable: its index among the continuous states.
    state: Vec<Option<usize>>,
    /// Per variable: whether it is a stage rule's target.
    staged: Vec<bool>,
    /// The columns each target's tangent may be nonzero in, so far in the pass.
    written: BTreeMap<Target, Vec<usize>>,
    /// The column of `time`, when the pass differentiates with respect to it too.
    time: Option<usize>,
}

impl Deriver {
    /// The tangent of the real expression `e` at this point of the pass.
    fn d(&self, e: &Expr) -> Sparse {
        match e {
            Expr::Var(v) => {
                if let Some(Some(i)) = self.state.get(*v) {
                    return BTreeMap::from([(*i, Slope::Num(1.0))]);
                }
                let target = Target::Var(*v);
                match self.written.get(&target) {
                    Some(cols) if self.staged[*v] => {
                        cols.iter().map(|&j| (j, Slope::Tangent(target))).collect()
                    }
                    _ => Sparse::new(),
                }
            }
            Expr::Neg(a) => self.d(a).into_iter().map(|(j, s)| (j, neg(s))).collect(),
            Expr::Arith(op, a, b) => {
                let (da, db) = (self.d(a), self.d(b));
                match op {
                    ArithOp::Add => combine(da, db, false),
                    ArithOp::Sub => combine(da, db, true),
                    // a·db + da·b
                    ArithOp::Mul => combine(scale(db, &value(a)), scale(da, &value(b)), false),
                    // da/b − (a·db)/(b·b)
                    ArithOp::Div => {
                        let b2 = arith(ArithOp::Mul, value(b), value(b));
                        let da: Sparse = da
                            .into_iter()
                            .map(|(j, s)| (j, arith(ArithOp::Div, s, value(b))))
                            .collect();
                        let db: Sparse = scale(db, &value(a))
                            .into_iter()
                            .map(|(j, s)| (j, arith(ArithOp::Div, s, b2.clone())))
                            .collect();
                        combine(da, db, true)
                    }
                    ArithOp::Pow => self.chain(Func::Pow, &[(**a).clone(), (**b).clone()]),
                }
            }
            Expr::Call(f, xs) => self.chain(*f, xs),
            Expr::Time => self
                .time
                .map(|j| BTreeMap::from([(j, Slope::Num(1.0))]))
                .unwrap_or_default(),
            Expr::Table(t, xs) => {
                let mut out = Sparse::new();
                for (k, x) in xs.iter().enumerate() {
                    let slope = Slope::Table(t.clone(), k, xs.clone());
                    out = combine(out, scale(self.d(x), &slope), false);
                }
                out
            }
            // Literals, logical values, and what is constant within a piece: params,
            // discrete values, events, modes, submodels' outputs, `time`, `dt`, `prev`.
            _ => Sparse::new(),
        }
    }

    /// The chain rule through procedure `f` of `xs`: `Σ_k ∂f/∂x_k · dx_k`.
    fn chain(&self, f: Func, xs: &[Expr]) -> Sparse {
        let mut out = Sparse::new();
        for (k, x) in xs.iter().enumerate() {
            let dx = self.d(x);
            if dx.is_empty() {
                continue;
            }
            if let Some(_name) = partial_name(f, k) {
                let p = Slope::Partial(f, k, xs.to_vec());
                out = combine(out, scale(dx, &p), false);
            }
        }
        out
    }

    fn stmts(&mut self, body: &[Stmt]) -> Vec<Tangent> {
        body.iter().filter_map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &Stmt) -> Option<Tangent> {
        match s {
            Stmt::Assign(a) => self.rule(a, None),
            Stmt::Otherwise { assign, fired } => self.rule(assign, Some(*fired)),
            Stmt::If { cond, then, .. } => {
                let then = self.stmts(then);
                (!then.is_empty()).then(|| Tangent::If {
                    cond: cond.clone(),
                    then,
                })
            }
            _ => None,
        }
    }

    /// The rule of the stage pass for `a` (as `super::pass::Stage` writes it) with its
    /// tangent.
    fn rule(&mut self, a: &crate::ir::Assign, otherwise: Option<FiredId>) -> Option<Tangent> {
        let rate = self.state.get(a.target).copied().flatten();
        let (target, value) = match &a.rhs {
            Rhs::Integral { x } | Rhs::IntegralLimited { x, .. } => {
                (Target::Rate(rate?), x.clone())
            }
            Rhs::Lag { x, t, k } => {
                let gain = Expr::Arith(ArithOp::Mul, Box::new(k.clone()), Box::new(x.clone()));
                let diff = Expr::Arith(ArithOp::Sub, Box::new(gain), Box::new(Expr::Var(a.target)));
                (
                    Target::Rate(rate?),
                    Expr::Arith(ArithOp::Div, Box::new(diff), Box::new(t.clone())),
                )
            }
            Rhs::Expr(e) if self.staged[a.target] && rate.is_none() => {
                (Target::Var(a.target), e.clone())
            }
            _ => {
                // A rule outside the continuous part only sets its flag (an `otherwise`
                // one is left out), as in the stage pass.
                let sets = a.fired?;
                if otherwise.is_some() {
                    return None;
                }
                return Some(Tangent::Rule {
                    target: Target::Var(a.target),
                    value: Expr::Var(a.target),
                    slopes: Vec::new(),
                    sets: Some(sets),
                    otherwise: None,
                });
            }
        };
        let mut d = self.d(&value);
        let cols = self.written.entry(target).or_default();
        let mut slopes: Vec<(usize, Option<Slope>)> =
            cols.iter().map(|&j| (j, d.remove(&j))).collect();
        slopes.extend(d.into_iter().map(|(j, s)| (j, Some(s))));
        slopes.sort_by_key(|&(j, _)| j);
        *cols = slopes.iter().map(|&(j, _)| j).collect();
        Some(Tangent::Rule {
            target,
            value,
            slopes,
            sets: a.fired,
            otherwise,
        })
    }
}

/// The Jacobian of model `id`'s continuous part (see the module documentation); a
/// model without continuous states has an empty one.
pub fn jacobian(program: &Program, id: ModelId) -> Jacobian {
    of_model(&program.models[id], id, false)
}

/// The Jacobian of model `m` (number `id`); with `time`, the pass differentiates with
/// respect to `time` too, as one more column after the states' (`∂rate_i/∂t`, the
/// column an implicit method needs for a non-autonomous model).
pub(crate) fn of_model(m: &Model, id: ModelId, time: bool) -> Jacobian {
    let sp = split(m);
    let mut state = vec![None; m.vars.len()];
    for (i, &(v, _)) in sp.states.iter().enumerate() {
        state[v] = Some(i);
    }
    let mut der = Deriver {
        state,
        staged: sp.staged.clone(),
        written: BTreeMap::new(),
        time: time.then_some(sp.states.len()),
    };
    let pass = der.stmts(&m.body);
    let pattern = (0..sp.states.len())
        .map(|i| {
            der.written
                .get(&Target::Rate(i))
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    Jacobian {
        model: id,
        states: sp.states.iter().map(|&(v, _)| v).collect(),
        pass,
        pattern,
    }
}

impl Jacobian {
    /// The number of structurally nonzero entries.
    pub fn nonzeros(&self) -> usize {
        self.pattern.iter().map(Vec::len).sum()
    }

    /// The pattern as text: one line per rate, `d(NAME)/dt` then one column per state,
    /// `x` for a structural nonzero and `.` for a structural zero.
    pub fn pattern_text(&self, model: &Model) -> String {
        use std::fmt::Write as _;
        let name = |v: VarId| model.vars[v].name.as_str();
        let width = self
            .states
            .iter()
            .map(|&v| name(v).len())
            .max()
            .unwrap_or(0)
            + 6;
        let mut out = String::new();
        let mut line = format!("{:width$}", "");
        for &v in &self.states {
            let _ = write!(line, " {}", name(v));
        }
        let _ = writeln!(out, "{}", line.trim_end());
        for (i, &v) in self.states.iter().enumerate() {
            let mut line = format!("{:width$}", format!("d({})/dt", name(v)));
            for (j, &w) in self.states.iter().enumerate() {
                let mark = if self.pattern[i].contains(&j) {
                    "x"
                } else {
                    "."
                };
                let _ = write!(line, " {mark:<w$}", w = name(w).len());
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }

    /// The tangent pass as text, one rule per line (`d NAME/d STATE = slope`), indented
    /// under its guards.
    pub fn pass_text(&self, program: &Program) -> String {
        let mut out = String::new();
        self.write_pass(program, &self.pass, 0, &mut out);
        out
    }

    fn write_pass(&self, p: &Program, pass: &[Tangent], depth: usize, out: &mut String) {
        use std::fmt::Write as _;
        let m = &p.models[self.model];
        let e = |x: &Expr| p.expr_text(self.model, x);
        let pad = "  ".repeat(depth);
        for s in pass {
            match s {
                Tangent::If { cond, then } => {
                    let _ = writeln!(out, "{pad}if {} {{", e(cond));
                    self.write_pass(p, then, depth + 1, out);
                    let _ = writeln!(out, "{pad}}}");
                }
                Tangent::Rule {
                    target,
                    value,
                    slopes,
                    otherwise,
                    ..
                } => {
                    let name = self.target_name(m, *target);
                    let other = if otherwise.is_some() {
                        "otherwise "
                    } else {
                        ""
                    };
                    let _ = writeln!(out, "{pad}{other}{name} = {}", e(value));
                    for (j, s) in slopes {
                        let slope = s.as_ref().map_or("0".into(), |s| self.slope_text(p, s, *j));
                        let state = &m.vars[self.states[*j]].name;
                        let _ = writeln!(out, "{pad}  d {name}/d {state} = {slope}");
                    }
                }
            }
        }
    }

    fn target_name(&self, m: &Model, t: Target) -> String {
        match t {
            Target::Var(v) => m.vars[v].name.clone(),
            Target::Rate(i) => format!("rate({})", m.vars[self.states[i]].name),
        }
    }

    fn slope_text(&self, p: &Program, s: &Slope, col: usize) -> String {
        let m = &p.models[self.model];
        let e = |x: &Expr| p.expr_text(self.model, x);
        let args = |xs: &[Expr]| xs.iter().map(e).collect::<Vec<_>>().join(", ");
        match s {
            Slope::Num(x) => format!("{x:?}"),
            Slope::Value(x) => e(x),
            Slope::Tangent(t) => format!(
                "d {}/d {}",
                self.target_name(m, *t),
                m.vars[self.states[col]].name
            ),
            Slope::Neg(a) => format!("-{}", self.slope_text(p, a, col)),
            Slope::Arith(op, a, b) => {
                let o = op.symbol();
                format!(
                    "({} {o} {})",
                    self.slope_text(p, a, col),
                    self.slope_text(p, b, col)
                )
            }
            Slope::Partial(f, k, xs) => {
                format!("{}({})", partial_name(*f, *k).unwrap_or("0"), args(xs))
            }
            Slope::Table(t, k, xs) => format!("slope_{}({}; {})", k + 1, t.name, args(xs)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let out = crate::check_source("t.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        out.program.expect("checks")
    }

    /// Robertson's kinetics: the pattern and the values are the textbook Jacobian.
    #[test]
    fn robertson_has_its_textbook_jacobian() {
        let p = program(
            "model Robertson {
                param k1 = 0.04;
                param k2 = 3e7;
                param k3 = 1e4;
                output real y1 = 1;
                output real y2 = 0;
                output real y3 = 0;
                y1 = integral(-k1 * y1 + k3 * y2 * y3);
                y2 = integral(k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2);
                y3 = integral(k2 * y2 * y2);
            }",
        );
        let j = jacobian(&p, 0);
        assert_eq!(j.pattern, [vec![0, 1, 2], vec![0, 1, 2], vec![1]]);
        assert_eq!(j.nonzeros(), 7);
        let m = &p.models[0];
        let read = |e: &Expr| match e {
            Expr::Var(v) => Some(match m.vars[*v].name.as_str() {
                "k1" => 0.04,
                "k2" => 3e7,
                "k3" => 1e4,
                _ => return None,
            }),
            _ => None,
        };
        let (y1, y2, y3) = (0.9, 2e-5, 0.1);
        let at = j
            .evaluate(m, &[y1, y2, y3], &read)
            .expect("every read has a value");
        let (k1, k2, k3) = (0.04, 3e7, 1e4);
        let want = [
            [-k1, k3 * y3, k3 * y2],
            [k1, -k3 * y3 - 2.0 * k2 * y2, -k3 * y2],
            [0.0, 2.0 * k2 * y2, 0.0],
        ];
        for (i, (row, want)) in at.matrix.iter().zip(want).enumerate() {
            for (c, (&got, w)) in row.iter().zip(want).enumerate() {
                // The same products in another association: a few ulps.
                assert!(
                    (got - w).abs() <= 1e-12 * (1.0 + w.abs()),
                    "J[{i}][{c}] = {got}, want {w}"
                );
            }
        }
        assert_eq!(at.rates[2], k2 * y2 * y2);
        assert!(
            j.pattern_text(m).contains("d(y3)/dt .  x  .\n"),
            "{}",
            j.pattern_text(m)
        );
    }

    /// Stage rules under guards and `otherwise`, a lag, a piecewise procedure and a
    /// table: each piece's slope, and the pattern the union of the pieces'.
    #[test]
    fn pieces_guards_lags_and_tables() {
        let p = program(
            "model M {
                table g(u) = [0, 1, 3] -> [0, 2, 3] clamp;
                param c = 3;
                real x = 0.5;
                real y = 1;
                real z = 2;
                real a;
                real b;
                a = x * y when x > 0;
                a = c * z otherwise;
                b = min(a, y) + g(z) + 0 * x;
                x = integral(a);
                y = integral(sin(b));
                z = lag(x, 2, 4);
            }",
        );
        let j = jacobian(&p, 0);
        let m = &p.models[0];
        // Rows x, y, z; columns x, y, z. `0 * x` adds nothing.
        assert_eq!(j.pattern, [vec![0, 1, 2], vec![0, 1, 2], vec![0, 2]]);
        let read = |e: &Expr| match e {
            Expr::Var(v) if m.vars[*v].name == "c" => Some(3.0),
            _ => None,
        };
        let at = j.evaluate(m, &[0.5, 1.0, 2.0], &read).expect("values");
        // x > 0: a = x·y = 0.5; b = min(0.5, 1) + g(2) = 0.5 + 2.5.
        assert_eq!(at.matrix[0], [1.0, 0.5, 0.0]);
        let cb = sit_runtime::math::cos(3.0);
        assert_eq!(at.matrix[1], [cb * 1.0, cb * 0.5, cb * 0.5]);
        // z' = (4·x − z)/2.
        assert_eq!(at.matrix[2], [2.0, 0.0, -0.5]);
        let at = j.evaluate(m, &[-0.5, 1.0, 2.0], &read).expect("values");
        // x <= 0: a = c·z = 6; b = min(6, 1) + g(2): y's branch.
        assert_eq!(at.matrix[0], [0.0, 0.0, 3.0]);
        let cb = sit_runtime::math::cos(1.0 + 2.5);
        assert_eq!(at.matrix[1], [0.0, cb, cb * 0.5]);
    }
}
