//! Pass 2 for one model: declarations resolved into the IR in order, param and condition cycles.

use super::{Sym, Table};
use crate::ast::{self, Guard};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::{SourceMap, Span};
use crate::suggest::did_you_mean;
use std::collections::HashMap;

/// Lowers one model, with the tables of all.
pub(super) struct Resolver<'a> {
    pub(super) tables: &'a [Table],
    pub(super) sub_models: &'a [Vec<Option<usize>>],
    pub(super) new_index: &'a HashMap<usize, usize>,
    pub(super) this: usize,
    pub(super) sources: &'a SourceMap,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    pub(super) fired: HashMap<VarId, FiredId>,
    pub(super) memories: Vec<Memory>,
    /// Name comparisons left for "did you mean" suggestions in this model
    /// (see [`SUGGESTION_BUDGET`]).
    pub(super) suggestions: std::cell::Cell<usize>,
    /// The guards of the `when` blocks around the rule being lowered,
    /// outermost first (for help that rewrites a rule as a σ rule).
    pub(super) blocks: Vec<Span>,
    /// Reads of a submodel whose model is unknown (E0120, reported once at the
    /// `sub`): each counts as an error, so that the expression holding it gets no
    /// follow-on error (see [`Resolver::errors`]).
    pub(super) unknown_reads: usize,
    /// While the input bindings of the `k`-th submodel (not a phase) are checked: `k`,
    /// and the later submodels read there through `prev` (see [`Binding::prev_subs`]).
    pub(super) binding_of: Option<(SubId, Vec<SubId>)>,
    /// The comparisons `==` and `!=` of reals found so far (W0210, `super::exact`).
    pub(super) equalities: Vec<super::exact::Equality>,
}

/// Name comparisons that "did you mean" suggestions may make per model:
/// thousands of unknown names in a model of thousands of declarations
/// would otherwise cost time quadratic in the model's size. Past the
/// budget, errors come without a suggestion.
pub(super) const SUGGESTION_BUDGET: usize = 200_000;

/// Where an expression stands, which decides what it may read.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Ctx {
    /// A param's value or a param binding: constants and params.
    Param,
    /// An input's default: constants and params.
    InputDefault,
    /// A state's initial value: constants, params, inputs.
    Init,
    /// Conditions and rules: everything.
    Rule,
}

