//! The lexer: source text to tokens in one pass, with comments, strings and bracket nesting.
//!
//! Every byte is looked at a bounded number of times, so lexing is linear in
//! the file's length whatever it holds. The lexer also finds what explains a
//! syntax error better than a list of expected tokens: an unterminated
//! comment or string and nesting past [`MAX_NESTING`] are errors of their own
//! (returned at once, before the recursive parser runs), and the first
//! unbalanced bracket is kept for the parser to report if it ends up
//! stopping at the end of the file.

// A lexing error ends the file's parse, so a `Diagnostic` is returned at
// most once per file: boxing it would buy nothing.
#![allow(clippy::result_large_err)]

use super::MAX_NESTING;
use super::keyword::Keyword;
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    /// A name: `(XID_Start | _) XID_Continue*`, other than a keyword.
    Ident,
    /// A keyword: a word of [`Keyword::ALL`].
    Keyword(Keyword),
    /// A real literal.
    Number,
    /// A string literal, quotes included.
    Str,
    /// A `///` doc comment line, slashes included, line end excluded.
    Doc,
    /// Punctuation and operators, by their text.
    Punct(&'static str),
    /// A character (or malformed literal) that starts no token.
    Unknown,
    /// The end of the file.
    Eof,
}

impl Tok {
    /// Whether it is a word: a name or a keyword. The parser reads a keyword
    /// where a name is expected as that name, for the checker to report it
    /// (E0103) with the declaration it was meant for.
    pub(super) fn is_word(self) -> bool {
        matches!(self, Tok::Ident | Tok::Keyword(_))
    }
}

/// A token and where it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    /// What it is.
    pub tok: Tok,
    /// Its first byte.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

/// The tokens of a file, ending with [`Tok::Eof`].
pub(super) struct Lexed {
    /// The tokens.
    pub tokens: Vec<Token>,
    /// The first unbalanced or mismatched bracket, if any.
    pub balance: Option<Diagnostic>,
}

/// Punctuation, longest first so that `==` is not read as `=` `=`.
const PUNCT: &[&str] = &[
    "=>", "->", "==", "!=", "<=", ">=", "||", "&&", "(", ")", "{", "}", "[", "]", ",", ";", ":",
    ".", "=", "!", "<", ">", "|", "&", "+", "-", "*", "/", "^", "#",
];

fn is_ident_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

fn is_ident_continue(c: char) -> bool {
    unicode_ident::is_xid_continue(c)
}

/// Split `text` into tokens; `Err` for an unterminated comment or string or
/// nesting deeper than [`MAX_NESTING`].
pub(super) fn lex(file: FileId, text: &str) -> Result<Lexed, Diagnostic> {
    let bytes = text.as_bytes();
    let at = |from: usize, len: usize| Span::new(file, from, from + len);
    let mut tokens = Vec::with_capacity(text.len() / 4 + 1);
    // Open brackets: (byte, offset).
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut balance: Option<Diagnostic> = None;
    // A byte-order mark at the start is not part of the text.
    let mut i = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0C => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = memchr_newline(bytes, i);
                // `///` is a doc comment; `////` and `//` are comments.
                let doc = bytes.get(i + 2) == Some(&b'/') && bytes.get(i + 3) != Some(&b'/');
                if doc {
                    tokens.push(Token {
                        tok: Tok::Doc,
                        start,
                        end,
                    });
                }
                i = end;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = block_comment(file, bytes, i)?;
                continue;
            }
            b'"' => {
                i = string(file, bytes, i)?;
                tokens.push(Token {
                    tok: Tok::Str,
                    start,
                    end: i,
                });
                continue;
            }
            b'0'..=b'9' | b'.' if number_end(text, i).is_some() => {
                let end = number_end(text, i).unwrap_or(i + 1);
                // A number glued to a name (`2x`) is neither.
                let rest = &text[end..];
                let (tok, end) = match rest.chars().next() {
                    Some(c) if is_ident_continue(c) => (Tok::Unknown, end + c.len_utf8()),
                    _ => (Tok::Number, end),
                };
                tokens.push(Token { tok, start, end });
                i = end;
                continue;
            }
            _ => {}
        }
        let ch = text[i..].chars().next().unwrap_or('\0');
        if is_ident_start(ch) {
            let len: usize = text[i..]
                .chars()
                .take_while(|c| is_ident_continue(*c))
                .map(char::len_utf8)
                .sum();
            let tok = Keyword::from_name(&text[i..i + len]).map_or(Tok::Ident, Tok::Keyword);
            i += len;
            tokens.push(Token { tok, start, end: i });
            continue;
        }
        let Some(p) = PUNCT.iter().find(|p| text[i..].starts_with(**p)) else {
            i += ch.len_utf8();
            tokens.push(Token {
                tok: Tok::Unknown,
                start,
                end: i,
            });
            continue;
        };
        i += p.len();
        tokens.push(Token {
            tok: Tok::Punct(p),
            start,
            end: i,
        });
        match c {
            b'(' | b'{' | b'[' => {
                open.push((c, start));
                if open.len() > MAX_NESTING {
                    return Err(too_deep(at(start, 1), "brackets are"));
                }
            }
            b')' | b'}' | b']' => {
                let want = match c {
                    b')' => b'(',
                    b'}' => b'{',
                    _ => b'[',
                };
                match open.pop() {
                    Some((o, _)) if o == want => {}
                    Some((o, pos)) => {
                        balance.get_or_insert_with(|| {
                            Diagnostic::error(
                                "E0006",
                                at(start, 1),
                                format!("`{}` does not close `{}`", c as char, o as char),
                            )
                            .with_label("mismatched closing bracket")
                            .with_related(at(pos, 1), "the bracket still open here")
                        });
                        // Keep counting as if it closed what it should have.
                    }
                    None => {
                        balance.get_or_insert_with(|| {
                            Diagnostic::error(
                                "E0006",
                                at(start, 1),
                                format!("unexpected `{}`: no bracket is open", c as char),
                            )
                            .with_label("nothing to close")
                        });
                    }
                }
            }
            _ => {}
        }
    }
    if balance.is_none()
        && let Some(&(c, pos)) = open.last()
    {
        let close = match c {
            b'(' => ')',
            b'{' => '}',
            _ => ']',
        };
        balance = Some(
            Diagnostic::error("E0006", at(pos, 1), format!("unclosed `{}`", c as char))
                .with_label(format!("this `{}` is never closed", c as char))
                .with_help(format!("add the missing `{close}`")),
        );
    }
    tokens.push(Token {
        tok: Tok::Eof,
        start: bytes.len(),
        end: bytes.len(),
    });
    Ok(Lexed { tokens, balance })
}

