//! A sparse iteration matrix's factorisation and solves as generated code: straight-line code over the cells of its pattern up to [`STRAIGHT_OPS`] operations, the runtime's loops over the pattern's index arrays above.
//!
//! Both forms make the operations of `sit_runtime::linear::sparse_factor_real` and
//! `sparse_solve_real` (or their complex twins) in the same order, so both give the
//! interpreter's bits: the straight-line form only unrolls the loops over a pattern
//! that is known when generating.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use sit_lir::SparseLu;

/// The most operations (divisions and multiply-subtracts of the factorisation) of a
/// pattern whose factorisation and solves are written out as straight-line code;
/// above, the generated step calls the runtime's loops over the pattern's index arrays,
/// so that the generated text stays a constant times the pattern's cells (docs/
/// performance.md, "Sparse iteration matrices").
pub(crate) const STRAIGHT_OPS: usize = 2000;

/// The operations of the factorisation on `lu`: per cell left of a diagonal, its
/// division and the updates by its pivot row.
fn ops(lu: &SparseLu) -> usize {
    let (rows, cols, diag) = (&lu.rows, &lu.cols, &lu.diag);
    (0..lu.order())
        .map(|i| {
            (rows[i] as usize..diag[i] as usize)
                .map(|p| {
                    let k = cols[p] as usize;
                    1 + rows[k + 1] as usize - diag[k] as usize - 1
                })
                .sum::<usize>()
        })
        .sum()
}

/// Whether `lu`'s factorisation and solves are written out as straight-line code.
pub(crate) fn straight(lu: &SparseLu) -> bool {
    ops(lu) <= STRAIGHT_OPS
}

/// The pattern as a constant of the runtime's `Symbolic` (its index arrays as
/// literals).
pub(crate) fn symbolic(lu: &SparseLu) -> TokenStream {
    let u = |v: &[u32]| {
        v.iter()
            .map(|&x| Literal::u32_unsuffixed(x))
            .collect::<Vec<_>>()
    };
    let (rows, cols, diag) = (u(&lu.rows), u(&lu.cols), u(&lu.diag));
    quote! {
        ::sit_runtime::linear::Symbolic {
            rows: &[#(#rows),*],
            cols: &[#(#cols),*],
            diag: &[#(#diag),*],
        }
    }
}

/// The updates of the factorisation in order: per row `i`, per cell `p` left of its
/// diagonal (column `k`), `(p, diag(k), [(q, r)])`: `l = a_p / a_diag(k)` stored in
/// `p`, then `a_q −= l·a_r` for each pair.
type Steps = Vec<(usize, Vec<(usize, usize, Vec<(usize, usize)>)>)>;

/// The factorisation's steps on `lu` (see [`Steps`]), the position of each row's
/// diagonal last in each row's entry; `None` if the pattern is not closed under
/// elimination (the runtime's loops then report it).
fn steps(lu: &SparseLu) -> Option<Steps> {
    let (rows, cols, diag) = (&lu.rows, &lu.cols, &lu.diag);
    let mut out = Vec::with_capacity(lu.order());
    for i in 0..lu.order() {
        let end = rows[i + 1] as usize;
        let mut row = Vec::new();
        for p in rows[i] as usize..diag[i] as usize {
            let k = cols[p] as usize;
            let mut q = p + 1;
            let mut pairs = Vec::new();
            for r in diag[k] as usize + 1..rows[k + 1] as usize {
                while q < end && cols[q] < cols[r] {
                    q += 1;
                }
                if q == end || cols[q] != cols[r] {
                    return None;
                }
                pairs.push((q, r));
            }
            row.push((p, diag[k] as usize, pairs));
        }
        out.push((diag[i] as usize, row));
    }
    Some(out)
}

/// The straight-line factorisation of the real matrix whose cells are `a` (in `lu`'s
/// order): an expression that is `true` with the factors written back, or `false` with
/// nothing written where a pivot is zero or not finite (the caller then calls the
/// runtime, which raises the fault). `None` for a malformed pattern.
pub(crate) fn factor_real(lu: &SparseLu, a: &[TokenStream]) -> Option<TokenStream> {
    let w = |p: usize| format_ident!("w{p}");
    let load = (0..a.len()).map(|p| {
        let (wp, ap) = (w(p), &a[p]);
        quote!(let #wp = #ap;)
    });
    let rows = steps(lu)?.into_iter().map(|(d, row)| {
        let cells = row.into_iter().map(|(p, k, pairs)| {
            let (wp, wk) = (w(p), w(k));
            let updates = pairs.into_iter().map(|(q, r)| {
                let (wq, wr) = (w(q), w(r));
                quote!(let #wq = #wq - l * #wr;)
            });
            quote! {
                let l = #wp / #wk;
                let #wp = l;
                #(#updates)*
            }
        });
        let wd = w(d);
        quote! {
            #(#cells)*
            if #wd == 0.0 || !#wd.is_finite() {
                break 'factor false;
            }
        }
    });
    let inverse = lu.diag.iter().map(|&d| {
        let wd = w(d as usize);
        quote!(let #wd = 1.0 / #wd;)
    });
    let store = (0..a.len()).map(|p| {
        let (wp, ap) = (w(p), &a[p]);
        quote!(#ap = #wp;)
    });
    Some(quote! {
        'factor: {
            #(#load)*
            #(#rows)*
            #(#inverse)*
            #(#store)*
            true
        }
    })
}

/// The straight-line solve with the real factors `a` of [`factor_real`], `b` the
/// right-hand side (which becomes the solution): `sparse_solve_real`'s substitutions
/// term by term.
pub(crate) fn solve_real(lu: &SparseLu, a: &[TokenStream], b: &[TokenStream]) -> TokenStream {
    let (rows, cols, diag) = (&lu.rows, &lu.cols, &lu.diag);
    let n = b.len();
    let y: Vec<_> = (0..n).map(|i| format_ident!("y{i}")).collect();
    let x: Vec<_> = (0..n).map(|i| format_ident!("x{i}")).collect();
    let forward = (0..n).map(|i| {
        let (yi, bi) = (&y[i], &b[i]);
        let terms = (rows[i] as usize..diag[i] as usize).map(|p| {
            let (ap, yj) = (&a[p], &y[cols[p] as usize]);
            quote!(- #ap * #yj)
        });
        quote!(let #yi = #bi #(#terms)*;)
    });
    let back = (0..n).rev().map(|i| {
        let d = diag[i] as usize;
        let (xi, yi, ad) = (&x[i], &y[i], &a[d]);
        let terms = (d + 1..rows[i + 1] as usize).rev().map(|p| {
            let (ap, xj) = (&a[p], &x[cols[p] as usize]);
            quote!(- #ap * #xj)
        });
        quote!(let #xi = (#yi #(#terms)*) * #ad;)
    });
    quote! {{
        #(#forward)*
        #(#back)*
        #(#b = #x;)*
    }}
}
