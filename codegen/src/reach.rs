//! Counting the reads of lookup tables in generated code ([`crate::Options::count_table_reach`]): a `TableReach` per table beside each lookup, and the methods that give the counts.
//!
//! With the option, every model gets a private field of one
//! `sit_runtime::table::TableReach` per table its step and reset read (one per
//! declaration, in the order first read; the batch form one such array per lane), each
//! read notes its arguments there before the lookup (`sit_runtime::table::lookup1`,
//! `lookup2`, unchanged, so no value changes), `reset()` forgets the counts of the
//! model and its submodels (a parent's reset and `reset(sub)` keep them, as the
//! interpreter does), and `sit_runtime::Model::table_reach` visits them. The scalar
//! step then reads derived params and conditions inlined (`Reads::Inline`, as the
//! interpreter and the batch form do), so each evaluation of a table is counted where
//! it happens; their accessors (`&self`, also behind `get_at`) do not count. Without
//! the option nothing here is emitted and the code is the same as before it existed.

use crate::expr::{ExprGen, Storage};
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use sit_lir::{Beyond, LookupTable, ModelId};
use std::cell::RefCell;
use std::sync::Arc;
use syn::Expr;

/// Per model, the tables its code counts, in the order first read.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    tables: RefCell<Vec<Vec<Arc<LookupTable>>>>,
}

impl Registry {
    /// No table yet, for a program of `models` models.
    pub(crate) fn new(models: usize) -> Registry {
        Registry {
            tables: RefCell::new(vec![Vec::new(); models]),
        }
    }

    /// The index of `t` among the tables counted by `model`, added when first read (a
    /// table is one declaration: same name and place, as the interpreter tells them).
    fn index(&self, model: ModelId, t: &Arc<LookupTable>) -> usize {
        let mut tables = self.tables.borrow_mut();
        let list = &mut tables[model];
        let same =
            |u: &Arc<LookupTable>| Arc::ptr_eq(u, t) || (u.name == t.name && u.span == t.span);
        list.iter().position(same).unwrap_or_else(|| {
            list.push(t.clone());
            list.len() - 1
        })
    }

    /// The tables counted by `model` so far.
    pub(crate) fn of(&self, model: ModelId) -> Vec<Arc<LookupTable>> {
        self.tables.borrow().get(model).cloned().unwrap_or_default()
    }

    /// The number of tables counted, over every model (to check that the batch form
    /// counts no table the scalar struct has no slot for).
    pub(crate) fn total(&self) -> usize {
        self.tables.borrow().iter().map(Vec::len).sum()
    }
}

/// Whether `t` reads a table: where the batch form, counting, must evaluate as the
/// scalar step does (short circuits, branches), and elsewhere keeps its branch-free form.
pub(crate) fn reads_table(t: &sit_lir::Term) -> bool {
    let mut found = false;
    t.visit(&mut |u| found |= matches!(u, sit_lir::Term::Table(..)));
    found
}

/// The runtime's `Beyond` variant of `b`.
fn beyond(b: Beyond) -> TokenStream {
    match b {
        Beyond::Clamp => quote!(::sit_runtime::table::Beyond::Clamp),
        Beyond::Extrapolate => quote!(::sit_runtime::table::Beyond::Extrapolate),
    }
}

