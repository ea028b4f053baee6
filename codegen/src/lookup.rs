//! Lookup tables in generated code: the data as `static` arrays next to the call of `sit_runtime::table::lookup1`/`lookup2` (or, for an implicit method's Jacobian, `slope1`/`slope2_x`/`slope2_y`).

use crate::expr::num;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_lir::{Beyond, LookupTable};
use syn::Expr;

/// `[x0, x1, …]` with each number written to read back exactly.
pub(crate) fn array(xs: &[f64]) -> TokenStream {
    let items = xs.iter().map(|x| num(*x).0);
    quote!([#(#items),*])
}

/// The block reading table `t` at `args` (one per grid): its arrays as `static`s local
/// to the block (one copy in the binary, no work at run time), then the runtime call.
pub(crate) fn read(t: &LookupTable, args: Vec<Expr>) -> Expr {
    let name = if t.grids.len() == 1 {
        "lookup1"
    } else {
        "lookup2"
    };
    call(t, args, name)
}

/// The block reading the slope of table `t` along argument `axis` at `args`, as
/// [`read`] does its value: `sit_runtime::table::slope1`, `slope2_x` or `slope2_y`.
pub(crate) fn slope(t: &LookupTable, axis: usize, args: Vec<Expr>) -> Expr {
    match (t.grids.len(), axis) {
        (1, 0) => call(t, args, "slope1"),
        (2, 0) => call(t, args, "slope2_x"),
        (2, 1) => call(t, args, "slope2_y"),
        // The lowering checks the axis, so this is not reached: a NaN, not a panic.
        _ => syn::parse_quote!(f64::NAN),
    }
}

/// The block calling `sit_runtime::table::NAME` (a function of the table's arity) with
/// the table's data as `static` arrays and `args`.
fn call(t: &LookupTable, args: Vec<Expr>, name: &str) -> Expr {
    let f = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
    let beyond = match t.beyond {
        Beyond::Clamp => quote!(Clamp),
        Beyond::Extrapolate => quote!(Extrapolate),
    };
    let beyond = quote!(::sit_runtime::table::Beyond::#beyond);
    let len = |n: usize| Literal::usize_unsuffixed(n);
    let values = array(&t.values);
    let nv = len(t.values.len());
    match (t.grids.as_slice(), args.as_slice()) {
        ([g], [x]) => {
            let (grid, n) = (array(g), len(g.len()));
            syn::parse_quote!({
                static GRID: [f64; #n] = #grid;
                static VALUES: [f64; #nv] = #values;
                ::sit_runtime::table::#f(&GRID, &VALUES, #beyond, #x)
            })
        }
        ([g1, g2], [x, y]) => {
            let (grid1, n1) = (array(g1), len(g1.len()));
            let (grid2, n2) = (array(g2), len(g2.len()));
            syn::parse_quote!({
                static GRID1: [f64; #n1] = #grid1;
                static GRID2: [f64; #n2] = #grid2;
                static VALUES: [f64; #nv] = #values;
                ::sit_runtime::table::#f(&GRID1, &GRID2, &VALUES, #beyond, #x, #y)
            })
        }
        // The lowering checks the arity, so this is not reached: a NaN, not a panic.
        _ => syn::parse_quote!(f64::NAN),
    }
}
