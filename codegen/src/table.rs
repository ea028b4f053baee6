//! The variable list of a model (`VARIABLES`) and the `Model` accessors by index and name.
//!
//! The list is `sit_middle::lower::variables`. Accessors read and write through direct field paths
//! (`self.p1.roll.x`), so there is no re-indexing at run time. The hidden states (method
//! memories, event-log whys) end the list: `VARIABLES` and `var_index` leave them out,
//! `hidden_count`, `var_info`, `get_at` and `set_at` reach them at the indices after it.

use crate::expr::{ExprGen, Storage};
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_middle::ir::{CondKind, ModelId, Ty, VarKind};
use sit_middle::lower::{self, Access, Item, Place, Slot, Term};

/// One variable of the flattened list.
struct Entry {
    name: String,
    kind: TokenStream,
    logical: bool,
    output: bool,
    /// The field to assign when settable.
    write: Option<TokenStream>,
    /// A derived param: not settable because it is computed (not because it is bound).
    derived: bool,
    /// A mode: not settable because only its transitions change it.
    mode: bool,
    /// The value as read (a `bool` for logical entries).
    read: TokenStream,
    /// A mode's states' names, by index (empty for any other variable).
    states: Vec<String>,
    /// A hidden state (after every visible entry).
    hidden: bool,
}

