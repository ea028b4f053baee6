//! The event log's instrumentation: a program rewritten with a hidden *why* per logical variable, and the table that reads them.
//!
//! [`instrument_events`] gives every model of a program one hidden real state (a
//! *why*, named `NAME_why`) per flag state set by a σ action, per mode with transitions,
//! per submodel switched or reset, and per real state assigned by a δ rule that a
//! condition may read (read by a pred or situation of its model, or an output); after
//! each statement that assigns one of these, a δ rule sets its why to the number of
//! that statement's [`Site`] (plus one). Nothing reads a why, so every other value of
//! a step is the same, bit for bit; every back end runs the rewritten program as any
//! other. The [`Table`] lists the logical variables of the instance tree with their
//! whys and, for preds and situations, what they read, so that
//! `sit_runtime::events::Recorder` can turn a step's changes into events (its module
//! documentation states which rule an event names).

use super::term::{LowerError, MAX_DEPTH, get};
use crate::ir::{Expr, ModelId, Program, Rhs, Stmt, SubId, Ty, Var, VarId, VarKind};
use crate::source::Span;
use sit_check::check::equations::counted;
use sit_runtime::events::{GuardRead, Read, Site, Table, Watch, WatchKind};
use std::collections::HashSet;

/// The whys of one model, by what they explain.
#[derive(Debug, Clone, Default)]
struct Whys {
    var: Vec<Option<VarId>>,
    mode: Vec<Option<VarId>>,
    on: Vec<Option<VarId>>,
    reset: Vec<Option<VarId>>,
    run: Vec<Option<VarId>>,
    /// The copies of what guards read (see [`Copies`]), hidden like the whys.
    copies: Vec<VarId>,
}

/// `program` with a why per logical variable and the table of the instance tree of
/// `root` (see the module documentation).
pub fn instrument_events(program: &Program, root: ModelId) -> Result<(Program, Table), LowerError> {
    let mut out = program.clone();
    let mut sites = Vec::new();
    let mut whys = Vec::with_capacity(program.models.len());
    for (id, m) in out.models.iter_mut().enumerate() {
        let mut w = add_whys(m);
        let body = std::mem::take(&mut m.body);
        let mut guards = Vec::new();
        let mut copies = Copies {
            program,
            id,
            model: m,
            made: Vec::new(),
        };
        let body = rewrite(program, body, &w, &mut guards, &mut sites, &mut copies);
        w.copies = copies.made;
        m.body = body;
        whys.push(w);
    }
    let mut t = Tables {
        program: &out,
        whys: &whys,
        table: Table {
            sites,
            ..Table::default()
        },
    };
    t.instance(root, "", &[], 0)?;
    let table = t.table;
    Ok((out, table))
}

/// `program` without the rules that count the steps of Newton's iterations
/// (`v_newton_steps`, hidden reals of the equations' pass): only the event log reads
/// them, so a program not prepared for it does not compute them (they stay 0), and
/// its steps cost what they cost before the counts existed.
pub(crate) fn without_newton_counts(mut program: Program) -> Program {
    for m in &mut program.models {
        let counts: Vec<bool> = (m.vars.iter())
            .map(|v| v.hidden && v.ty == Ty::Real && counted(&v.name).is_some())
            .collect();
        if counts.contains(&true) {
            m.body
                .retain(|s| !matches!(s, Stmt::Assign(a) if counts[a.target]));
        }
    }
    program
}

