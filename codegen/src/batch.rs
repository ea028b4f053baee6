//! Lane storage for the lowered step: `NameBatch<const N: usize>`, N instances stepped at once.
//!
//! Structure of arrays: every field of the scalar struct becomes an array of N lanes (a
//! submodel becomes the batch of its model), and `step` is one loop over the lanes whose
//! body, `step_lane`, is the scalar step of lane `i` written without branches where it
//! can be, which the compiler vectorises. The lanes share nothing, so each lane gets
//! exactly the scalar step. Guards become masks (`bool` locals, evaluated once per guard,
//! ANDed with the enclosing mask), and a guarded rule becomes a select: its right-hand
//! side is computed on every lane (expressions and the dynamic links are pure functions of
//! their operands, so the unused results change nothing) and stored only where the mask
//! holds; σ actions on flags and `on` switches are `|=`/`&=` with the mask. What changes
//! more than the target runs under a real branch: a `deriv` rule (it updates a hidden
//! memory), a submodel's step (under its `on` flag) and `reset(sub)`; a model with them is
//! not vectorised.
//!
//! One loop over the whole body, rather than one loop per rule, keeps each lane's values
//! in registers between rules: on VanDerPol it halves the memory traffic. Derived params
//! and conditions are inlined where they are read (`sit_lir::Reads::Inline`: the
//! same tree, so the same operations in the same order). Reset and the conversions to and
//! from the scalar model go lane by lane through the scalar struct's own `reset`. The
//! clocks: while every lane's clock is lane 0's (a private flag), `step` advances lane
//! 0's alone after the rules of every lane and gives its time to all of them, since a
//! per-lane `Clock::advance` (a division and a branch) kept the loop scalar.

use crate::ast;
use crate::body::{call, fired_ident};
use crate::expr::{ExprGen, Prec, Storage};
use crate::items::allowance;
use crate::names::{ident, is_camel_case};
use crate::plan::Plan;
use crate::provenance::{Comments, Provenance};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};
use sit_lir::{self as lower, Assign, FlagUse, Reads, Stmt};
use sit_lir::{ModelId, Ty, VarKind};

/// The name of the batch struct of a model whose struct is `ty`, unique among `taken`.
pub(crate) fn batch_name(ty: &str, taken: &[String]) -> String {
    let mut name = format!("{}Batch", ty.strip_prefix("r#").unwrap_or(ty));
    while taken.contains(&name) {
        name.push('_');
    }
    name
}

/// The batch struct's name of model `id`.
fn batch_ident(plan: &Plan<'_>, id: ModelId) -> (Ident, String) {
    // Every type of the module: the models' structs and their modes' enums.
    let types: Vec<String> = plan
        .names
        .iter()
        .flat_map(|n| std::iter::once(&n.ty).chain(&n.mode_types))
        .cloned()
        .collect();
    let spelling = batch_name(&plan.names[id].ty, &types);
    (ident(&spelling), spelling)
}

