//! The items of one model: its struct, inherent impl, `Default` and `sit_runtime::Model`.

use crate::body::BodyGen;
use crate::expr::{ExprGen, Storage};
use crate::names::{ident, is_camel_case, is_snake_case};
use crate::plan::Plan;
use crate::provenance::{Comments, Provenance, doc, docs, not_links};
use crate::table::table;
use proc_macro2::TokenStream;
use quote::quote;
use sit_lir::{self as lower, Defined, Reads};
use sit_lir::{ModelId, Ty};

/// `#[allow(non_snake_case)]` when one of `idents` needs it.
fn snake_allow<'s>(idents: impl IntoIterator<Item = &'s String>) -> TokenStream {
    if idents.into_iter().all(|i| is_snake_case(i)) {
        TokenStream::new()
    } else {
        quote!(#[allow(non_snake_case)])
    }
}

/// The one lint allowance of generated code, on every generated item: the code is
/// exact, not idiomatic (see `docs/codegen.md`, "Warnings").
pub(crate) fn allowance() -> TokenStream {
    quote! {
        #[allow(clippy::all, clippy::pedantic, reason = "generated: exact, not idiomatic")]
    }
}

/// `e` as the tail of a function body: in parentheses when it starts with a block
/// without being one (`{ …lookup… } > 2.5`, a table read first in a condition), which
/// at the start of a statement would end at the block.
fn tail(e: syn::Expr) -> TokenStream {
    fn leads_with_block(e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Block(_) => true,
            syn::Expr::Binary(b) => leads_with_block(&b.left),
            syn::Expr::MethodCall(m) => leads_with_block(&m.receiver),
            syn::Expr::Field(f) => leads_with_block(&f.base),
            syn::Expr::Index(i) => leads_with_block(&i.expr),
            syn::Expr::Cast(c) => leads_with_block(&c.expr),
            _ => false,
        }
    }
    if leads_with_block(&e) && !matches!(e, syn::Expr::Block(_)) {
        quote!((#e))
    } else {
        quote!(#e)
    }
}

/// Every item of model `id`.
pub(crate) fn model_items(
    plan: &Plan<'_>,
    id: ModelId,
    prov: &Provenance<'_>,
    comments: &mut Comments,
) -> Result<TokenStream, lower::LowerError> {
    // Counting table reads: derived params and conditions inlined where the step reads
    // them, as the interpreter does, so that each of their reads is counted (`reach`).
    let reads = match plan.reach {
        Some(_) => Reads::Inline,
        None => Reads::Named,
    };
    let lowered = plan.lowered.model(id, reads)?;
    let m = &plan.program.models[id];
    let names = &plan.names[id];
    let ty = ident(&names.ty);
    let file = prov.file_name(m.span);

    // The struct.
    let mut fields = Vec::new();
    let mut field_idents: Vec<&String> = Vec::new();
    for (i, v) in m.vars.iter().enumerate() {
        if v.is_derived() {
            continue;
        }
        let f = ident(&names.vars[i]);
        field_idents.push(&names.vars[i]);
        let rust_ty = match v.ty {
            Ty::Real => quote!(f64),
            Ty::Flag => quote!(bool),
        };
        // A hidden state's doc is Sit's own text, naming cells (`d rate(T[1])/d T[2]`):
        // plain text, not Markdown links for rustdoc to resolve.
        let d = if v.hidden {
            docs(&v.doc.iter().map(|l| not_links(l)).collect::<Vec<_>>())
        } else {
            docs(&v.doc)
        };
        let from = prov.provenance_doc(v.span, &prov.line_text(v.span));
        fields.push(quote!(#d #from pub #f: #rust_ty,));
    }
    for (s, sub) in m.subs.iter().enumerate() {
        let f = ident(&names.subs[s]);
        let on = ident(&names.sub_on[s]);
        field_idents.push(&names.subs[s]);
        field_idents.push(&names.sub_on[s]);
        let sub_ty = ident(&plan.names[sub.model].ty);
        let d = docs(&sub.doc);
        let from = prov.provenance_doc(sub.span, &prov.line_text(sub.span));
        let on_doc = doc(&format!(
            "Whether `{}` is switched on (`{}.on`): a switched-off submodel does not step.",
            sub.name, sub.name
        ));
        fields.push(quote! {
            #d #from pub #f: #sub_ty,
            #on_doc pub #on: bool,
        });
    }
    for e in 0..m.events.len() {
        let (v, p) = (&names.event_fields[e], &names.event_prev[e]);
        field_idents.push(v);
        field_idents.push(p);
        let (vi, pi) = (ident(v), ident(p));
        let name = &m.events[e].name;
        let vdoc = doc(&format!("Value of event `{name}` in this step."));
        let pdoc = doc(&format!(
            "Value of the condition of `{name}` in the previous step."
        ));
        fields.push(quote!(#vdoc #vi: bool, #pdoc #pi: bool,));
    }
    for (k, mode) in m.modes.iter().enumerate() {
        let f = ident(&names.modes[k]);
        field_idents.push(&names.modes[k]);
        let mty = ident(&names.mode_types[k]);
        let d = docs(&mode.doc);
        let from = prov.provenance_doc(mode.span, &prov.line_text(mode.span));
        fields.push(quote!(#d #from pub #f: #mty,));
        if lowered.modes[k].snapshot {
            let s = ident(&names.mode_starts[k]);
            field_idents.push(&names.mode_starts[k]);
            let sdoc = doc(&format!(
                "State of `{}` at the start of the step (read by its transitions).",
                mode.name
            ));
            fields.push(quote!(#sdoc #s: #mty,));
        }
    }
    for k in &names.mems {
        field_idents.push(k);
        let ki = ident(k);
        let kdoc = doc("Memory of a `deriv` rule.");
        fields.push(quote!(#kdoc #ki: ::sit_runtime::Deriv,));
    }
    let time = ident(&names.time);
    field_idents.push(&names.time);
    let tdoc = doc("The model's clock.");
    fields.push(quote!(#tdoc #time: f64,));
    let clock = ident(&names.clock);
    field_idents.push(&names.clock);
    let cdoc = doc("Computes the clock: a multiple of the step (`sit_runtime::Clock`).");
    fields.push(quote!(#cdoc #clock: ::sit_runtime::Clock,));
    if names.uses_dt {
        let dt = ident(&names.dt);
        field_idents.push(&names.dt);
        let ddoc = doc("Length of the last step (0 before the first).");
        fields.push(quote!(#ddoc #dt: f64,));
    }
    let mut struct_allows = snake_allow(field_idents);
    if !is_camel_case(&names.ty) {
        struct_allows.extend(quote!(#[allow(non_camel_case_types)]));
    }
    struct_allows.extend(allowance());
    let model_docs = docs(&m.doc);
    let model_from = prov.provenance_doc(m.span, &prov.line_text(m.span));

    // Methods.
    let mut bodies = BodyGen {
        plan,
        model: id,
        lowered: &lowered,
        prov,
        comments,
    };
    let new_body = bodies.new_body();
    let step_body = bodies.step_body();
    let reset_body = bodies.reset_body();
    let (new_tokens, step_tokens, reset_tokens) =
        (new_body.tokens, step_body.tokens, reset_body.tokens);
    let mut step_parts = step_body.methods;
    // A model that divides its step: `step` is the wrapper, the step a private method.
    let step_tokens = match &lowered.substeps {
        None => step_tokens,
        Some(link) => {
            let g = ExprGen {
                plan,
                model: id,
                recv: quote!(self),
                storage: Storage::Fields,
                count: true,
            };
            let once = ident(&names.step_once);
            step_parts.extend(quote! {
                fn #once(&mut self, dt: f64) {
                    #step_tokens
                }
            });
            crate::substep::step(plan, id, &g, link, false)
        }
    };
    let g = ExprGen {
        plan,
        model: id,
        recv: quote!(self),
        storage: Storage::Fields,
        count: false,
    };
    let mut accessors = Vec::new();
    for (i, v) in m.vars.iter().enumerate() {
        if !v.is_derived() {
            continue;
        }
        let definition = plan.lowered.definition(id, Defined::Var(i), Reads::Named)?;
        let body = tail(g.ast(&definition));
        let f = ident(&names.vars[i]);
        let snake = snake_allow([&names.vars[i]]);
        let d = docs(&v.doc);
        let from = prov.provenance_doc(v.span, &prov.line_text(v.span));
        let derived = doc("A derived param: computed from the other params where it is read.");
        accessors.push(quote! {
            #d #from #derived #snake
            pub fn #f(&self) -> f64 { #body }
        });
    }
    for (c, cond) in m.conds.iter().enumerate() {
        let definition = plan
            .lowered
            .definition(id, Defined::Cond(c), Reads::Named)?;
        let body = tail(g.ast(&definition));
        let f = ident(&names.conds[c]);
        let snake = snake_allow([&names.conds[c]]);
        let d = docs(&cond.doc);
        let from = prov.provenance_doc(cond.span, &prov.line_text(cond.span));
        accessors.push(quote! {
            #d #from #snake
            pub fn #f(&self) -> bool { #body }
        });
    }
    for (e, ev) in m.events.iter().enumerate() {
        let f = ident(&names.events[e]);
        let v = ident(&names.event_fields[e]);
        let snake = snake_allow([&names.events[e]]);
        let d = docs(&ev.doc);
        let from = prov.provenance_doc(ev.span, &prov.line_text(ev.span));
        let what = doc("An event: true in the step where its condition becomes true.");
        accessors.push(quote! {
            #d #from #what #snake
            pub fn #f(&self) -> bool { self.#v }
        });
    }
    // Counting table reads: the counts' field and methods, `reset()` forgetting them.
    let (reset_tokens, reach_methods, reach_model) = match &plan.reach {
        Some(registry) => {
            fields.push(crate::reach::field(plan, registry, id));
            let methods = crate::reach::methods(plan, registry, id, &reset_tokens);
            let model = crate::reach::model_method(plan, id);
            (crate::reach::reset_body(plan, id), methods, model)
        }
        None => (reset_tokens, TokenStream::new(), TokenStream::new()),
    };
    let t = table(plan, id)?;
    let constant = t.constant;
    let table_methods = t.methods;
    let name = &m.name;
    let allow = allowance();
    let new_doc = doc(&format!(
        "Creates the model `{name}` with the defaults of {file}, reset to its initial values."
    ));
    let mode_enums = crate::modes::enums(plan, id, prov);
    Ok(quote! {
        #mode_enums

        #model_docs
        #model_from
        #[derive(Debug, Clone)]
        #struct_allows
        pub struct #ty {
            #(#fields)*
        }

        // A crate uses only part of a model's API (a binary including the
        // code in a private module would warn about every unused method).
        #[allow(dead_code)]
        #allow
        impl #ty {
            #constant

            #new_doc
            pub fn new() -> Self {
                #new_tokens
            }

            #[doc = " Advances the model by one step of `dt`: submodels, events, rules in textual"]
            #[doc = " order, then the clock."]
            pub fn step(&mut self, dt: f64) {
                #step_tokens
            }

            #step_parts

            #[doc = " Returns the model to its initial values and time 0; params and inputs keep"]
            #[doc = " their values."]
            pub fn reset(&mut self) {
                #reset_tokens
            }

            #[doc = " The model's time: `n·dt` after `n` steps of a constant `dt` (`sit_runtime::Clock`)."]
            pub fn time(&self) -> f64 {
                self.#time
            }

            #(#accessors)*

            #reach_methods
        }

        #allow
        impl ::core::default::Default for #ty {
            fn default() -> Self {
                Self::new()
            }
        }

        #allow
        impl ::sit_runtime::Model for #ty {
            fn step(&mut self, dt: f64) {
                Self::step(self, dt);
            }
            fn reset(&mut self) {
                Self::reset(self);
            }
            fn time(&self) -> f64 {
                self.#time
            }
            #table_methods
            #reach_model
        }
    })
}
