//! Name resolution, type checking and lowering of the syntax tree to the IR.

use crate::ast::{self, DeclKind, ExprKind, Guard, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::{SourceMap, Span};
use crate::suggest::did_you_mean;
use std::collections::HashMap;

mod expr;

/// Words with a meaning in `.sit` that cannot name anything.
pub const KEYWORDS: &[&str] = &[
    "import",
    "model",
    "param",
    "input",
    "output",
    "real",
    "flag",
    "pred",
    "situation",
    "event",
    "sub",
    "off",
    "when",
    "otherwise",
    "reset",
    "true",
    "false",
    "always",
];

/// Names that are built in: `time`, `dt`, and `on` (a submodel's switch).
pub const RESERVED: &[&str] = &["time", "dt", "on"];

/// Stateful procedures: only as the whole right-hand side of a δ rule.
pub const STATEFUL: &[(&str, &str)] = &[
    ("integral", "1 or 3"),
    ("lag", "2 or 3"),
    ("deriv", "1"),
    ("hysteresis", "3 or 4"),
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sym {
    Var(VarId),
    Cond(CondId),
    Event(EventId),
    Sub(SubId),
}

/// A submodel declaration as written: instance name, model name, `off`,
/// doc lines and bindings.
type SubDecl = (Name, Name, bool, Vec<String>, Vec<(Name, ast::Expr)>);

/// What pass 1 learns of a model: its names and their kinds.
struct Table {
    names: HashMap<String, Sym>,
    vars: Vec<Var>,
    conds: Vec<Cond>,
    events: Vec<Event>,
    /// Submodel declarations (model resolved in pass 2).
    subs: Vec<SubDecl>,
    /// Declaration source of each var/cond/event init expression.
    var_exprs: Vec<Option<ast::Expr>>,
    cond_exprs: Vec<Option<ast::Expr>>,
    event_exprs: Vec<Option<ast::Expr>>,
}

/// Check and lower all parsed files. Returns the program when there is no
/// error; diagnostics (errors and warnings) are appended to `diags`.
pub fn check(
    files: &[(crate::source::FileId, ast::File)],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<Program> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    // All models of all files, by name.
    let mut asts: Vec<&ast::Model> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (_, f) in files {
        for m in &f.models {
            check_name(&m.name, "model", diags);
            if let Some(&prev) = by_name.get(m.name.text.as_str()) {
                diags.push(
                    Diagnostic::error(
                        "E0102",
                        m.name.span,
                        format!("the model `{}` is defined twice", m.name.text),
                    )
                    .with_label("second definition")
                    .with_related(asts[prev].name.span, "first defined here"),
                );
                continue;
            }
            by_name.insert(&m.name.text, asts.len());
            asts.push(m);
        }
    }
    let tables: Vec<Table> = asts.iter().map(|m| declare(m, diags)).collect();
    // Resolve submodel types and find recursive instantiation.
    let mut sub_models: Vec<Vec<Option<usize>>> = Vec::new();
    for (mi, t) in tables.iter().enumerate() {
        let mut v = Vec::new();
        for (_, model, _, _, _) in &t.subs {
            match by_name.get(model.text.as_str()) {
                Some(&i) => v.push(Some(i)),
                None => {
                    let names: Vec<&str> = by_name.keys().copied().collect();
                    let mut d = Diagnostic::error(
                        "E0120",
                        model.span,
                        format!("unknown model `{}`", model.text),
                    )
                    .with_label("no model has this name");
                    if let Some(s) = did_you_mean(&model.text, names.iter().copied()) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    } else {
                        d = d.with_note(
                            "models of other files are visible after `import \"file.sit\";`",
                        );
                    }
                    diags.push(d);
                    v.push(None);
                }
            }
        }
        let _ = mi;
        sub_models.push(v);
    }
    let order = topo_order(&asts, &tables, &sub_models, diags)?;
    instance_counts(&asts, &order, &sub_models, diags);
    // Pass 2: lower every model.
    let mut lowered: Vec<Option<Model>> = vec![None; asts.len()];
    let new_index: HashMap<usize, usize> = order.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    for &mi in &order {
        let m = Lowerer {
            tables: &tables,
            sub_models: &sub_models,
            new_index: &new_index,
            this: mi,
            sources,
            diags,
            fired: HashMap::new(),
            memories: Vec::new(),
        }
        .lower(asts[mi]);
        lowered[mi] = Some(m);
    }
    // Derived params of a submodel cannot be bound (they follow their definition).
    for &mi in &order {
        let Some(m) = &lowered[mi] else { continue };
        for (si, sub) in m.subs.iter().enumerate() {
            let Some(child) = sub_models[mi][si] else {
                continue;
            };
            let Some(cm) = &lowered[child] else { continue };
            for b in &sub.param_bindings {
                if let VarKind::Param { derived: true } = cm.vars[b.var].kind {
                    diags.push(
                        Diagnostic::error(
                            "E0183",
                            b.span,
                            format!(
                                "the param `{}` of `{}` is derived from other params and cannot be bound",
                                cm.vars[b.var].name, cm.name
                            ),
                        )
                        .with_label("bound here")
                        .with_related(cm.vars[b.var].span, "defined from other params here")
                        .with_help("bind the params it is computed from instead"),
                    );
                }
            }
        }
    }
    let errors_after = diags.iter().filter(|d| d.is_error()).count();
    if errors_after > errors_before {
        return None;
    }
    let models = order
        .iter()
        .map(|&i| lowered[i].take().expect("lowered"))
        .collect();
    Some(Program {
        models,
        sources: sources.clone(),
    })
}

fn check_name(name: &Name, what: &str, diags: &mut Vec<Diagnostic>) -> bool {
    if KEYWORDS.contains(&name.text.as_str()) {
        diags.push(
            Diagnostic::error(
                "E0103",
                name.span,
                format!("`{}` is a keyword and cannot name a {what}", name.text),
            )
            .with_label("keyword used as a name")
            .with_help(format!("choose another name, such as `{}_`", name.text)),
        );
        return false;
    }
    if RESERVED.contains(&name.text.as_str()) && what != "model" {
        let why = match name.text.as_str() {
            "time" => "`time` is the model's clock",
            "dt" => "`dt` is the length of the current step",
            _ => "`on` is the switch of a submodel (`name.on`)",
        };
        diags.push(
            Diagnostic::error(
                "E0104",
                name.span,
                format!(
                    "`{}` is a built-in name and cannot name a {what}",
                    name.text
                ),
            )
            .with_label("reserved")
            .with_note(why),
        );
        return false;
    }
    if name.text.starts_with("__") {
        diags.push(
            Diagnostic::error(
                "E0104",
                name.span,
                format!("`{}`: names starting with `__` are reserved", name.text),
            )
            .with_label("reserved for generated code"),
        );
        return false;
    }
    true
}

fn declare(m: &ast::Model, diags: &mut Vec<Diagnostic>) -> Table {
    let mut t = Table {
        names: HashMap::new(),
        vars: Vec::new(),
        conds: Vec::new(),
        events: Vec::new(),
        subs: Vec::new(),
        var_exprs: Vec::new(),
        cond_exprs: Vec::new(),
        event_exprs: Vec::new(),
    };
    let mut spans: HashMap<String, Span> = HashMap::new();
    for d in &m.decls {
        let name = match d {
            ast::Decl::Var { name, .. } => name,
            ast::Decl::Sub { name, .. } => name,
        };
        let what = match d {
            ast::Decl::Var { kind, .. } => kind.describe(),
            ast::Decl::Sub { .. } => "submodel",
        };
        // A keyword or reserved name is reported, and still declared so
        // that its uses do not also read as unknown names.
        check_name(name, what, diags);
        if let Some(prev) = spans.get(&name.text) {
            diags.push(
                Diagnostic::error(
                    "E0102",
                    name.span,
                    format!(
                        "`{}` is declared twice in model `{}`",
                        name.text, m.name.text
                    ),
                )
                .with_label("second declaration")
                .with_related(*prev, "first declared here"),
            );
            continue;
        }
        spans.insert(name.text.clone(), name.span);
        match d {
            ast::Decl::Var {
                doc,
                kind,
                output,
                name,
                value,
            } => {
                let placeholder = Expr::Num(0.0);
                match kind {
                    DeclKind::Param
                    | DeclKind::InputReal
                    | DeclKind::InputFlag
                    | DeclKind::Real
                    | DeclKind::Flag => {
                        let (vk, ty) = match kind {
                            DeclKind::Param => (VarKind::Param { derived: false }, Ty::Real),
                            DeclKind::InputReal => (VarKind::Input, Ty::Real),
                            DeclKind::InputFlag => (VarKind::Input, Ty::Flag),
                            DeclKind::Real => (VarKind::State, Ty::Real),
                            _ => (VarKind::State, Ty::Flag),
                        };
                        if *kind == DeclKind::Param && value.is_none() {
                            diags.push(
                                Diagnostic::error(
                                    "E0105",
                                    name.span,
                                    format!("the param `{}` has no value", name.text),
                                )
                                .with_label("a param needs `= value`")
                                .with_help(format!("write `param {} = 1.0;`", name.text)),
                            );
                        }
                        t.names.insert(name.text.clone(), Sym::Var(t.vars.len()));
                        t.vars.push(Var {
                            name: name.text.clone(),
                            kind: vk,
                            ty,
                            output: *output,
                            init: if ty == Ty::Flag {
                                Expr::Bool(false)
                            } else {
                                placeholder
                            },
                            doc: doc.clone(),
                            span: name.span,
                        });
                        t.var_exprs.push(value.clone());
                    }
                    DeclKind::Pred | DeclKind::Situation | DeclKind::Event => {
                        if value.is_none() {
                            diags.push(
                                Diagnostic::error(
                                    "E0105",
                                    name.span,
                                    format!(
                                        "the {} `{}` has no condition",
                                        kind.describe(),
                                        name.text
                                    ),
                                )
                                .with_label("expected `= condition`")
                                .with_help(format!(
                                    "write `{} {} = x > 0;`",
                                    kind.describe(),
                                    name.text
                                )),
                            );
                        }
                        if *kind == DeclKind::Event {
                            t.names
                                .insert(name.text.clone(), Sym::Event(t.events.len()));
                            t.events.push(Event {
                                name: name.text.clone(),
                                output: *output,
                                cond: Expr::Bool(false),
                                doc: doc.clone(),
                                span: name.span,
                            });
                            t.event_exprs.push(value.clone());
                        } else {
                            t.names.insert(name.text.clone(), Sym::Cond(t.conds.len()));
                            t.conds.push(Cond {
                                name: name.text.clone(),
                                kind: if *kind == DeclKind::Pred {
                                    CondKind::Pred
                                } else {
                                    CondKind::Situation
                                },
                                output: *output,
                                expr: Expr::Bool(false),
                                doc: doc.clone(),
                                span: name.span,
                            });
                            t.cond_exprs.push(value.clone());
                        }
                    }
                }
            }
            ast::Decl::Sub {
                doc,
                name,
                model,
                bindings,
                off,
            } => {
                t.names.insert(name.text.clone(), Sym::Sub(t.subs.len()));
                t.subs.push((
                    name.clone(),
                    model.clone(),
                    *off,
                    doc.clone(),
                    bindings.clone(),
                ));
            }
        }
    }
    t
}

/// Most model instances in one tree (the model itself and all its submodels,
/// recursively). A generated model is one struct holding its whole tree, built
/// on the stack by `new()`: far beyond this it would not fit.
pub const MAX_INSTANCES: u64 = 10_000;

/// Report the models whose tree of instances exceeds [`MAX_INSTANCES`]
/// (submodels that instantiate several submodels that instantiate several…
/// grow exponentially with depth).
fn instance_counts(
    asts: &[&ast::Model],
    order: &[usize],
    subs: &[Vec<Option<usize>>],
    diags: &mut Vec<Diagnostic>,
) {
    let mut count = vec![1u64; asts.len()];
    for &m in order {
        let total = subs[m]
            .iter()
            .flatten()
            .fold(1u64, |acc, &c| acc.saturating_add(count[c]));
        count[m] = total;
        let over = |c: usize| count[c] > MAX_INSTANCES;
        // Report only the smallest models over the limit.
        if total > MAX_INSTANCES && !subs[m].iter().flatten().any(|&c| over(c)) {
            diags.push(
                Diagnostic::error(
                    "E0185",
                    asts[m].name.span,
                    format!(
                        "model `{}` holds {} model instances (the limit is {MAX_INSTANCES})",
                        asts[m].name.text,
                        if total == u64::MAX {
                            "more than 10^19".to_string()
                        } else {
                            total.to_string()
                        }
                    ),
                )
                .with_label("counting itself and all its submodels, recursively")
                .with_note("a compiled model is one struct holding its whole tree of instances")
                .with_help("use fewer levels of submodels that each hold several instances"),
            );
        }
    }
}

/// Order models leaves first; report recursive instantiation.
fn topo_order(
    asts: &[&ast::Model],
    tables: &[Table],
    subs: &[Vec<Option<usize>>],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let n = asts.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::with_capacity(n);
    let mut ok = true;
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        // Iterative DFS: (model, next sub index), with the path for messages.
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(&mut (m, ref mut next)) = stack.last_mut() {
            if *next < subs[m].len() {
                let si = *next;
                *next += 1;
                let Some(child) = subs[m][si] else { continue };
                match mark[child] {
                    Mark::Done => {}
                    Mark::New => {
                        mark[child] = Mark::Active;
                        stack.push((child, 0));
                    }
                    Mark::Active => {
                        let start = stack.iter().position(|&(x, _)| x == child).unwrap_or(0);
                        let mut chain: Vec<&str> = stack[start..]
                            .iter()
                            .map(|&(x, _)| asts[x].name.text.as_str())
                            .collect();
                        chain.push(asts[child].name.text.as_str());
                        let sub = &tables[m].subs[si];
                        diags.push(
                            Diagnostic::error(
                                "E0121",
                                sub.1.span,
                                format!(
                                    "recursive instantiation: {}",
                                    chain
                                        .iter()
                                        .map(|s| format!("`{s}`"))
                                        .collect::<Vec<_>>()
                                        .join(" contains ")
                                ),
                            )
                            .with_label("this instance closes the cycle")
                            .with_note(
                                "a model cannot contain itself, directly or through its submodels",
                            ),
                        );
                        ok = false;
                    }
                }
            } else {
                mark[m] = Mark::Done;
                order.push(m);
                stack.pop();
            }
        }
    }
    ok.then_some(order)
}

