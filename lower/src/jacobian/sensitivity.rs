//! Forward sensitivities as rules: a rewrite of a checked model that adds, beside every real rule, the rule of its tangent with respect to chosen params and initial values (`docs/sensitivities.md`).
//!
//! For each column `w` (a free param `k`, or the initial value `x(0)` of a real state)
//! and each real state `v` whose value can depend on it, [`add`] declares a state
//! `d(v)/d(w)` and writes its rule right before `v`'s, under the same guards and
//! `otherwise` flag, by the forward-mode chain rule of the Jacobian's pass (the
//! `Deriver` of the parent module, seeded with the tangent states instead of unit
//! columns, the params' own column 1):
//!
//! - `v = e` gets `d(v)/d(w) = ∂e` (the tangent of `e`, reading the tangent states of
//!   what `e` reads, 0 where `e` cannot depend on `w`);
//! - `v = integral(e)` (and `integral(e, lo, hi)`) gets `d(v)/d(w) = integral(∂e)`:
//!   the variational equation `S' = J·S + ∂f/∂w`, written as a rate of the same method;
//! - `v = lag(u, T, K)` gets `d(v)/d(w) = lag(∂(K·u) − (K·u − v)·∂T/T, T)`, whose rate
//!   is `∂((K·u − v)/T)`, and which under `euler` is the exact lag's derivative when
//!   `T` does not depend on `w`;
//! - `v = deriv(e)` gets `d(v)/d(w) = deriv(∂e)` (a memory of its own);
//! - `hysteresis` and `timer` rules (piecewise constant), flags, inputs and what submodels compute
//!   are constants of the differentiation (their targets get no tangent).
//!
//! A tangent rule is placed before its rule, so it reads the operands' values and
//! tangents at the same point of the step as the rule reads the values: the discrete
//! map of every back end and every fixed-step method is differentiated exactly (the
//! tangent of a σ action at a fixed-step event included), and the methods' rewrites,
//! which run after this one, integrate the variational equations with the same stages
//! as the states. The initial value of `d(v)/d(w)` is the tangent of `v`'s initial
//! value (1 for `d(x)/d(x(0))`).

use super::{Deriver, Slope, Sparse};
use crate::ir::{ArithOp, Assign, Expr, Func, Model, ModelId, Partial, Program, Rhs, Stmt};
use crate::ir::{Memory, MemoryKind, Ty, Var, VarId, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// What a column of sensitivities differentiates with respect to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrt {
    /// A free param of the model.
    Param(VarId),
    /// The initial value of a real state.
    Initial(VarId),
}

/// One sensitivity state that [`add`] declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The differentiated variable's name (`x`).
    pub of: String,
    /// The name of what it is differentiated with respect to, as asked (`k`, or `x0`'s
    /// state `x` for its initial value).
    pub wrt: String,
    /// The state's name: `d(x)/d(k)`, or `d(x)/d(x0(0))` for an initial value.
    pub name: String,
}

/// Why [`add`] refused a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SensitivityError {
    /// No variable of that name in the model.
    #[error(
        "model `{model}` has no param or state `{name}` (its params: {})",
        list(params)
    )]
    Unknown {
        /// The name given.
        name: String,
        /// The model.
        model: String,
        /// Its free params.
        params: Vec<String>,
    },
    /// A name that is neither a free param nor a real state.
    #[error(
        "`{name}` is {what} of model `{model}`; expected a param (a real constant of the run) or a real state (for its initial value)"
    )]
    NotAParam {
        /// The name given.
        name: String,
        /// The model.
        model: String,
        /// What it is (`an input`, `a flag`, `a derived param that reads k`).
        what: String,
    },
    /// The same name twice.
    #[error("`{name}` is given twice")]
    Twice {
        /// The name given.
        name: String,
    },
    /// A guard located inside a step whose event the sensitivities would not jump at.
    #[error(
        "model `{model}`'s guard `{guard}` ({at}) is located inside a step, but the \
         sensitivities get no jump there (their saltation is written for a top-level \
         `when` block whose guard compares a state or `time`); write it as a top-level \
         block (`when outer & inner {{ … }}`, comparing the states), or run under `euler`, \
         where events are seen at the step's end"
    )]
    Unsalted {
        /// The model.
        model: String,
        /// The guard as written.
        guard: String,
        /// Where (`file:line:column`).
        at: String,
    },
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `program` with model `root`'s rules differentiated with respect to `wrt` (names of
/// free params, or of real states for their initial values), as the module
/// documentation says, and the states it declared, in the order of the model's
/// variables then of `wrt`. The other models are unchanged.
pub fn add(
    program: &Program,
    root: ModelId,
    wrt: &[String],
) -> Result<(Program, Vec<Column>), SensitivityError> {
    let m = &program.models[root];
    let cols = resolve(m, wrt)?;
    if let Some(span) = super::saltation::unsalted(m) {
        return Err(SensitivityError::Unsalted {
            model: m.name.clone(),
            guard: program.sources.text(span).to_string(),
            at: program.sources.location(span),
        });
    }
    let (model, columns) = rewrite(m, &cols, wrt);
    let mut out = program.clone();
    out.models[root] = model;
    Ok((out, columns))
}