impl Resolver<'_> {
    /// The errors so far: compared before and after lowering an expression, to give
    /// it a type error only when nothing inside it was wrong (a read of a submodel of
    /// an unknown model counts as wrong).
    pub(super) fn errors(&self) -> usize {
        self.diags.len() + self.unknown_reads
    }

    /// The candidate closest to `name` (see [`did_you_mean`]), within the
    /// model's budget of comparisons.
    pub(super) fn suggest<'c>(
        &self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str> + Clone,
    ) -> Option<&'c str> {
        let n = candidates.clone().into_iter().count();
        let left = self.suggestions.get();
        if n > left {
            self.suggestions.set(0);
            return None;
        }
        self.suggestions.set(left - n);
        did_you_mean(name, candidates)
    }

    pub(super) fn t(&self) -> &Table {
        &self.tables[self.this]
    }

    pub(super) fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The model `m` checked, and its comparisons `==` and `!=` of reals (for W0210,
    /// decided once its submodels are checked too).
    pub(super) fn lower(mut self, m: &ast::Model) -> (Model, Vec<super::exact::Equality>) {
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
        let mut subs = subs;
        let body = self.rules(&m.rules);
        self.place_steps(&mut subs, &body);
        self.placed_prevs(&subs, &body);
        let method = self.method(&m.methods, &m.method_options);
        let substeps = self.substeps(&m.substeps);
        let modes = self.t().modes.clone();
        let model = Model {
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
            method,
            modes,
            substeps,
            allow_non_finite: false,
        };
        (model, self.equalities)
    }

    /// The model's `method` declaration: E0470 for an unknown name, E0471 for a
    /// second declaration, E0473–E0475 for its options.
    fn method(&mut self, names: &[ast::Name], options: &[Vec<ast::MethodOption>]) -> Method {
        let method = self.method_name(names);
        let Some(options) = options.first() else {
            return method;
        };
        self.method_options(method, options)
    }

    /// The options of a `method` declaration: `rtol` and `atol` of an adaptive method,
    /// each at most once (E0474), positive (E0473); none for a fixed-step method
    /// (E0475).
    fn method_options(&mut self, method: Method, options: &[ast::MethodOption]) -> Method {
        let Some(mut tol) = method.tolerance() else {
            if let Some(o) = options.first() {
                self.err(
                    Diagnostic::error(
                        "E0475",
                        o.name.span,
                        format!("`{}` takes no options", method.name()),
                    )
                    .with_label("an option of a fixed-step method")
                    .with_help("tolerances are options of an adaptive method: `method dopri5 rtol 1e-8 atol 1e-10;`"),
                );
            }
            return method;
        };
        let mut seen: Vec<&str> = Vec::new();
        for o in options {
            let name = o.name.text.as_str();
            let slot = match name {
                "rtol" => &mut tol.rtol,
                "atol" => &mut tol.atol,
                _ => {
                    self.err(
                        Diagnostic::error(
                            "E0474",
                            o.name.span,
                            format!("unknown option `{name}` of `{}`", method.name()),
                        )
                        .with_label("expected `rtol` or `atol`"),
                    );
                    continue;
                }
            };
            if seen.contains(&name) {
                self.err(
                    Diagnostic::error("E0474", o.name.span, format!("`{name}` is given twice"))
                        .with_label("second value"),
                );
                continue;
            }
            seen.push(name);
            if o.value <= 0.0 {
                self.err(
                    Diagnostic::error(
                        "E0473",
                        o.span,
                        format!("the tolerance `{name}` must be positive"),
                    )
                    .with_label(format!("`{name}` is {}", o.value)),
                );
                continue;
            }
            if name == "rtol"
                && let Some(message) = Tolerance::below_precision(o.value)
            {
                self.err(
                    Diagnostic::warning("W0209", o.span, message)
                        .with_label("below ε of f64")
                        .with_help("write `rtol 1e-15` or more"),
                );
            }
            *slot = o.value;
        }
        method.with_tolerance(Some(tol.rtol), Some(tol.atol))
    }

    /// The method named by the model's `method` declarations.
    fn method_name(&mut self, names: &[ast::Name]) -> Method {
        let mut method = Method::Euler;
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                self.err(
                    Diagnostic::error("E0471", n.span, "the integration method is declared twice")
                        .with_label("second `method` declaration")
                        .with_related(names[0].span, "first declared here"),
                );
                continue;
            }
            match Method::from_name(&n.text) {
                Some(m) => method = m,
                None => {
                    let all = Method::ALL.map(Method::name);
                    let mut d = Diagnostic::error(
                        "E0470",
                        n.span,
                        format!("unknown integration method `{}`", n.text),
                    )
                    .with_label(format!("expected one of {}", all.join(", ")));
                    if let Some(s) = did_you_mean(&n.text, all) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    }
                    self.err(d);
                }
            }
        }
        method
    }

    fn param_cycles(&mut self, vars: &[Var]) {
        // Depth-first over param -> params read; report each cycle once.
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
        let is_param = |v: usize| matches!(vars[v].kind, VarKind::Param { .. });
        for (path, w) in cycles(&deps, is_param) {
            let mut chain: Vec<String> = path
                .iter()
                .map(|&x| format!("`{}`", vars[x].name))
                .collect();
            chain.push(format!("`{}`", vars[w].name));
            self.err(
                Diagnostic::error(
                    "E0130",
                    vars[w].span,
                    format!("cyclic param definitions: {}", chain.join(" uses ")),
                )
                .with_label("defined from itself, through the others")
                .with_help("give one of them a value that does not depend on the others"),
            );
        }
    }

    fn cond_cycles(&mut self, conds: &[Cond]) {
        let deps: Vec<Vec<CondId>> = conds
            .iter()
            .map(|c| {
                let mut d = Vec::new();
                collect_conds(&c.expr, &mut d);
                d
            })
            .collect();
        for (path, w) in cycles(&deps, |_| true) {
            // `path` runs from `w` along the definitions back to `w`: each one reads the
            // next, the last reads `w`.
            let name = |x: usize| format!("`{}`", conds[x].name);
            let next = |i: usize| path.get(i + 1).copied().unwrap_or(w);
            let mut chain: Vec<String> = path.iter().map(|&x| name(x)).collect();
            chain.push(name(w));
            let message = if path.len() > 1 {
                format!(
                    "`{}` is defined in terms of itself: {}",
                    conds[w].name,
                    chain.join(" reads ")
                )
            } else {
                format!("`{}` is defined in terms of itself", conds[w].name)
            };
            let mut d =
                Diagnostic::error("E0131", conds[w].span, message).with_label(if path.len() > 1 {
                    format!("cyclic definition: reads {}", name(next(0)))
                } else {
                    "cyclic definition: reads itself".to_string()
                });
            for (i, &x) in path.iter().enumerate().skip(1) {
                d = d.with_related(
                    conds[x].span,
                    format!("{} reads {}", name(x), name(next(i))),
                );
            }
            self.err(
                d.with_help("a situation that must remember its value is a `flag` set by σ rules"),
            );
        }
    }
}

/// Every back edge of an iterative depth-first search over `deps` started from each node
/// for which `start` holds, in the order found: the path on the stack from the node the
/// edge returns to, and that node. Each cycle is found once; linear in nodes and edges.
fn cycles(deps: &[Vec<usize>], start: impl Fn(usize) -> bool) -> Vec<(Vec<usize>, usize)> {
    let mut found = Vec::new();
    let mut state = vec![0u8; deps.len()];
    for first in 0..deps.len() {
        if state[first] != 0 || !start(first) {
            continue;
        }
        let mut stack = vec![(first, 0usize)];
        state[first] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < deps[v].len() {
                let w = deps[v][*k];
                *k += 1;
                if state[w] == 1 {
                    let pos = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                    found.push((stack[pos..].iter().map(|&(x, _)| x).collect(), w));
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
    found
}

fn collect_otherwise(rules: &[ast::Rule], out: &mut Vec<String>) {
    for r in rules {
        match r {
            ast::Rule::Assign {
                target,
                guard: Guard::Otherwise(_),
                ..
            } => out.push(target.text.clone()),
            ast::Rule::Block { rules, .. } | ast::Rule::Transition { rules, .. } => {
                collect_otherwise(rules, out)
            }
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
