//! The source as a sequence of pieces: the parser's tokens, and the comments in the gaps between them.

use sit_parser::parse::{SourceToken, TokenKind};

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A token of the language (a `///` doc comment included).
    Token(TokenKind),
    /// A `//` comment (also `////...`), line end excluded.
    LineComment,
    /// A `/* ... */` comment (nested ones included).
    BlockComment,
}

/// A token or a comment, with the line ends before it in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text (trailing whitespace removed from comments).
    pub text: &'a str,
    /// Line ends between the previous piece (or the start) and this one.
    pub newlines: usize,
    /// Whether anything (whitespace) separates it from the previous piece.
    pub spaced: bool,
}

/// The pieces of `text`, whose tokens are `tokens` (from
/// [`sit_parser::parse::tokenize`]); the gaps between tokens hold only
/// whitespace and comments, which the lexer skipped.
pub(crate) fn pieces<'a>(text: &'a str, tokens: &[SourceToken]) -> Vec<Piece<'a>> {
    let mut out = Vec::with_capacity(tokens.len() * 2);
    let mut at = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    for t in tokens {
        gap(text, at, t.start, &mut out);
        let (newlines, spaced) = pending(&text[at..t.start]);
        let mut slice = &text[t.start..t.end];
        if t.kind == TokenKind::Doc {
            slice = slice.trim_end();
        }
        out.push(Piece {
            kind: Kind::Token(t.kind),
            text: slice,
            newlines,
            spaced,
        });
        at = t.end;
    }
    gap(text, at, text.len(), &mut out);
    out
}

/// Line ends in, and whether there is, the whitespace at the end of the gap
/// `ws` (after its last comment, whose own counts were pushed with it).
fn pending(ws: &str) -> (usize, bool) {
    let rest = &ws[ws.trim_end().len()..];
    (rest.matches('\n').count(), !rest.is_empty())
}

/// Push the comments of the gap `text[from..to]`, which holds only
/// whitespace and comments.
fn gap<'a>(text: &'a str, from: usize, to: usize, out: &mut Vec<Piece<'a>>) {
    let bytes = text.as_bytes();
    let mut i = from;
    let mut ws_start = from;
    while i < to {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            let end = text[i..to].find('\n').map_or(to, |p| i + p);
            push(text, ws_start, i, end, Kind::LineComment, out);
            i = end;
            ws_start = i;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let end = block_end(bytes, i, to);
            push(text, ws_start, i, end, Kind::BlockComment, out);
            i = end;
            ws_start = i;
        } else {
            i += 1;
        }
    }
}

fn push<'a>(
    text: &'a str,
    ws: usize,
    start: usize,
    end: usize,
    kind: Kind,
    out: &mut Vec<Piece<'a>>,
) {
    let before = &text[ws..start];
    out.push(Piece {
        kind,
        text: text[start..end].trim_end(),
        newlines: before.matches('\n').count(),
        spaced: !before.is_empty(),
    });
}

/// The end of the (nested) block comment opening at `from`, at most `to`.
fn block_end(bytes: &[u8], from: usize, to: usize) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < to {
        match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    to
}
