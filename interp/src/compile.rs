//! Lowering of a checked `ir::Program` rooted at one model into flat slot code ([`Code`]).
//!
//! First every instance of the tree gets a node and its slots (pre-order: a model's own
//! slots, then each submodel's), then every expression is compiled per node, with derived
//! params and conditions inlined where they are read, exactly as the IR tree writes them.

use crate::code::{
    Code, EventCode, Init, Logic, Node, Num, Read, Site, Stmt, SubNode, Update, VarEntry,
};
use crate::{InterpError, SiteKind};
use sit_parser::Span;
use sit_parser::ir::{self, ArithOp, Expr, Func, ModelId, Program, Rhs, Ty};
use sit_runtime::{SetError, ValueType, VarKind, math};
use std::cell::RefCell;

/// Deepest nesting of submodels, and of expressions with derived params and conditions
/// inlined, accepted: above the checker's 1000 operators per expression, so that every
/// single expression it accepts compiles; beyond it (long chains of derived params or
/// conditions, or a cycle in a malformed program) is an error, not a stack overflow.
const MAX_DEPTH: u32 = 2048;
/// Most expression nodes in one compiled tree once derived params and conditions are
/// inlined where they are read: `p1 = p0 + p0; p2 = p1 + p1; ...` doubles at each
/// line, so 40 lines would expand to 2^40 nodes (a hang); this turns it into an error.
const MAX_OPS: usize = 1 << 22;
/// Most instances in one tree (a guard against exponential instance trees: 20 levels
/// of two submodels each, a few hundred bytes of source, already reach it).
pub(crate) const MAX_NODES: usize = 1 << 20;

/// Why a param cannot be set: it is computed from other params.
const DERIVED: &str = "it is derived from other params and cannot be set";

/// Where a variable of one instance lives.
#[derive(Debug, Clone, Copy)]
enum Loc {
    Real(usize),
    Flag(usize),
    /// A derived param: no storage, evaluated where read.
    Derived,
}

/// The slots of one instance.
#[derive(Debug, Clone)]
struct Layout {
    model: ModelId,
    /// Dotted prefix of the instance's variable names (`""` for the root, `"a.b."`).
    prefix: String,
    vars: Vec<Loc>,
    event_value: Vec<usize>,
    event_prev: Vec<usize>,
    subs: Vec<usize>,
    on: Vec<usize>,
    time: usize,
    dt: usize,
    fired: std::ops::Range<usize>,
    mems: std::ops::Range<usize>,
}

/// The compiler's working state.
struct Compiler<'p> {
    program: &'p Program,
    layouts: Vec<Layout>,
    reals: usize,
    flags: usize,
    mems: usize,
    /// The sites of the stored real values, appended while compiling.
    sites: RefCell<Vec<Site>>,
    /// Expression nodes compiled so far (see [`MAX_OPS`]).
    ops: std::cell::Cell<usize>,
}

/// Compiles the instance tree rooted at `root`.
pub(crate) fn compile(program: &Program, root: ModelId) -> Result<Code, InterpError> {
    let name = model_of(program, root)?.name.clone();
    let count = instances(program, root, &mut vec![None; program.models.len()], 0)?;
    if count > MAX_NODES {
        return Err(InterpError::too_large(format!(
            "model `{name}` has {} instances with its submodels; the interpreter accepts at \
             most {MAX_NODES}",
            if count == usize::MAX {
                "too many".to_string()
            } else {
                count.to_string()
            }
        )));
    }
    let mut c = Compiler {
        program,
        layouts: Vec::new(),
        reals: 0,
        flags: 0,
        mems: 0,
        sites: RefCell::new(Vec::new()),
        ops: std::cell::Cell::new(0),
    };
    c.layout(root, 0, String::new())?;
    let nodes = (0..c.layouts.len())
        .map(|n| c.node(n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut vars = Vec::new();
    c.var_list(0, "", 0, None, &mut vars)?;
    Ok(Code {
        name,
        nodes,
        vars,
        reals: c.reals,
        flags: c.flags,
        mems: c.mems,
        sites: c.sites.into_inner(),
    })
}

/// The number of instances in the tree of `model` (itself included), saturating;
/// `memo` holds the counts already known, per model.
fn instances(
    program: &Program,
    model: ModelId,
    memo: &mut Vec<Option<usize>>,
    depth: u32,
) -> Result<usize, InterpError> {
    if depth > MAX_DEPTH {
        return Err(malformed(
            "the instance tree is too deep (cyclic submodels?)".into(),
        ));
    }
    if let Some(Some(n)) = memo.get(model) {
        return Ok(*n);
    }
    let m = model_of(program, model)?;
    let mut n = 1usize;
    for s in &m.subs {
        n = n.saturating_add(instances(program, s.model, memo, depth + 1)?);
    }
    memo[model] = Some(n);
    Ok(n)
}

fn model_of(program: &Program, id: ModelId) -> Result<&ir::Model, InterpError> {
    program
        .models
        .get(id)
        .ok_or_else(|| malformed(format!("no model with index {id}")))
}

fn malformed(what: String) -> InterpError {
    InterpError::malformed(what)
}

fn get<'a, T>(xs: &'a [T], i: usize, what: &str) -> Result<&'a T, InterpError> {
    xs.get(i)
        .ok_or_else(|| malformed(format!("{what} index {i} out of range")))
}

