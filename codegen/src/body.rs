//! The bodies of `new`, `reset` and `step` on struct fields: the lowered model, statement for statement.

use crate::ast;
use crate::expr::{ExprGen, Storage};
use crate::names::ident;
use crate::plan::{Plan, step_pieces};
use crate::provenance::{Comments, Provenance};
use proc_macro2::{Delimiter, Group, Ident, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};
use sit_lir::Span;
use sit_lir::{self as lower, Assign, FlagUse, Proc, Stmt, Term};
use sit_lir::{ModelId, Ty};
use std::cell::Cell;

mod initial;

/// Generates the bodies of one model's functions.
pub(crate) struct BodyGen<'a, 'c> {
    /// Names and program.
    pub plan: &'a Plan<'a>,
    /// The model.
    pub model: ModelId,
    /// The model, lowered with derived params and conditions read through accessors.
    pub lowered: &'a lower::Model,
    /// Source excerpts.
    pub prov: &'a Provenance<'a>,
    /// The file's comment markers.
    pub comments: &'c mut Comments,
}

/// A generated function body.
pub(crate) struct Body {
    /// The statements.
    pub tokens: TokenStream,
    /// Private methods the function calls (the pieces of a long `step`), or nothing.
    pub methods: TokenStream,
}

/// The local flag of `otherwise` bookkeeping number `k`.
pub(crate) fn fired_ident(k: usize) -> Ident {
    format_ident!("fired_{}", k)
}

