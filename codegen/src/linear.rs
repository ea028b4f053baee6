//! The implicit method's linear algebra as generated code: one `Factor`, `Solve` or `Underflow` statement of the lowered step written once for the plain and the batch form (which differ only in how a variable is read, `self.x` or `self.x[i]`), a small `W`'s factorisation and solves as straight-line code.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use sit_lir::VarId;
use sit_lir::{self as lower, Stmt};

use crate::sparse;

/// The largest order of a dense `W` whose factorisation and solves are written out as
/// straight-line code (as a pattern's always are: the lowering holds a pattern up to 11
/// states): `n²` terms a solve and about `n³/3` in the factorisation, so that a larger
/// dense one keeps the runtime's loops.
const STRAIGHT_UP_TO: usize = 11;

/// The cells that the straight-line code of an `n × n` `W` held as `storage` works on
/// (bit `i·n + j` for cell `(i, j)`): a pattern's own, every cell of a dense `W` up to
/// [`STRAIGHT_UP_TO`]; `None` for a larger dense one and a band (the runtime's loops).
fn straight(storage: &lower::Storage, n: usize) -> Option<u128> {
    match storage {
        lower::Storage::Pattern { mask } => Some(*mask),
        lower::Storage::Dense if n <= STRAIGHT_UP_TO => {
            Some((0..n * n).fold(0u128, |m, c| m | 1 << c))
        }
        _ => None,
    }
}

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
            let fallback = |factor: TokenStream| {
                quote! {{
                    let mut a = [#(#a),*];
                    let mut p = [#(#p),*];
                    #factor
                    #(#a = a[#ka];)*
                    #(#p = p[#kp];)*
                }}
            };
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
                lower::Storage::Sparse { lu, complex } => {
                    let straight = (!*complex && sparse::straight(lu))
                        .then(|| sparse::factor_real(lu, &a))
                        .flatten();
                    let sym = sparse::symbolic(lu);
                    let f = if *complex {
                        quote!(stage_sparse_complex_factor)
                    } else {
                        quote!(stage_sparse_factor)
                    };
                    let ka = 0..a.len();
                    let call = quote! {{
                        const LU: ::sit_runtime::linear::Symbolic<'static> = #sym;
                        let mut a = [#(#a),*];
                        ::sit_runtime::#f(#model, #method, #time, &LU, &mut a);
                        #(#a = a[#ka];)*
                    }};
                    // The straight-line form stops short at a pivot that is zero or
                    // not finite; the runtime's then raises the fault.
                    return Some(match straight {
                        Some(straight) => quote! {{
                            let factored = #straight;
                            if !factored #call
                        }},
                        None => call,
                    });
                }
            };
            match straight(storage, p.len()) {
                Some(mask) => {
                    let straight = straight_factor(mask, &a, &p);
                    let fallback = fallback(factor);
                    quote! {{
                        let factored = #straight;
                        if !factored #fallback
                    }}
                }
                None => fallback(factor),
            }
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
            if let lower::Storage::Sparse { lu, complex: false } = storage
                && sparse::straight(lu)
            {
                let a: Vec<TokenStream> = a.collect();
                return Some(sparse::solve_real(lu, &a, &b));
            }
            if let Some(mask) = straight(storage, b.len()) {
                let a: Vec<TokenStream> = a.collect();
                let p: Vec<TokenStream> = p.collect();
                return Some(straight_solve(mask, &a, &p, &b));
            }
            let solve = match storage {
                lower::Storage::Dense | lower::Storage::Pattern { .. } => quote! {
                    ::sit_runtime::stage_solve_fixed(&[#(#a),*], &[#(#p),*], &mut b);
                },
                lower::Storage::Band { kl, ku } => {
                    let band = band(*kl, *ku);
                    quote! {
                        ::sit_runtime::stage_band_solve(#band, &[#(#a),*], &[#(#p),*], &mut b);
                    }
                }
                lower::Storage::Sparse { lu, complex } => {
                    let lu = sparse::symbolic(lu);
                    let f = if *complex {
                        quote!(stage_sparse_complex_solve)
                    } else {
                        quote!(stage_sparse_solve)
                    };
                    quote! {
                        const LU: ::sit_runtime::linear::Symbolic<'static> = #lu;
                        ::sit_runtime::#f(&LU, &[#(#a),*], &mut b);
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

/// The factorisation of `W` (cells `a`, row-major, `n × n`; pivots `p`) as
/// straight-line code over the cells of `mask`: `sit_runtime::linear`'s elimination
/// (`lu_factor_masked_real`; a dense `W` is the pattern of every cell) on locals, for
/// as long as each column's pivot is its diagonal cell, which is the one outcome the
/// code is written for. The column's search is the runtime's (a row swaps in when its
/// cell is larger in magnitude than the diagonal's, strictly); where a row would swap
/// in, or the pivot is zero or not finite, the expression is `false` with nothing
/// written, and the caller runs the runtime's factorisation from the start on the same
/// cells (which swaps, or raises the singular matrix's fault). Otherwise the factors
/// (the diagonal as its reciprocals) and the pivots (`k` for column `k`) are written
/// back and it is `true`. The same
/// operations in the same order as the runtime's, so the same bits; the gain is that
/// no copy of `W` is made, the pattern is decided here rather than tested cell by cell,
/// and no loop runs.
fn straight_factor(mask: u128, a: &[TokenStream], p: &[TokenStream]) -> TokenStream {
    let n = p.len();
    let holds = |i: usize, j: usize| (mask >> (i * n + j)) & 1 == 1;
    let w = |i: usize, j: usize| format_ident!("w{i}_{j}");
    // A local for each cell the search reads (below the diagonal) or the elimination
    // may change (the pattern's, closed under elimination).
    let read = |i: usize, j: usize| i > j || holds(i, j);
    let load = (0..n * n).filter(|c| read(c / n, c % n)).map(|c| {
        let (wc, ac) = (w(c / n, c % n), &a[c]);
        quote!(let #wc = #ac;)
    });
    let abs = quote!(::sit_runtime::math::abs);
    let columns = (0..n).map(|k| {
        let wkk = w(k, k);
        let larger = (k + 1..n).map(|i| {
            let wik = w(i, k);
            quote!(#abs(#wik) > best ||)
        });
        let rows = (k + 1..n).filter(|&i| holds(i, k)).map(|i| {
            let wik = w(i, k);
            let updates = (k + 1..n).filter(|&j| holds(k, j)).map(|j| {
                let (wij, wkj) = (w(i, j), w(k, j));
                quote!(let #wij = #wij - l * #wkj;)
            });
            quote! {
                let l = #wik / #wkk;
                let #wik = l;
                #(#updates)*
            }
        });
        quote! {
            let best = #abs(#wkk);
            if #(#larger)* best == 0.0 || !best.is_finite() {
                break 'factor false;
            }
            #(#rows)*
            let #wkk = 1.0 / #wkk;
        }
    });
    let store = (0..n * n).filter(|&c| holds(c / n, c % n)).map(|c| {
        let (wc, ac) = (w(c / n, c % n), &a[c]);
        quote!(#ac = #wc;)
    });
    let own = (0..n).map(|k| Literal::f64_suffixed(k as f64));
    quote! {
        'factor: {
            #(#load)*
            #(#columns)*
            #(#store)*
            #(#p = #own;)*
            true
        }
    }
}

/// The solve of a stage with the factors of [`straight_factor`] (the same `mask`, `a`
/// and `p`; `b` the right-hand side, which becomes the solution) as straight-line code:
/// while every pivot is its own row, the forward and back substitutions of
/// `sit_runtime::linear::lu_solve_masked_real` written out term by term over the cells
/// of the pattern, in its order (the forward sum in increasing `j`, the back one in
/// decreasing `j`, each term subtracted in turn, then times the reciprocal `1/u_ii`
/// that the factorisation left on the diagonal), on locals
/// read from and written to the variables directly; after a row swap the runtime's
/// dense solve, as there. The same operations in the same order as the interpreter's
/// call, so the same bits; the gain is that no permutation is composed and no copy of
/// `W` is made for each of the stages.
fn straight_solve(
    mask: u128,
    a: &[TokenStream],
    p: &[TokenStream],
    b: &[TokenStream],
) -> TokenStream {
    let n = b.len();
    let holds = |i: usize, j: usize| (mask >> (i * n + j)) & 1 == 1;
    let y: Vec<_> = (0..n).map(|i| format_ident!("y{i}")).collect();
    let x: Vec<_> = (0..n).map(|i| format_ident!("x{i}")).collect();
    let forward = (0..n).map(|i| {
        let (yi, bi) = (&y[i], &b[i]);
        let terms = (0..i).filter(|&j| holds(i, j)).map(|j| {
            let (aij, yj) = (&a[i * n + j], &y[j]);
            quote!(- #aij * #yj)
        });
        quote!(let #yi = #bi #(#terms)*;)
    });
    let back = (0..n).rev().map(|i| {
        let (xi, yi, aii) = (&x[i], &y[i], &a[i * n + i]);
        let terms = (i + 1..n).rev().filter(|&j| holds(i, j)).map(|j| {
            let (aij, xj) = (&a[i * n + j], &x[j]);
            quote!(- #aij * #xj)
        });
        quote!(let #xi = (#yi #(#terms)*) * #aii;)
    });
    let own = p.iter().enumerate().map(|(k, p)| {
        let k = Literal::f64_suffixed(k as f64);
        quote!(#p == #k)
    });
    let kb = 0..n;
    quote! {
        if #(#own)&&* {
            #(#forward)*
            #(#back)*
            #(#b = #x;)*
        } else {
            let mut b = [#(#b),*];
            ::sit_runtime::stage_solve_fixed(&[#(#a),*], &[#(#p),*], &mut b);
            #(#b = b[#kb];)*
        }
    }
}

/// The pattern of an iteration matrix as a hexadecimal literal (bit `i·n + j` for cell
/// `(i, j)`), which shows its rows' bits where a decimal number would not.
fn mask_literal(mask: u128) -> Literal {
    format!("0x{mask:x}")
        .parse()
        .expect("a hexadecimal integer is a literal")
}
