//! Highlighting for the editor: the lexer's tokens classed, with offsets in UTF-16 units.

use crate::front;
use serde_json::{Value, json};
use sit_middle::parse::TokenKind;

/// The highlighted ranges of `text` as `[from, to, class]` triples (UTF-16 offsets;
/// classes `keyword`, `call`, `number`, `string`, `doc`, `comment`), in order; a text
/// that does not lex (an unterminated comment or string) has none.
pub fn highlight(text: &str) -> Value {
    let tokens = front::tokens(text);
    let mut out = Vec::new();
    let mut units = Utf16::new(text);
    let mut gap_start = 0;
    for (i, t) in tokens.iter().enumerate() {
        comments(text, gap_start, t.start, &mut units, &mut out);
        gap_start = t.end;
        let word = &text[t.start..t.end];
        let class = match t.kind {
            TokenKind::Keyword(_) => "keyword",
            TokenKind::Ident if front::is_keyword(word) => "keyword",
            TokenKind::Ident
                if tokens
                    .get(i + 1)
                    .is_some_and(|n| n.kind == TokenKind::Punct("(")) =>
            {
                "call"
            }
            TokenKind::Number => "number",
            TokenKind::Str => "string",
            TokenKind::Doc => "doc",
            _ => continue,
        };
        out.push(json!([units.at(t.start), units.at(t.end), class]));
    }
    if !tokens.is_empty() || text.trim().is_empty() {
        comments(text, gap_start, text.len(), &mut units, &mut out);
    }
    Value::Array(out)
}

/// The `//` and `/* */` comments in the gap `text[start..end]` between two tokens.
fn comments(text: &str, start: usize, end: usize, units: &mut Utf16, out: &mut Vec<Value>) {
    let gap = &text[start..end];
    let mut at = 0;
    while let Some(found) = gap[at..].find('/') {
        let from = at + found;
        let rest = &gap[from..];
        let len = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |e| e + 2)
        } else {
            at = from + 1;
            continue;
        };
        out.push(json!([
            units.at(start + from),
            units.at(start + from + len),
            "comment"
        ]));
        at = from + len;
    }
}

/// Byte offsets to UTF-16 offsets, for offsets asked in increasing order.
struct Utf16<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

impl<'a> Utf16<'a> {
    fn new(text: &'a str) -> Utf16<'a> {
        Utf16 {
            text,
            byte: 0,
            unit: 0,
        }
    }

    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.unit = 0;
        }
        self.unit += self.text[self.byte..byte].encode_utf16().count();
        self.byte = byte;
        self.unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_classed() {
        let text = "/// é doc\nmodel M { // note\n  output real x = sin(1.5); /* c */ }\n";
        let h = highlight(text);
        let classes: Vec<(String, &str)> = h
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let (from, to) = (
                    t[0].as_u64().unwrap() as usize,
                    t[1].as_u64().unwrap() as usize,
                );
                let units: Vec<u16> = text.encode_utf16().collect();
                (
                    String::from_utf16(&units[from..to]).unwrap(),
                    t[2].as_str().unwrap(),
                )
            })
            .collect();
        let want = [
            ("/// é doc", "doc"),
            ("model", "keyword"),
            ("// note", "comment"),
            ("output", "keyword"),
            ("real", "keyword"),
            ("sin", "call"),
            ("1.5", "number"),
            ("/* c */", "comment"),
        ];
        let want: Vec<(String, &str)> = want.iter().map(|(a, b)| (a.to_string(), *b)).collect();
        assert_eq!(classes, want);
        assert_eq!(highlight("model M { /* open"), json!([]));
    }
}