fn add_whys(m: &mut crate::ir::Model) -> Whys {
    let mut w = Whys {
        var: vec![None; m.vars.len()],
        mode: vec![None; m.modes.len()],
        on: vec![None; m.subs.len()],
        reset: vec![None; m.subs.len()],
        run: vec![None; m.subs.len()],
        copies: Vec::new(),
    };
    let mut read = vec![false; m.vars.len()];
    for c in &m.conds {
        c.expr.visit(&mut |e| {
            if let Expr::Var(v) = e
                && let Some(r) = read.get_mut(*v)
            {
                *r = true;
            }
        });
    }
    let (mut vars, mut modes, mut on, mut reset, mut run) = (
        HashSet::new(),
        HashSet::new(),
        HashSet::new(),
        HashSet::new(),
        HashSet::new(),
    );
    crate::ir::walk(&m.body, &mut |s| match s {
        Stmt::SetFlag { var, .. } => {
            vars.insert(*var);
        }
        Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. }
            if read.get(a.target) == Some(&true)
                || m.vars.get(a.target).is_some_and(|v| v.output) =>
        {
            vars.insert(a.target);
        }
        Stmt::SetMode { mode, .. } => {
            modes.insert(*mode);
        }
        Stmt::Switch { sub, .. } => {
            on.insert(*sub);
        }
        Stmt::Reset { sub, .. } => {
            reset.insert(*sub);
        }
        Stmt::Run { sub, .. } => {
            run.insert(*sub);
        }
        _ => {}
    });
    let mut taken: HashSet<String> = (m.vars.iter().map(|v| v.name.clone()))
        .chain(m.conds.iter().map(|c| c.name.clone()))
        .chain(m.events.iter().map(|e| e.name.clone()))
        .chain(m.modes.iter().map(|e| e.name.clone()))
        .chain(m.subs.iter().map(|s| s.name.clone()))
        .collect();
    let mut hidden = |m: &mut crate::ir::Model, base: String, what: &str, span: Span| {
        let mut name = format!("{base}_why");
        while !taken.insert(name.clone()) {
            name.push('_');
        }
        m.vars.push(Var {
            name,
            kind: VarKind::State,
            ty: Ty::Real,
            output: false,
            init: Expr::Num(0.0),
            doc: vec![format!(
                " The last rule of the step that changed {what} (event log)."
            )],
            span,
            hidden: true,
        });
        Some(m.vars.len() - 1)
    };
    for v in 0..w.var.len() {
        if vars.contains(&v) {
            let (name, span) = (m.vars[v].name.clone(), m.vars[v].span);
            w.var[v] = hidden(m, name.clone(), &format!("`{name}`"), span);
        }
    }
    for k in 0..w.mode.len() {
        if modes.contains(&k) {
            let (name, span) = (m.modes[k].name.clone(), m.modes[k].span);
            w.mode[k] = hidden(m, name.clone(), &format!("`{name}`"), span);
        }
    }
    for s in 0..w.on.len() {
        let (name, span) = (m.subs[s].name.clone(), m.subs[s].span);
        if on.contains(&s) {
            w.on[s] = hidden(m, format!("{name}_on"), &format!("`{name}.on`"), span);
        }
        if reset.contains(&s) {
            w.reset[s] = hidden(
                m,
                format!("{name}_reset"),
                &format!("a reset of `{name}`"),
                span,
            );
        }
        if run.contains(&s) {
            w.run[s] = hidden(
                m,
                format!("{name}_run"),
                &format!("a run of `{name}`"),
                span,
            );
        }
    }
    w
}

/// The source text of `span`, whitespace collapsed, without a final `;`.
fn text(program: &Program, span: Span) -> String {
    let t = program.sources.text(span);
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    t.trim_end_matches(';').trim_end().to_string()
}

fn site(program: &Program, span: Span, guards: &[Span], sites: &mut Vec<Site>) -> f64 {
    let file = program.sources.file(span.file).display_name();
    let own = text(program, span);
    // A transition's guard is the transition itself: not repeated.
    let guards = (guards.iter().map(|&g| text(program, g)))
        .filter(|g| *g != own)
        .collect();
    sites.push(Site {
        location: format!("{file}:{}", program.sources.line(span)),
        text: own,
        guards,
        reads: Vec::new(),
    });
    sites.len() as f64
}

/// The hidden copies of the reals a guard reads, made as the rewrite meets the guards
/// of sites: at the start of a guarded block, before any of its rules, a δ rule copies
/// each real the guard read (a variable, a submodel's output, the time) into a hidden
/// state, so that the value the guard saw when a site of the block ran is still there
/// after the step (`sit_runtime::events::Recorder::guard_values`).
struct Copies<'a> {
    program: &'a Program,
    id: ModelId,
    model: &'a mut crate::ir::Model,
    made: Vec<VarId>,
}

