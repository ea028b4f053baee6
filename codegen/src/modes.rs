//! Modes in generated code: one Rust enum per mode, its names, and reads of its state.

use crate::items::allowance;
use crate::names::{Namespace, ident, is_camel_case};
use crate::plan::{ModelNames, Plan};
use crate::provenance::{Provenance, doc, docs};
use proc_macro2::TokenStream;
use quote::quote;
use sit_lir::ModelId;
use sit_lir::decl::Model;

/// `light_green` → `LightGreen`: each `_`-separated part with its first letter
/// capitalised if it is ASCII (`ящик` stays as written: a capital `А` would be confusable
/// with the Latin `A`, which rustc's `mixed_script_confusables` reports); a name that
/// does not start with a letter gets a leading `S`.
fn camel(name: &str) -> String {
    let mut out = String::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.push(c.to_ascii_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if !out.chars().next().is_some_and(char::is_alphabetic) {
        out.insert(0, 'S');
    }
    out
}

/// Names the enum of each mode of `m` (`{Model}{Mode}`, unique among the module's
/// types) and its variants (the states, capitalised, unique within the enum).
pub(crate) fn name_types(m: &Model, names: &mut ModelNames, types: &mut Namespace) {
    let model = names.ty.trim_start_matches("r#").to_string();
    for mode in &m.modes {
        names
            .mode_types
            .push(types.fresh(format!("{model}{}", camel(&mode.name))));
        let camels: Vec<String> = mode.states.iter().map(|s| camel(s)).collect();
        let refs: Vec<&str> = camels.iter().map(String::as_str).collect();
        let mut variants = Namespace::default();
        names.mode_variants.push(variants.user_names(&refs, true));
    }
}

/// `Enum::Variant` of state `state` of mode `mode` of model `model`.
pub(crate) fn variant(plan: &Plan<'_>, model: ModelId, mode: usize, state: usize) -> TokenStream {
    let n = &plan.names[model];
    let ty = ident(&n.mode_types[mode]);
    let v = ident(&n.mode_variants[mode][state]);
    quote!(#ty::#v)
}

/// The enum of every mode of model `id`, with `index()` and `name()`.
pub(crate) fn enums(plan: &Plan<'_>, id: ModelId, prov: &Provenance<'_>) -> TokenStream {
    let m = &plan.program.models[id];
    let n = &plan.names[id];
    let mut out = TokenStream::new();
    for (k, mode) in m.modes.iter().enumerate() {
        let ty = ident(&n.mode_types[k]);
        let variants: Vec<_> = n.mode_variants[k].iter().map(|v| ident(v)).collect();
        let states = &mode.states;
        let mut allows = TokenStream::new();
        if !is_camel_case(&n.mode_types[k]) || !n.mode_variants[k].iter().all(|v| is_camel_case(v))
        {
            allows.extend(quote!(#[allow(non_camel_case_types)]));
        }
        allows.extend(allowance());
        let d = docs(&mode.doc);
        let from = prov.provenance_doc(mode.span, &prov.line_text(mode.span));
        let what = doc(&format!(
            "The states of the mode `{}` of `{}`; the first is the initial one.",
            mode.name, m.name
        ));
        let state_docs = states.iter().map(|s| doc(&format!("`{s}`")));
        out.extend(quote! {
            #d #from #what
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            #allows
            pub enum #ty {
                #(#state_docs #variants,)*
            }

            #[allow(dead_code)]
            #allows
            impl #ty {
                #[doc = " The state's index in its declaration: its value through `sit_runtime::Model`."]
                pub const fn index(self) -> usize {
                    self as usize
                }
                #[doc = " The state's name in the `.sit` source."]
                pub const fn name(self) -> &'static str {
                    match self {
                        #(Self::#variants => #states,)*
                    }
                }
            }
        });
    }
    out
}
