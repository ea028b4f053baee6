//! Tokens to the final text: prettyplease, blank lines between items, comment markers.

use crate::provenance::{Comments, MARKER, SPLICE};
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

/// Why tokens could not be formatted (a bug of the generator, never of the model).
#[derive(Debug)]
pub(crate) struct FormatError(pub String);

/// Formats `tokens` as a file: prettyplease, then `// text` for each comment marker and
/// a blank line between items.
///
/// The file is parsed and printed piece by piece: each top-level item, and each item of
/// an `impl` block on its own (prettyplease prints a file as its items one after the
/// other, and an `impl` as its items one after the other, so the text is the same as
/// printing the whole file at once). Each syntax tree is dropped once printed, so at most
/// one function's tree is alive rather than the whole file's: for a model of 10 000
/// rules, whose `impl` holds most of the file, that was most of the memory `emit` used.
///
/// A statement `__sit_stmts!(N);` at the top of a method's body is replaced by the
/// statements `comments.stmts[N]`, built as syntax trees rather than parsed.
pub(crate) fn format(tokens: TokenStream, comments: &mut Comments) -> Result<String, FormatError> {
    let mut pretty = String::new();
    for item in split_items(tokens) {
        print_item(item, comments, &mut pretty)?;
    }
    Ok(post_process(&pretty, comments))
}

/// Appends the text of one top-level item; an `impl` block is printed item by item.
fn print_item(item: Piece, comments: &mut Comments, out: &mut String) -> Result<(), FormatError> {
    let parse_err = |e: syn::Error| FormatError(e.to_string());
    let Piece {
        mut tokens,
        kind: Kind::Impl,
    } = item
    else {
        let item: syn::Item = syn::parse2(item.tokens.into_iter().collect()).map_err(parse_err)?;
        out.push_str(&unparse_item(item));
        return Ok(());
    };
    let Some(TokenTree::Group(body)) = tokens.pop() else {
        return Err(FormatError("an `impl` without a body".into()));
    };
    let mut members = split_items(body.stream()).into_iter();
    // The header with the first member, as prettyplease prints it...
    let first: TokenStream = members
        .next()
        .map(|m| m.tokens.into_iter().collect())
        .unwrap_or_default();
    let header = Group::new(Delimiter::Brace, first);
    tokens.push(TokenTree::Group(header));
    let mut item: syn::Item = syn::parse2(tokens.into_iter().collect()).map_err(parse_err)?;
    if let syn::Item::Impl(imp) = &mut item {
        for member in &mut imp.items {
            splice(member, comments)?;
        }
    }
    let text = unparse_item(item);
    let Some(open) = text.strip_suffix("}\n") else {
        out.push_str(&text);
        return Ok(());
    };
    out.push_str(open);
    // ...then every other member as it is printed inside an `impl` (indented), without
    // the `impl` line and the closing brace of the block it is printed in.
    let empty: syn::ItemImpl = syn::parse_quote!(impl S {});
    for member in members {
        let mut member: syn::ImplItem =
            syn::parse2(member.tokens.into_iter().collect()).map_err(parse_err)?;
        splice(&mut member, comments)?;
        let block = unparse_item(syn::Item::Impl(syn::ItemImpl {
            items: vec![member],
            ..empty.clone()
        }));
        let inner = block
            .split_once('\n')
            .and_then(|(_, rest)| rest.strip_suffix("}\n"))
            .ok_or_else(|| FormatError(format!("unexpected impl text: {block}")))?;
        out.push_str(inner);
    }
    out.push_str("}\n");
    Ok(())
}

/// Replaces the splice statements at the top of a method's body by their statements.
fn splice(member: &mut syn::ImplItem, comments: &mut Comments) -> Result<(), FormatError> {
    let syn::ImplItem::Fn(f) = member else {
        return Ok(());
    };
    let is_splice = |s: &syn::Stmt| matches!(s, syn::Stmt::Macro(m) if m.mac.path.is_ident(SPLICE));
    if !f.block.stmts.iter().any(is_splice) {
        return Ok(());
    }
    let mut stmts = Vec::new();
    for s in std::mem::take(&mut f.block.stmts) {
        let syn::Stmt::Macro(m) = &s else {
            stmts.push(s);
            continue;
        };
        if !m.mac.path.is_ident(SPLICE) {
            stmts.push(s);
            continue;
        }
        let spliced = m
            .mac
            .parse_body::<syn::LitInt>()
            .ok()
            .and_then(|n| n.base10_parse::<usize>().ok())
            .and_then(|n| comments.stmts.get_mut(n))
            .ok_or_else(|| FormatError(format!("a splice without statements: {}", m.mac.tokens)))?;
        stmts.append(spliced);
    }
    f.block.stmts = stmts;
    Ok(())
}

/// prettyplease's text of a file holding only `item`.
fn unparse_item(item: syn::Item) -> String {
    prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![item],
    })
}

/// The tokens of one item, and what ends it.
struct Piece {
    tokens: Vec<TokenTree>,
    kind: Kind,
}