impl Copies<'_> {
    /// The reals `cond` reads, in order, each once: (name as shown, expression).
    fn reads(&self, cond: &Expr) -> Vec<(String, Expr)> {
        let original = &self.program.models[self.id];
        let mut out: Vec<(String, Expr)> = Vec::new();
        cond.visit(&mut |x| {
            let name = match x {
                Expr::Var(v) => original
                    .vars
                    .get(*v)
                    .filter(|v| v.ty == Ty::Real)
                    .map(|v| v.name.clone()),
                Expr::SubVar(s, v) => original.subs.get(*s).and_then(|sub| {
                    let var = self.program.models.get(sub.model)?.vars.get(*v)?;
                    (var.ty == Ty::Real).then(|| format!("{}.{}", sub.name, var.name))
                }),
                Expr::Time => Some("time".to_string()),
                _ => None,
            };
            if let Some(name) = name
                && !out.iter().any(|(n, _)| *n == name)
            {
                out.push((name, x.clone()));
            }
        });
        out
    }

    /// A hidden state for the copy of `name`, and its name.
    fn hidden(&mut self, name: &str, span: Span) -> (VarId, String) {
        let m = &*self.model;
        let taken = |n: &str| {
            (m.vars.iter().map(|v| &v.name))
                .chain(m.conds.iter().map(|c| &c.name))
                .chain(m.events.iter().map(|e| &e.name))
                .chain(m.modes.iter().map(|e| &e.name))
                .chain(m.subs.iter().map(|s| &s.name))
                .any(|x| x == n)
        };
        let mut hidden = format!("{}_seen", name.replace('.', "_"));
        while taken(&hidden) {
            hidden.push('_');
        }
        self.model.vars.push(Var {
            name: hidden.clone(),
            kind: VarKind::State,
            ty: Ty::Real,
            output: false,
            init: Expr::Num(0.0),
            doc: vec![format!(
                " `{name}` as a guard read it, when a rule under the guard last ran (event log)."
            )],
            span,
            hidden: true,
        });
        let id = self.model.vars.len() - 1;
        self.made.push(id);
        (id, hidden)
    }
}

/// `body` with a why assignment after each statement that assigns a variable with a why.
fn rewrite(
    program: &Program,
    body: Vec<Stmt>,
    w: &Whys,
    guards: &mut Vec<Span>,
    sites: &mut Vec<Site>,
    copies: &mut Copies<'_>,
) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        let why = match &s {
            Stmt::SetFlag { var, span, .. } => {
                w.var.get(*var).copied().flatten().map(|v| (v, *span))
            }
            Stmt::Assign(a) => w.var.get(a.target).copied().flatten().map(|v| (v, a.span)),
            Stmt::Otherwise { assign, .. } => w
                .var
                .get(assign.target)
                .copied()
                .flatten()
                .map(|v| (v, assign.span)),
            Stmt::SetMode { mode, span, .. } => {
                w.mode.get(*mode).copied().flatten().map(|v| (v, *span))
            }
            Stmt::Switch { sub, span, .. } => w.on.get(*sub).copied().flatten().map(|v| (v, *span)),
            Stmt::Reset { sub, span } => w.reset.get(*sub).copied().flatten().map(|v| (v, *span)),
            Stmt::Run { sub, span } => w.run.get(*sub).copied().flatten().map(|v| (v, *span)),
            Stmt::If { .. } | Stmt::Step { .. } => None,
            Stmt::Added(x) => match *x {},
        };
        let fired = match &s {
            Stmt::Otherwise { fired, .. } => Some(*fired),
            _ => None,
        };
        match s {
            Stmt::If { cond, then, span } => {
                guards.push(span);
                let first = sites.len();
                let mut then = rewrite(program, then, w, guards, sites, copies);
                guards.pop();
                // The block holds sites: copy what its guard read, for their account.
                if sites.len() > first {
                    let mut copied = Vec::new();
                    let mut reads = Vec::new();
                    for (name, read) in copies.reads(&cond) {
                        let (target, hidden) = copies.hidden(&name, span);
                        copied.push(Stmt::Assign(crate::ir::Assign {
                            target,
                            rhs: Rhs::Expr(read),
                            fired: None,
                            span,
                        }));
                        reads.push(GuardRead { name, copy: hidden });
                    }
                    for site in &mut sites[first..] {
                        // Outer guards first: they are met later, so go in front.
                        site.reads.splice(0..0, reads.iter().cloned());
                    }
                    copied.append(&mut then);
                    then = copied;
                }
                out.push(Stmt::If { cond, then, span });
            }
            s => out.push(s),
        }
        if let Some((target, span)) = why {
            let assign = crate::ir::Assign {
                target,
                rhs: Rhs::Expr(Expr::Num(site(program, span, guards, sites))),
                fired: None,
                span,
            };
            out.push(match fired {
                Some(fired) => Stmt::Otherwise { assign, fired },
                None => Stmt::Assign(assign),
            });
        }
    }
    out
}