struct Lowerer<'a> {
    tables: &'a [Table],
    sub_models: &'a [Vec<Option<usize>>],
    new_index: &'a HashMap<usize, usize>,
    this: usize,
    #[allow(dead_code)]
    sources: &'a SourceMap,
    diags: &'a mut Vec<Diagnostic>,
    fired: HashMap<VarId, FiredId>,
    memories: Vec<Memory>,
}

/// Where an expression stands, which decides what it may read.
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    /// A param's value or a param binding: constants and params.
    Param,
    /// An input's default: constants and params.
    InputDefault,
    /// A state's initial value: constants, params, inputs.
    Init,
    /// Conditions and rules: everything.
    Rule,
}

impl Lowerer<'_> {
    fn t(&self) -> &Table {
        &self.tables[self.this]
    }

    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn lower(mut self, m: &ast::Model) -> Model {
        let t = self.t();
        let mut vars = t.vars.clone();
        let mut conds = t.conds.clone();
        let mut events = t.events.clone();
        // Params: derived or not, and cycles.
        let var_exprs = t.var_exprs.clone();
        for (i, e) in var_exprs.iter().enumerate() {
            let v = &vars[i];
            let ctx = match v.kind {
                VarKind::Param { .. } => Ctx::Param,
                VarKind::Input => Ctx::InputDefault,
                VarKind::State => Ctx::Init,
            };
            let ty = v.ty;
            if let Some(e) = e {
                vars[i].init = self.expr(e, ty, ctx);
            } else if ty == Ty::Real {
                vars[i].init = Expr::Num(0.0);
            }
        }
        for (i, v) in vars.iter_mut().enumerate() {
            if let VarKind::Param { .. } = v.kind {
                let derived = reads_var(&v.init);
                v.kind = VarKind::Param { derived };
                let _ = i;
            }
        }
        self.param_cycles(&vars);
        let cond_exprs = self.t().cond_exprs.clone();
        for (i, e) in cond_exprs.iter().enumerate() {
            if let Some(e) = e {
                conds[i].expr = self.expr(e, Ty::Flag, Ctx::Rule);
            }
        }
        self.cond_cycles(&conds);
        let event_exprs = self.t().event_exprs.clone();
        for (i, e) in event_exprs.iter().enumerate() {
            if let Some(e) = e {
                events[i].cond = self.expr(e, Ty::Flag, Ctx::Rule);
            }
        }
        let subs = self.subs();
        // Targets with an `otherwise` rule get a bookkeeping flag.
        let mut otherwise_targets = Vec::new();
        collect_otherwise(&m.rules, &mut otherwise_targets);
        for name in otherwise_targets {
            if let Some(Sym::Var(v)) = self.t().names.get(&name).copied() {
                let n = self.fired.len();
                self.fired.entry(v).or_insert(n);
            }
        }
        let body = self.rules(&m.rules);
        Model {
            name: m.name.text.clone(),
            doc: m.doc.clone(),
            span: m.name.span,
            vars,
            conds,
            events,
            subs,
            body,
            memories: self.memories,
            fired: self.fired.len(),
        }
    }

    fn param_cycles(&mut self, vars: &[Var]) {
        // Depth-first over param -> params read; report each cycle once.
        let n = vars.len();
        let deps: Vec<Vec<VarId>> = vars
            .iter()
            .map(|v| {
                let mut d = Vec::new();
                if matches!(v.kind, VarKind::Param { .. }) {
                    collect_vars(&v.init, &mut d);
                }
                d
            })
            .collect();
        let mut state = vec![0u8; n];
        for start in 0..n {
            if state[start] != 0 || !matches!(vars[start].kind, VarKind::Param { .. }) {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (v, ref mut k)) = stack.last_mut() {
                if *k < deps[v].len() {
                    let w = deps[v][*k];
                    *k += 1;
                    if state[w] == 1 {
                        let pos = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let mut chain: Vec<String> = stack[pos..]
                            .iter()
                            .map(|&(x, _)| format!("`{}`", vars[x].name))
                            .collect();
                        chain.push(format!("`{}`", vars[w].name));
                        self.err(
                            Diagnostic::error(
                                "E0130",
                                vars[w].span,
                                format!("cyclic param definitions: {}", chain.join(" uses ")),
                            )
                            .with_label("defined from itself, through the others")
                            .with_help(
                                "give one of them a value that does not depend on the others",
                            ),
                        );
                    } else if state[w] == 0 {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    state[v] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn cond_cycles(&mut self, conds: &[Cond]) {
        let n = conds.len();
        let deps: Vec<Vec<CondId>> = conds
            .iter()
            .map(|c| {
                let mut d = Vec::new();
                collect_conds(&c.expr, &mut d);
                d
            })
            .collect();
        let mut state = vec![0u8; n];
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (v, ref mut k)) = stack.last_mut() {
                if *k < deps[v].len() {
                    let w = deps[v][*k];
                    *k += 1;
                    if state[w] == 1 {
                        self.err(
                            Diagnostic::error(
                                "E0131",
                                conds[w].span,
                                format!("`{}` is defined in terms of itself", conds[w].name),
                            )
                            .with_label("cyclic definition")
                            .with_help("a situation that must remember its value is a `flag` set by σ rules"),
                        );
                    } else if state[w] == 0 {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    state[v] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn subs(&mut self) -> Vec<Sub> {
        let decls = self.t().subs.clone();
        let mut out = Vec::new();
        for (si, (name, _model, off, doc, bindings)) in decls.iter().enumerate() {
            let Some(child) = self.sub_models[self.this][si] else {
                out.push(Sub {
                    name: name.text.clone(),
                    model: usize::MAX,
                    param_bindings: vec![],
                    input_bindings: vec![],
                    initially_on: !off,
                    doc: doc.clone(),
                    span: name.span,
                });
                continue;
            };
            let ct = &self.tables[child];
            let mut param_bindings = Vec::new();
            let mut input_bindings: Vec<Binding> = Vec::new();
            let mut seen: HashMap<VarId, Span> = HashMap::new();
            for (bn, be) in bindings {
                let sym = ct.names.get(&bn.text).copied();
                let Some(Sym::Var(v)) = sym else {
                    let candidates = ct
                        .vars
                        .iter()
                        .filter(|v| !matches!(v.kind, VarKind::State))
                        .map(|v| v.name.as_str());
                    let mut d = Diagnostic::error(
                        "E0180",
                        bn.span,
                        format!(
                            "`{}` is not an input or param of `{}`",
                            bn.text,
                            self.t().subs[si].1.text
                        ),
                    )
                    .with_label("cannot be bound");
                    if let Some(s) = did_you_mean(&bn.text, candidates.clone()) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    }
                    let list: Vec<String> = candidates.map(|c| format!("`{c}`")).collect();
                    d = d.with_note(if list.is_empty() {
                        "it has no inputs or params".to_string()
                    } else {
                        format!("its inputs and params: {}", list.join(", "))
                    });
                    self.err(d);
                    continue;
                };
                let var = &ct.vars[v];
                if let Some(prev) = seen.get(&v) {
                    self.err(
                        Diagnostic::error(
                            "E0181",
                            bn.span,
                            format!("`{}` is bound twice", bn.text),
                        )
                        .with_related(*prev, "first bound here"),
                    );
                    continue;
                }
                seen.insert(v, bn.span);
                match var.kind {
                    VarKind::State => {
                        self.err(
                            Diagnostic::error(
                                "E0180",
                                bn.span,
                                format!(
                                    "`{}` is a state of `{}`, not an input or param",
                                    bn.text,
                                    self.t().subs[si].1.text
                                ),
                            )
                            .with_label("states cannot be bound")
                            .with_help(
                                "declare it `input` in the submodel to set it from the parent",
                            ),
                        );
                    }
                    VarKind::Param { .. } => {
                        let value = self.expr(be, Ty::Real, Ctx::Param);
                        param_bindings.push(Binding {
                            var: v,
                            value,
                            span: bn.span.to(be.span),
                        });
                    }
                    VarKind::Input => {
                        let value = self.expr(be, var.ty, Ctx::Rule);
                        input_bindings.push(Binding {
                            var: v,
                            value,
                            span: bn.span.to(be.span),
                        });
                    }
                }
            }
            // Derived params of the child cannot be bound: decided after
            // the child is lowered, in `finish`.
            out.push(Sub {
                name: name.text.clone(),
                model: self.new_index[&child],
                param_bindings,
                input_bindings,
                initially_on: !off,
                doc: doc.clone(),
                span: name.span,
            });
            // Unbound inputs without a default.
            let child_vars = &self.tables[child].vars;
            let child_exprs = &self.tables[child].var_exprs;
            let mut missing = Vec::new();
            for (vi, cv) in child_vars.iter().enumerate() {
                if cv.kind == VarKind::Input && child_exprs[vi].is_none() && !seen.contains_key(&vi)
                {
                    missing.push(cv.name.clone());
                }
            }
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
                let first = &missing[0];
                self.err(
                    Diagnostic::error(
                        "E0184",
                        name.span,
                        format!(
                            "{} of `{}` {} not bound",
                            if missing.len() == 1 {
                                "the input"
                            } else {
                                "the inputs"
                            }
                            .to_string()
                                + " "
                                + &list.join(", "),
                            self.t().subs[si].1.text,
                            if missing.len() == 1 { "is" } else { "are" }
                        ),
                    )
                    .with_label("every input without a default must be bound")
                    .with_help(format!(
                        "bind it, as in `sub {}: {}({first} = ...)`, or give it a default in `{}`",
                        name.text,
                        self.t().subs[si].1.text,
                        self.t().subs[si].1.text
                    )),
                );
            }
        }
        out
    }

    fn rules(&mut self, rules: &[ast::Rule]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for r in rules {
            match r {
                ast::Rule::Assign {
                    target,
                    value,
                    guard,
                    span,
                } => {
                    let Some(tv) = self.target(target) else {
                        // Still check the expressions for more errors
                        // (as a right-hand side, where `integral` may stand).
                        let _ = self.rhs(value);
                        if let Guard::When(g) = guard {
                            let _ = self.expr(g, Ty::Flag, Ctx::Rule);
                        }
                        continue;
                    };
                    let rhs = self.rhs(value);
                    let assign = Assign {
                        target: tv,
                        rhs,
                        fired: self.fired.get(&tv).copied(),
                        span: *span,
                    };
                    match guard {
                        Guard::None => out.push(Stmt::Assign(assign)),
                        Guard::When(g) => {
                            let cond = self.expr(g, Ty::Flag, Ctx::Rule);
                            out.push(Stmt::If {
                                cond,
                                then: vec![Stmt::Assign(assign)],
                                span: g.span,
                            })
                        }
                        Guard::Otherwise(_) => {
                            let fired = self.fired[&tv];
                            out.push(Stmt::Otherwise { assign, fired })
                        }
                    }
                }
                ast::Rule::Sigma {
                    cond,
                    actions,
                    span,
                } => {
                    let c = self.expr(cond, Ty::Flag, Ctx::Rule);
                    let mut then = Vec::new();
                    for a in actions {
                        if let Some(s) = self.action(a) {
                            then.push(s);
                        }
                    }
                    let _ = span;
                    out.push(Stmt::If {
                        cond: c,
                        then,
                        span: cond.span,
                    });
                }
                ast::Rule::Block { cond, rules, .. } => {
                    let c = self.expr(cond, Ty::Flag, Ctx::Rule);
                    let then = self.rules(rules);
                    out.push(Stmt::If {
                        cond: c,
                        then,
                        span: cond.span,
                    });
                }
            }
        }
        out
    }

    fn target(&mut self, target: &Name) -> Option<VarId> {
        let sym = self.t().names.get(&target.text).copied();
        match sym {
            Some(Sym::Var(v)) => {
                let var = &self.t().vars[v];
                match (var.kind, var.ty) {
                    (VarKind::State, Ty::Real) => Some(v),
                    (VarKind::State, Ty::Flag) => {
                        self.err(
                            Diagnostic::error(
                                "E0171",
                                target.span,
                                format!("`{}` is a flag and cannot be the target of a δ rule", target.text),
                            )
                            .with_label("flags are set by σ rules")
                            .with_help(format!(
                                "write `when CONDITION => {0};` to set it and `when CONDITION => !{0};` to clear it",
                                target.text
                            )),
                        );
                        None
                    }
                    (VarKind::Param { .. }, _) => {
                        self.err(
                            Diagnostic::error(
                                "E0170",
                                target.span,
                                format!("cannot assign to the param `{}`", target.text),
                            )
                            .with_label("params are constant during a run")
                            .with_help(format!("declare it as a state: `real {};`", target.text)),
                        );
                        None
                    }
                    (VarKind::Input, _) => {
                        self.err(
                            Diagnostic::error(
                                "E0170",
                                target.span,
                                format!("cannot assign to the input `{}`", target.text),
                            )
                            .with_label("inputs are set by the host or the parent model"),
                        );
                        None
                    }
                }
            }
            Some(Sym::Cond(c)) => {
                let kind = match self.t().conds[c].kind {
                    CondKind::Pred => "pred",
                    CondKind::Situation => "situation",
                };
                self.err(
                    Diagnostic::error(
                        "E0170",
                        target.span,
                        format!("cannot assign to the {kind} `{}`", target.text),
                    )
                    .with_label(format!("a {kind} is computed from its definition"))
                    .with_help(
                        "to remember a logical value, declare a `flag` and set it in a σ rule",
                    ),
                );
                None
            }
            Some(Sym::Event(_)) => {
                self.err(
                    Diagnostic::error(
                        "E0170",
                        target.span,
                        format!("cannot assign to the event `{}`", target.text),
                    )
                    .with_label("an event is computed from its condition"),
                );
                None
            }
            Some(Sym::Sub(_)) => {
                self.err(
                    Diagnostic::error(
                        "E0170",
                        target.span,
                        format!("cannot assign to the submodel `{}`", target.text),
                    )
                    .with_label("a submodel is switched with `name.on` and `!name.on` in σ rules"),
                );
                None
            }
            None => {
                self.unknown(target, Ctx::Rule);
                None
            }
        }
    }

    fn action(&mut self, a: &ast::Action) -> Option<Stmt> {
        match a {
            ast::Action::Reset { sub, span } => match self.t().names.get(&sub.text).copied() {
                Some(Sym::Sub(s)) => Some(Stmt::Reset {
                    sub: s,
                    span: *span,
                }),
                Some(_) => {
                    self.err(
                        Diagnostic::error(
                            "E0174",
                            sub.span,
                            format!("`reset` takes a submodel, and `{}` is not one", sub.text),
                        )
                        .with_label("not a submodel"),
                    );
                    None
                }
                None => {
                    self.unknown(sub, Ctx::Rule);
                    None
                }
            },
            ast::Action::Set { path, value, span } => {
                let first = &path[0];
                let sym = self.t().names.get(&first.text).copied();
                if path.len() == 2 {
                    match sym {
                        Some(Sym::Sub(s)) if path[1].text == "on" => {
                            return Some(Stmt::Switch {
                                sub: s,
                                on: *value,
                                span: *span,
                            });
                        }
                        Some(Sym::Sub(_)) => {
                            self.err(
                                Diagnostic::error(
                                    "E0173",
                                    path[1].span,
                                    format!(
                                        "a σ rule cannot assign `{}.{}`",
                                        first.text, path[1].text
                                    ),
                                )
                                .with_label("only `.on` of a submodel can be switched")
                                .with_note("a submodel's variables are set by its own rules; pass values in through input bindings"),
                            );
                            return None;
                        }
                        None => {
                            self.unknown(first, Ctx::Rule);
                            return None;
                        }
                        Some(_) => {
                            self.not_a_submodel(first);
                            return None;
                        }
                    }
                }
                if path.len() > 2 {
                    self.err(
                        Diagnostic::error(
                            "E0173",
                            span.to(*span),
                            "a σ rule can only switch a direct submodel (`name.on`)",
                        )
                        .with_label("too deep"),
                    );
                    return None;
                }
                match sym {
                    Some(Sym::Var(v)) => {
                        let var = &self.t().vars[v];
                        match (var.kind, var.ty) {
                            (VarKind::State, Ty::Flag) => Some(Stmt::SetFlag {
                                var: v,
                                value: *value,
                                span: *span,
                            }),
                            (VarKind::State, Ty::Real) => {
                                self.err(
                                    Diagnostic::error(
                                        "E0172",
                                        first.span,
                                        format!("`{}` is real; σ rules assign only flags and submodel switches", first.text),
                                    )
                                    .with_label("a real is assigned by a δ rule")
                                    .with_help(format!("write `{} = VALUE when CONDITION;`", first.text)),
                                );
                                None
                            }
                            (k, _) => {
                                let what = if matches!(k, VarKind::Input) {
                                    "input"
                                } else {
                                    "param"
                                };
                                self.err(
                                    Diagnostic::error(
                                        "E0170",
                                        first.span,
                                        format!("cannot assign to the {what} `{}`", first.text),
                                    )
                                    .with_label("σ rules assign flags and submodel switches"),
                                );
                                None
                            }
                        }
                    }
                    Some(Sym::Sub(_)) => {
                        self.err(
                            Diagnostic::error(
                                "E0173",
                                first.span,
                                format!(
                                    "`{}` is a submodel: switch it with `{0}.on` or `!{0}.on`",
                                    first.text
                                ),
                            )
                            .with_label("a submodel, not a flag"),
                        );
                        None
                    }
                    Some(Sym::Cond(_)) | Some(Sym::Event(_)) => {
                        self.err(
                            Diagnostic::error(
                                "E0170",
                                first.span,
                                format!(
                                    "cannot assign to `{}`: it is computed from its definition",
                                    first.text
                                ),
                            )
                            .with_label("σ rules assign flags and submodel switches")
                            .with_help("to remember a logical value, declare a `flag`"),
                        );
                        None
                    }
                    None => {
                        self.unknown(first, Ctx::Rule);
                        None
                    }
                }
            }
        }
    }

    fn rhs(&mut self, e: &ast::Expr) -> Rhs {
        if let ExprKind::Call(name, args) = &e.kind {
            let n = args.len();
            let arity_err = |s: &mut Self, expected: &str| {
                s.arity_error(e.span, &name.text, expected, n);
                Rhs::Expr(Expr::Num(0.0))
            };
            let a = |s: &mut Self, i: usize| s.expr(&args[i], Ty::Real, Ctx::Rule);
            match name.text.as_str() {
                "integral" => {
                    return match n {
                        1 => Rhs::Integral { x: a(self, 0) },
                        3 => Rhs::IntegralLimited {
                            x: a(self, 0),
                            lo: a(self, 1),
                            hi: a(self, 2),
                        },
                        _ => arity_err(self, "1 or 3"),
                    };
                }
                "lag" => {
                    return match n {
                        2 | 3 => Rhs::Lag {
                            x: a(self, 0),
                            t: a(self, 1),
                            k: if n == 3 { a(self, 2) } else { Expr::Num(1.0) },
                        },
                        _ => arity_err(self, "2 or 3"),
                    };
                }
                "deriv" => {
                    return match n {
                        1 => {
                            let x = a(self, 0);
                            self.memories.push(Memory {
                                kind: MemoryKind::Deriv,
                                span: e.span,
                            });
                            Rhs::Deriv {
                                x,
                                mem: self.memories.len() - 1,
                            }
                        }
                        _ => arity_err(self, "1"),
                    };
                }
                "hysteresis" => {
                    return match n {
                        3 | 4 => Rhs::Hysteresis {
                            x: a(self, 0),
                            lo: a(self, 1),
                            hi: a(self, 2),
                            a: if n == 4 { a(self, 3) } else { Expr::Num(1.0) },
                        },
                        _ => arity_err(self, "3 or 4"),
                    };
                }
                _ => {}
            }
        }
        Rhs::Expr(self.expr(e, Ty::Real, Ctx::Rule))
    }
}

impl Lowerer<'_> {
    /// E0151: `name` called with `n` arguments where it takes `expected`.
    fn arity_error(&mut self, span: Span, name: &str, expected: &str, n: usize) {
        self.err(
            Diagnostic::error(
                "E0151",
                span,
                format!(
                    "`{name}` takes {expected} argument{}, but {n} {} given",
                    if expected == "1" { "" } else { "s" },
                    if n == 1 { "was" } else { "were" }
                ),
            )
            .with_label("wrong number of arguments")
            .with_note(signature(name)),
        );
    }

    /// E0141: a dotted path whose first name is not a submodel.
    fn not_a_submodel(&mut self, first: &Name) {
        self.err(
            Diagnostic::error(
                "E0141",
                first.span,
                format!("`{}` is not a submodel", first.text),
            )
            .with_label("only submodels have `.` members"),
        );
    }
}

fn signature(name: &str) -> String {
    let s = match name {
        "integral" => "integral(rate) or integral(rate, lo, hi)",
        "lag" => "lag(input, T) or lag(input, T, gain)",
        "deriv" => "deriv(signal)",
        "hysteresis" => "hysteresis(input, lo, hi) or hysteresis(input, lo, hi, amplitude)",
        "atan2" => "atan2(y, x)",
        "min" => "min(a, b)",
        "max" => "max(a, b)",
        "pow" => "pow(x, y)",
        "hypot" => "hypot(x, y)",
        "relay" => "relay(x, amplitude)",
        "limit" => "limit(x, lo, hi)",
        "deadzone" => "deadzone(x, half_width)",
        other => return format!("signature: {other}(x)"),
    };
    format!("signature: {s}")
}

fn collect_otherwise(rules: &[ast::Rule], out: &mut Vec<String>) {
    for r in rules {
        match r {
            ast::Rule::Assign {
                target,
                guard: Guard::Otherwise(_),
                ..
            } => out.push(target.text.clone()),
            ast::Rule::Block { rules, .. } => collect_otherwise(rules, out),
            _ => {}
        }
    }
}

fn reads_var(e: &Expr) -> bool {
    let mut v = Vec::new();
    collect_vars(e, &mut v);
    !v.is_empty()
}

/// Every local variable an expression reads.
pub fn collect_vars(e: &Expr, out: &mut Vec<VarId>) {
    e.visit(&mut |x| {
        if let Expr::Var(v) = x {
            out.push(*v)
        }
    });
}

fn collect_conds(e: &Expr, out: &mut Vec<CondId>) {
    e.visit(&mut |x| {
        if let Expr::Cond(c) = x {
            out.push(*c)
        }
    });
}
