//! The bodies of `new`, `reset` and `step`: the semantics of `ir.rs`, statement for statement.

use crate::expr::ExprGen;
use crate::fired::Fired;
use crate::lints::Lints;
use crate::names::ident;
use crate::plan::{Plan, step_pieces};
use crate::provenance::{Comments, Provenance};
use proc_macro2::{Ident, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};
use sit_parser::Span;
use sit_parser::ir::{Assign, Expr, ModelId, Rhs, Stmt, Sub, Ty, VarKind};

/// Generates the bodies of one model's functions.
pub(crate) struct BodyGen<'a, 'c> {
    /// Names and program.
    pub plan: &'a Plan<'a>,
    /// The model.
    pub model: ModelId,
    /// Source excerpts.
    pub prov: &'a Provenance<'a>,
    /// The file's comment markers.
    pub comments: &'c mut Comments,
}

/// A generated function body and the lints it must allow.
pub(crate) struct Body {
    /// The statements.
    pub tokens: TokenStream,
    /// Lints to allow on the function.
    pub lints: Lints,
    /// Private methods the function calls (the pieces of a long `step`), or nothing.
    pub methods: TokenStream,
}

/// Whether an expression reads nothing (only literals and operators), so that it can
/// be written in a struct literal.
fn is_constant(e: &Expr) -> bool {
    let mut constant = true;
    e.visit(&mut |x| {
        constant &= matches!(
            x,
            Expr::Num(_)
                | Expr::Bool(_)
                | Expr::Neg(_)
                | Expr::Not(_)
                | Expr::Arith(..)
                | Expr::Cmp(..)
                | Expr::And(..)
                | Expr::Or(..)
                | Expr::Call(..)
        )
    });
    constant
}

/// The local flag of `otherwise` bookkeeping number `k`.
fn fired_ident(k: usize) -> Ident {
    format_ident!("fired_{}", k)
}

/// Whether `tokens` use the local `name` (an identifier not after a `.`).
fn uses_local(tokens: &TokenStream, name: &str) -> bool {
    let mut after_dot = false;
    tokens.clone().into_iter().any(|t| {
        let found = match &t {
            TokenTree::Ident(i) => !after_dot && i == name,
            TokenTree::Group(g) => uses_local(&g.stream(), name),
            _ => false,
        };
        after_dot = matches!(&t, TokenTree::Punct(p) if p.as_char() == '.');
        found
    })
}

