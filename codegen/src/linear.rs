//! The implicit method's linear algebra as generated code: one `Factor`, `Solve` or `Underflow` statement of the lowered step written once for the plain and the batch form, which differ only in how a variable is read (`self.x` or `self.x[i]`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_middle::ir::VarId;
use sit_middle::lower::{self, Stmt};

/// The block for `stmt` (a `Factor`, `Solve` or `Underflow`; `None` for any other
/// statement), each variable written as `var(v)` and the time as `time`, the model's
/// name `model` for the faults.
pub(crate) fn block(
    stmt: &Stmt,
    var: &dyn Fn(VarId) -> TokenStream,
    time: &TokenStream,
    model: &str,
) -> Option<TokenStream> {
    let band = |kl: usize, ku: usize| {
        let (kl, ku) = (Literal::usize_unsuffixed(kl), Literal::usize_unsuffixed(ku));
        quote!((#kl, #ku))
    };
    Some(match stmt {
        Stmt::Factor {
            matrix,
            storage,
            pivots,
            method,
            ..
        } => {
            let a: Vec<TokenStream> = matrix.iter().map(|&v| var(v)).collect();
            let p: Vec<TokenStream> = pivots.iter().map(|&v| var(v)).collect();
            let (ka, kp) = (0..a.len(), 0..p.len());
            let factor = match storage {
                lower::Storage::Dense => quote! {
                    ::sit_runtime::stage_factor(#model, #method, #time, &mut a, &mut p);
                },
                lower::Storage::Pattern { mask } => {
                    let mask = mask_literal(*mask);
                    quote! {
                        ::sit_runtime::stage_factor_masked(#model, #method, #time, #mask, &mut a, &mut p);
                    }
                }
                lower::Storage::Band { kl, ku } => {
                    let band = band(*kl, *ku);
                    quote! {
                        ::sit_runtime::stage_band_factor(#model, #method, #time, #band, &mut a, &mut p);
                    }
                }
            };
            quote! {{
                let mut a = [#(#a),*];
                let mut p = [#(#p),*];
                #factor
                #(#a = a[#ka];)*
                #(#p = p[#kp];)*
            }}
        }
        Stmt::Solve {
            matrix,
            storage,
            pivots,
            rhs,
            ..
        } => {
            let a = matrix.iter().map(|&v| var(v));
            let p = pivots.iter().map(|&v| var(v));
            let b: Vec<TokenStream> = rhs.iter().map(|&v| var(v)).collect();
            let kb = 0..b.len();
            let solve = match storage {
                lower::Storage::Dense => quote! {
                    ::sit_runtime::stage_solve_fixed(&[#(#a),*], &[#(#p),*], &mut b);
                },
                lower::Storage::Pattern { mask } => {
                    let mask = mask_literal(*mask);
                    quote! {
                        ::sit_runtime::stage_solve_masked_fixed(#mask, &[#(#a),*], &[#(#p),*], &mut b);
                    }
                }
                lower::Storage::Band { kl, ku } => {
                    let band = band(*kl, *ku);
                    quote! {
                        ::sit_runtime::stage_band_solve(#band, &[#(#a),*], &[#(#p),*], &mut b);
                    }
                }
            };
            quote! {{
                let mut b = [#(#b),*];
                #solve
                #(#b = b[#kb];)*
            }}
        }
        Stmt::Underflow { step, method, .. } => {
            let step = var(*step);
            quote! {
                ::sit_runtime::step_underflow(#model, #method, #time, #step);
            }
        }
        _ => return None,
    })
}

/// The pattern of an iteration matrix as a hexadecimal literal (bit `i·n + j` for cell
/// `(i, j)`), which shows its rows' bits where a decimal number would not.
fn mask_literal(mask: u128) -> Literal {
    format!("0x{mask:x}")
        .parse()
        .expect("a hexadecimal integer is a literal")
}