/// The columns named by `wrt` in `m`.
fn resolve(m: &Model, wrt: &[String]) -> Result<Vec<Wrt>, SensitivityError> {
    let mut out = Vec::new();
    for (i, name) in wrt.iter().enumerate() {
        if wrt[..i].contains(name) {
            return Err(SensitivityError::Twice { name: name.clone() });
        }
        let Some(v) = m.var(name).filter(|&v| !m.vars[v].hidden) else {
            return Err(SensitivityError::Unknown {
                name: name.clone(),
                model: m.name.clone(),
                params: m
                    .vars
                    .iter()
                    .filter(|v| v.kind == VarKind::Param { derived: false })
                    .map(|v| v.name.clone())
                    .collect(),
            });
        };
        let var = &m.vars[v];
        let not = |what: String| SensitivityError::NotAParam {
            name: name.clone(),
            model: m.name.clone(),
            what,
        };
        out.push(match (var.kind, var.ty) {
            (VarKind::Param { derived: false }, _) => Wrt::Param(v),
            (VarKind::Param { derived: true }, _) => {
                let mut reads = Vec::new();
                var.init.visit(&mut |e| {
                    if let Expr::Var(u) = e
                        && !reads.contains(&m.vars[*u].name)
                    {
                        reads.push(m.vars[*u].name.clone());
                    }
                });
                return Err(not(format!(
                    "a derived param (it follows {}: ask for those)",
                    list(&reads)
                )));
            }
            (VarKind::Input, _) => return Err(not("an input".into())),
            (VarKind::State, Ty::Flag) => return Err(not("a flag".into())),
            (VarKind::State, Ty::Real) => Wrt::Initial(v),
        });
    }
    Ok(out)
}

/// The variables `e` reads.
fn reads(e: &Expr, out: &mut Vec<VarId>) {
    e.visit(&mut |x| {
        if let Expr::Var(u) = x {
            out.push(*u);
        }
    });
}

/// Whether a rule's target gets a tangent (a real rule the chain rule goes through).
fn differentiable(rhs: &Rhs) -> bool {
    matches!(
        rhs,
        Rhs::Expr(_)
            | Rhs::Integral { .. }
            | Rhs::IntegralLimited { .. }
            | Rhs::Lag { .. }
            | Rhs::Deriv { .. }
    )
}

/// Every `otherwise` rule of `body`, at any depth.
pub(super) fn each_other<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Assign)) {
    for s in body {
        match s {
            Stmt::Otherwise { assign: a, .. } => f(a),
            Stmt::If { then, .. } => each_other(then, f),
            _ => {}
        }
    }
}

/// Every δ rule of `body`, at any depth.
pub(super) fn each_assign<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Assign)) {
    for s in body {
        match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => f(a),
            Stmt::If { then, .. } => each_assign(then, f),
            _ => {}
        }
    }
}

