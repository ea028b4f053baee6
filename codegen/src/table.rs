//! The variable list of a model (`VARIABLES`) and the `Model` accessors by index and name.
//!
//! The list is `sit_lower::variables`: the model's own variables, then for each
//! submodel `NAME.on` and the submodel's list prefixed by `NAME.`. The hidden states
//! (method memories, event-log whys) end the list: `VARIABLES` and `var_index` leave them
//! out, `hidden_count`, `var_info`, `get_at` and `set_at` reach them at the indices after
//! it.
//!
//! Each model's code names only its own variables: a submodel's range of indices (and
//! names, by their prefix) is handed to the submodel's own `Model` methods, and the
//! table of a model that another emitted model instantiates is taken from that parent's
//! at compile time (`sit_runtime::sub_table`), so that a chain of submodels `d` deep
//! generates code linear in `d`, not cubic (issue 53). Only the models that nothing
//! emitted instantiates write their whole table out.

use crate::expr::{ExprGen, Storage};
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_lir::{self as lower, Access, Item, Place, Slot, Term};
use sit_lir::{CondKind, ModelId, Ty, VarKind};

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

/// Entries of the variable list of `model` (`sit_lower::variables`), read and
/// written through field paths from `self`.
fn flatten(plan: &Plan<'_>, model: ModelId, list: Vec<lower::Entry>) -> Vec<Entry> {
    let g = ExprGen {
        plan,
        model,
        recv: quote!(self),
        storage: Storage::Fields,
        count: false,
    };
    list.into_iter()
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
        .collect()
}

/// One submodel's runs in its parent's list (`sit_lower::SubRun`), with its
/// field and name.
struct SubRange {
    /// The submodel's field.
    field: TokenStream,
    /// The submodel's name in the `.sit` text (the prefix of its variables' names).
    name: String,
    /// First index of its visible variables, and their number.
    shown: (usize, usize),
    /// First index of its hidden states, and their number.
    hidden: (usize, usize),
    /// Whether one of its variables is a mode.
    modes: bool,
}