/// How an item ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Not known yet (attributes, visibility, qualifiers so far).
    Unknown,
    /// At a `;` (`const`, `static`, `type`, `use`): braces inside are expressions.
    Semicolon,
    /// At its `{ ... }` body, or a `;` (`fn`, `struct`, `enum`, `mod`, `trait`).
    Body,
    /// An `impl` block, at its body.
    Impl,
}

/// Cuts a stream of items (of a file or of an `impl` block, as the generator emits them)
/// at the end of each item, without parsing them.
fn split_items(tokens: TokenStream) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    let mut kind = Kind::Unknown;
    let mut after_const = false;
    for tt in tokens {
        let end = match &tt {
            TokenTree::Punct(p) => p.as_char() == ';',
            TokenTree::Group(g) => g.delimiter() == Delimiter::Brace && kind != Kind::Semicolon,
            TokenTree::Ident(i) => {
                let name = i.to_string();
                match (kind, name.as_str()) {
                    // `const fn` is a function.
                    (Kind::Semicolon, "fn") if after_const => kind = Kind::Body,
                    (Kind::Unknown, "pub" | "unsafe" | "async" | "extern" | "default") => {}
                    (Kind::Unknown, "const" | "static" | "type" | "use") => kind = Kind::Semicolon,
                    (Kind::Unknown, "impl") => kind = Kind::Impl,
                    (Kind::Unknown, _) => kind = Kind::Body,
                    _ => {}
                }
                after_const = name == "const";
                false
            }
            TokenTree::Literal(_) => false,
        };
        if !matches!(tt, TokenTree::Ident(_)) {
            after_const = false;
        }
        current.push(tt);
        if end {
            pieces.push(Piece {
                tokens: std::mem::take(&mut current),
                kind,
            });
            kind = Kind::Unknown;
        }
    }
    if !current.is_empty() {
        pieces.push(Piece {
            tokens: current,
            kind,
        });
    }
    pieces
}

/// Whether a trimmed line starts an item (or a field) at the levels that get blank lines.
fn starts_item(trimmed: &str) -> bool {
    ["#[", "///", "pub ", "fn ", "impl", "const ", "struct "]
        .iter()
        .any(|p| trimmed.starts_with(p))
}

/// Replaces marker lines by comments and separates items with blank lines.
fn post_process(pretty: &str, comments: &Comments) -> String {
    let marker = format!("{MARKER}!(");
    let mut out = String::with_capacity(pretty.len() + pretty.len() / 8);
    let mut prev: Option<(usize, &str)> = None;
    for line in pretty.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix(&marker) {
            let text = rest
                .strip_suffix(");")
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| comments.texts.get(n));
            if let Some(text) = text {
                out.push_str(&line[..indent]);
                out.push_str("// ");
                out.push_str(text);
                out.push('\n');
                prev = Some((indent, "//"));
                continue;
            }
        }
        if let Some((p_indent, p_trimmed)) = prev {
            let ends_item = p_trimmed.ends_with('}')
                || p_trimmed.ends_with(';')
                || (p_trimmed.ends_with(',') && indent == 4);
            let is_attr_or_doc = p_trimmed.starts_with("#[") || p_trimmed.starts_with("///");
            if (indent == 0 || indent == 4)
                && p_indent == indent
                && ends_item
                && !is_attr_or_doc
                && starts_item(trimmed)
            {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some((indent, trimmed));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// The kinds and token counts of the pieces.
    fn pieces(tokens: TokenStream) -> Vec<(Kind, usize)> {
        split_items(tokens)
            .into_iter()
            .map(|p| (p.kind, p.tokens.len()))
            .collect()
    }

    #[test]
    fn items_are_cut_where_they_end() {
        let tokens = quote! {
            #[derive(Debug)] pub struct A { x: f64 }
            pub struct B;
            const C: A = A { x: 1.0 };
            pub const fn d() -> [f64; 2] { [0.0; 2] }
            impl<const N: usize> A { fn e() {} }
        };
        assert_eq!(
            pieces(tokens),
            [
                (Kind::Body, 6),
                (Kind::Body, 4),
                (Kind::Semicolon, 8),
                (Kind::Body, 9),
                (Kind::Impl, 9),
            ]
        );
    }

    #[test]
    fn an_impl_prints_as_a_whole() {
        let tokens = quote! {
            #[allow(dead_code)]
            impl<const N: usize> A<N> {
                pub const K: usize = N;
                #[inline(never)]
                fn step_part_0(&mut self, dt: f64) { self.x += dt * [1.0, 2.0][0]; }
                fn f(&self) -> f64 { match 1 { 1 => 2.0, _ => 3.0 } }
            }
            impl B {}
        };
        let whole = prettyplease::unparse(&syn::parse2(tokens.clone()).unwrap());
        assert_eq!(
            format(tokens, &mut Comments::default()).unwrap(),
            post_process(&whole, &Comments::default())
        );
    }
}