impl BodyGen<'_, '_> {
    fn exprs(&self, recv: TokenStream) -> ExprGen<'_> {
        ExprGen {
            plan: self.plan,
            model: self.model,
            recv,
            storage: Storage::Fields,
            count: true,
        }
    }

    fn ir(&self) -> &sit_lir::decl::Model {
        &self.plan.program.models[self.model]
    }

    /// The body of `new()`: a struct literal with the constant defaults, then the
    /// defaults that read params, in declaration order, then `reset()`.
    pub(crate) fn new_body(&mut self) -> Body {
        let m = self.ir();
        let low = self.lowered;
        let names = &self.plan.names[self.model];
        let g = self.exprs(quote!(this));
        let mut inits = Vec::new();
        let mut later = Vec::new();
        // Defaults and initial values in declaration order (states get theirs in reset).
        let mut values: Vec<(usize, &Term, bool)> = Vec::new();
        values.extend(low.defaults.iter().map(|i| (i.var, &i.value, true)));
        values.extend(low.inits.iter().map(|i| (i.var, &i.value, false)));
        values.sort_by_key(|v| v.0);
        for (v, value, is_default) in values {
            let f = ident(&names.vars[v]);
            let zero = match m.vars[v].ty {
                Ty::Real => quote!(0.0),
                Ty::Flag => quote!(false),
            };
            if value.is_constant() {
                let value = g.expr(value);
                inits.push(quote!(#f: #value));
            } else {
                inits.push(quote!(#f: #zero));
                if is_default {
                    let value = g.expr(value);
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
        for md in &low.modes {
            let initial = crate::modes::variant(self.plan, self.model, md.mode, md.initial);
            let f = ident(&names.modes[md.mode]);
            inits.push(quote!(#f: #initial));
            if md.snapshot {
                let s = ident(&names.mode_starts[md.mode]);
                inits.push(quote!(#s: #initial));
            }
        }
        for k in &names.mems {
            let k = ident(k);
            inits.push(quote!(#k: ::sit_runtime::Deriv::new()));
        }
        let time = ident(&names.time);
        inits.push(quote!(#time: 0.0));
        let clock = ident(&names.clock);
        inits.push(quote!(#clock: ::sit_runtime::Clock::new()));
        if names.uses_dt {
            let dt = ident(&names.dt);
            inits.push(quote!(#dt: 0.0));
        }
        if self.plan.reach.is_some() {
            inits.push(crate::reach::init(self.plan, self.model));
        }
        Body {
            tokens: quote! {
                let mut this = Self { #(#inits),* };
                #(#later)*
                this.reset();
                this
            },
            methods: TokenStream::new(),
        }
    }

    /// The statements re-applying a submodel's param bindings and resetting it.
    fn reset_sub(&self, link: &lower::SubLink) -> Vec<syn::Stmt> {
        let names = &self.plan.names[self.model];
        let f = ident(&names.subs[link.sub]);
        let g = self.exprs(quote!(self));
        let sub_names = &self.plan.names[link.model];
        let sub = || ast::field(self_expr(), f.clone());
        let mut out: Vec<syn::Stmt> = link
            .params
            .iter()
            .map(|b| {
                let v = ident(&sub_names.vars[b.var]);
                ast::assign(ast::field(sub(), v), g.ast(&b.value))
            })
            .collect();
        let reset = crate::reach::sub_reset(self.plan, link.model);
        out.push(ast::semi(ast::method(sub(), ident(&reset), [])));
        out
    }

    /// The body of `reset()`, in the order of the lowering.
    pub(crate) fn reset_body(&mut self) -> Body {
        let low = self.lowered;
        let names = &self.plan.names[self.model];
        let mut out = Vec::new();
        for link in &low.subs {
            let stmts = self.reset_sub(link);
            out.push(quote!(#(#stmts)*));
        }
        for link in &low.subs {
            let on = ident(&names.sub_on[link.sub]);
            let initially = link.initially_on;
            out.push(quote!(self.#on = #initially;));
        }
        let g = self.exprs(quote!(self));
        for init in &low.inits {
            let f = ident(&names.vars[init.var]);
            let value = g.expr(&init.value);
            out.push(quote!(self.#f = #value;));
        }
        for k in &names.mems {
            let k = ident(k);
            out.push(quote!(self.#k.reset();));
        }
        let time = ident(&names.time);
        out.push(quote!(self.#time = 0.0;));
        let clock = ident(&names.clock);
        out.push(quote!(self.#clock.reset();));
        if names.uses_dt {
            let dt = ident(&names.dt);
            out.push(quote!(self.#dt = 0.0;));
        }
        for md in &low.modes {
            let initial = crate::modes::variant(self.plan, self.model, md.mode, md.initial);
            let f = ident(&names.modes[md.mode]);
            out.push(quote!(self.#f = #initial;));
        }
        // The initial pass reads every event as false: the values are cleared first.
        let pass = !low.initial.is_empty();
        if pass {
            for ev in &low.events {
                let v = ident(&names.event_fields[ev.event]);
                out.push(quote!(self.#v = false;));
            }
            out.extend(self.initial_pass());
        }
        let g = self.exprs(quote!(self));
        for ev in &low.events {
            let e = ev.event;
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            let cond = g.expr(&ev.cond);
            let clear = (!pass).then(|| quote!(self.#v = false;));
            out.push(quote! {
                #clear
                self.#p = #cond;
            });
        }
        Body {
            tokens: quote!(#(#out)*),
            methods: TokenStream::new(),
        }
    }

    /// The step of a submodel switched on: its input bindings, then its step by `dt`.
    fn step_sub(&self, link: &lower::SubLink, dt: &TokenStream) -> TokenStream {
        let names = &self.plan.names[self.model];
        let f = ident(&names.subs[link.sub]);
        let on = ident(&names.sub_on[link.sub]);
        let sub_names = &self.plan.names[link.model];
        let g = self.exprs(quote!(self));
        let binds: Vec<TokenStream> = link
            .inputs
            .iter()
            .map(|b| {
                let v = ident(&sub_names.vars[b.var]);
                let value = g.expr(&b.value);
                quote!(self.#f.#v = #value;)
            })
            .collect();
        quote! {
            if self.#on {
                #(#binds)*
                self.#f.step(#dt);
            }
        }
    }

    /// The body of `step(dt)`, in the order of the lowering.
    pub(crate) fn step_body(&mut self) -> Body {
        let plan = self.plan;
        let prov = self.prov;
        let m = &plan.program.models[self.model];
        let low = self.lowered;
        let names = &plan.names[self.model];
        let mut out = Vec::new();
        if names.uses_dt {
            let dt = ident(&names.dt);
            out.push(quote!(self.#dt = dt;));
        }
        // 1. Submodels (those not placed by a `step` among the rules): bind inputs, step.
        for link in low.subs.iter().filter(|l| !l.placed) {
            let comment = self.comments.marker(prov.line_note(link.span));
            let step = self.step_sub(link, &quote!(dt));
            out.push(quote! {
                #comment
                #step
            });
        }
        // 2. Events (unless the body evaluates them before each discrete pass).
        for ev in low.events.iter().filter(|_| low.events_at_start) {
            let e = ev.event;
            let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
            let cond = self.exprs(quote!(self)).expr(&ev.cond);
            let comment = self.comments.marker(prov.line_note(ev.span));
            out.push(quote! {
                #comment
                self.#v = ::sit_runtime::rising(#cond, &mut self.#p);
            });
        }
        // 3. The modes' states at the start of the step, for their transitions.
        for md in low.modes.iter().filter(|md| md.snapshot) {
            let (f, s) = (
                ident(&names.modes[md.mode]),
                ident(&names.mode_starts[md.mode]),
            );
            out.push(quote!(self.#s = self.#f;));
        }
        // 4. The rules.
        let pieces = step_pieces(low.body.len());
        let chunked = !names.step_parts.is_empty() && names.step_parts.len() == pieces.len();
        // Chunked: the flags live in one local array, passed to every piece using it.
        let mut slots = vec![None; low.flags.len()];
        let mut initial = Vec::new();
        for (k, slot) in slots.iter_mut().enumerate() {
            let (constant, mutated) = match low.flags[k] {
                FlagUse::Unread => continue,
                FlagUse::AlwaysSet => (true, false),
                FlagUse::Tracked { mutated } => (false, mutated),
            };
            let target = fired_target(&low.body, k)
                .map(|v| m.vars[v].name.clone())
                .unwrap_or_default();
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
            } else if mutated {
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
            for (range, part) in pieces.into_iter().zip(&names.step_parts) {
                let ctx = Flags {
                    slots: Some(&slots),
                    ..Flags::default()
                };
                let rules = self.stmts(&low.body[range], None, &ctx);
                let part = ident(part);
                let dt_arg = if ctx.uses_dt.get() {
                    quote!(dt)
                } else {
                    quote!(_dt)
                };
                let (param, arg) = if ctx.uses_fired.get() {
                    (quote!(, fired: &mut [bool; #n]), quote!(, &mut fired))
                } else {
                    (TokenStream::new(), TokenStream::new())
                };
                out.push(quote!(self.#part(dt #arg);));
                let mut method = quote! {
                    #[inline(never)]
                    fn #part(&mut self, #dt_arg: f64 #param)
                };
                let rules = self.comments.splice(rules);
                method.extend([TokenTree::Group(Group::new(Delimiter::Brace, rules))]);
                methods.push(method);
            }
            let (time, clock) = (ident(&names.time), ident(&names.clock));
            out.push(quote!(self.#time = self.#clock.advance(dt);));
            return Body {
                tokens: out.into_iter().collect(),
                methods: methods.into_iter().collect(),
            };
        }
        let rules = self.stmts(&low.body, None, &Flags::default());
        out.push(self.comments.splice(rules));
        // 4. Time.
        let (time, clock) = (ident(&names.time), ident(&names.clock));
        out.push(quote!(self.#time = self.#clock.advance(dt);));
        Body {
            tokens: out.into_iter().collect(),
            methods: TokenStream::new(),
        }
    }

    /// Statements of the body; `guard` is where the enclosing guard's comment stands.
    fn stmts(&mut self, body: &[Stmt], guard: Option<Guard>, ctx: &Flags<'_>) -> Vec<syn::Stmt> {
        let mut out = Vec::new();
        for s in body {
            self.stmt(s, guard, ctx, &mut out);
        }
        out
    }

    fn where_(&self, span: Span) -> Guard {
        Guard::Line(span.file, self.prov.line(span))
    }

    /// Appends the statements of `s` to `out`.
    fn stmt(&mut self, s: &Stmt, guard: Option<Guard>, ctx: &Flags<'_>, out: &mut Vec<syn::Stmt>) {
        let prov = self.prov;
        let names = &self.plan.names[self.model];
        match s {
            Stmt::Assign(a) => {
                out.push(self.rule_comment(a.span));
                self.assign(a, ctx, out);
            }
            Stmt::Otherwise { assign, fired } => {
                out.push(self.rule_comment(assign.span));
                let mut body = Vec::new();
                self.assign(assign, ctx, &mut body);
                let not = ast::unary(syn::UnOp::Not(Default::default()), ctx.flag(*fired));
                out.push(ast::if_(not, body));
            }
            Stmt::If {
                cond,
                then,
                one_rule,
                span,
            } => {
                out.push(self.comments.marker_stmt(prov.guard_note(s)));
                let cond = self.exprs(quote!(self)).ast(cond);
                let then = if *one_rule {
                    // The rule's comment is already above the `if`.
                    self.stmts_quiet(then, ctx)
                } else {
                    let inner = Some(self.where_(*span));
                    self.stmts(then, inner, ctx)
                };
                out.push(ast::if_(cond, then));
            }
            Stmt::SetFlag { var, value, span } => {
                out.extend(self.action_comment(*span, guard));
                let f = ident(&names.vars[*var]);
                out.push(ast::assign(
                    ast::field(self_expr(), f),
                    ast::bool_lit(*value),
                ));
            }
            Stmt::Switch { sub, on, span } => {
                out.extend(self.action_comment(*span, guard));
                let f = ident(&names.sub_on[*sub]);
                out.push(ast::assign(ast::field(self_expr(), f), ast::bool_lit(*on)));
            }
            Stmt::Reset { sub, span } => {
                out.extend(self.action_comment(*span, guard));
                out.extend(self.reset_sub(&self.lowered.subs[*sub]));
            }
            Stmt::Run { sub, span } => {
                out.extend(self.action_comment(*span, guard));
                let g = self.exprs(quote!(self));
                let phase = lower::find_phase(&self.lowered.phases, *sub)
                    .expect("the lowering gives every `run` its phase");
                let run = crate::phase::run(self.plan, self.model, &g, phase, false);
                out.push(syn::parse_quote!({ #run }));
            }
            Stmt::Step { sub, span } => {
                out.extend(self.action_comment(*span, guard));
                let dt = self
                    .exprs(quote!(self))
                    .expr(&lower::Term::Read(lower::Place {
                        path: Vec::new(),
                        slot: lower::Slot::Dt,
                    }));
                let step = self.step_sub(&self.lowered.subs[*sub], &dt);
                out.push(syn::parse_quote!({ #step }));
            }
            Stmt::SetMode { mode, state, span } => {
                out.extend(self.action_comment(*span, guard));
                let f = ident(&names.modes[*mode]);
                let value = crate::modes::variant(self.plan, self.model, *mode, *state);
                out.push(syn::parse_quote!(self.#f = #value;));
            }
            Stmt::Repeat {
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
                let clear: Vec<syn::Expr> = clear.iter().map(|&k| ctx.flag(k)).collect();
                let count = ident(&names.vars[*count]);
                let time = ident(&names.time);
                let until = self.exprs(quote!(self)).expr(until);
                let model_name = &self.plan.program.models[self.model].name;
                let limit_f = Literal::f64_unsuffixed(*limit as f64);
                let limit = Literal::u64_unsuffixed(*limit);
                let chatter = chatter(*events, names, model_name, TokenStream::new());
                let body = self.stmts(body, None, ctx);
                let at_limit = match at_limit {
                    lower::AtLimit::Fault => quote! {
                        ::sit_runtime::internal_steps_overrun(#model_name, #method, self.#time, #limit);
                    },
                    lower::AtLimit::Leave => quote!(break;),
                };
                // The loop's tail parsed, its body spliced in as trees: parsing the body
                // back from tokens held both forms of a large model's whole step at once.
                let mut looped: syn::Stmt = syn::parse_quote! {
                    loop {
                        #(#clear = false;)*
                        #chatter
                        if #until {
                            break;
                        }
                        if self.#count >= #limit_f {
                            #at_limit
                        }
                    }
                };
                let syn::Stmt::Expr(syn::Expr::Loop(l), _) = &mut looped else {
                    unreachable!("`loop {{ … }}` parses as a loop statement")
                };
                let tail = std::mem::replace(&mut l.body.stmts, body);
                l.body.stmts.extend(tail);
                out.push(looped);
            }
            Stmt::SetDt { value, .. } => {
                let f = ident(&names.dt);
                let value = self.exprs(quote!(self)).expr(value);
                out.push(syn::parse_quote!(self.#f = #value;));
            }
            Stmt::Factor { .. } | Stmt::Solve { .. } | Stmt::Underflow { .. } => {
                let time = ident(&names.time);
                let var = |v: sit_lir::VarId| {
                    let f = ident(&names.vars[v]);
                    quote!(self.#f)
                };
                let model_name = &self.plan.program.models[self.model].name;
                let block = crate::linear::block(s, &var, &quote!(self.#time), model_name)
                    .expect("a linear statement");
                out.push(syn::parse_quote!(#block));
            }
            Stmt::Event(ev) => {
                let e = ev.event;
                let (v, p) = (ident(&names.event_fields[e]), ident(&names.event_prev[e]));
                let cond = self.exprs(quote!(self)).expr(&ev.cond);
                out.push(syn::parse_quote!(self.#v = ::sit_runtime::rising(#cond, &mut self.#p);));
            }
            Stmt::NoteModes { .. } => {
                for md in self.lowered.modes.iter().filter(|md| md.snapshot) {
                    let (f, s) = (
                        ident(&names.modes[md.mode]),
                        ident(&names.mode_starts[md.mode]),
                    );
                    out.push(syn::parse_quote!(self.#s = self.#f;));
                }
            }
        }
    }

    /// The statements of a guard written on one rule, whose comment is above the `if`.
    fn stmts_quiet(&mut self, body: &[Stmt], ctx: &Flags<'_>) -> Vec<syn::Stmt> {
        let mut out = Vec::new();
        for s in body {
            match s {
                Stmt::Assign(a) => self.assign(a, ctx, &mut out),
                other => self.stmt(other, Some(Guard::Above), ctx, &mut out),
            }
        }
        out
    }

    /// `// hoop.sit:12: Fy = k_press * defl when braking;`
    fn rule_comment(&mut self, span: Span) -> syn::Stmt {
        self.comments.marker_stmt(self.prov.rule_note(span))
    }

    /// A comment for a σ action, unless it is on the line of its guard.
    fn action_comment(&mut self, span: Span, guard: Option<Guard>) -> Option<syn::Stmt> {
        if guard == Some(Guard::Above) || guard == Some(self.where_(span)) {
            return None;
        }
        Some(self.comments.marker_stmt(self.prov.line_note(span)))
    }

    /// `self.y = <rhs>;` and the `otherwise` bookkeeping, when a later rule reads it.
    fn assign(&mut self, a: &Assign, ctx: &Flags<'_>, out: &mut Vec<syn::Stmt>) {
        let names = &self.plan.names[self.model];
        let y = ident(&names.vars[a.target]);
        let g = self.exprs(quote!(self));
        let target = ast::field(self_expr(), y);
        let field_dt = names
            .sets_dt
            .then(|| ast::field(self_expr(), ident(&names.dt)));
        let rhs = call(
            a,
            &g,
            target.clone(),
            |mem| ast::field(self_expr(), ident(&names.mems[mem])),
            field_dt.clone(),
        );
        if a.proc.takes_dt() && field_dt.is_none() {
            ctx.uses_dt.set(true);
        }
        out.push(ast::assign(target, rhs));
        if let Some(k) = a.sets {
            out.push(ast::assign(ctx.flag(k), ast::bool_lit(true)));
        }
    }
}

/// `self`.
fn self_expr() -> syn::Expr {
    ast::path(false, &["self"])
}

/// The value of a δ rule: its procedure called on its operands, the target read as
/// `y` and the memory of a `deriv` rule as `memory(mem)`.
///
/// The procedures read `dt`, the step's argument, or `field_dt` when the step writes
/// its `dt` (`Stmt::SetDt`).
pub(crate) fn call(
    a: &Assign,
    g: &ExprGen<'_>,
    y: syn::Expr,
    memory: impl Fn(usize) -> syn::Expr,
    field_dt: Option<syn::Expr>,
) -> syn::Expr {
    let mut operands = a.operands.iter().map(|x| g.ast(x));
    let dt = || {
        field_dt
            .clone()
            .unwrap_or_else(|| ast::path(false, &["dt"]))
    };
    match (a.proc, a.proc.runtime()) {
        (Proc::Deriv { mem }, _) => {
            ast::method(memory(mem), ast::id("next"), operands.chain([dt()]))
        }
        (_, Some(f)) => {
            let f = ast::path_of(true, [ast::id("sit_runtime"), ident(f)]);
            let y = a.proc.reads_target().then_some(y);
            let dt = a.proc.takes_dt().then(dt);
            ast::call(f, y.into_iter().chain(operands).chain(dt))
        }
        // The lowering gives a plain expression exactly one operand.
        (_, None) => operands.next().expect("a plain expression has one operand"),
    }
}

/// The check after each run of a loop that locates events: past its bound of events,
/// `sit_runtime::events_overrun` (`at` is `[i]` on a batch's lane, else empty).
pub(crate) fn chatter(
    events: Option<(usize, u64)>,
    names: &crate::plan::ModelNames,
    model_name: &str,
    at: TokenStream,
) -> Option<TokenStream> {
    let (e, most) = events?;
    let (e, time) = (ident(&names.vars[e]), ident(&names.time));
    let most_f = Literal::f64_unsuffixed(most as f64);
    let most = Literal::u64_unsuffixed(most);
    Some(quote! {
        if self.#e #at > #most_f {
            ::sit_runtime::events_overrun(#model_name, self.#time #at, #most);
        }
    })
}

/// Where the comment of an enclosing guard stands, so that a σ action on the same line
/// gets none of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guard {
    /// On this line of this file.
    Line(usize, usize),
    /// Above the `if`: the guard was written on one rule.
    Above,
}

/// Where the `otherwise` flags of `step` live, and which locals the rules generated
/// with it use (a piece of a chunked `step` takes `dt` and `fired` only if it uses them).
#[derive(Default)]
struct Flags<'u> {
    /// In a chunked `step`, each flag's slot in the array `fired`; `None` for locals.
    slots: Option<&'u [Option<usize>]>,
    /// Whether a rule calls its procedure with the local `dt`.
    uses_dt: Cell<bool>,
    /// Whether a rule reads or sets a flag of the array `fired`.
    uses_fired: Cell<bool>,
}

impl Flags<'_> {
    /// The place of flag `k`: the local `fired_k`, or `fired[j]` in a chunked `step`.
    fn flag(&self, k: usize) -> syn::Expr {
        match self.slots {
            Some(slots) => {
                self.uses_fired.set(true);
                let j = slots.get(k).copied().flatten().unwrap_or(0);
                ast::index(ast::path(false, &["fired"]), ast::usize_lit(j))
            }
            None => ast::path_of(false, [fired_ident(k)]),
        }
    }
}

/// The target of the `otherwise` rule that reads flag `k`.
fn fired_target(body: &[Stmt], k: usize) -> Option<usize> {
    let mut target = None;
    sit_lir::walk(body, &mut |s| match s {
        Stmt::Otherwise { assign, fired } if *fired == k && target.is_none() => {
            target = Some(assign.target);
        }
        _ => {}
    });
    target
}
