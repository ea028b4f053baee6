//! Diagnostics as JSON for the editor: the checker's own JSON, with offsets in the editor's units.

use serde_json::{Value, json};
use sit_middle::Report;
use std::path::Path;

/// Every diagnostic of `report` as `sitc check --format json` writes it (severity,
/// code, message, location with file, line, column and byte offsets, label, related
/// spans, notes, help), each with `from` and `to`: the span's offsets in UTF-16 code
/// units (a JavaScript string's) when it lies in the file at `path` (the editor's),
/// else `null`. An empty span (a missing `;` is one, between two tokens) gives the
/// range of the token after it (before it at the end of the text), so that the editor
/// underlines something; `location` keeps the span's own line and column.
pub fn to_json(report: &Report, path: &str) -> Vec<Value> {
    let main = report
        .sources
        .files
        .iter()
        .position(|f| f.path == Path::new(path));
    report
        .diagnostics
        .iter()
        .zip(report.to_json())
        .map(|(d, mut value)| {
            let (from, to) = match main {
                Some(file) if d.span.file == file => {
                    let text = &report.sources.file(file).text;
                    let (start, end) = underlined(text, d.span.start, d.span.end);
                    (utf16(text, start), utf16(text, end))
                }
                _ => (Value::Null, Value::Null),
            };
            value["from"] = from;
            value["to"] = to;
            value["rendered"] = json!(d.render(&report.sources));
            value
        })
        .collect()
}

/// The byte range to underline for the span `start..end` of `text`: the span, or for
/// an empty one the next token (the last one when none follows; one character when the
/// text does not lex); an empty text has nothing to underline.
fn underlined(text: &str, start: usize, end: usize) -> (usize, usize) {
    if end > start {
        return (start, end);
    }
    let tokens = crate::front::tokens(text);
    if let Some(t) = (tokens.iter().find(|t| t.start >= start)).or(tokens.last()) {
        return (t.start, t.end);
    }
    // No token: a character beside the position.
    let at = start.min(text.len());
    let next = text[at..].chars().next().map(|c| (at, at + c.len_utf8()));
    let before = text[..at]
        .chars()
        .next_back()
        .map(|c| (at - c.len_utf8(), at));
    next.or(before).unwrap_or((at, at))
}

/// The UTF-16 offset of byte `offset` of `text` (clamped to the text).
fn utf16(text: &str, offset: usize) -> Value {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    json!(text[..offset].encode_utf16().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing `;` is an empty span: the editor underlines the token after it.
    #[test]
    fn an_empty_span_underlines_the_next_token() {
        let text = "model M {\n    output real x\n    x = 1;\n}\n";
        let out = crate::check("m.sit", text, &crate::files::Files::new());
        let d = &out["diagnostics"][0];
        assert_eq!(d["severity"], "error", "{d}");
        let (from, to) = (d["from"].as_u64().unwrap(), d["to"].as_u64().unwrap());
        assert!(to > from, "{d}");
        assert_eq!(&text[from as usize..to as usize], "x", "{d}");
        assert_eq!(
            d["location"]["line"], 2,
            "the position stays the span's: {d}"
        );
        // At the end of the text: the last token.
        assert_eq!(underlined("a b", 3, 3), (2, 3));
        assert_eq!(underlined("a b", 1, 1), (2, 3));
        // A text that does not lex: one character.
        assert_eq!(underlined("/* é", 2, 2), (2, 3));
        assert_eq!(underlined("/* é", 5, 5), (3, 5));
        assert_eq!(underlined("", 0, 0), (0, 0));
        assert_eq!(underlined("ab", 0, 2), (0, 2));
    }

    #[test]
    fn offsets_count_utf16_units() {
        assert_eq!(utf16("aé𝄞b", 0), json!(0));
        assert_eq!(utf16("aé𝄞b", 3), json!(2));
        assert_eq!(utf16("aé𝄞b", 7), json!(4));
        assert_eq!(utf16("aé𝄞b", 8), json!(5));
        assert_eq!(utf16("aé𝄞b", 99), json!(5));
        // Inside a character: its start.
        assert_eq!(utf16("aé", 2), json!(1));
    }
}