/// Builds the table over the instance tree.
struct Tables<'p> {
    program: &'p Program,
    whys: &'p [Whys],
    table: Table,
}

impl Tables<'_> {
    /// The position in step order of each instance below `model` (submodels first),
    /// then this one's: returns this one's.
    fn orders(
        &self,
        model: ModelId,
        start: usize,
        depth: u32,
    ) -> Result<(usize, Vec<usize>), LowerError> {
        if depth > MAX_DEPTH {
            return Err(LowerError::TooLarge("the instance tree is too deep".into()));
        }
        let m = get(&self.program.models, model, "model")?;
        let mut next = start;
        let mut subs = Vec::with_capacity(m.subs.len());
        for s in &m.subs {
            let (o, _) = self.orders(s.model, next, depth + 1)?;
            subs.push(o);
            next = o + 1;
        }
        Ok((next, subs))
    }

    fn why_name(&self, prefix: &str, model: ModelId, why: Option<VarId>) -> Option<String> {
        why.map(|v| format!("{prefix}{}", self.program.models[model].vars[v].name))
    }

    /// Appends the watches of an instance of `model` named with `prefix`, whose
    /// position in step order starts at `start` (its submodels, then itself).
    fn instance(
        &mut self,
        model: ModelId,
        prefix: &str,
        within: &[String],
        start: usize,
    ) -> Result<usize, LowerError> {
        let (order, sub_orders) = self.orders(model, start, 0)?;
        let program = self.program;
        let m = get(&program.models, model, "model")?;
        let w = &self.whys[model];
        for (v, var) in m.vars.iter().enumerate() {
            // A hidden flag (the copy of `prev(f)`) is no variable of the model: not logged.
            if var.ty != Ty::Flag || var.hidden {
                continue;
            }
            self.watch(Watch {
                name: format!("{prefix}{}", var.name),
                kind: WatchKind::Flag,
                why: self.why_name(prefix, model, w.var[v]),
                reads: Vec::new(),
                states: Vec::new(),
                decl: None,
                within: within.to_vec(),
            });
        }
        for c in &m.conds {
            let mut reads = Vec::new();
            self.reads(model, prefix, start, &c.expr, &mut reads, 0)?;
            self.watch(Watch {
                name: format!("{prefix}{}", c.name),
                kind: WatchKind::Cond,
                why: None,
                reads,
                states: Vec::new(),
                decl: None,
                within: within.to_vec(),
            });
        }
        for e in &m.events {
            let decl = site(program, e.span, &[], &mut self.table.sites) as usize - 1;
            self.watch(Watch {
                name: format!("{prefix}{}", e.name),
                kind: WatchKind::Event,
                why: None,
                reads: Vec::new(),
                states: Vec::new(),
                decl: Some(decl),
                within: within.to_vec(),
            });
        }
        for (k, mode) in m.modes.iter().enumerate() {
            self.watch(Watch {
                name: format!("{prefix}{}", mode.name),
                kind: WatchKind::Mode,
                why: self.why_name(prefix, model, w.mode[k]),
                reads: Vec::new(),
                states: mode.states.clone(),
                decl: None,
                within: within.to_vec(),
            });
        }
        // The steps each Newton iteration needed: hidden reals of the equations' pass.
        for var in &m.vars {
            if !var.hidden || var.ty != Ty::Real || counted(&var.name).is_none() {
                continue;
            }
            let decl = site(program, var.span, &[], &mut self.table.sites) as usize - 1;
            self.watch(Watch {
                name: format!("{prefix}{}", var.name),
                kind: WatchKind::Newton,
                why: None,
                reads: Vec::new(),
                states: Vec::new(),
                decl: Some(decl),
                within: within.to_vec(),
            });
        }
        for (s, sub) in m.subs.iter().enumerate() {
            self.watch(Watch {
                name: format!("{prefix}{}.on", sub.name),
                kind: WatchKind::On,
                why: self.why_name(prefix, model, w.on[s]),
                reads: Vec::new(),
                states: Vec::new(),
                decl: None,
                within: within.to_vec(),
            });
            let reset = self.why_name(prefix, model, w.reset[s]);
            if reset.is_some() {
                self.watch(Watch {
                    name: format!("{prefix}{}", sub.name),
                    kind: WatchKind::Reset,
                    why: reset.clone(),
                    reads: Vec::new(),
                    states: Vec::new(),
                    decl: None,
                    within: within.to_vec(),
                });
            }
            let run = self.why_name(prefix, model, w.run[s]);
            let inner: Vec<String> = (reset.into_iter().chain(run))
                .chain(within.iter().cloned())
                .collect();
            let sub_start = if s == 0 { start } else { sub_orders[s - 1] + 1 };
            self.instance(
                sub.model,
                &format!("{prefix}{}.", sub.name),
                &inner,
                sub_start,
            )?;
        }
        for why in w.var.iter().chain(&w.mode) {
            if let Some(name) = self.why_name(prefix, model, *why) {
                self.table.whys.push(name);
            }
        }
        for why in w.on.iter().chain(&w.reset).chain(&w.run) {
            if let Some(name) = self.why_name(prefix, model, *why) {
                self.table.whys.push(name);
            }
        }
        for &copy in &w.copies {
            if let Some(name) = self.why_name(prefix, model, Some(copy)) {
                self.table.whys.push(name);
            }
        }
        Ok(order)
    }

    fn watch(&mut self, w: Watch) {
        self.table.watches.push(w);
    }

    /// What `e`, in the scope of an instance of `model` named `prefix` at `order`
    /// (its submodels at `subs`), reads, conditions expanded.
    fn reads(
        &self,
        model: ModelId,
        prefix: &str,
        start: usize,
        e: &Expr,
        out: &mut Vec<Read>,
        depth: u32,
    ) -> Result<(), LowerError> {
        if depth > MAX_DEPTH {
            return Err(LowerError::TooLarge("conditions nest too deep".into()));
        }
        let (order, _) = self.orders(model, start, depth)?;
        let program = self.program;
        let m = get(&program.models, model, "model")?;
        let mut found = Vec::new();
        e.visit(&mut |x| found.push(x.clone()));
        let push = |out: &mut Vec<Read>, r: Read| {
            if !out.contains(&r) {
                out.push(r);
            }
        };
        for x in found {
            match x {
                Expr::Var(v) => push(
                    out,
                    Read {
                        name: format!("{prefix}{}", get(&m.vars, v, "variable")?.name),
                        why: self.why_name(prefix, model, self.whys[model].var[v]),
                        order,
                    },
                ),
                Expr::Cond(c) => {
                    let c = get(&m.conds, c, "condition")?;
                    self.reads(model, prefix, start, &c.expr, out, depth + 1)?;
                }
                Expr::InMode(k, _) => push(
                    out,
                    Read {
                        name: format!("{prefix}{}", get(&m.modes, k, "mode")?.name),
                        why: self.why_name(prefix, model, self.whys[model].mode[k]),
                        order,
                    },
                ),
                Expr::SubOn(s) => push(
                    out,
                    Read {
                        name: format!("{prefix}{}.on", get(&m.subs, s, "submodel")?.name),
                        why: self.why_name(prefix, model, self.whys[model].on[s]),
                        order,
                    },
                ),
                Expr::SubVar(s, v) => {
                    self.sub_reads(m, prefix, start, s, Expr::Var(v), out, depth)?
                }
                Expr::SubCond(s, c) => {
                    self.sub_reads(m, prefix, start, s, Expr::Cond(c), out, depth)?
                }
                Expr::SubInMode(s, k, st) => {
                    self.sub_reads(m, prefix, start, s, Expr::InMode(k, st), out, depth)?
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// What `e`, in the scope of submodel `s` of an instance of `m` named `prefix`
    /// whose step order starts at `start`, reads.
    #[allow(clippy::too_many_arguments)]
    fn sub_reads(
        &self,
        m: &crate::ir::Model,
        prefix: &str,
        start: usize,
        s: SubId,
        e: Expr,
        out: &mut Vec<Read>,
        depth: u32,
    ) -> Result<(), LowerError> {
        let sub = get(&m.subs, s, "submodel")?;
        let sub_start = self.sub_start(m, start, s, depth)?;
        let sub_prefix = format!("{prefix}{}.", sub.name);
        self.reads(sub.model, &sub_prefix, sub_start, &e, out, depth + 1)
    }

    /// Where the step order of submodel `s` of an instance of `m` starting at `start`
    /// starts.
    fn sub_start(
        &self,
        m: &crate::ir::Model,
        start: usize,
        s: SubId,
        depth: u32,
    ) -> Result<usize, LowerError> {
        let mut next = start;
        for sub in m.subs.iter().take(s) {
            next = self.orders(sub.model, next, depth + 1)?.0 + 1;
        }
        Ok(next)
    }
}