impl BodyGen<'_, '_> {
    fn exprs(&self, recv: TokenStream) -> ExprGen<'_> {
        ExprGen {
            plan: self.plan,
            model: self.model,
            recv,
        }
    }

    fn ir(&self) -> &sit_parser::ir::Model {
        &self.plan.program.models[self.model]
    }

    /// The body of `new()`: a struct literal with the constant defaults, then the
    /// defaults that read params, in declaration order, then `reset()`.
    pub(crate) fn new_body(&mut self) -> Body {
        let mut lints = Lints::default();
        let m = self.ir();
        let names = &self.plan.names[self.model];
        let g = self.exprs(quote!(this));
        let mut inits = Vec::new();
        let mut later = Vec::new();
        for (i, v) in m.vars.iter().enumerate() {
            if matches!(v.kind, VarKind::Param { derived: true }) {
                continue;
            }
            let f = ident(&names.vars[i]);
            let zero = match v.ty {
                Ty::Real => quote!(0.0),
                Ty::Flag => quote!(false),
            };
            if is_constant(&v.init) {
                let value = g.expr(&v.init, &mut lints);
                inits.push(quote!(#f: #value));
            } else {
                inits.push(quote!(#f: #zero));
                if v.kind != VarKind::State {
                    let value = g.expr(&v.init, &mut lints);
                    later.push(quote!(this.#f = #value;));
                }
            }
        }
        for (s, sub) in m.subs.iter().enumerate() {
            let f = ident(&names.subs[s]);
            let ty = ident(&self.plan.names[sub.model].ty);
            inits.push(quote!(#f: #ty::new()));
            let on = ident(&names.sub_on[s]);
            let initially = sub.initially_on;
            inits.push(quote!(#on: #initially));
        }
        for e in 0..m.events.len() {
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            inits.push(quote!(#v: false));
            inits.push(quote!(#p: false));
        }
        for k in &names.mems {
            let k = ident(k);
            inits.push(quote!(#k: ::sit_runtime::Deriv::new()));
        }
        let time = ident(&names.time);
        inits.push(quote!(#time: 0.0));
        if names.uses_dt {
            let dt = ident(&names.dt);
            inits.push(quote!(#dt: 0.0));
        }
        Body {
            tokens: quote! {
                let mut this = Self { #(#inits),* };
                #(#later)*
                this.reset();
                this
            },
            lints,
            methods: TokenStream::new(),
        }
    }

    /// The statements re-applying a submodel's param bindings and resetting it.
    fn reset_sub(&mut self, s: usize, sub: &Sub, lints: &mut Lints) -> TokenStream {
        let names = &self.plan.names[self.model];
        let f = ident(&names.subs[s]);
        let g = self.exprs(quote!(self));
        let sub_names = &self.plan.names[sub.model];
        let binds = sub.param_bindings.iter().map(|b| {
            let v = ident(&sub_names.vars[b.var]);
            let value = g.expr(&b.value, lints);
            quote!(self.#f.#v = #value;)
        });
        quote! {
            #(#binds)*
            self.#f.reset();
        }
    }

    /// The body of `reset()`, in the order of `ir.rs`.
    pub(crate) fn reset_body(&mut self) -> Body {
        let mut lints = Lints::default();
        let plan = self.plan;
        let m = &plan.program.models[self.model];
        let names = &plan.names[self.model];
        let mut out = Vec::new();
        for (s, sub) in m.subs.iter().enumerate() {
            out.push(self.reset_sub(s, sub, &mut lints));
        }
        for (s, sub) in m.subs.iter().enumerate() {
            let on = ident(&names.sub_on[s]);
            let initially = sub.initially_on;
            out.push(quote!(self.#on = #initially;));
        }
        let g = self.exprs(quote!(self));
        for (i, v) in m.vars.iter().enumerate() {
            if v.kind == VarKind::State {
                let f = ident(&names.vars[i]);
                let value = g.expr(&v.init, &mut lints);
                if v.init == Expr::Var(i) {
                    lints.add("clippy::self_assignment");
                }
                out.push(quote!(self.#f = #value;));
            }
        }
        for k in &names.mems {
            let k = ident(k);
            out.push(quote!(self.#k.reset();));
        }
        let time = ident(&names.time);
        out.push(quote!(self.#time = 0.0;));
        if names.uses_dt {
            let dt = ident(&names.dt);
            out.push(quote!(self.#dt = 0.0;));
        }
        for (e, ev) in m.events.iter().enumerate() {
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            let cond = g.expr(&ev.cond, &mut lints);
            out.push(quote! {
                self.#v = false;
                self.#p = #cond;
            });
        }
        Body {
            tokens: quote!(#(#out)*),
            lints,
            methods: TokenStream::new(),
        }
    }

    /// The body of `step(dt)`, in the order of `ir.rs`.
    pub(crate) fn step_body(&mut self) -> Body {
        let mut lints = Lints::default();
        let plan = self.plan;
        let prov = self.prov;
        let m = &plan.program.models[self.model];
        let names = &plan.names[self.model];
        let mut out = Vec::new();
        if names.uses_dt {
            let dt = ident(&names.dt);
            out.push(quote!(self.#dt = dt;));
        }
        // 1. Submodels: bind inputs, step.
        for (s, sub) in m.subs.iter().enumerate() {
            let f = ident(&names.subs[s]);
            let on = ident(&names.sub_on[s]);
            let sub_names = &plan.names[sub.model];
            let g = self.exprs(quote!(self));
            let binds: Vec<TokenStream> = sub
                .input_bindings
                .iter()
                .map(|b| {
                    let v = ident(&sub_names.vars[b.var]);
                    let value = g.expr(&b.value, &mut lints);
                    quote!(self.#f.#v = #value;)
                })
                .collect();
            let comment = self.comments.marker(format!(
                "{}: {}",
                prov.location(sub.span),
                prov.line_text(sub.span)
            ));
            out.push(quote! {
                #comment
                if self.#on {
                    #(#binds)*
                    self.#f.step(dt);
                }
            });
        }
        // 2. Events.
        for (e, ev) in m.events.iter().enumerate() {
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            let cond = self.exprs(quote!(self)).expr(&ev.cond, &mut lints);
            let comment = self.comments.marker(format!(
                "{}: {}",
                prov.location(ev.span),
                prov.line_text(ev.span)
            ));
            out.push(quote! {
                #comment
                self.#v = ::sit_runtime::rising(#cond, &mut self.#p);
            });
        }
        // 3. The rules.
        let fired = Fired::new(&m.body, m.fired);
        let pieces = step_pieces(m.body.len());
        let chunked = !names.step_parts.is_empty() && names.step_parts.len() == pieces.len();
        // Chunked: the flags live in one local array, passed to every piece using it.
        let mut slots = vec![None; m.fired];
        let mut initial = Vec::new();
        for (k, slot) in slots.iter_mut().enumerate() {
            if !fired.read.get(k).copied().unwrap_or(false) {
                continue;
            }
            let target = fired_target(&m.body, k)
                .map(|v| m.vars[v].name.clone())
                .unwrap_or_default();
            let constant = !fired.initial_live[k];
            if chunked {
                *slot = Some(initial.len());
                let j = initial.len();
                initial.push(constant);
                let comment = self.comments.marker(format!(
                    "fired[{j}]: whether a rule assigned `{target}` in this step (for `otherwise`)"
                ));
                out.push(comment);
                continue;
            }
            let f = fired_ident(k);
            let comment = self.comments.marker(format!(
                "{f}: whether a rule assigned `{target}` in this step (for `otherwise`)"
            ));
            let decl = if constant {
                quote!(let #f = true;)
            } else if fired.ever_set(&m.body, k) {
                quote!(let mut #f = false;)
            } else {
                quote!(let #f = false;)
            };
            out.push(quote!(#comment #decl));
        }
        if chunked {
            let n = Literal::usize_unsuffixed(initial.len());
            if !initial.is_empty() {
                let init = if initial.iter().all(|c| !c) {
                    quote!([false; #n])
                } else {
                    quote!([#(#initial),*])
                };
                out.push(quote!(let mut fired = #init;));
            }
            let mut methods = Vec::new();
            let mut pos = 0;
            for (range, part) in pieces.into_iter().zip(&names.step_parts) {
                let mut piece_lints = Lints::default();
                let mut ctx = StmtCtx {
                    pos,
                    fired: &fired,
                    slots: Some(&slots),
                    lints: &mut piece_lints,
                };
                let rules = self.stmts(&m.body[range], None, &mut ctx);
                pos = ctx.pos;
                let part = ident(part);
                let allow = piece_lints.attr();
                let dt_arg = if uses_local(&rules, "dt") {
                    quote!(dt)
                } else {
                    quote!(_dt)
                };
                let (param, arg) = if uses_local(&rules, "fired") {
                    (quote!(, fired: &mut [bool; #n]), quote!(, &mut fired))
                } else {
                    (TokenStream::new(), TokenStream::new())
                };
                out.push(quote!(self.#part(dt #arg);));
                methods.push(quote! {
                    #[inline(never)]
                    #allow
                    fn #part(&mut self, #dt_arg: f64 #param) {
                        #rules
                    }
                });
            }
            let time = ident(&names.time);
            out.push(quote!(self.#time += dt;));
            return Body {
                tokens: quote!(#(#out)*),
                lints,
                methods: quote!(#(#methods)*),
            };
        }
        let mut ctx = StmtCtx {
            pos: 0,
            fired: &fired,
            slots: None,
            lints: &mut lints,
        };
        let rules = self.stmts(&m.body, None, &mut ctx);
        out.push(rules);
        // 4. Time.
        let time = ident(&names.time);
        out.push(quote!(self.#time += dt;));
        Body {
            tokens: quote!(#(#out)*),
            lints,
            methods: TokenStream::new(),
        }
    }

    /// Statements of the body; `guard` is the file and line of the enclosing guard.
    fn stmts(
        &mut self,
        body: &[Stmt],
        guard: Option<(usize, usize)>,
        ctx: &mut StmtCtx<'_, '_>,
    ) -> TokenStream {
        let mut out = Vec::new();
        for s in body {
            ctx.pos += 1;
            out.push(self.stmt(s, guard, ctx));
        }
        quote!(#(#out)*)
    }

    fn where_(&self, span: Span) -> (usize, usize) {
        (span.file, self.prov.line(span))
    }

    fn stmt(
        &mut self,
        s: &Stmt,
        guard: Option<(usize, usize)>,
        ctx: &mut StmtCtx<'_, '_>,
    ) -> TokenStream {
        let prov = self.prov;
        let names = &self.plan.names[self.model];
        match s {
            Stmt::Assign(a) => {
                let c = self.rule_comment(a.span);
                let assign = self.assign(a, ctx);
                quote!(#c #assign)
            }
            Stmt::Otherwise { assign, fired } => {
                let c = self.rule_comment(assign.span);
                let body = self.assign(assign, ctx);
                let f = ctx.flag(*fired);
                quote! {
                    #c
                    if !#f {
                        #body
                    }
                }
            }
            Stmt::If { cond, then, span } => {
                let one_rule = match then.as_slice() {
                    [Stmt::Assign(a)] if a.span.start <= span.start && span.end <= a.span.end => {
                        Some(a.span)
                    }
                    _ => None,
                };
                if matches!(then.as_slice(), [Stmt::If { .. }]) {
                    ctx.lints.add("clippy::collapsible_if");
                }
                let c = match one_rule {
                    Some(rule) => self.rule_comment(rule),
                    None => self.comments.marker(format!(
                        "{}: {}",
                        prov.location(*span),
                        prov.line_text(*span)
                    )),
                };
                let cond = self.exprs(quote!(self)).expr(cond, ctx.lints);
                let inner_guard = if one_rule.is_some() {
                    // The rule's comment is already above the `if`.
                    Some((usize::MAX, 0))
                } else {
                    Some(self.where_(*span))
                };
                let then = self.stmts_quiet(then, inner_guard, one_rule.is_some(), ctx);
                quote! {
                    #c
                    if #cond {
                        #then
                    }
                }
            }
            Stmt::SetFlag { var, value, span } => {
                let c = self.action_comment(*span, guard);
                let f = ident(&names.vars[*var]);
                quote!(#c self.#f = #value;)
            }
            Stmt::Switch { sub, on, span } => {
                let c = self.action_comment(*span, guard);
                let f = ident(&names.sub_on[*sub]);
                quote!(#c self.#f = #on;)
            }
            Stmt::Reset { sub, span } => {
                let c = self.action_comment(*span, guard);
                let sub_ir = &self.plan.program.models[self.model].subs[*sub];
                let reset = self.reset_sub(*sub, sub_ir, ctx.lints);
                quote!(#c #reset)
            }
        }
    }

    /// Statements under a guard; when `quiet`, the single rule's comment is omitted
    /// (it was written above the `if`).
    fn stmts_quiet(
        &mut self,
        body: &[Stmt],
        guard: Option<(usize, usize)>,
        quiet: bool,
        ctx: &mut StmtCtx<'_, '_>,
    ) -> TokenStream {
        if !quiet {
            return self.stmts(body, guard, ctx);
        }
        let mut out = Vec::new();
        for s in body {
            ctx.pos += 1;
            out.push(match s {
                Stmt::Assign(a) => self.assign(a, ctx),
                other => self.stmt(other, guard, ctx),
            });
        }
        quote!(#(#out)*)
    }

    /// `// hoop.sit:12: Fy = k_press * defl when braking;`
    fn rule_comment(&mut self, span: Span) -> TokenStream {
        let text = format!(
            "{}: {}",
            self.prov.location(span),
            self.prov.span_text(span)
        );
        self.comments.marker(text)
    }

    /// A comment for a σ action, unless it is on the line of its guard.
    fn action_comment(&mut self, span: Span, guard: Option<(usize, usize)>) -> TokenStream {
        if guard == Some(self.where_(span)) || guard == Some((usize::MAX, 0)) {
            return TokenStream::new();
        }
        let text = format!(
            "{}: {}",
            self.prov.location(span),
            self.prov.line_text(span)
        );
        self.comments.marker(text)
    }

    /// `self.y = <rhs>;` and the `otherwise` bookkeeping, when a later rule reads it.
    fn assign(&mut self, a: &Assign, ctx: &mut StmtCtx<'_, '_>) -> TokenStream {
        if let Rhs::Expr(x) = &a.rhs {
            check_assign_lints(a.target, x, ctx.lints);
        }
        let names = &self.plan.names[self.model];
        let y = ident(&names.vars[a.target]);
        let g = self.exprs(quote!(self));
        let lints = &mut *ctx.lints;
        let mut e = |x: &Expr| g.expr(x, lints);
        let rhs = match &a.rhs {
            Rhs::Expr(x) => e(x),
            Rhs::Integral { x } => {
                let x = e(x);
                quote!(::sit_runtime::integral(self.#y, #x, dt))
            }
            Rhs::IntegralLimited { x, lo, hi } => {
                let (x, lo, hi) = (e(x), e(lo), e(hi));
                quote!(::sit_runtime::integral_limited(self.#y, #x, #lo, #hi, dt))
            }
            Rhs::Lag { x, t, k } => {
                let (x, t, k) = (e(x), e(t), e(k));
                quote!(::sit_runtime::lag(self.#y, #x, #t, #k, dt))
            }
            Rhs::Deriv { x, mem } => {
                let x = e(x);
                let mem = ident(&names.mems[*mem]);
                quote!(self.#mem.next(#x, dt))
            }
            Rhs::Hysteresis { x, lo, hi, a } => {
                let (x, lo, hi, a) = (e(x), e(lo), e(hi), e(a));
                quote!(::sit_runtime::hysteresis(self.#y, #x, #lo, #hi, #a))
            }
        };
        let set = match a.fired {
            Some(k) if ctx.fired.sets(k, ctx.pos) => {
                let f = ctx.flag(k);
                quote!(#f = true;)
            }
            _ => TokenStream::new(),
        };
        quote! {
            self.#y = #rhs;
            #set
        }
    }
}

/// State threaded through the statements of `step`.
struct StmtCtx<'u, 'l> {
    /// Pre-order position of the current statement.
    pos: usize,
    /// Where each `otherwise` flag is set and read.
    fired: &'u Fired,
    /// In a chunked `step`, each flag's slot in the array `fired`; `None` for locals.
    slots: Option<&'u [Option<usize>]>,
    /// Lints of the function.
    lints: &'l mut Lints,
}

impl StmtCtx<'_, '_> {
    /// The place of flag `k`: the local `fired_k`, or `fired[j]` in a chunked `step`.
    fn flag(&self, k: usize) -> TokenStream {
        match self.slots {
            Some(slots) => {
                let j = slots.get(k).copied().flatten().unwrap_or(0);
                let j = Literal::usize_unsuffixed(j);
                quote!(fired[#j])
            }
            None => {
                let f = fired_ident(k);
                quote!(#f)
            }
        }
    }
}

/// Lints of `y = x` and `y = y + x` (kept as written, not as `y += x`).
fn check_assign_lints(target: usize, x: &Expr, lints: &mut Lints) {
    let is_target = |e: &Expr| *e == Expr::Var(target);
    match x {
        e if is_target(e) => {
            lints.add("clippy::self_assignment");
            // rustc reports `self.x = self.x` as a useless assignment under `dead_code`.
            lints.add("dead_code");
        }
        Expr::Arith(_, a, b) if is_target(a) || is_target(b) => {
            lints.add("clippy::assign_op_pattern");
            lints.add("clippy::misrefactored_assign_op");
        }
        _ => {}
    }
}

/// The target of the `otherwise` rule that reads flag `k`.
fn fired_target(body: &[Stmt], k: usize) -> Option<usize> {
    body.iter().find_map(|s| match s {
        Stmt::Otherwise { assign, fired } if *fired == k => Some(assign.target),
        Stmt::If { then, .. } => fired_target(then, k),
        _ => None,
    })
}