/// The runs of `model`'s submodels in its list.
fn sub_ranges(plan: &Plan<'_>, model: ModelId, own: &lower::Own) -> Vec<SubRange> {
    let m = &plan.program.models[model];
    let names = &plan.names[model];
    (own.subs.iter().enumerate())
        .map(|(s, run)| {
            let f = ident(&names.subs[s]);
            SubRange {
                field: quote!(#f),
                name: m.subs[s].name.clone(),
                shown: (run.visible_start, run.visible),
                hidden: (run.hidden_start, run.hidden),
                modes: run.modes,
            }
        })
        .collect()
}

/// The emitted model whose table `model`'s is taken from: the first emitted model that
/// instantiates it, with the submodel (`None` for a model nothing emitted instantiates).
fn table_source(plan: &Plan<'_>, model: ModelId) -> Option<(ModelId, usize)> {
    plan.emit.iter().find_map(|&p| {
        let subs = &plan.program.models[p].subs;
        (p != model)
            .then(|| subs.iter().position(|sub| sub.model == model))
            .flatten()
            .map(|s| (p, s))
    })
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
    let own = plan.lowered.own_variables(model)?;
    let (shown, hidden_count) = (own.visible, own.hidden);
    let local: Vec<usize> = own.entries.iter().map(|(i, _)| *i).collect();
    let entries = flatten(
        plan,
        model,
        own.entries.iter().map(|(_, e)| e.clone()).collect(),
    );
    let subs = sub_ranges(plan, model, &own);
    // The parameters and inputs of direct submodels that this model binds: not settable
    // here, though they are in the submodel's own table.
    let bound: Vec<usize> = (own.subs.iter())
        .flat_map(|run| run.bound.iter().map(|b| run.visible_start + b))
        .collect();

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
    let (variables, hidden_table) = match table_source(plan, model) {
        Some((parent, s)) => sub_tables(plan, parent, s)?,
        None => {
            // Nothing emitted instantiates this model: its whole table, written out.
            let whole = flatten(plan, model, plan.lowered.variables(model)?);
            let infos = whole[..shown].iter().map(info);
            let hidden = whole[shown..].iter().map(info);
            (quote!(&[#(#infos),*]), quote!(&[#(#hidden),*]))
        }
    };
    let hidden_const = (hidden_count > 0).then(|| {
        quote! {
            #[doc = " The hidden states, at the indices after `VARIABLES`."]
            const HIDDEN_VARIABLES: &'static [::sit_runtime::VarInfo<'static>] = #hidden_table;
        }
    });
    let constant = quote! {
        #[doc = " Every variable of the model, submodels included, in the order of the"]
        #[doc = " `sit_runtime::Model` indices (see `docs/codegen.md`)."]
        pub const VARIABLES: &'static [::sit_runtime::VarInfo<'static>] = #variables;
        #hidden_const
    };

    // `index` within submodel `r`'s own list: its visible run, then its hidden run.
    let delegated = |r: &SubRange, call: &dyn Fn(TokenStream) -> TokenStream| {
        let mut arms = Vec::new();
        let (a, n) = r.shown;
        if n > 0 {
            let (lo, hi) = (lit(a), lit(a + n - 1));
            let at = quote!(index - #lo);
            let c = call(at);
            arms.push(quote!(#lo..=#hi => #c,));
        }
        let (h, k) = r.hidden;
        if k > 0 {
            let (lo, hi, shown) = (lit(h), lit(h + k - 1), lit(n));
            let at = quote!(index - #lo + #shown);
            let c = call(at);
            arms.push(quote!(#lo..=#hi => #c,));
        }
        arms
    };

    let get_arms = local.iter().zip(&entries).map(|(&i, e)| {
        let i = lit(i);
        let read = &e.read;
        if e.logical {
            quote!(#i => ::sit_runtime::logical(#read),)
        } else {
            quote!(#i => #read,)
        }
    });
    let get_subs = subs.iter().flat_map(|r| {
        let f = &r.field;
        delegated(
            r,
            &|at| quote!(return ::sit_runtime::Model::get_at(&self.#f, #at)),
        )
    });
    let set_arms: Vec<TokenStream> = local
        .iter()
        .zip(&entries)
        .filter_map(|(&i, e)| {
            let write = e.write.as_ref()?;
            let i = lit(i);
            Some(if e.logical {
                quote!(#i => #write = ::sit_runtime::from_logical(index, value)?,)
            } else {
                quote!(#i => #write = value,)
            })
        })
        .collect();
    // Not settable: derived params (`SetError::DERIVED`, as the interpreter says); the
    // rest get the default reason of their kind (computed for conds and events, bound
    // for the submodels' params and inputs this model binds).
    let group = |derived: bool| -> Vec<usize> {
        let mut g: Vec<usize> = (local.iter().zip(&entries))
            .filter(|(_, e)| e.write.is_none() && e.derived == derived && !e.mode)
            .map(|(&i, _)| i)
            .collect();
        if !derived {
            g.extend(&bound);
            g.sort_unstable();
        }
        g
    };
    let modes: Vec<usize> = (local.iter().zip(&entries))
        .filter(|(_, e)| e.mode)
        .map(|(&i, _)| i)
        .collect();
    let unknown = quote!(::sit_runtime::SetError::Unknown(::sit_runtime::Var::Index(
        index
    )));
    let ret = if set_arms.is_empty() {
        TokenStream::new()
    } else {
        quote!(return)
    };
    let mut fixed_arms = Vec::new();
    let bound_arms = group(false);
    if !bound_arms.is_empty() {
        let pats = ranges(&bound_arms);
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
                reason: ::sit_runtime::SetError::DERIVED,
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
    // The submodels' own `set_at`, their errors naming this model's index.
    fixed_arms.extend(subs.iter().flat_map(|r| {
        let f = &r.field;
        delegated(r, &|at| {
            quote!(#ret ::sit_runtime::Model::set_at(&mut self.#f, #at, value).map_err(|e| e.at(index)))
        })
    }));
    let set_body = if set_arms.is_empty() {
        // Nothing is settable here: every arm is a result, and the match is the result.
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
    let index_arms = local
        .iter()
        .zip(&entries)
        .filter(|(_, e)| !e.hidden)
        .map(|(&i, e)| {
            let name = &e.name;
            let i = lit(i);
            quote!(#name => Some(#i),)
        });
    // A dotted name goes to the submodel it starts with.
    let index_subs: Vec<TokenStream> = subs
        .iter()
        .filter(|r| r.shown.1 > 0)
        .map(|r| {
            let (f, prefix, a) = (&r.field, format!("{}.", r.name), lit(r.shown.0));
            quote! {
                if let Some(rest) = name.strip_prefix(#prefix) {
                    return ::sit_runtime::Model::var_index(&self.#f, rest).map(|i| i + #a);
                }
            }
        })
        .collect();
    let var_index_body = if index_subs.is_empty() {
        quote! {
            match name {
                #(#index_arms)*
                _ => None,
            }
        }
    } else {
        quote! {
            match name {
                #(#index_arms)*
                _ => {
                    #(#index_subs)*
                    None
                }
            }
        }
    };
    let mut state_arms: Vec<TokenStream> = (local.iter().zip(&entries))
        .filter(|(_, e)| !e.states.is_empty())
        .map(|(&i, e)| {
            let i = lit(i);
            let states = &e.states;
            quote!(#i => [#(#states),*].get(state).copied(),)
        })
        .collect();
    state_arms.extend(subs.iter().filter(|r| r.modes).map(|r| {
        let (f, (a, n)) = (&r.field, r.shown);
        let (lo, hi) = (lit(a), lit(a + n - 1));
        quote!(#lo..=#hi => ::sit_runtime::Model::mode_state(&self.#f, index - #lo, state),)
    }));
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
    let var_info = if hidden_count == 0 {
        quote! {
            fn var_info(&self, index: usize) -> ::core::option::Option<::sit_runtime::VarInfo<'_>> {
                Self::VARIABLES.get(index).copied()
            }
        }
    } else {
        let count = lit(hidden_count);
        quote! {
            fn hidden_count(&self) -> usize {
                #count
            }
            fn var_info(&self, index: usize) -> ::core::option::Option<::sit_runtime::VarInfo<'_>> {
                match Self::VARIABLES.get(index) {
                    Some(info) => Some(*info),
                    None => Self::HIDDEN_VARIABLES.get(index - Self::VARIABLES.len()).copied(),
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
                #(#get_subs)*
                _ => return None,
            })
        }
        fn set_at(&mut self, index: usize, value: f64) -> ::core::result::Result<(), ::sit_runtime::SetError<'static>> {
            #set_body
        }
        fn var_index(&self, name: &str) -> ::core::option::Option<usize> {
            #var_index_body
        }
        #mode_state
    };
    Ok(Table { constant, methods })
}

/// `VARIABLES` and `HIDDEN_VARIABLES` of the model of submodel `s` of `parent`, taken
/// from the parent's tables at compile time: its runs there without the prefix `s.`,
/// its own params and inputs that the parent binds settable again.
fn sub_tables(
    plan: &Plan<'_>,
    parent: ModelId,
    s: usize,
) -> Result<(TokenStream, TokenStream), lower::LowerError> {
    let own = plan.lowered.own_variables(parent)?;
    let run = &own.subs[s];
    let p = ident(&plan.names[parent].ty);
    let prefix = lit(plan.program.models[parent].subs[s].name.len() + 1);
    let (start, n) = (lit(run.visible_start), lit(run.visible));
    let rebound = run.bound.iter().map(|&i| {
        let i = lit(i);
        quote!(t[#i].settable = true;)
    });
    let variables = if run.bound.is_empty() {
        quote!(&::sit_runtime::sub_table::<#n>(#p::VARIABLES, #start, #prefix))
    } else {
        quote!(&{
            let mut t = ::sit_runtime::sub_table::<#n>(#p::VARIABLES, #start, #prefix);
            #(#rebound)*
            t
        })
    };
    let hidden_table = if run.hidden == 0 {
        quote!(&[])
    } else {
        let (start, k) = (lit(run.hidden_start - own.visible), lit(run.hidden));
        quote!(&::sit_runtime::sub_table::<#k>(#p::HIDDEN_VARIABLES, #start, #prefix))
    };
    Ok((variables, hidden_table))
}

fn lit(i: usize) -> Literal {
    Literal::usize_unsuffixed(i)
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