/// Per variable, the columns its value can depend on: the least fixpoint over the
/// rules, the derived params' and the states' initial values.
/// Under a method that locates events (`located`), a top-level guard's columns reach
/// every continuous state too: its event's time moves with them (`super::saltation`).
fn dependence(m: &Model, cols: &[Wrt], located: bool) -> Vec<BTreeSet<usize>> {
    let continuous: Vec<VarId> = if located {
        crate::ir::split(m).states.iter().map(|&(v, _)| v).collect()
    } else {
        Vec::new()
    };
    let mut dep = vec![BTreeSet::new(); m.vars.len()];
    for (c, w) in cols.iter().enumerate() {
        let (Wrt::Param(v) | Wrt::Initial(v)) = *w;
        dep[v].insert(c);
    }
    let real = |v: VarId| m.vars[v].ty == Ty::Real && m.vars[v].kind != VarKind::Input;
    loop {
        let mut edges: Vec<(VarId, Vec<VarId>)> = Vec::new();
        for (v, var) in m.vars.iter().enumerate() {
            if real(v) && (var.is_derived() || var.kind == VarKind::State) {
                let mut r = Vec::new();
                reads(&var.init, &mut r);
                edges.push((v, r));
            }
        }
        each_assign(&m.body, &mut |a| {
            if real(a.target) && differentiable(&a.rhs) {
                let mut r = Vec::new();
                a.rhs.operands().into_iter().for_each(|e| reads(e, &mut r));
                edges.push((a.target, r));
            }
        });
        for s in &m.body {
            if let Stmt::If { cond, .. } = s {
                let mut r = Vec::new();
                reads(cond, &mut r);
                for &x in &continuous {
                    edges.push((x, r.clone()));
                }
            }
        }
        let mut changed = false;
        for (v, r) in edges {
            for u in r {
                let add: Vec<usize> = dep[u].difference(&dep[v]).copied().collect();
                changed |= !add.is_empty();
                dep[v].extend(add);
            }
        }
        if !changed {
            return dep;
        }
    }
}

/// The slope as an expression of the model (the procedures' slopes as calls of
/// `sit_runtime::partial`, the tables' as [`Expr::TableSlope`]).
pub(super) fn expr(s: Slope) -> Expr {
    let b = |a: Slope| Box::new(expr(a));
    match s {
        Slope::Num(x) => Expr::Num(x),
        Slope::Value(e) => e,
        // The seeded pass writes no tangent of its own.
        Slope::Tangent(_) => Expr::Num(0.0),
        Slope::Neg(a) => Expr::Neg(b(*a)),
        Slope::Arith(op, x, y) => Expr::Arith(op, b(*x), b(*y)),
        Slope::Partial(f, k, xs) => {
            let p = Partial::of(f, k).expect("a slope the pass wrote has its function");
            Expr::Call(Func::Partial(p), xs)
        }
        Slope::Table(t, k, xs) => Expr::TableSlope(t, k, xs),
    }
}

/// The model with its tangent states and rules.
struct Tangents {
    der: Deriver,
    /// Per (variable, column), its tangent state.
    state: BTreeMap<(VarId, usize), VarId>,
    /// The model's memories, then those of the tangents' `deriv` rules.
    memories: Vec<Memory>,
}

