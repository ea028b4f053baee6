//! Flat slot storage for the lowered step (`sit_lir`) of an instance tree: [`Code`].
//!
//! First every instance of the tree gets a node and its slots (pre-order: a model's own
//! slots, then each submodel's), then each model is lowered once (derived params and
//! conditions inlined where they are read) and its statements are placed on the slots of
//! each of its nodes.

use crate::code::{
    Code, EventCode, Init, Logic, ModeCode, Node, Num, PhaseCode, Read, Site, Stmt, SubNode,
    SubstepCode, Update, VarEntry,
};
use crate::funcs::{Fun, func};
use crate::{InterpError, SiteKind};
use sit_lir::Span;
use sit_lir::decl::{Model, Program};
use sit_lir::{
    self as lower, Access, FlagUse, Item, LowerError, MAX_DEPTH, MAX_OPS, Place, Proc, Reads, Slot,
    Term,
};
use sit_lir::{self as ir, ArithOp, Defined, Lowering, ModelId, Ty};
use sit_runtime::{SetError, ValueType, VarKind, math};
use std::cell::RefCell;

/// Most instances in one tree (a guard against exponential instance trees: 20 levels
/// of two submodels each, a few hundred bytes of source, already reach it).
pub(crate) const MAX_NODES: usize = 1 << 20;

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
    /// Per mode: the real slot of its state's index, and of that at the step's start.
    modes: Vec<(usize, usize)>,
}

/// The compiler's working state.
struct Compiler<'p> {
    lowered: &'p dyn Lowering,
    program: &'p Program,
    layouts: Vec<Layout>,
    reals: usize,
    flags: usize,
    mems: usize,
    /// The sites of the stored real values, appended while compiling.
    sites: RefCell<Vec<Site>>,
    /// Expression nodes compiled so far, over every node of the tree but the first
    /// instance of each model (at most [`MAX_OPS`]: the lowering bounds what inlining
    /// adds to one model, this bounds its many instances).
    ops: std::cell::Cell<usize>,
    /// Whether compiled nodes count against [`MAX_OPS`]: not while compiling the step
    /// of a model's first instance, whose size the lowering has bounded.
    counting: std::cell::Cell<bool>,
    /// The tables read, one per declaration, in the order first read.
    tables: RefCell<Vec<std::sync::Arc<sit_lir::LookupTable>>>,
}

/// Compiles the instance tree rooted at `root`.
pub(crate) fn compile(program_lowered: &dyn Lowering, root: ModelId) -> Result<Code, InterpError> {
    let program = program_lowered.program();
    let name = model_of(program, root)?.name.clone();
    let count = instances(program, root, &mut vec![None; program.models.len()], 0)?;
    if count.is_none_or(|n| n > MAX_NODES) {
        let count = count.map_or("too many".to_string(), |n| n.to_string());
        return Err(InterpError::too_large(format!(
            "model `{name}` has {count} instances with its submodels; the interpreter \
             accepts at most {MAX_NODES}"
        )));
    }
    let mut c = Compiler {
        lowered: program_lowered,
        program,
        layouts: Vec::new(),
        reals: 0,
        flags: 0,
        mems: 0,
        sites: RefCell::new(Vec::new()),
        ops: std::cell::Cell::new(0),
        counting: std::cell::Cell::new(true),
        tables: RefCell::new(Vec::new()),
    };
    c.layout(root, 0, String::new())?;
    let mut lowered: Vec<Option<lower::Model>> = vec![None; program.models.len()];
    let mut nodes = Vec::with_capacity(c.layouts.len());
    for n in 0..c.layouts.len() {
        let id = c.layouts[n].model;
        let first = lowered[id].is_none();
        if first {
            lowered[id] = Some(program_lowered.model(id, Reads::Inline).map_err(error)?);
        }
        if let Some(m) = &lowered[id] {
            c.counting.set(!first);
            nodes.push(c.node(n, m)?);
            c.counting.set(true);
        }
    }
    let (vars, shown) = c.var_list(root)?;
    Ok(Code {
        name,
        nodes,
        vars,
        shown,
        reals: c.reals,
        flags: c.flags,
        mems: c.mems,
        sites: c.sites.into_inner(),
        tables: c.tables.into_inner(),
        sources: program.sources.clone(),
    })
}

