//! Diagnostics as JSON for the editor: the checker's own JSON, with offsets in the editor's units.

use serde_json::{Value, json};
use sit_middle::Report;
use std::path::Path;

/// Every diagnostic of `report` as `sitc check --format json` writes it (severity,
/// code, message, location with file, line, column and byte offsets, label, related
/// spans, notes, help), each with `from` and `to`: the span's offsets in UTF-16 code
/// units (a JavaScript string's) when it lies in the file at `path` (the editor's),
/// else `null`.
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
                    (utf16(text, d.span.start), utf16(text, d.span.end))
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