impl Compiler<'_> {
    fn real(&mut self) -> usize {
        self.reals += 1;
        self.reals - 1
    }

    fn flag(&mut self) -> usize {
        self.flags += 1;
        self.flags - 1
    }

    /// Allocates the node of an instance of `model` and, recursively, its submodels'.
    fn layout(&mut self, model: ModelId, depth: u32, prefix: String) -> Result<usize, InterpError> {
        if depth > MAX_DEPTH || self.layouts.len() >= MAX_NODES {
            return Err(malformed(
                "the instance tree is too deep or too large (cyclic submodels?)".into(),
            ));
        }
        let m = model_of(self.program, model)?;
        let index = self.layouts.len();
        let time = self.real();
        let dt = self.real();
        let vars = m
            .vars
            .iter()
            .map(|v| match (v.kind, v.ty) {
                (ir::VarKind::Param { derived: true }, _) => Loc::Derived,
                (_, Ty::Real) => Loc::Real(self.real()),
                (_, Ty::Flag) => Loc::Flag(self.flag()),
            })
            .collect();
        let event_value = m.events.iter().map(|_| self.flag()).collect();
        let event_prev = m.events.iter().map(|_| self.flag()).collect();
        let fired = self.flags..self.flags + m.fired;
        self.flags += m.fired;
        let mems = self.mems..self.mems + m.memories.len();
        self.mems += m.memories.len();
        let on = m.subs.iter().map(|_| self.flag()).collect();
        self.layouts.push(Layout {
            model,
            prefix: prefix.clone(),
            vars,
            event_value,
            event_prev,
            subs: Vec::new(),
            on,
            time,
            dt,
            fired,
            mems,
        });
        let mut subs = Vec::with_capacity(m.subs.len());
        for s in &m.subs {
            subs.push(self.layout(s.model, depth + 1, format!("{prefix}{}.", s.name))?);
        }
        self.layouts[index].subs = subs;
        Ok(index)
    }

    fn model(&self, node: usize) -> &ir::Model {
        // Layouts are only made for models that exist.
        &self.program.models[self.layouts[node].model]
    }

    /// The compiled code of one node.
    fn node(&self, n: usize) -> Result<Node, InterpError> {
        let m = self.model(n);
        let l = &self.layouts[n];
        let mut defaults = Vec::new();
        let mut inits = Vec::new();
        for (v, var) in m.vars.iter().enumerate() {
            let list = match var.kind {
                ir::VarKind::Param { derived: true } => continue,
                ir::VarKind::Param { derived: false } | ir::VarKind::Input => &mut defaults,
                ir::VarKind::State => &mut inits,
            };
            let site = self.site(
                format!("{}{}", l.prefix, var.name),
                SiteKind::Declaration,
                var.span,
            );
            list.push(self.init(n, l.vars[v], &var.init, site)?);
        }
        let mut subs = Vec::with_capacity(m.subs.len());
        for (s, sub) in m.subs.iter().enumerate() {
            let child = l.subs[s];
            let child_model = self.model(child);
            let bind = |bs: &[ir::Binding]| -> Result<Vec<Init>, InterpError> {
                bs.iter()
                    .map(|b| {
                        let var = get(&child_model.vars, b.var, "bound variable")?;
                        let loc = self.layouts[child].vars[b.var];
                        if matches!(loc, Loc::Derived) {
                            return Err(malformed(format!(
                                "binding of the derived param `{}`",
                                var.name
                            )));
                        }
                        let name = format!("{}{}", self.layouts[child].prefix, var.name);
                        let site = self.site(name, SiteKind::Binding, b.span);
                        self.init(n, loc, &b.value, site)
                    })
                    .collect()
            };
            subs.push(SubNode {
                node: child,
                on: l.on[s],
                initially_on: sub.initially_on,
                params: bind(&sub.param_bindings)?,
                inputs: bind(&sub.input_bindings)?,
            });
        }
        let events = m
            .events
            .iter()
            .enumerate()
            .map(|(e, ev)| {
                Ok(EventCode {
                    value: l.event_value[e],
                    prev: l.event_prev[e],
                    cond: self.logic(n, &ev.cond, 0)?.compile(),
                })
            })
            .collect::<Result<_, InterpError>>()?;
        Ok(Node {
            time: l.time,
            dt: l.dt,
            subs,
            events,
            body: self.stmts(n, &m.body)?,
            defaults,
            inits,
            fired: l.fired.clone(),
            mems: l.mems.clone(),
        })
    }

    /// Counts one expression node at `depth` against [`MAX_DEPTH`] and [`MAX_OPS`].
    fn budget(&self, depth: u32) -> Result<(), InterpError> {
        self.ops.set(self.ops.get() + 1);
        if depth > MAX_DEPTH {
            return Err(InterpError::too_large(format!(
                "an expression is nested more than {MAX_DEPTH} levels deep once derived \
                 params and conditions are inlined where they are read"
            )));
        }
        if self.ops.get() > MAX_OPS {
            return Err(InterpError::too_large(format!(
                "the expressions expand to more than {MAX_OPS} operations once derived \
                 params and conditions are inlined where they are read"
            )));
        }
        Ok(())
    }

    /// Records where a stored real value comes from; returns its index in the sites.
    fn site(&self, var: String, kind: SiteKind, span: Span) -> usize {
        let file = self.program.sources.files.get(span.file);
        let text = file.map_or("", |f| match kind {
            // A declaration's span is its name: show the whole declaration line.
            SiteKind::Declaration => {
                let before = f.text.get(..span.start).unwrap_or("");
                let start = before.rfind('\n').map_or(0, |i| i + 1);
                let line = f.text.get(start..).unwrap_or("");
                line.split('\n').next().unwrap_or("")
            }
            SiteKind::Rule | SiteKind::Binding => f.text.get(span.start..span.end).unwrap_or(""),
        });
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut sites = self.sites.borrow_mut();
        sites.push(Site {
            var,
            kind,
            file: file.map(|f| f.path.clone()).unwrap_or_default(),
            line: file.map_or(0, |f| f.line(span.start)),
            text: text.trim_end_matches(';').trim_end().to_string(),
        });
        sites.len() - 1
    }

    /// `loc = value` with `value` compiled in node `n`; `site` is where it is written.
    fn init(&self, n: usize, loc: Loc, value: &Expr, site: usize) -> Result<Init, InterpError> {
        match loc {
            Loc::Real(slot) => Ok(Init::Real(slot, self.num(n, value, 0)?.compile(), site)),
            Loc::Flag(slot) => Ok(Init::Flag(slot, self.logic(n, value, 0)?.compile())),
            Loc::Derived => Err(malformed("assignment to a derived param".into())),
        }
    }

    fn stmts(&self, n: usize, body: &[ir::Stmt]) -> Result<Box<[Stmt]>, InterpError> {
        body.iter().map(|s| self.stmt(n, s)).collect()
    }

    fn stmt(&self, n: usize, s: &ir::Stmt) -> Result<Stmt, InterpError> {
        let l = &self.layouts[n];
        let fired = |f: usize| -> Result<usize, InterpError> {
            if f < l.fired.len() {
                Ok(l.fired.start + f)
            } else {
                Err(malformed(format!("`otherwise` flag {f} out of range")))
            }
        };
        Ok(match s {
            ir::Stmt::Assign(a) => self.assign(n, a)?,
            ir::Stmt::Otherwise { assign, fired: f } => Stmt::Otherwise {
                fired: fired(*f)?,
                assign: Box::new(self.assign(n, assign)?),
            },
            ir::Stmt::If { cond, then, .. } => Stmt::If {
                cond: self.logic(n, cond, 0)?.compile(),
                then: self.stmts(n, then)?,
            },
            ir::Stmt::SetFlag { var, value, .. } => match get(&l.vars, *var, "variable")? {
                Loc::Flag(slot) => Stmt::SetFlag {
                    slot: *slot,
                    value: *value,
                },
                _ => return Err(malformed(format!("σ action on the real variable {var}"))),
            },
            ir::Stmt::Switch { sub, on, .. } => Stmt::SetFlag {
                slot: *get(&l.on, *sub, "submodel")?,
                value: *on,
            },
            ir::Stmt::Reset { sub, .. } => Stmt::Reset(*get(&l.subs, *sub, "submodel")?),
        })
    }

    fn assign(&self, n: usize, a: &ir::Assign) -> Result<Stmt, InterpError> {
        let l = &self.layouts[n];
        let Loc::Real(slot) = *get(&l.vars, a.target, "variable")? else {
            return Err(malformed(format!(
                "δ rule on the variable {} that is not a real state",
                a.target
            )));
        };
        let num = |e: &Expr| self.num(n, e, 0).map(Num::compile);
        let rhs = match &a.rhs {
            Rhs::Expr(e) => Update::Expr(num(e)?),
            Rhs::Integral { x } => Update::Integral(num(x)?),
            Rhs::IntegralLimited { x, lo, hi } => {
                Update::IntegralLimited(Box::new((num(x)?, num(lo)?, num(hi)?)))
            }
            Rhs::Lag { x, t, k } => Update::Lag(Box::new((num(x)?, num(t)?, num(k)?))),
            Rhs::Deriv { x, mem } => {
                if *mem >= l.mems.len() {
                    return Err(malformed(format!("memory {mem} out of range")));
                }
                Update::Deriv(num(x)?, l.mems.start + mem)
            }
            Rhs::Hysteresis { x, lo, hi, a } => {
                Update::Hysteresis(Box::new((num(x)?, num(lo)?, num(hi)?, num(a)?)))
            }
        };
        let fired = match a.fired {
            Some(f) if f < l.fired.len() => Some(l.fired.start + f),
            Some(f) => return Err(malformed(format!("`otherwise` flag {f} out of range"))),
            None => None,
        };
        let name = format!("{}{}", l.prefix, self.model(n).vars[a.target].name);
        let site = self.site(name, SiteKind::Rule, a.span);
        Ok(Stmt::Assign {
            slot,
            rhs,
            fired,
            site,
        })
    }

    /// A real expression in the scope of node `n`.
    fn num(&self, n: usize, e: &Expr, depth: u32) -> Result<Num, InterpError> {
        self.budget(depth)?;
        let l = &self.layouts[n];
        let m = self.model(n);
        let two = |a: &Expr, b: &Expr| -> Result<Box<(Num, Num)>, InterpError> {
            Ok(Box::new((
                self.num(n, a, depth + 1)?,
                self.num(n, b, depth + 1)?,
            )))
        };
        Ok(match e {
            Expr::Num(x) => Num::Const(*x),
            Expr::Var(v) => match *get(&l.vars, *v, "variable")? {
                Loc::Real(slot) => Num::Slot(slot),
                Loc::Derived => self.num(n, &m.vars[*v].init, depth + 1)?,
                Loc::Flag(_) => return Err(malformed(format!("flag {v} read as a real"))),
            },
            Expr::SubVar(s, v) => {
                self.num(*get(&l.subs, *s, "submodel")?, &Expr::Var(*v), depth + 1)?
            }
            Expr::Time => Num::Slot(l.time),
            Expr::Dt => Num::Slot(l.dt),
            Expr::Neg(a) => Num::Neg(Box::new(self.num(n, a, depth + 1)?)),
            Expr::Arith(op, a, b) => {
                let ab = two(a, b)?;
                match op {
                    ArithOp::Add => Num::Add(ab),
                    ArithOp::Sub => Num::Sub(ab),
                    ArithOp::Mul => Num::Mul(ab),
                    ArithOp::Div => Num::Div(ab),
                    ArithOp::Pow => Num::F2(math::pow, ab),
                }
            }
            Expr::Call(f, args) => {
                let arg = |i: usize| -> Result<Num, InterpError> {
                    let a = args.get(i).ok_or_else(|| {
                        malformed(format!(
                            "`{}` called with {} arguments",
                            f.name(),
                            args.len()
                        ))
                    })?;
                    self.num(n, a, depth + 1)
                };
                if args.len() != f.arity() {
                    return Err(malformed(format!(
                        "`{}` called with {} arguments",
                        f.name(),
                        args.len()
                    )));
                }
                match func(*f) {
                    Fun::One(g) => Num::F1(g, Box::new(arg(0)?)),
                    Fun::Two(g) => Num::F2(g, Box::new((arg(0)?, arg(1)?))),
                    Fun::Three(g) => Num::F3(g, Box::new((arg(0)?, arg(1)?, arg(2)?))),
                }
            }
            Expr::Bool(_)
            | Expr::Cond(_)
            | Expr::Event(_)
            | Expr::SubCond(..)
            | Expr::SubEvent(..)
            | Expr::SubOn(_)
            | Expr::Not(_)
            | Expr::Cmp(..)
            | Expr::And(..)
            | Expr::Or(..) => return Err(malformed("logical expression read as a real".into())),
        })
    }

    /// A logical expression in the scope of node `n`.
    fn logic(&self, n: usize, e: &Expr, depth: u32) -> Result<Logic, InterpError> {
        self.budget(depth)?;
        let l = &self.layouts[n];
        let m = self.model(n);
        let two = |a: &Expr, b: &Expr| -> Result<Box<(Logic, Logic)>, InterpError> {
            Ok(Box::new((
                self.logic(n, a, depth + 1)?,
                self.logic(n, b, depth + 1)?,
            )))
        };
        Ok(match e {
            Expr::Bool(b) => Logic::Const(*b),
            Expr::Var(v) => match *get(&l.vars, *v, "variable")? {
                Loc::Flag(slot) => Logic::Slot(slot),
                _ => return Err(malformed(format!("real {v} read as a flag"))),
            },
            Expr::Cond(c) => self.logic(n, &get(&m.conds, *c, "condition")?.expr, depth + 1)?,
            Expr::Event(ev) => Logic::Slot(*get(&l.event_value, *ev, "event")?),
            Expr::SubVar(s, v) => {
                self.logic(*get(&l.subs, *s, "submodel")?, &Expr::Var(*v), depth + 1)?
            }
            Expr::SubCond(s, c) => {
                self.logic(*get(&l.subs, *s, "submodel")?, &Expr::Cond(*c), depth + 1)?
            }
            Expr::SubEvent(s, ev) => {
                self.logic(*get(&l.subs, *s, "submodel")?, &Expr::Event(*ev), depth + 1)?
            }
            Expr::SubOn(s) => Logic::Slot(*get(&l.on, *s, "submodel")?),
            Expr::Not(a) => Logic::Not(Box::new(self.logic(n, a, depth + 1)?)),
            Expr::And(a, b) => Logic::And(two(a, b)?),
            Expr::Or(a, b) => Logic::Or(two(a, b)?),
            Expr::Cmp(op, a, b) => Logic::Cmp(
                *op,
                Box::new((self.num(n, a, depth + 1)?, self.num(n, b, depth + 1)?)),
            ),
            Expr::Num(_)
            | Expr::Time
            | Expr::Dt
            | Expr::Neg(_)
            | Expr::Arith(..)
            | Expr::Call(..) => return Err(malformed("real expression read as a flag".into())),
        })
    }

    /// Appends the public variables of node `n` (names prefixed by `prefix`).
    /// `bound` lists the variables of `n` bound by its parent.
    fn var_list(
        &self,
        n: usize,
        prefix: &str,
        depth: usize,
        bound: Option<&ir::Sub>,
        out: &mut Vec<VarEntry>,
    ) -> Result<(), InterpError> {
        let l = &self.layouts[n];
        let m = self.model(n);
        let is_bound = |v: usize| {
            bound.is_some_and(|s| {
                s.param_bindings
                    .iter()
                    .chain(&s.input_bindings)
                    .any(|b| b.var == v)
            })
        };
        for (v, var) in m.vars.iter().enumerate() {
            let (kind, locked) = match var.kind {
                ir::VarKind::Param { derived: true } => (VarKind::Param, Some(DERIVED)),
                ir::VarKind::Param { derived: false } => {
                    (VarKind::Param, is_bound(v).then_some(SetError::BOUND))
                }
                ir::VarKind::Input => (VarKind::Input, is_bound(v).then_some(SetError::BOUND)),
                ir::VarKind::State => (VarKind::State, None),
            };
            let read = match l.vars[v] {
                Loc::Real(slot) => Read::Real(slot),
                Loc::Flag(slot) => Read::Flag(slot),
                Loc::Derived => Read::Num(self.num(n, &Expr::Var(v), 0)?.compile()),
            };
            out.push(VarEntry {
                name: format!("{prefix}{}", var.name),
                kind,
                ty: value_type(var.ty),
                output: var.output,
                depth,
                locked,
                read,
            });
        }
        for (c, cond) in m.conds.iter().enumerate() {
            out.push(VarEntry {
                name: format!("{prefix}{}", cond.name),
                kind: match cond.kind {
                    ir::CondKind::Pred => VarKind::Predicate,
                    ir::CondKind::Situation => VarKind::Situation,
                },
                ty: ValueType::Logical,
                output: cond.output,
                depth,
                locked: Some(SetError::COMPUTED),
                read: Read::Logic(self.logic(n, &Expr::Cond(c), 0)?.compile()),
            });
        }
        for (e, ev) in m.events.iter().enumerate() {
            out.push(VarEntry {
                name: format!("{prefix}{}", ev.name),
                kind: VarKind::Event,
                ty: ValueType::Logical,
                output: ev.output,
                depth,
                locked: Some(SetError::COMPUTED),
                read: Read::Flag(l.event_value[e]),
            });
        }
        for (s, sub) in m.subs.iter().enumerate() {
            let name = format!("{prefix}{}", sub.name);
            out.push(VarEntry {
                name: format!("{name}.on"),
                kind: VarKind::SubmodelOn,
                ty: ValueType::Logical,
                output: false,
                depth,
                locked: None,
                read: Read::Flag(l.on[s]),
            });
            self.var_list(l.subs[s], &format!("{name}."), depth + 1, Some(sub), out)?;
        }
        Ok(())
    }
}