/// The number of instances in the tree of `model` (itself included), `None` beyond
/// `usize`; `memo` holds the counts already known, per model.
fn instances(
    program: &Program,
    model: ModelId,
    memo: &mut Vec<Option<Option<usize>>>,
    depth: u32,
) -> Result<Option<usize>, InterpError> {
    if depth > MAX_DEPTH {
        return Err(malformed(
            "the instance tree is too deep (cyclic submodels?)".into(),
        ));
    }
    if let Some(Some(n)) = memo.get(model) {
        return Ok(*n);
    }
    let m = model_of(program, model)?;
    let mut n = Some(1usize);
    for s in &m.subs {
        let k = instances(program, s.model, memo, depth + 1)?;
        n = n.zip(k).and_then(|(n, k)| n.checked_add(k));
    }
    memo[model] = Some(n);
    Ok(n)
}

fn model_of(program: &Program, id: ModelId) -> Result<&Model, InterpError> {
    program
        .models
        .get(id)
        .ok_or_else(|| malformed(format!("no model with index {id}")))
}

fn malformed(what: String) -> InterpError {
    InterpError::malformed(what)
}

/// The interpreter's error for a lowering error.
fn error(e: LowerError) -> InterpError {
    e.into()
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
            .map(|v| match v.ty {
                _ if v.is_derived() => Loc::Derived,
                Ty::Real => Loc::Real(self.real()),
                Ty::Flag => Loc::Flag(self.flag()),
            })
            .collect();
        let event_value = m.events.iter().map(|_| self.flag()).collect();
        let event_prev = m.events.iter().map(|_| self.flag()).collect();
        let fired = self.flags..self.flags + m.fired;
        self.flags += m.fired;
        let mems = self.mems..self.mems + m.memories.len();
        self.mems += m.memories.len();
        let on = m.subs.iter().map(|_| self.flag()).collect();
        let modes = m.modes.iter().map(|_| (self.real(), self.real())).collect();
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
            modes,
        });
        let mut subs = Vec::with_capacity(m.subs.len());
        for s in &m.subs {
            subs.push(self.layout(s.model, depth + 1, format!("{prefix}{}.", s.name))?);
        }
        self.layouts[index].subs = subs;
        Ok(index)
    }

    fn model(&self, node: usize) -> &Model {
        // Layouts are only made for models that exist.
        &self.program.models[self.layouts[node].model]
    }

    /// The node reached from node `n` through the submodels of `path`.
    fn node_at(&self, n: usize, path: &[usize]) -> Result<usize, InterpError> {
        path.iter().try_fold(n, |n, &s| {
            get(&self.layouts[n].subs, s, "submodel").copied()
        })
    }

    /// The dotted name of variable `var` of node `n`.
    fn name(&self, n: usize, var: usize) -> Result<String, InterpError> {
        let v = get(&self.model(n).vars, var, "variable")?;
        Ok(format!("{}{}", self.layouts[n].prefix, v.name))
    }

    /// The compiled code of node `n`, an instance of the lowered model `m`.
    fn node(&self, n: usize, m: &lower::Model) -> Result<Node, InterpError> {
        let l = &self.layouts[n];
        let inits = |list: &[lower::Init]| -> Result<Vec<Init>, InterpError> {
            list.iter()
                .map(|i| {
                    let reads = self.slots_read(n, std::slice::from_ref(&i.value), usize::MAX);
                    let name = self.name(n, i.var)?;
                    let site = self.site_reading(name, SiteKind::Declaration, i.span, reads);
                    self.init(n, n, i, site)
                })
                .collect()
        };
        let mut subs = Vec::with_capacity(m.subs.len());
        for link in &m.subs {
            let child = *get(&l.subs, link.sub, "submodel")?;
            let bind = |bs: &[lower::Init]| -> Result<Vec<Init>, InterpError> {
                bs.iter()
                    .map(|b| {
                        let reads = self.slots_read(n, std::slice::from_ref(&b.value), usize::MAX);
                        let name = self.name(child, b.var)?;
                        let site = self.site_reading(name, SiteKind::Binding, b.span, reads);
                        self.init(n, child, b, site)
                    })
                    .collect()
            };
            subs.push(SubNode {
                node: child,
                on: *get(&l.on, link.sub, "submodel")?,
                initially_on: link.initially_on,
                params: bind(&link.params)?,
                inputs: bind(&link.inputs)?,
                placed: link.placed,
            });
        }
        let events = m
            .events
            .iter()
            .map(|ev| {
                Ok(EventCode {
                    value: *get(&l.event_value, ev.event, "event")?,
                    prev: *get(&l.event_prev, ev.event, "event")?,
                    cond: self.logic(n, &ev.cond)?.compile(),
                })
            })
            .collect::<Result<_, InterpError>>()?;
        let mut phases = Vec::with_capacity(m.phases.len());
        for p in &m.phases {
            let child = *get(&l.subs, p.sub, "submodel")?;
            let binds = p
                .binds
                .iter()
                .map(|b| {
                    let reads = self.slots_read(n, std::slice::from_ref(&b.value), usize::MAX);
                    let name = self.name(child, b.var)?;
                    let site = self.site_reading(name, SiteKind::Binding, b.span, reads);
                    self.init(n, child, b, site)
                })
                .collect::<Result<_, InterpError>>()?;
            phases.push(PhaseCode {
                node: child,
                binds,
                step: p.step,
                limit: p.limit,
                until: self.logic(n, &p.until)?.compile(),
                model: self.model(n).name.clone(),
                name: p.name.clone(),
            });
        }
        let substeps = match &m.substeps {
            None => None,
            Some(link) => Some(SubstepCode {
                when: self.logic(n, &link.when)?.compile(),
                count: self.num(n, &link.count)?.compile(),
                limit: link.limit,
                model: link.model.clone(),
            }),
        };
        Ok(Node {
            substeps,
            phases,
            time: l.time,
            dt: l.dt,
            subs,
            events,
            events_at_start: m.events_at_start,
            body: self.stmts(n, &m.flags, &m.body)?,
            initial: self.stmts(n, &m.initial_flags, &m.initial)?,
            defaults: inits(&m.defaults)?,
            inits: inits(&m.inits)?,
            fired: l.fired.clone(),
            mems: l.mems.clone(),
            modes: m
                .modes
                .iter()
                .map(|md| {
                    let (slot, start) = *get(&l.modes, md.mode, "mode")?;
                    Ok(ModeCode {
                        slot,
                        start: md.snapshot.then_some(start),
                        initial: md.initial as f64,
                    })
                })
                .collect::<Result<_, InterpError>>()?,
        })
    }

    /// Records where a stored real value comes from; returns its index in the sites.
    fn site(&self, var: String, kind: SiteKind, span: Span) -> usize {
        self.site_reading(var, kind, span, Box::default())
    }

    /// [`Compiler::site`] of a value computed from the real slots `reads`.
    fn site_reading(&self, var: String, kind: SiteKind, span: Span, reads: Box<[usize]>) -> usize {
        let mut sites = self.sites.borrow_mut();
        sites.push(Site {
            var,
            kind,
            span,
            reads,
        });
        sites.len() - 1
    }

    /// The real slots that `terms`, read in node `n`, read (each once, in the order
    /// first read), but `written`.
    fn slots_read(&self, n: usize, terms: &[Term], written: usize) -> Box<[usize]> {
        let mut slots = Vec::new();
        for t in terms {
            t.visit(&mut |t| {
                if let Term::Read(p) = t
                    && let Ok(Loc::Real(slot)) = self.place(n, p)
                    && slot != written
                    && !slots.contains(&slot)
                {
                    slots.push(slot);
                }
            });
        }
        slots.into_boxed_slice()
    }

    /// `init.var` of node `target` set to `init.value` evaluated in node `n`; `site` is
    /// where it is written.
    fn init(
        &self,
        n: usize,
        target: usize,
        init: &lower::Init,
        site: usize,
    ) -> Result<Init, InterpError> {
        match *get(&self.layouts[target].vars, init.var, "variable")? {
            Loc::Real(slot) => Ok(Init::Real(slot, self.num(n, &init.value)?.compile(), site)),
            Loc::Flag(slot) => Ok(Init::Flag(slot, self.logic(n, &init.value)?.compile())),
            Loc::Derived => Err(malformed("assignment to a derived param".into())),
        }
    }

    /// The statements of `body`; an `otherwise` rule whose flag is always set by then
    /// never runs and is left out.
    fn stmts(
        &self,
        n: usize,
        flags: &[FlagUse],
        body: &[lower::Stmt],
    ) -> Result<Box<[Stmt]>, InterpError> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            let l = &self.layouts[n];
            out.push(match s {
                lower::Stmt::Assign(a) => self.assign(n, a)?,
                lower::Stmt::Otherwise { assign, fired } => {
                    if get(flags, *fired, "`otherwise` flag")? == &FlagUse::AlwaysSet {
                        continue;
                    }
                    Stmt::Otherwise {
                        fired: self.fired(n, *fired)?,
                        assign: Box::new(self.assign(n, assign)?),
                    }
                }
                lower::Stmt::If { cond, then, .. } => Stmt::If {
                    cond: self.logic(n, cond)?.compile(),
                    then: self.stmts(n, flags, then)?,
                },
                lower::Stmt::SetFlag { var, value, .. } => match *get(&l.vars, *var, "variable")? {
                    Loc::Flag(slot) => Stmt::SetFlag {
                        slot,
                        value: *value,
                    },
                    _ => return Err(malformed(format!("σ action on the real variable {var}"))),
                },
                lower::Stmt::Switch { sub, on, .. } => Stmt::SetFlag {
                    slot: *get(&l.on, *sub, "submodel")?,
                    value: *on,
                },
                lower::Stmt::Reset { sub, .. } => Stmt::Reset(*get(&l.subs, *sub, "submodel")?),
                lower::Stmt::Step { sub, .. } => {
                    if self
                        .model(n)
                        .subs
                        .get(*sub)
                        .is_none_or(|s| s.placed.is_none())
                    {
                        return Err(malformed(format!("`step` of submodel {sub}, not placed")));
                    }
                    Stmt::Step(*sub)
                }
                lower::Stmt::Run { sub, .. } => {
                    // The lowering lists the phases in the order their subs are declared.
                    let subs = &self.model(n).subs;
                    if subs.get(*sub).is_none_or(|s| !s.phase) {
                        return Err(malformed(format!("`run` of submodel {sub}, not a phase")));
                    }
                    Stmt::Run(subs[..*sub].iter().filter(|s| s.phase).count())
                }
                lower::Stmt::Repeat {
                    body,
                    until,
                    count,
                    limit,
                    at_limit,
                    method,
                    clear,
                    events,
                    ..
                } => {
                    let Loc::Real(count) = *get(&l.vars, *count, "variable")? else {
                        return Err(malformed(format!("loop counter {count} is not a real")));
                    };
                    let events = match events {
                        Some((e, most)) => match *get(&l.vars, *e, "variable")? {
                            Loc::Real(e) => Some((e, *most)),
                            _ => return Err(malformed(format!("event counter {e} is not a real"))),
                        },
                        None => None,
                    };
                    let clear = clear
                        .iter()
                        .filter(|&&k| {
                            matches!(flags.get(k), Some(FlagUse::Tracked { mutated: true }))
                        })
                        .map(|&k| self.fired(n, k))
                        .collect::<Result<_, _>>()?;
                    let time = l.time;
                    Stmt::Repeat(Box::new(crate::code::Repeat {
                        body: self.stmts(n, flags, body)?,
                        until: self.logic(n, until)?.compile(),
                        count,
                        limit: *limit,
                        leave: *at_limit == lower::AtLimit::Leave,
                        events,
                        clear,
                        time,
                        model: self.model(n).name.clone(),
                        method,
                    }))
                }
                lower::Stmt::NoteModes { .. } => Stmt::NoteModes,
                lower::Stmt::Event(ev) => Stmt::Event(EventCode {
                    value: *get(&l.event_value, ev.event, "event")?,
                    prev: *get(&l.event_prev, ev.event, "event")?,
                    cond: self.logic(n, &ev.cond)?.compile(),
                }),
                lower::Stmt::Factor {
                    matrix,
                    storage,
                    pivots,
                    method,
                    ..
                } => Stmt::Linear(Box::new(crate::ops::Linear::Factor {
                    a: self.reals(l, matrix)?,
                    storage: storage.clone(),
                    p: self.reals(l, pivots)?,
                    time: l.time,
                    model: self.model(n).name.clone(),
                    method,
                })),
                lower::Stmt::Solve {
                    matrix,
                    storage,
                    pivots,
                    rhs,
                    ..
                } => Stmt::Linear(Box::new(crate::ops::Linear::Solve {
                    a: self.reals(l, matrix)?,
                    storage: storage.clone(),
                    p: self.reals(l, pivots)?,
                    b: self.reals(l, rhs)?,
                })),
                lower::Stmt::Underflow { step, method, .. } => {
                    Stmt::Linear(Box::new(crate::ops::Linear::Underflow {
                        step: self.reals(l, std::slice::from_ref(step))?[0],
                        time: l.time,
                        model: self.model(n).name.clone(),
                        method,
                    }))
                }
                lower::Stmt::SetDt { value, .. } => Stmt::SetDt {
                    value: self.num(n, value)?.compile(),
                    dt: l.dt,
                },
                lower::Stmt::SetMode { mode, state, span } => {
                    let slot = get(&l.modes, *mode, "mode")?.0;
                    let name = &get(&self.model(n).modes, *mode, "mode")?.name;
                    let name = format!("{}{name}", l.prefix);
                    Stmt::Assign {
                        slot,
                        rhs: Update::Expr(Num::Const(*state as f64).compile()),
                        fired: None,
                        site: self.site(name, SiteKind::Rule, *span),
                    }
                }
            });
        }
        Ok(out.into_boxed_slice())
    }

    /// The real slots of `vars` in layout `l` (a stage solve's matrix, pivots or
    /// right-hand side).
    fn reals(&self, l: &Layout, vars: &[usize]) -> Result<Vec<usize>, InterpError> {
        vars.iter()
            .map(|&v| match *get(&l.vars, v, "variable")? {
                Loc::Real(slot) => Ok(slot),
                _ => Err(malformed(format!("a stage solve on {v}, not a real state"))),
            })
            .collect()
    }

    /// The flag slot of `otherwise` flag `k` of node `n`.
    fn fired(&self, n: usize, k: usize) -> Result<usize, InterpError> {
        let fired = &self.layouts[n].fired;
        if k < fired.len() {
            Ok(fired.start + k)
        } else {
            Err(malformed(format!("`otherwise` flag {k} out of range")))
        }
    }

    fn assign(&self, n: usize, a: &lower::Assign) -> Result<Stmt, InterpError> {
        let l = &self.layouts[n];
        let Loc::Real(slot) = *get(&l.vars, a.target, "variable")? else {
            return Err(malformed(format!(
                "δ rule on the variable {} that is not a real state",
                a.target
            )));
        };
        let mut ops = a.operands.iter().map(|t| self.num(n, t).map(Num::compile));
        let mut next = || {
            ops.next()
                .unwrap_or_else(|| Err(malformed("a δ rule lacks an operand".into())))
        };
        let rhs = match a.proc {
            Proc::Expr => Update::Expr(next()?),
            Proc::Integral => Update::Integral(next()?),
            Proc::IntegralLimited => Update::IntegralLimited(Box::new((next()?, next()?, next()?))),
            Proc::Lag => Update::Lag(Box::new((next()?, next()?, next()?))),
            Proc::Deriv { mem } => {
                if mem >= l.mems.len() {
                    return Err(malformed(format!("`deriv` memory {mem} out of range")));
                }
                Update::Deriv(next()?, l.mems.start + mem)
            }
            Proc::Hysteresis => Update::Hysteresis(Box::new((next()?, next()?, next()?, next()?))),
            Proc::Timer => {
                let c = a.operands.first();
                let c = c.ok_or_else(|| malformed("`timer` lacks its condition".into()))?;
                Update::Timer(self.logic(n, c)?.compile())
            }
        };
        let fired = a.sets.map(|k| self.fired(n, k)).transpose()?;
        let reads = self.slots_read(n, &a.operands, slot);
        let site = self.site_reading(self.name(n, a.target)?, SiteKind::Rule, a.span, reads);
        Ok(Stmt::Assign {
            slot,
            rhs,
            fired,
            site,
        })
    }

    /// Where `p`, read from node `n`, is stored.
    fn place(&self, n: usize, p: &Place) -> Result<Loc, InterpError> {
        let n = self.node_at(n, &p.path)?;
        let l = &self.layouts[n];
        Ok(match p.slot {
            Slot::Var(v) => *get(&l.vars, v, "variable")?,
            Slot::Event(e) => Loc::Flag(*get(&l.event_value, e, "event")?),
            Slot::On(s) => Loc::Flag(*get(&l.on, s, "submodel")?),
            Slot::Time => Loc::Real(l.time),
            Slot::Dt => Loc::Real(l.dt),
            Slot::Mode(m) => Loc::Real(get(&l.modes, m, "mode")?.0),
            Slot::ModeStart(m) => Loc::Real(get(&l.modes, m, "mode")?.1),
        })
    }

    /// Counts one compiled expression node against [`MAX_OPS`] (when counting).
    fn budget(&self) -> Result<(), InterpError> {
        if !self.counting.get() {
            return Ok(());
        }
        self.ops.set(self.ops.get() + 1);
        if self.ops.get() > MAX_OPS {
            return Err(InterpError::too_large(format!(
                "the expressions expand to more than {MAX_OPS} operations once derived \
                 params and conditions are inlined where they are read"
            )));
        }
        Ok(())
    }

    /// A real term in the scope of node `n`.
    /// The index of table `t` in [`Code::tables`] (one per declaration, however many
    /// instances read it), added when first read.
    fn table(&self, t: &std::sync::Arc<sit_lir::LookupTable>) -> u32 {
        let mut tables = self.tables.borrow_mut();
        let same = |u: &std::sync::Arc<sit_lir::LookupTable>| {
            std::sync::Arc::ptr_eq(u, t) || (u.name == t.name && u.span == t.span)
        };
        let k = tables.iter().position(same).unwrap_or_else(|| {
            tables.push(t.clone());
            tables.len() - 1
        });
        // Fewer tables than expression nodes, which are bounded well below `u32::MAX`.
        u32::try_from(k).unwrap_or(u32::MAX)
    }

    fn num(&self, n: usize, t: &Term) -> Result<Num, InterpError> {
        self.budget()?;
        let two = |a: &Term, b: &Term| -> Result<Box<(Num, Num)>, InterpError> {
            Ok(Box::new((self.num(n, a)?, self.num(n, b)?)))
        };
        Ok(match t {
            Term::Num(x) => Num::Const(*x),
            Term::Read(p) => match self.place(n, p)? {
                Loc::Real(slot) => Num::Slot(slot),
                _ => return Err(malformed(format!("{p:?} read as a real"))),
            },
            Term::Neg(a) => Num::Neg(Box::new(self.num(n, a)?)),
            Term::Arith(op, a, b) => {
                let ab = two(a, b)?;
                match op {
                    ArithOp::Add => Num::Add(ab),
                    ArithOp::Sub => Num::Sub(ab),
                    ArithOp::Mul => Num::Mul(ab),
                    ArithOp::Div => Num::Div(ab),
                    ArithOp::Pow => Num::F2(math::pow, ab),
                }
            }
            Term::Call(f, args) => {
                let arg = |i: usize| -> Result<Num, InterpError> {
                    self.num(n, get(args, i, "argument")?)
                };
                match func(*f) {
                    Fun::One(g) => Num::F1(g, Box::new(arg(0)?)),
                    Fun::Two(g) => Num::F2(g, Box::new((arg(0)?, arg(1)?))),
                    Fun::Three(g) => Num::F3(g, Box::new((arg(0)?, arg(1)?, arg(2)?))),
                }
            }
            Term::Table(t, args) => {
                let arg = |i: usize| -> Result<Num, InterpError> {
                    self.num(n, get(args, i, "argument")?)
                };
                let k = self.table(t);
                match args.len() {
                    1 => Num::Table1(t.clone(), k, Box::new(arg(0)?)),
                    2 => Num::Table2(t.clone(), k, Box::new((arg(0)?, arg(1)?))),
                    k => {
                        return Err(malformed(format!(
                            "table `{}` read with {k} arguments",
                            t.name
                        )));
                    }
                }
            }
            Term::TableSlope(t, k, args) => {
                let arg = |i: usize| -> Result<Num, InterpError> {
                    self.num(n, get(args, i, "argument")?)
                };
                match (args.len(), *k) {
                    (1, 0) => Num::Slope1(t.clone(), Box::new(arg(0)?)),
                    (2, k @ (0 | 1)) => {
                        Num::Slope2(t.clone(), k as u8, Box::new((arg(0)?, arg(1)?)))
                    }
                    (n, k) => {
                        return Err(malformed(format!(
                            "slope {k} of table `{}` read with {n} arguments",
                            t.name
                        )));
                    }
                }
            }
            Term::Derived(_) | Term::Cond(..) => {
                return Err(malformed("a read left by name in inlined code".into()));
            }
            Term::Bool(_)
            | Term::Not(_)
            | Term::Cmp(..)
            | Term::And(..)
            | Term::Or(..)
            | Term::InMode(..) => {
                return Err(malformed("logical expression read as a real".into()));
            }
        })
    }

    /// A logical term in the scope of node `n`.
    fn logic(&self, n: usize, t: &Term) -> Result<Logic, InterpError> {
        self.budget()?;
        let two = |a: &Term, b: &Term| -> Result<Box<(Logic, Logic)>, InterpError> {
            Ok(Box::new((self.logic(n, a)?, self.logic(n, b)?)))
        };
        Ok(match t {
            Term::Bool(b) => Logic::Const(*b),
            Term::Read(p) => match self.place(n, p)? {
                Loc::Flag(slot) => Logic::Slot(slot),
                _ => return Err(malformed(format!("{p:?} read as a flag"))),
            },
            Term::Not(a) => Logic::Not(Box::new(self.logic(n, a)?)),
            Term::And(a, b) => Logic::And(two(a, b)?),
            Term::Or(a, b) => Logic::Or(two(a, b)?),
            Term::Cmp(op, a, b) => Logic::Cmp(*op, Box::new((self.num(n, a)?, self.num(n, b)?))),
            Term::InMode(p, k) => match self.place(n, p)? {
                Loc::Real(slot) => Logic::Cmp(
                    ir::CmpOp::Eq,
                    Box::new((Num::Slot(slot), Num::Const(*k as f64))),
                ),
                _ => return Err(malformed(format!("{p:?} read as a mode"))),
            },
            Term::Derived(_) | Term::Cond(..) => {
                return Err(malformed("a read left by name in inlined code".into()));
            }
            Term::Num(_)
            | Term::Neg(_)
            | Term::Arith(..)
            | Term::Call(..)
            | Term::Table(..)
            | Term::TableSlope(..) => {
                return Err(malformed("real expression read as a flag".into()));
            }
        })
    }

    /// The public variable list of the tree rooted at `root` (node 0), then its hidden
    /// states, and the number of the former.
    fn var_list(&self, root: ModelId) -> Result<(Vec<VarEntry>, usize), InterpError> {
        let entries = self.lowered.variables(root).map_err(error)?;
        let shown = lower::visible_count(&entries);
        let mut out = Vec::with_capacity(entries.len());
        for e in entries {
            let n = self.node_at(0, &e.path)?;
            let l = &self.layouts[n];
            let term = |x: Defined| self.lowered.read(e.model, x, Reads::Inline);
            let states = match e.item {
                Item::Mode(m) => get(&self.program.models[e.model].modes, m, "mode")?
                    .states
                    .clone(),
                _ => Vec::new(),
            };
            let (kind, read) = match e.item {
                Item::Var(v, kind) => {
                    let read = match *get(&l.vars, v, "variable")? {
                        Loc::Real(slot) => Read::Real(slot),
                        Loc::Flag(slot) => Read::Flag(slot),
                        Loc::Derived => {
                            let t = term(Defined::Var(v)).map_err(error)?;
                            Read::Num(self.num(n, &t)?.compile())
                        }
                    };
                    let kind = match kind {
                        ir::VarKind::Param { .. } => VarKind::Param,
                        ir::VarKind::Input => VarKind::Input,
                        ir::VarKind::State => VarKind::State,
                    };
                    (kind, read)
                }
                Item::Cond(c, kind) => {
                    let t = term(Defined::Cond(c)).map_err(error)?;
                    let kind = match kind {
                        ir::CondKind::Pred => VarKind::Predicate,
                        ir::CondKind::Situation => VarKind::Situation,
                    };
                    (kind, Read::Logic(self.logic(n, &t)?.compile()))
                }
                Item::Event(ev) => (
                    VarKind::Event,
                    Read::Flag(*get(&l.event_value, ev, "event")?),
                ),
                Item::On(s) => (VarKind::SubmodelOn, Read::Flag(*get(&l.on, s, "submodel")?)),
                Item::Mode(m) => (VarKind::State, Read::Real(get(&l.modes, m, "mode")?.0)),
            };
            out.push(VarEntry {
                name: e.name,
                kind,
                ty: match e.ty {
                    Ty::Real => ValueType::Real,
                    Ty::Flag => ValueType::Logical,
                },
                output: e.output,
                depth: e.path.len(),
                locked: match e.access {
                    Access::Settable => None,
                    Access::Bound => Some(SetError::BOUND),
                    Access::Derived => Some(SetError::DERIVED),
                    Access::Computed => Some(SetError::COMPUTED),
                    Access::Mode => Some(SetError::MODE),
                },
                read,
                states,
            });
        }
        Ok((out, shown))
    }
}
