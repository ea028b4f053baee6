//! The initial pass in the generated `reset`: the rules of the computed states, run once so that the values at t = 0 are consistent.

use super::{BodyGen, Flags, fired_ident};
use proc_macro2::TokenStream;
use quote::quote;
use sit_lir::FlagUse;

impl BodyGen<'_, '_> {
    /// The statements of the initial pass (`sit_lir::Model::initial`): its
    /// `otherwise` flags as locals, then its rules, as in `step`.
    pub(super) fn initial_pass(&mut self) -> Vec<TokenStream> {
        let low = self.lowered;
        let mut out = Vec::new();
        for (k, flag) in low.initial_flags.iter().enumerate() {
            let f = fired_ident(k);
            out.push(match flag {
                FlagUse::Unread => continue,
                FlagUse::AlwaysSet => quote!(let #f = true;),
                FlagUse::Tracked { mutated: true } => quote!(let mut #f = false;),
                FlagUse::Tracked { mutated: false } => quote!(let #f = false;),
            });
        }
        let rules = self.stmts(&low.initial, None, &Flags::default());
        out.push(self.comments.splice(rules));
        out
    }
}