fn rewrite(m: &Model, cols: &[Wrt], wrt: &[String]) -> (Model, Vec<Column>) {
    let dep = dependence(m, cols, m.method != crate::ir::Method::Euler);
    let mut out = m.clone();
    let mut taken: BTreeSet<String> = m.vars.iter().map(|v| v.name.clone()).collect();
    let mut state = BTreeMap::new();
    let mut columns = Vec::new();
    let col_name = |c: usize| match cols[c] {
        Wrt::Param(_) => wrt[c].clone(),
        Wrt::Initial(_) => format!("{}(0)", wrt[c]),
    };
    for (v, var) in m.vars.iter().enumerate() {
        if var.kind != VarKind::State || var.ty != Ty::Real {
            continue;
        }
        for &c in &dep[v] {
            let mut name = format!("d({})/d({})", var.name, col_name(c));
            while !taken.insert(name.clone()) {
                name.push('_');
            }
            out.vars.push(Var {
                name: name.clone(),
                kind: VarKind::State,
                ty: Ty::Real,
                output: var.output,
                init: Expr::Num(0.0),
                doc: vec![format!(
                    " The sensitivity of `{}` to {}.",
                    var.name,
                    match cols[c] {
                        Wrt::Param(_) => format!("`{}`", wrt[c]),
                        Wrt::Initial(_) => format!("the initial value of `{}`", wrt[c]),
                    }
                )],
                span: var.span,
                hidden: var.hidden,
            });
            state.insert((v, c), out.vars.len() - 1);
            columns.push(Column {
                of: var.name.clone(),
                wrt: wrt[c].clone(),
                name,
            });
        }
    }
    let mut der = Deriver {
        state: vec![None; m.vars.len()],
        staged: vec![false; m.vars.len()],
        written: BTreeMap::new(),
        time: None,
        seed: BTreeMap::new(),
    };
    for (c, w) in cols.iter().enumerate() {
        if let Wrt::Param(p) = *w {
            der.seed.insert(p, Sparse::from([(c, Slope::Num(1.0))]));
        }
    }
    // The derived params' tangents, each over the ones before it in the order of their
    // reads (a derived param reads free and derived params, without cycles).
    for _ in 0..m.vars.len() {
        let mut changed = false;
        for (v, var) in m.vars.iter().enumerate() {
            if var.is_derived() && !dep[v].is_empty() {
                let t = der.d(&var.init);
                if der.seed.get(&v) != Some(&t) {
                    der.seed.insert(v, t);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // The initial values: read before any state is seeded (they read params only).
    for (&(v, c), &s) in &state {
        let init = match cols[c] {
            Wrt::Initial(x) if x == v => Expr::Num(1.0),
            _ => der
                .d(&m.vars[v].init)
                .remove(&c)
                .map_or(Expr::Num(0.0), expr),
        };
        out.vars[s].init = init;
    }
    for (&(v, c), &s) in &state {
        der.seed
            .entry(v)
            .or_default()
            .insert(c, Slope::Value(Expr::Var(s)));
    }
    let mut t = Tangents {
        der,
        state,
        memories: m.memories.clone(),
    };
    let body = t.stmts(&m.body);
    out.memories = t.memories;
    out.body = if m.method == crate::ir::Method::Euler {
        // Events are seen at a step's end: the tangent rules are the discrete map's.
        body
    } else {
        super::saltation::Saltation {
            m,
            out: &mut out,
            taken: &mut taken,
            der: &t.der,
            state: &t.state,
            columns: cols.len(),
        }
        .body(body)
    };
    (out, columns)
}

impl Tangents {
    fn stmts(&mut self, body: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            match s {
                Stmt::Assign(a) => {
                    out.extend(self.tangent(a).into_iter().map(Stmt::Assign));
                }
                Stmt::Otherwise { assign, fired } => {
                    out.extend(
                        self.tangent(assign)
                            .into_iter()
                            .map(|assign| Stmt::Otherwise {
                                assign,
                                fired: *fired,
                            }),
                    );
                }
                Stmt::If { cond, then, span } => {
                    out.push(Stmt::If {
                        cond: cond.clone(),
                        then: self.stmts(then),
                        span: *span,
                    });
                    continue;
                }
                _ => {}
            }
            out.push(s.clone());
        }
        out
    }

    /// The tangent rules of `a`, one per column its target depends on.
    fn tangent(&mut self, a: &Assign) -> Vec<Assign> {
        let cols: Vec<(usize, VarId)> = self
            .state
            .range((a.target, 0)..=(a.target, usize::MAX))
            .map(|(&(_, c), &s)| (c, s))
            .collect();
        if !differentiable(&a.rhs) {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(cols.len());
        for (c, s) in cols {
            let d = |e: &Expr| self.der.d(e).remove(&c).map_or(Expr::Num(0.0), expr);
            let rhs = match &a.rhs {
                Rhs::Expr(e) => Rhs::Expr(d(e)),
                Rhs::Integral { x } | Rhs::IntegralLimited { x, .. } => Rhs::Integral { x: d(x) },
                Rhs::Lag { x, t, k } => self.lag(a.target, (x, t, k), c),
                Rhs::Deriv { x, .. } => {
                    let x = d(x);
                    self.memories.push(Memory {
                        kind: MemoryKind::Deriv,
                        span: a.span,
                    });
                    Rhs::Deriv {
                        x,
                        mem: self.memories.len() - 1,
                    }
                }
                _ => unreachable!("only differentiable rules"),
            };
            out.push(Assign {
                target: s,
                rhs,
                fired: None,
                span: a.span,
            });
        }
        out
    }

    /// The tangent of `y = lag(x, t, k)` in column `c`: `lag(∂(k·x) − (k·x − y)·∂t/t, t)`.
    fn lag(&self, y: VarId, (x, t, k): (&Expr, &Expr, &Expr), c: usize) -> Rhs {
        let b = Box::new;
        let gain = Expr::Arith(ArithOp::Mul, b(k.clone()), b(x.clone()));
        let dgain = self.der.d(&gain).remove(&c).map_or(Expr::Num(0.0), expr);
        let input = match self.der.d(t).remove(&c) {
            None => dgain,
            Some(dt) => {
                let gap = Expr::Arith(ArithOp::Sub, b(gain), b(Expr::Var(y)));
                let drift = Expr::Arith(ArithOp::Mul, b(gap), b(expr(dt)));
                let drift = Expr::Arith(ArithOp::Div, b(drift), b(t.clone()));
                Expr::Arith(ArithOp::Sub, b(dgain), b(drift))
            }
        };
        Rhs::Lag {
            x: input,
            t: t.clone(),
            k: Expr::Num(1.0),
        }
    }
}
