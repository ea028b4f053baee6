//! Signature help: the procedure call around the cursor, its signature, and the argument being typed.

use crate::index::Index;
use crate::procs;
use lsp_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureInformation,
};

/// `textDocument/signatureHelp` at byte `offset` of the indexed text: the
/// innermost call of a procedure whose `(` is before `offset` and not yet
/// closed, in the same statement.
pub(crate) fn help(ix: &Index, offset: usize) -> Option<SignatureHelp> {
    let before = ix.tokens.partition_point(|t| t.end <= offset);
    let mut depth = 0usize;
    let mut commas = 0u32;
    for i in (0..before).rev() {
        match ix.tok(i) {
            ")" | "]" => depth += 1,
            "(" | "[" if depth > 0 => depth -= 1,
            "(" => {
                let name = i.checked_sub(1).filter(|&n| {
                    ix.tokens[n].kind.is_word() && procs::names().contains(&ix.tok(n))
                });
                if let Some(n) = name {
                    return Some(signature(ix.tok(n), commas));
                }
                // A bracket of grouping: the call may be further out.
                commas = 0;
            }
            "[" => commas = 0,
            "," if depth == 0 => commas += 1,
            ";" | "{" | "}" => return None,
            _ => {}
        }
    }
    None
}

/// The signature of procedure `name`, with argument `active` (from 0)
/// being typed.
fn signature(name: &str, active: u32) -> SignatureHelp {
    let (label, meaning) = procs::describe(name).unwrap_or_else(|| (name.into(), String::new()));
    let params: Vec<ParameterInformation> = label
        .find('(')
        .and_then(|open| label[open + 1..].strip_suffix(')'))
        .map(|inner| {
            inner
                .split(", ")
                .map(|p| ParameterInformation {
                    label: ParameterLabel::Simple(p.to_string()),
                    documentation: None,
                })
                .collect()
        })
        .unwrap_or_default();
    let active = active.min(params.len().saturating_sub(1) as u32);
    SignatureHelp {
        signatures: vec![SignatureInformation {
            label,
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: meaning,
            })),
            parameters: Some(params),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature and active argument at the `|` of `text`.
    fn at(text: &str) -> Option<(String, u32)> {
        let offset = text.find('|').unwrap();
        let text = text.replace('|', "");
        let h = help(&Index::new(&text), offset)?;
        Some((h.signatures[0].label.clone(), h.active_parameter.unwrap()))
    }

    #[test]
    fn the_innermost_open_call_and_its_argument() {
        assert_eq!(at("model M { x = max(|"), Some(("max(a, b)".into(), 0)));
        assert_eq!(at("model M { x = max(1, |"), Some(("max(a, b)".into(), 1)));
        assert_eq!(
            at("model M { x = limit(a, min(b, c), (d + |"),
            Some(("limit(x, lo, hi)".into(), 2))
        );
        assert_eq!(
            at("model M { x = max(min(1, |2), 3); }"),
            Some(("min(a, b)".into(), 1))
        );
        assert_eq!(at("model M { x = max(1, 2)|; }"), None, "closed");
        assert_eq!(at("model M { x = (1, |"), None, "not a call");
        assert_eq!(at("model M { x = max(1; y = |"), None, "another statement");
        assert_eq!(at("model M { x = sin(1, 2, |"), Some(("sin(x)".into(), 0)));
    }
}