/// The counted read of table `t` at `args` by the code of `g`: the arguments into
/// locals, noted in the model's (or lane's) count, then the lookup of
/// [`crate::lookup::read`] on them.
pub(crate) fn read(
    g: &ExprGen<'_>,
    registry: &Registry,
    t: &Arc<LookupTable>,
    args: Vec<Expr>,
) -> Expr {
    let k = Literal::usize_unsuffixed(registry.index(g.model, t));
    let field = ident(&g.plan.names[g.model].reach.field);
    let recv = &g.recv;
    let slot = match g.storage {
        Storage::Fields => quote!(#recv.#field[#k]),
        Storage::Lanes => quote!(#recv.#field[i][#k]),
    };
    let locals: Vec<_> = (0..args.len())
        .map(|j| format_ident!("table_arg_{}", j))
        .collect();
    let note = match locals.as_slice() {
        [x] => quote!(#slot.note1(#x);),
        [x, y] => quote!(#slot.note2(#x, #y);),
        // The lowering checks the arity: the lookup below gives NaN, as uncounted.
        _ => TokenStream::new(),
    };
    let lookup = crate::lookup::read(t, locals.iter().map(|x| syn::parse_quote!(#x)).collect());
    syn::parse_quote!({
        #(let #locals = #args;)*
        #note
        #lookup
    })
}

/// The field declaration of the scalar struct of `model`.
pub(crate) fn field(plan: &Plan<'_>, registry: &Registry, model: ModelId) -> TokenStream {
    let f = ident(&plan.names[model].reach.field);
    let k = Literal::usize_unsuffixed(registry.of(model).len());
    let doc = crate::provenance::doc(
        "The reads of each table of the model since the last reset (`sit_runtime::table::TableReach`).",
    );
    quote!(#doc #f: [::sit_runtime::table::TableReach; #k],)
}

/// The field's value in `new()`.
pub(crate) fn init(plan: &Plan<'_>, model: ModelId) -> TokenStream {
    let names = &plan.names[model].reach;
    let (f, fresh) = (ident(&names.field), ident(&names.fresh));
    quote!(#f: Self::#fresh())
}

/// The private methods of the scalar struct of `model`: fresh counts, forgetting the
/// counts of the tree, visiting them, and `reset` without forgetting them around
/// `reset_tokens`.
pub(crate) fn methods(
    plan: &Plan<'_>,
    registry: &Registry,
    model: ModelId,
    reset_tokens: &TokenStream,
) -> TokenStream {
    let names = &plan.names[model].reach;
    let (f, visit, clear, fresh, kept) = (
        ident(&names.field),
        ident(&names.visit),
        ident(&names.clear),
        ident(&names.fresh),
        ident(&names.reset_kept),
    );
    let tables = registry.of(model);
    let k = Literal::usize_unsuffixed(tables.len());
    let news = tables.iter().map(|t| {
        let grids = t.grids.iter().map(|g| crate::lookup::array(g));
        let b = beyond(t.beyond);
        quote!(::sit_runtime::table::TableReach::new(&[#(&#grids),*], #b))
    });
    let decls = tables.iter().map(|t| {
        let (name, args) = (&t.name, &t.args);
        let key = Literal::u64_suffixed(t.key());
        quote!(::sit_runtime::table::TableDecl { name: #name, args: &[#(#args),*], key: #key })
    });
    let m = &plan.program.models[model];
    let subs: Vec<_> = (0..m.subs.len())
        .map(|s| ident(&plan.names[model].subs[s]))
        .collect();
    let sub_visit: Vec<_> = m
        .subs
        .iter()
        .map(|s| ident(&plan.names[s.model].reach.visit))
        .collect();
    let sub_clear: Vec<_> = m
        .subs
        .iter()
        .map(|s| ident(&plan.names[s.model].reach.clear))
        .collect();
    quote! {
        #[doc = " No read yet of the tables of the model."]
        fn #fresh() -> [::sit_runtime::table::TableReach; #k] {
            [#(#news),*]
        }

        #[doc = " Forgets the table reads of the model and its submodels."]
        fn #clear(&mut self) {
            self.#f = Self::#fresh();
            #(self.#subs.#sub_clear();)*
        }

        #[doc = " Visits the table reads of the model, then of its submodels."]
        fn #visit(
            &self,
            visit: &mut dyn FnMut(&::sit_runtime::table::TableDecl<'_>, &::sit_runtime::table::TableReach),
        ) {
            const DECLS: [::sit_runtime::table::TableDecl<'static>; #k] = [#(#decls),*];
            for (decl, reach) in DECLS.iter().zip(&self.#f) {
                visit(decl, reach);
            }
            #(self.#subs.#sub_visit(visit);)*
        }

        #[doc = " `reset()` keeping the table reads (a parent's reset, `reset(sub)`)."]
        fn #kept(&mut self) {
            #reset_tokens
        }
    }
}

/// The body of `reset()`: a new count, then the reset.
pub(crate) fn reset_body(plan: &Plan<'_>, model: ModelId) -> TokenStream {
    let names = &plan.names[model].reach;
    let (clear, kept) = (ident(&names.clear), ident(&names.reset_kept));
    quote! {
        self.#clear();
        self.#kept();
    }
}

/// The method of `impl sit_runtime::Model`.
pub(crate) fn model_method(plan: &Plan<'_>, model: ModelId) -> TokenStream {
    let visit = ident(&plan.names[model].reach.visit);
    quote! {
        fn table_reach(
            &self,
            visit: &mut dyn FnMut(&::sit_runtime::table::TableDecl<'_>, &::sit_runtime::table::TableReach),
        ) -> bool {
            self.#visit(visit);
            true
        }
    }
}

/// The method name a parent's reset calls on a submodel of model `sub`: `reset`, or
/// without the option's forgetting.
pub(crate) fn sub_reset(plan: &Plan<'_>, sub: ModelId) -> String {
    match plan.reach {
        Some(_) => plan.names[sub].reach.reset_kept.clone(),
        None => "reset".to_string(),
    }
}