/// The entries of the variable list of `model` (`sit_middle::lower::variables`), read
/// and written through field paths from `self`.
fn flatten(plan: &Plan<'_>, model: ModelId) -> Result<Vec<Entry>, lower::LowerError> {
    let g = ExprGen {
        plan,
        model,
        recv: quote!(self),
        storage: Storage::Fields,
        count: false,
    };
    let entries = lower::variables(plan.program, model)?;
    Ok(entries
        .into_iter()
        .map(|e| {
            let (base, m) = g.base(&e.path);
            let names = &plan.names[m];
            let place = |slot| Place {
                path: e.path.clone(),
                slot,
            };
            let states = match e.item {
                Item::Mode(k) => plan.program.models[e.model].modes[k].states.clone(),
                _ => Vec::new(),
            };
            let (kind, read, field) = match e.item {
                Item::Var(v, kind) => {
                    let kind = match kind {
                        VarKind::Param { .. } => quote!(Param),
                        VarKind::Input => quote!(Input),
                        VarKind::State => quote!(State),
                    };
                    let read = match e.access {
                        Access::Derived => Term::Derived(place(Slot::Var(v))),
                        _ => Term::Read(place(Slot::Var(v))),
                    };
                    (kind, g.expr(&read), ident(&names.vars[v]))
                }
                Item::Cond(c, kind) => {
                    let kind = match kind {
                        CondKind::Pred => quote!(Predicate),
                        CondKind::Situation => quote!(Situation),
                    };
                    let f = ident(&names.conds[c]);
                    (kind, quote!(#base.#f()), f)
                }
                Item::Event(ev) => {
                    let f = ident(&names.events[ev]);
                    (quote!(Event), quote!(#base.#f()), f)
                }
                Item::On(s) => {
                    let f = ident(&names.sub_on[s]);
                    (quote!(SubmodelOn), quote!(#base.#f), f)
                }
                Item::Mode(k) => {
                    let f = ident(&names.modes[k]);
                    (quote!(State), quote!(#base.#f.index() as f64), f)
                }
            };
            Entry {
                name: e.name,
                kind,
                logical: e.ty == Ty::Flag,
                output: e.output,
                write: (e.access == Access::Settable).then(|| quote!(#base.#field)),
                derived: e.access == Access::Derived,
                mode: e.access == Access::Mode,
                read,
                states,
                hidden: e.hidden,
            }
        })
        .collect())
}

/// `pub const VARIABLES` and the body of `impl Model` except `step`, `reset`, `time`.
pub(crate) struct Table {
    /// The associated constant.
    pub constant: TokenStream,
    /// `var_count`, `var_info`, `get_at`, `set_at`, `var_index`, and `mode_state` when
    /// the model has a mode.
    pub methods: TokenStream,
}

/// The variable table of `model`.
pub(crate) fn table(plan: &Plan<'_>, model: ModelId) -> Result<Table, lower::LowerError> {
    let entries = flatten(plan, model)?;
    let shown = entries.partition_point(|e| !e.hidden);

    let info = |e: &Entry| {
        let (name, kind, output) = (&e.name, &e.kind, e.output);
        let ty = if e.logical {
            quote!(Logical)
        } else {
            quote!(Real)
        };
        let settable = e.write.is_some();
        quote! {
            ::sit_runtime::VarInfo {
                name: #name,
                kind: ::sit_runtime::VarKind::#kind,
                ty: ::sit_runtime::ValueType::#ty,
                output: #output,
                settable: #settable,
            }
        }
    };
    let infos = entries[..shown].iter().map(info);
    let constant = quote! {
        #[doc = " Every variable of the model, submodels included, in the order of the"]
        #[doc = " `sit_runtime::Model` indices (see `docs/codegen.md`)."]
        pub const VARIABLES: &'static [::sit_runtime::VarInfo<'static>] = &[#(#infos),*];
    };

    let get_arms = entries.iter().enumerate().map(|(i, e)| {
        let i = Literal::usize_unsuffixed(i);
        let read = &e.read;
        if e.logical {
            quote!(#i => ::sit_runtime::logical(#read),)
        } else {
            quote!(#i => #read,)
        }
    });
    let set_arms: Vec<TokenStream> = entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let write = e.write.as_ref()?;
            let i = Literal::usize_unsuffixed(i);
            Some(if e.logical {
                quote!(#i => #write = ::sit_runtime::from_logical(index, value)?,)
            } else {
                quote!(#i => #write = value,)
            })
        })
        .collect();
    // Not settable: derived params are computed; the rest get the default reason of
    // their kind (computed for conds and events, bound for bound params and inputs).
    let group = |derived: bool| -> Vec<usize> {
        (0..entries.len())
            .filter(|&i| {
                entries[i].write.is_none() && entries[i].derived == derived && !entries[i].mode
            })
            .collect()
    };
    let modes: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].mode).collect();
    let unknown = quote!(::sit_runtime::SetError::Unknown(::sit_runtime::Var::Index(
        index
    )));
    let ret = if set_arms.is_empty() {
        TokenStream::new()
    } else {
        quote!(return)
    };
    let mut fixed_arms = Vec::new();
    let bound = group(false);
    if !bound.is_empty() {
        let pats = ranges(&bound);
        fixed_arms.push(quote! {
            #(#pats)|* => #ret Err(::sit_runtime::SetError::not_settable(index, Self::VARIABLES[index].kind)),
        });
    }
    let derived = group(true);
    if !derived.is_empty() {
        let pats = ranges(&derived);
        fixed_arms.push(quote! {
            #(#pats)|* => #ret Err(::sit_runtime::SetError::NotSettable {
                var: ::sit_runtime::Var::Index(index),
                kind: ::sit_runtime::VarKind::Param,
                reason: ::sit_runtime::SetError::COMPUTED,
            }),
        });
    }
    if !modes.is_empty() {
        let pats = ranges(&modes);
        fixed_arms.push(quote! {
            #(#pats)|* => #ret Err(::sit_runtime::SetError::NotSettable {
                var: ::sit_runtime::Var::Index(index),
                kind: ::sit_runtime::VarKind::State,
                reason: ::sit_runtime::SetError::MODE,
            }),
        });
    }
    let set_body = if set_arms.is_empty() {
        // Nothing is settable: every arm is an error, and the match is the result.
        quote! {
            match index {
                #(#fixed_arms)*
                _ => Err(#unknown),
            }
        }
    } else {
        quote! {
            match index {
                #(#set_arms)*
                #(#fixed_arms)*
                _ => return Err(#unknown),
            }
            Ok(())
        }
    };
    let index_arms = entries[..shown].iter().enumerate().map(|(i, e)| {
        let name = &e.name;
        let i = Literal::usize_unsuffixed(i);
        quote!(#name => Some(#i),)
    });
    let state_arms: Vec<TokenStream> = (entries.iter().enumerate())
        .filter(|(_, e)| !e.states.is_empty())
        .map(|(i, e)| {
            let i = Literal::usize_unsuffixed(i);
            let states = &e.states;
            quote!(#i => [#(#states),*].get(state).copied(),)
        })
        .collect();
    // Without a mode, the trait's default (no variable is a mode).
    let mode_state = (!state_arms.is_empty()).then(|| {
        quote! {
            fn mode_state(&self, index: usize, state: usize) -> ::core::option::Option<&str> {
                match index {
                    #(#state_arms)*
                    _ => None,
                }
            }
        }
    });
    // The hidden states' descriptions, after `VARIABLES` (a model without any keeps the
    // code it had before they were hidden).
    let var_info = if shown == entries.len() {
        quote! {
            fn var_info(&self, index: usize) -> ::core::option::Option<::sit_runtime::VarInfo<'_>> {
                Self::VARIABLES.get(index).copied()
            }
        }
    } else {
        let hidden = entries[shown..].iter().map(info);
        let count = Literal::usize_unsuffixed(entries.len() - shown);
        quote! {
            fn hidden_count(&self) -> usize {
                #count
            }
            fn var_info(&self, index: usize) -> ::core::option::Option<::sit_runtime::VarInfo<'_>> {
                const HIDDEN: &[::sit_runtime::VarInfo<'static>] = &[#(#hidden),*];
                match Self::VARIABLES.get(index) {
                    Some(info) => Some(*info),
                    None => HIDDEN.get(index - Self::VARIABLES.len()).copied(),
                }
            }
        }
    };
    let methods = quote! {
        fn var_count(&self) -> usize {
            Self::VARIABLES.len()
        }
        #var_info
        fn get_at(&self, index: usize) -> ::core::option::Option<f64> {
            Some(match index {
                #(#get_arms)*
                _ => return None,
            })
        }
        fn set_at(&mut self, index: usize, value: f64) -> ::core::result::Result<(), ::sit_runtime::SetError<'static>> {
            #set_body
        }
        fn var_index(&self, name: &str) -> ::core::option::Option<usize> {
            match name {
                #(#index_arms)*
                _ => None,
            }
        }
        #mode_state
    };
    Ok(Table { constant, methods })
}

/// Index patterns for a sorted list: runs become `a..=b`.
fn ranges(sorted: &[usize]) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        let (a, b) = (
            Literal::usize_unsuffixed(sorted[i]),
            Literal::usize_unsuffixed(sorted[j]),
        );
        out.push(if i == j { quote!(#a) } else { quote!(#a..=#b) });
        i = j + 1;
    }
    out
}
