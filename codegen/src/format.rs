//! Tokens to the final text: prettyplease, blank lines between items, comment markers.

use crate::provenance::{Comments, MARKER};
use proc_macro2::TokenStream;

/// Why tokens could not be formatted (a bug of the generator, never of the model).
#[derive(Debug)]
pub(crate) struct FormatError(pub String);

/// Formats `tokens` as a file: prettyplease, then `// text` for each comment marker and
/// a blank line between items.
pub(crate) fn format(tokens: TokenStream, comments: &Comments) -> Result<String, FormatError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| FormatError(e.to_string()))?;
    let pretty = prettyplease::unparse(&file);
    Ok(post_process(&pretty, comments))
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
