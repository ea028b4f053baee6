//! A model that divides its step (`substeps`), on struct fields and on lanes (see `sit_lir::SubstepLink`).

use crate::expr::ExprGen;
use crate::names::ident;
use crate::plan::Plan;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_lir::ModelId;
use sit_lir::SubstepLink;

/// The body of `step(dt)` (`lanes` false) or `step_lane(i, dt)` (`lanes` true) of a
/// model with sub-steps, in the order of the lowering: `dt` stored, the condition,
/// the count bounded by `sit_runtime::substep_count`, `n` whole steps of `dt / n` by
/// `once(h)` (or `once(i, h)`) with the clock noted before and put back after, then
/// the clock advanced by `dt`; or one whole step of `dt` if the condition is false.
pub(crate) fn step(
    plan: &Plan<'_>,
    model: ModelId,
    g: &ExprGen<'_>,
    link: &SubstepLink,
    lanes: bool,
) -> TokenStream {
    let names = &plan.names[model];
    let at = if lanes { quote!([i]) } else { quote!() };
    let lane = if lanes { quote!(i,) } else { quote!() };
    let once = if lanes {
        quote!(step_lane_once)
    } else {
        let f = ident(&names.step_once);
        quote!(#f)
    };
    let store_dt = if names.uses_dt {
        let f = ident(&names.dt);
        quote!(self.#f #at = dt;)
    } else {
        quote!()
    };
    let (time, clock) = (ident(&names.time), ident(&names.clock));
    let when = g.expr(&link.when);
    let count = g.expr(&link.count);
    let limit = Literal::u64_unsuffixed(link.limit);
    let model_name = &link.model;
    quote! {
        #store_dt
        if #when {
            let n = ::sit_runtime::substep_count(#count, #limit, #model_name, self.#time #at);
            let h = dt / n as f64;
            let clock = self.#clock #at;
            for _ in 0..n {
                self.#once(#lane h);
            }
            self.#clock #at = clock;
            self.#time #at = self.#clock #at.advance(dt);
        } else {
            self.#once(#lane dt);
        }
    }
}
