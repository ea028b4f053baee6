//! `run(name)` of an instantaneous phase, on struct fields and on lanes (see `sit_lir::PhaseLink`).

use crate::expr::ExprGen;
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_lir::ModelId;
use sit_lir::{self as lower, Term};

/// The statements of one run of `phase`, a submodel of `model`, in the order of the
/// lowering: bindings, reset, then steps of the phase's own `dt` until its condition
/// holds, stopping with `sit_runtime::phase_overrun` at its limit. `lane` is `None`
/// for struct fields and `Some(i)` for lane `i` of a batch (`g` then reads lanes).
pub(crate) fn run(
    plan: &Plan<'_>,
    model: ModelId,
    g: &ExprGen<'_>,
    phase: &lower::PhaseLink,
    lanes: bool,
) -> TokenStream {
    let names = &plan.names[model];
    let sub_names = &plan.names[phase.model];
    let f = ident(&names.subs[phase.sub]);
    let at = if lanes { quote!([i]) } else { quote!() };
    let binds: Vec<TokenStream> = phase
        .binds
        .iter()
        .map(|b| {
            let v = ident(&sub_names.vars[b.var]);
            let value = g.expr(&b.value);
            quote!(self.#f.#v #at = #value;)
        })
        .collect();
    // Counting table reads, the phase's reset keeps its counts (see `reach`).
    let (reset, step) = match (lanes, g.counts()) {
        (true, false) => (
            quote!(self.#f.reset_lane(i);),
            quote!(self.#f.step_lane(i, h);),
        ),
        (true, true) => (
            quote!(self.#f.reset_lane_keeping_table_reach(i);),
            quote!(self.#f.step_lane(i, h);),
        ),
        (false, _) => {
            let reset = ident(&crate::reach::sub_reset(plan, phase.model));
            (quote!(self.#f.#reset();), quote!(self.#f.step(h);))
        }
    };
    let h = g.expr(&Term::Num(phase.step));
    let limit = Literal::u64_unsuffixed(phase.limit);
    let until = g.expr(&phase.until);
    let time = ident(&names.time);
    let (model_name, phase_name) = (&plan.program.models[model].name, &phase.name);
    quote! {
        #(#binds)*
        #reset
        let h = #h;
        let mut steps: u64 = 0;
        loop {
            #step
            steps += 1;
            if #until {
                break;
            }
            if steps == #limit {
                ::sit_runtime::phase_overrun(#model_name, #phase_name, self.#time #at, steps);
            }
        }
    }
}
