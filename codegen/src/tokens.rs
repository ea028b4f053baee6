//! Joining token streams by moving them: `quote!` copies every stream it interpolates.
//!
//! `quote!(#a #b)` clones the tokens of `a` and `b` (every identifier and literal is a
//! new allocation), and the generator nests streams several levels deep (operand,
//! expression, rule, guard, body, function), so a rule was copied at every level. These
//! helpers extend one stream in place instead; the tokens, and so the text, are the same.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

/// `a` followed by `b`.
pub(crate) fn cat(mut a: TokenStream, b: TokenStream) -> TokenStream {
    a.extend(b);
    a
}

/// `inner` in a group of `delimiter`: `{ inner }`, `( inner )`.
pub(crate) fn group(delimiter: Delimiter, inner: TokenStream) -> TokenTree {
    TokenTree::Group(Group::new(delimiter, inner))
}

/// `( inner )`, as a stream.
pub(crate) fn parens(inner: TokenStream) -> TokenStream {
    TokenStream::from(group(Delimiter::Parenthesis, inner))
}

/// The items separated by commas, without a trailing one: `quote!(#(#items),*)`.
pub(crate) fn commas(items: impl IntoIterator<Item = TokenStream>) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.extend(quote::quote!(,));
        }
        out.extend(item);
    }
    out
}