/// The offset of the line end at or after `from` (or the end of the text).
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

fn too_deep(span: Span, what: &str) -> Diagnostic {
    let help = if what == "comments are" {
        "a comment inside a comment is rarely needed: close the outer one first"
    } else {
        "split the expression with intermediate variables, or the nested `when` blocks with situations"
    };
    Diagnostic::error(
        "E0002",
        span,
        format!("{what} nested too deeply (the limit is {MAX_NESTING} levels)"),
    )
    .with_label("this level is one too many")
    .with_help(help)
}

/// Skip the block comment opening at `from` (comments nest, as in Rust);
/// returns the offset after its `*/`.
fn block_comment(file: FileId, bytes: &[u8], from: usize) -> Result<usize, Diagnostic> {
    let mut depth = 0usize;
    let mut i = from;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(Span::new(file, i, i + 1), "comments are"));
                }
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => i += 1,
        }
    }
    Err(Diagnostic::error(
        "E0006",
        Span::new(file, from, from + 2),
        "unterminated block comment",
    )
    .with_label("this `/*` is never closed")
    .with_note("block comments nest: every `/*` inside needs its own `*/`"))
}

/// Skip the string literal opening at `from`; returns the offset after its
/// closing quote. Strings hold any character but a line end, with `\"` and
/// `\\` as the only escapes.
fn string(file: FileId, bytes: &[u8], from: usize) -> Result<usize, Diagnostic> {
    let mut i = from + 1;
    while i < bytes.len() && bytes[i] != b'\n' {
        match bytes[i] {
            b'"' => return Ok(i + 1),
            b'\\' => match bytes.get(i + 1) {
                Some(b'"' | b'\\') => i += 2,
                _ => {
                    let len = bytes.get(i + 1).map_or(0, |&b| utf8_len(b));
                    return Err(Diagnostic::error(
                        "E0001",
                        Span::new(file, i, i + 1 + len),
                        "unknown escape in a string",
                    )
                    .with_label("not an escape")
                    .with_help("the only escapes are `\\\"` and `\\\\`"));
                }
            },
            _ => i += 1,
        }
    }
    Err(Diagnostic::error(
        "E0006",
        Span::new(file, from, from + 1),
        "unterminated string",
    )
    .with_label("this string has no closing `\"` on its line")
    .with_help("close it with `\"`; strings cannot span lines"))
}

/// The byte length of the UTF-8 character starting with byte `b`, or 0 for a
/// line end (which an escape does not take).
fn utf8_len(b: u8) -> usize {
    match b {
        b'\n' => 0,
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// The end of the real literal starting at `from`, if one does: `1`, `2.5`,
/// `1.`, `.5`, `1e-3`, `6.02E23`.
fn number_end(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = digits(from);
    if i > from {
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1);
        }
    } else if b.get(from) == Some(&b'.') && b.get(from + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(from + 1);
    } else {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let k = digits(j);
        if k > j {
            i = k;
        }
    }
    Some(i)
}