/// Every item of the batch form of model `id`.
pub(crate) fn batch_items(
    plan: &Plan<'_>,
    id: ModelId,
    prov: &Provenance<'_>,
    comments: &mut Comments,
) -> Result<TokenStream, lower::LowerError> {
    let m = &plan.program.models[id];
    let lowered = plan.lowered.model(id, Reads::Inline)?;
    let names = &plan.names[id];
    let (batch, batch_spelling) = batch_ident(plan, id);
    let ty = ident(&names.ty);

    // Fields, as (identifier, lanes type, public, doc, submodel).
    let mut fields: Vec<(Ident, TokenStream, bool, String, bool)> = Vec::new();
    let array = |elem: TokenStream| quote!([#elem; N]);
    for (i, v) in m.vars.iter().enumerate() {
        if v.is_derived() {
            continue;
        }
        let elem = match v.ty {
            Ty::Real => quote!(f64),
            Ty::Flag => quote!(bool),
        };
        let what = match v.kind {
            VarKind::Param { .. } => "param",
            VarKind::Input => "input",
            VarKind::State => "state",
        };
        let doc = format!("The {what} `{}` of every lane.", v.name);
        fields.push((ident(&names.vars[i]), array(elem), true, doc, false));
    }
    for (s, sub) in m.subs.iter().enumerate() {
        let (sub_batch, _) = batch_ident(plan, sub.model);
        let doc = format!("The submodel `{}` of every lane.", sub.name);
        fields.push((
            ident(&names.subs[s]),
            quote!(#sub_batch<N>),
            true,
            doc,
            true,
        ));
        let doc = format!("Whether `{}` is switched on, per lane.", sub.name);
        fields.push((
            ident(&names.sub_on[s]),
            array(quote!(bool)),
            true,
            doc,
            false,
        ));
    }
    for (e, ev) in m.events.iter().enumerate() {
        let doc = format!("Value of event `{}` in this step, per lane.", ev.name);
        let value = (ident(&names.event_fields[e]), array(quote!(bool)));
        fields.push((value.0, value.1, false, doc, false));
        let doc = format!(
            "Value of the condition of `{}` in the previous step, per lane.",
            ev.name
        );
        let prev = (ident(&names.event_prev[e]), array(quote!(bool)));
        fields.push((prev.0, prev.1, false, doc, false));
    }
    for (k, mode) in m.modes.iter().enumerate() {
        let mty = ident(&names.mode_types[k]);
        let doc = format!("The mode `{}` of every lane.", mode.name);
        fields.push((
            ident(&names.modes[k]),
            array(quote!(#mty)),
            true,
            doc,
            false,
        ));
        if lowered.modes[k].snapshot {
            let doc = format!(
                "State of `{}` at the start of the step, per lane.",
                mode.name
            );
            let f = ident(&names.mode_starts[k]);
            fields.push((f, array(quote!(#mty)), false, doc, false));
        }
    }
    for k in &names.mems {
        let doc = "Memory of a `deriv` rule, per lane.".to_string();
        let elem = array(quote!(::sit_runtime::Deriv));
        fields.push((ident(k), elem, false, doc, false));
    }
    if let Some(registry) = &plan.reach {
        let k = proc_macro2::Literal::usize_unsuffixed(registry.of(id).len());
        let doc = "The reads of each table since the last reset, per lane.".to_string();
        let elem = array(quote!([::sit_runtime::table::TableReach; #k]));
        fields.push((ident(&names.reach.field), elem, false, doc, false));
    }
    let doc = "The clock of every lane.".to_string();
    fields.push((ident(&names.time), array(quote!(f64)), false, doc, false));
    let doc = "What computes the clock of every lane (`sit_runtime::Clock`).".to_string();
    let elem = array(quote!(::sit_runtime::Clock));
    fields.push((ident(&names.clock), elem, false, doc, false));
    if names.uses_dt {
        let doc = "Length of the last step, per lane.".to_string();
        fields.push((ident(&names.dt), array(quote!(f64)), false, doc, false));
    }

    let shared_doc = " Whether every lane's clock is lane 0's (only lane 0's is advanced then).";
    let shared_ident = ident(&names.clock_shared);
    let decls = fields
        .iter()
        .map(|(f, ty, public, doc, _)| {
            let vis = if *public { quote!(pub) } else { quote!() };
            let doc = format!(" {doc}");
            quote!(#[doc = #doc] #vis #f: #ty,)
        })
        .chain(std::iter::once(
            quote!(#[doc = #shared_doc] #shared_ident: bool,),
        ));
    let splat = fields
        .iter()
        .map(|(f, ty, _, _, sub)| match sub {
            true => quote!(#f: <#ty>::splat(&m.#f),),
            false => quote!(#f: [m.#f; N],),
        })
        .chain(std::iter::once(quote!(#shared_ident: true,)));
    let clock_field = ident(&names.clock);
    let shared_field = ident(&names.clock_shared);
    let load = fields.iter().map(|(f, _, _, _, sub)| match sub {
        true => quote!(#f: self.#f.load(i),),
        // Lane 0's clock while the clocks are shared (see `advance_clocks`).
        false if *f == clock_field => {
            quote!(#f: if self.#shared_field { self.#f[0] } else { self.#f[i] },)
        }
        false => quote!(#f: self.#f[i],),
    });
    let store = std::iter::once(quote!(self.unshare_clocks();)).chain(fields.iter().map(
        |(f, _, _, _, sub)| match sub {
            true => quote!(self.#f.store(i, &m.#f);),
            false => quote!(self.#f[i] = m.#f;),
        },
    ));

    let mut steps = StepGen {
        g: ExprGen {
            plan,
            model: id,
            recv: quote!(self),
            storage: Storage::Lanes,
            count: true,
        },
        lowered: &lowered,
        prov,
        comments,
        masks: 0,
    };
    let rules = steps.step_rules();
    let (time, clock) = (ident(&names.time), ident(&names.clock));
    let shared = ident(&names.clock_shared);
    let advance = quote!(self.#time[i] = self.#clock[i].advance(dt););
    // The clocks: while every lane's clock is lane 0's (`#shared`, true after `splat`,
    // found again by `step` after a lane was stored), `step` advances lane 0's alone and
    // gives its time to every lane, rather than a division and a branch per lane that
    // keep the loop over the lanes scalar; the other lanes' clocks are then stale, so
    // `load` reads lane 0's and whatever writes or advances one lane (`store`,
    // `step_lane`) first copies lane 0's clock to every lane (`unshare_clocks`).
    // A model that divides its step: `step_lane` is the wrapper, per lane, and `step`
    // steps each lane through it.
    let (step, step_once, step_all) = match &lowered.substeps {
        None => (
            quote! {
                self.step_rules(i, dt);
                #advance
            },
            quote! {
                // A model whose rules do not read `dt` leaves it to the clock.
                #[inline(always)]
                #[allow(unused_variables)]
                fn step_rules(&mut self, i: usize, dt: f64) {
                    #rules
                }
            },
            quote! {
                for i in 0..N {
                    self.step_rules(i, dt);
                }
                self.advance_clocks(dt);
            },
        ),
        Some(link) => (
            crate::substep::step(plan, id, &steps.g, link, true),
            quote! {
                #[inline(always)]
                fn step_lane_once(&mut self, i: usize, dt: f64) {
                    #rules
                    #advance
                }
            },
            quote! {
                self.unshare_clocks();
                for i in 0..N {
                    self.step_lane(i, dt);
                }
            },
        ),
    };

    // Counting table reads: `reset(sub)` keeps the lane's counts (see `reach`).
    let reset_kept = plan.reach.as_ref().map(|_| {
        let kept = ident(&names.reach.reset_kept);
        quote! {
            #[doc = " `reset_lane` keeping the lane's table reads (`reset(sub)`)."]
            fn reset_lane_keeping_table_reach(&mut self, i: usize) {
                let mut m = self.load(i);
                m.#kept();
                self.store(i, &m);
            }
        }
    });
    let mut allows = allowance();
    let snake = fields
        .iter()
        .any(|(f, ..)| !crate::names::is_snake_case(&f.to_string()));
    if snake {
        allows.extend(quote!(#[allow(non_snake_case)]));
    }
    if !is_camel_case(&batch_spelling) {
        allows.extend(quote!(#[allow(non_camel_case_types)]));
    }
    let name = &m.name;
    let struct_doc =
        format!(" `N` instances of `{name}` in structure-of-arrays form, stepped at once (see");
    let struct_doc2 = format!(
        " [`{}`] for one instance). Lane `i` of a field is instance `i`'s value; `step` gives",
        names.ty.strip_prefix("r#").unwrap_or(&names.ty)
    );
    Ok(quote! {
        #[doc = #struct_doc]
        #[doc = #struct_doc2]
        #[doc = " every lane exactly the values of the scalar `step`."]
        #[derive(Debug, Clone)]
        #allows
        pub struct #batch<const N: usize> {
            #(#decls)*
        }

        #allows
        #[allow(dead_code)]
        impl<const N: usize> #batch<N> {
            #[doc = " N instances, each as `new()` of the scalar model makes it."]
            pub fn new() -> Self {
                Self::splat(&#ty::new())
            }

            #[doc = " N copies of `m`."]
            pub fn splat(m: &#ty) -> Self {
                Self { #(#splat)* }
            }

            #[doc = " Lane `i` as a scalar model (`None` if `i >= N`)."]
            pub fn lane(&self, i: usize) -> Option<#ty> {
                if i < N { Some(self.load(i)) } else { None }
            }

            #[doc = " Replaces lane `i` by `m`; `false` (and no change) if `i >= N`."]
            #[must_use]
            pub fn set_lane(&mut self, i: usize, m: &#ty) -> bool {
                if i < N {
                    self.store(i, m);
                    true
                } else {
                    false
                }
            }

            #[doc = " The value of the variable called `name` in lane `lane` (see"]
            #[doc = " `sit_runtime::Model::get`); `None` if there is no such lane or variable."]
            pub fn get(&self, lane: usize, name: &str) -> Option<f64> {
                ::sit_runtime::Model::get(&self.lane(lane)?, name)
            }

            #[doc = " Sets the variable called `name` in lane `lane` (see"]
            #[doc = " `sit_runtime::Model::set`); `None` (and no change) if `lane >= N`."]
            pub fn set<'n>(
                &mut self,
                lane: usize,
                name: &'n str,
                value: f64,
            ) -> Option<Result<(), ::sit_runtime::SetError<'n>>> {
                let mut m = self.lane(lane)?;
                let r = ::sit_runtime::Model::set(&mut m, name, value);
                if r.is_ok() {
                    self.store(lane, &m);
                }
                Some(r)
            }

            #[doc = " The model time of every lane."]
            pub fn times(&self) -> &[f64; N] {
                &self.time
            }

            #[doc = " Resets every lane, as the scalar `reset` does; params and inputs keep"]
            #[doc = " their values."]
            pub fn reset(&mut self) {
                for i in 0..N {
                    self.reset_lane(i);
                }
            }

            #[doc = " Advances every lane by one step of `dt`, exactly as the scalar `step`"]
            #[doc = " advances each instance."]
            pub fn step(&mut self, dt: f64) {
                #step_all
            }

            #[inline(always)]
            fn step_lane(&mut self, i: usize, dt: f64) {
                self.unshare_clocks();
                #step
            }

            #[doc = " Every lane's clock advanced by `dt`: lane 0's alone while they are all"]
            #[doc = " lane 0's (a clock is a function of its state and `dt`), else each."]
            fn advance_clocks(&mut self, dt: f64) {
                if N == 0 {
                    return;
                }
                if !self.#shared {
                    let bits = |c: &::sit_runtime::Clock| {
                        let (a, b, c) = c.state();
                        (a.to_bits(), b.to_bits(), c.to_bits())
                    };
                    let (first, key) = (self.#clock[0], bits(&self.#clock[0]));
                    self.#shared = self.#clock.iter().all(|c| *c == first && bits(c) == key);
                }
                if self.#shared {
                    let t = self.#clock[0].advance(dt);
                    self.#time = [t; N];
                } else {
                    for i in 0..N {
                        #advance
                    }
                }
            }

            #[doc = " Makes every lane's clock its own again (see `advance_clocks`)."]
            #[inline(always)]
            fn unshare_clocks(&mut self) {
                if self.#shared {
                    self.#clock = [self.#clock[0]; N];
                    self.#shared = false;
                }
            }

            #step_once

            fn reset_lane(&mut self, i: usize) {
                let mut m = self.load(i);
                m.reset();
                self.store(i, &m);
            }

            #reset_kept

            fn load(&self, i: usize) -> #ty {
                #ty { #(#load)* }
            }

            fn store(&mut self, i: usize, m: &#ty) {
                #(#store)*
            }
        }

        #allows
        impl<const N: usize> ::core::default::Default for #batch<N> {
            fn default() -> Self {
                Self::new()
            }
        }
    })
}

/// Generates the `step_lane` of one model.
struct StepGen<'a, 'c> {
    g: ExprGen<'a>,
    lowered: &'a lower::Model,
    prov: &'a Provenance<'a>,
    comments: &'c mut Comments,
    /// Number of mask locals made so far.
    masks: usize,
}

impl StepGen<'_, '_> {
    /// The step of lane `i` of a submodel switched on: its input bindings, then its step
    /// by `dt`.
    fn step_sub(&self, link: &lower::SubLink, dt: &TokenStream) -> TokenStream {
        let names = &self.g.plan.names[self.g.model];
        let f = ident(&names.subs[link.sub]);
        let on = ident(&names.sub_on[link.sub]);
        let binds = self.binds(link, &link.inputs);
        quote! {
            if self.#on[i] {
                #binds
                self.#f.step_lane(i, #dt);
            }
        }
    }

    /// The step of lane `i`, in the order of the lowering, without the clock's advance.
    fn step_rules(&mut self) -> TokenStream {
        let plan = self.g.plan;
        let low = self.lowered;
        let names = &plan.names[self.g.model];
        let mut out = Vec::new();
        if names.uses_dt {
            let f = ident(&names.dt);
            out.push(quote!(self.#f[i] = dt;));
        }
        for link in low.subs.iter().filter(|l| !l.placed) {
            let c = self.comment(link.span, true);
            let step = self.step_sub(link, &quote!(dt));
            out.push(quote! {
                #c
                #step
            });
        }
        for ev in low.events.iter().filter(|_| low.events_at_start) {
            let (v, p) = (
                ident(&names.event_fields[ev.event]),
                ident(&names.event_prev[ev.event]),
            );
            let cond = self.g.expr(&ev.cond);
            let c = self.comment(ev.span, true);
            out.push(quote! {
                #c
                self.#v[i] = ::sit_runtime::rising(#cond, &mut self.#p[i]);
            });
        }
        for md in low.modes.iter().filter(|md| md.snapshot) {
            let (f, s) = (
                ident(&names.modes[md.mode]),
                ident(&names.mode_starts[md.mode]),
            );
            out.push(quote!(self.#s[i] = self.#f[i];));
        }
        for (k, flag) in low.flags.iter().enumerate() {
            let f = fired_ident(k);
            out.push(match flag {
                FlagUse::Unread => continue,
                FlagUse::AlwaysSet => quote!(let #f = true;),
                FlagUse::Tracked { mutated: true } => quote!(let mut #f = false;),
                FlagUse::Tracked { mutated: false } => quote!(let #f = false;),
            });
        }
        out.push(self.stmts(&low.body, None));
        quote!(#(#out)*)
    }

    /// `self.sub.var[i] = value;` for each binding of `link` in `list`.
    fn binds(&self, link: &lower::SubLink, list: &[lower::Init]) -> TokenStream {
        let f = ident(&self.g.plan.names[self.g.model].subs[link.sub]);
        let sub_names = &self.g.plan.names[link.model];
        let binds = list.iter().map(|b| {
            let v = ident(&sub_names.vars[b.var]);
            let value = self.g.expr(&b.value);
            quote!(self.#f.#v[i] = #value;)
        });
        quote!(#(#binds)*)
    }

    fn comment(&mut self, span: sit_lir::Span, whole_line: bool) -> TokenStream {
        let text = if whole_line {
            self.prov.line_note(span)
        } else {
            self.prov.rule_note(span)
        };
        self.comments.marker(text)
    }

    fn stmts(&mut self, body: &[Stmt], mask: Option<&Ident>) -> TokenStream {
        let out: Vec<TokenStream> = body.iter().map(|s| self.stmt(s, mask)).collect();
        quote!(#(#out)*)
    }

    /// A new mask local `mask_K` of lane `i`: `outer & cond` (or `cond`), or `outer &&
    /// cond` when `lazy` (the condition reads a table whose reads are counted: it is
    /// evaluated only where the outer mask holds, as in the scalar step; see `reach`).
    fn new_mask(
        &mut self,
        outer: Option<&Ident>,
        cond: TokenStream,
        lazy: bool,
    ) -> (Ident, TokenStream) {
        let g = format_ident!("mask_{}", self.masks);
        self.masks += 1;
        let value = match outer {
            Some(o) if lazy => quote!(#o && #cond),
            Some(o) => quote!(#o & #cond),
            None => cond,
        };
        let tokens = quote!(let #g = #value;);
        (g, tokens)
    }

    /// `flag = value` on the lanes of `mask`.
    fn set_flag(place: TokenStream, value: bool, mask: Option<&Ident>) -> TokenStream {
        match (mask, value) {
            (None, v) => quote!(#place = #v;),
            (Some(g), true) => quote!(#place |= #g;),
            (Some(g), false) => quote!(#place &= !#g;),
        }
    }

    fn stmt(&mut self, s: &Stmt, mask: Option<&Ident>) -> TokenStream {
        let names = &self.g.plan.names[self.g.model];
        match s {
            Stmt::Assign(a) => {
                let c = self.comment(a.span, false);
                let body = self.assign(a, mask);
                quote!(#c #body)
            }
            Stmt::Otherwise { assign, fired } => {
                let c = self.comment(assign.span, false);
                let f = fired_ident(*fired);
                let (g, decl) = self.new_mask(mask, quote!(!#f), false);
                let body = self.assign(assign, Some(&g));
                quote!(#c #decl #body)
            }
            Stmt::If {
                cond,
                then,
                one_rule,
                ..
            } => {
                // `x = e when c;`: one comment, the rule's, above the guard.
                let c = self.comments.marker(self.prov.guard_note(s));
                let lazy = self.g.counts() && crate::reach::reads_table(cond);
                let (cond, prec) = self.g.lower(cond);
                let cond = if mask.is_some() && prec < Prec::BitAnd {
                    quote!((#cond))
                } else {
                    cond
                };
                let (g, decl) = self.new_mask(mask, cond, lazy);
                let then = match (one_rule, then.as_slice()) {
                    (true, [Stmt::Assign(a)]) => self.assign(a, Some(&g)),
                    _ => self.stmts(then, Some(&g)),
                };
                quote!(#c #decl #then)
            }
            Stmt::SetFlag { var, value, .. } => {
                let f = ident(&names.vars[*var]);
                Self::set_flag(quote!(self.#f[i]), *value, mask)
            }
            Stmt::Switch { sub, on, .. } => {
                let f = ident(&names.sub_on[*sub]);
                Self::set_flag(quote!(self.#f[i]), *on, mask)
            }
            Stmt::SetMode { mode, state, .. } => {
                let f = ident(&names.modes[*mode]);
                let v = crate::modes::variant(self.g.plan, self.g.model, *mode, *state);
                match mask {
                    None => quote!(self.#f[i] = #v;),
                    Some(g) => quote!(self.#f[i] = if #g { #v } else { self.#f[i] };),
                }
            }
            Stmt::Step { sub, .. } => {
                let dt = self.g.expr(&lower::Term::Read(lower::Place {
                    path: Vec::new(),
                    slot: lower::Slot::Dt,
                }));
                let step = self.step_sub(&self.lowered.subs[*sub], &dt);
                match mask {
                    None => step,
                    Some(g) => quote! {
                        if #g {
                            #step
                        }
                    },
                }
            }
            Stmt::Reset { sub, .. } => {
                let link = &self.lowered.subs[*sub];
                let f = ident(&names.subs[*sub]);
                let binds = self.binds(link, &link.params);
                let reset_lane = match self.g.counts() {
                    true => quote!(reset_lane_keeping_table_reach),
                    false => quote!(reset_lane),
                };
                let reset = quote! {
                    #binds
                    self.#f.#reset_lane(i);
                };
                match mask {
                    None => reset,
                    Some(g) => quote! {
                        if #g {
                            #reset
                        }
                    },
                }
            }
            Stmt::Run { sub, .. } => {
                let phase = lower::find_phase(&self.lowered.phases, *sub)
                    .expect("the lowering gives every `run` its phase");
                let run = crate::phase::run(self.g.plan, self.g.model, &self.g, phase, true);
                match mask {
                    None => quote!({ #run }),
                    Some(g) => quote! {
                        if #g {
                            #run
                        }
                    },
                }
            }
            // The loop of an adaptive method, on this lane: its own number of runs.
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
                let clear = clear.iter().map(|&k| fired_ident(k));
                let count = ident(&names.vars[*count]);
                let time = ident(&names.time);
                let until = self.g.expr(until);
                let model_name = &self.g.plan.program.models[self.g.model].name;
                let limit_f = proc_macro2::Literal::f64_unsuffixed(*limit as f64);
                let limit = proc_macro2::Literal::u64_unsuffixed(*limit);
                let chatter = crate::body::chatter(*events, names, model_name, quote!([i]));
                let body = self.stmts(body, None);
                let at_limit = match at_limit {
                    lower::AtLimit::Fault => quote! {
                        ::sit_runtime::internal_steps_overrun(#model_name, #method, self.#time[i], #limit);
                    },
                    lower::AtLimit::Leave => quote!(break;),
                };
                let run = quote! {
                    loop {
                        #body
                        #(#clear = false;)*
                        #chatter
                        if #until {
                            break;
                        }
                        if self.#count[i] >= #limit_f {
                            #at_limit
                        }
                    }
                };
                match mask {
                    None => run,
                    Some(g) => quote! {
                        if #g {
                            #run
                        }
                    },
                }
            }
            Stmt::Factor { .. } | Stmt::Solve { .. } | Stmt::Underflow { .. } => {
                let time = ident(&names.time);
                let var = |v: sit_lir::VarId| {
                    let f = ident(&names.vars[v]);
                    quote!(self.#f[i])
                };
                let model_name = &self.g.plan.program.models[self.g.model].name;
                let run = crate::linear::block(s, &var, &quote!(self.#time[i]), model_name)
                    .expect("a linear statement");
                match mask {
                    None => run,
                    Some(g) => quote! {
                        if #g {
                            #run
                        }
                    },
                }
            }
            Stmt::NoteModes { .. } => {
                let notes = self
                    .lowered
                    .modes
                    .iter()
                    .filter(|md| md.snapshot)
                    .map(|md| {
                        let (f, s) = (
                            ident(&names.modes[md.mode]),
                            ident(&names.mode_starts[md.mode]),
                        );
                        quote!(self.#s[i] = self.#f[i];)
                    });
                let notes = quote!(#(#notes)*);
                match mask {
                    None => notes,
                    Some(g) => quote! {
                        if #g {
                            #notes
                        }
                    },
                }
            }
            Stmt::Event(ev) => {
                let (v, p) = (
                    ident(&names.event_fields[ev.event]),
                    ident(&names.event_prev[ev.event]),
                );
                let cond = self.g.expr(&ev.cond);
                let update = quote!(self.#v[i] = ::sit_runtime::rising(#cond, &mut self.#p[i]););
                match mask {
                    None => update,
                    Some(g) => quote! {
                        if #g {
                            #update
                        }
                    },
                }
            }
            Stmt::SetDt { value, .. } => {
                let f = ident(&names.dt);
                let v = self.g.expr(value);
                match mask {
                    None => quote!(self.#f[i] = #v;),
                    Some(g) => quote! {
                        if #g {
                            self.#f[i] = #v;
                        }
                    },
                }
            }
        }
    }

    /// One δ rule over the lanes of `mask` (all lanes when `None`).
    fn assign(&mut self, a: &Assign, mask: Option<&Ident>) -> TokenStream {
        let names = &self.g.plan.names[self.g.model];
        let y = ident(&names.vars[a.target]);
        let lane = |f| {
            let field = ast::field(ast::path(false, &["self"]), f);
            ast::index(field, ast::path(false, &["i"]))
        };
        let field_dt = names.sets_dt.then(|| lane(ident(&names.dt)));
        let rhs = call(
            a,
            &self.g,
            lane(y.clone()),
            |mem| lane(ident(&names.mems[mem])),
            field_dt,
        );
        let rhs = rhs.into_token_stream();
        // Counting table reads, a guarded rule that reads a table runs under a branch:
        // its reads are those of the lanes where the guard holds, as in the scalar step.
        let branch = a.proc.has_memory()
            || (self.g.counts() && a.operands.iter().any(crate::reach::reads_table));
        let body = match (mask, branch) {
            (None, _) => quote!(self.#y[i] = #rhs;),
            // The memory may change only where the rule runs (or the rule's table reads
            // are counted): a real branch.
            (Some(g), true) => quote! {
                if #g {
                    self.#y[i] = #rhs;
                }
            },
            // Pure: compute on every lane, keep where the mask holds.
            (Some(g), false) => quote! {
                let next = #rhs;
                self.#y[i] = if #g { next } else { self.#y[i] };
            },
        };
        let fired = match a.sets {
            Some(k) => {
                let f = fired_ident(k);
                match mask {
                    None => quote!(#f = true;),
                    Some(g) => quote!(#f |= #g;),
                }
            }
            None => TokenStream::new(),
        };
        quote!(#body #fired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_avoid_other_models() {
        let taken = vec!["Hoop".to_string(), "HoopBatch".to_string()];
        assert_eq!(batch_name("Hoop", &taken), "HoopBatch_");
        assert_eq!(batch_name("r#fn", &taken), "fnBatch");
    }
}