fn value_type(ty: Ty) -> ValueType {
    match ty {
        Ty::Real => ValueType::Real,
        Ty::Flag => ValueType::Logical,
    }
}

/// A runtime function by arity.
enum Fun {
    One(fn(f64) -> f64),
    Two(fn(f64, f64) -> f64),
    Three(fn(f64, f64, f64) -> f64),
}

/// The `sit_runtime` function of a pure procedure.
fn func(f: Func) -> Fun {
    match f {
        Func::Abs => Fun::One(math::abs),
        Func::Sign => Fun::One(math::sign),
        Func::Sqrt => Fun::One(math::sqrt),
        Func::Exp => Fun::One(math::exp),
        Func::Ln => Fun::One(math::ln),
        Func::Log10 => Fun::One(math::log10),
        Func::Sin => Fun::One(math::sin),
        Func::Cos => Fun::One(math::cos),
        Func::Tan => Fun::One(math::tan),
        Func::Asin => Fun::One(math::asin),
        Func::Acos => Fun::One(math::acos),
        Func::Atan => Fun::One(math::atan),
        Func::Atan2 => Fun::Two(math::atan2),
        Func::Sinh => Fun::One(math::sinh),
        Func::Cosh => Fun::One(math::cosh),
        Func::Tanh => Fun::One(math::tanh),
        Func::Min => Fun::Two(math::min),
        Func::Max => Fun::Two(math::max),
        Func::Pow => Fun::Two(math::pow),
        Func::Hypot => Fun::Two(math::hypot),
        Func::Floor => Fun::One(math::floor),
        Func::Ceil => Fun::One(math::ceil),
        Func::Round => Fun::One(math::round),
        Func::Relay => Fun::Two(sit_runtime::relay),
        Func::Limit => Fun::Three(sit_runtime::limit),
        Func::Deadzone => Fun::Two(sit_runtime::deadzone),
    }
}
