//! The token stream of a file for tools (formatter, language server): the lexer's tokens, made public.

use super::keyword::Keyword;
use super::lexer::{self, Tok};
use crate::diag::Diagnostic;
use crate::source::FileId;

/// What a source token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A name (any word but a keyword).
    Ident,
    /// A keyword.
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
}

impl TokenKind {
    /// Whether it is a word: a name or a keyword.
    pub fn is_word(self) -> bool {
        matches!(self, TokenKind::Ident | TokenKind::Keyword(_))
    }

    /// The keyword it is, if it is one.
    pub fn keyword(self) -> Option<Keyword> {
        match self {
            TokenKind::Keyword(k) => Some(k),
            _ => None,
        }
    }
}

/// A token and its byte range in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceToken {
    /// What it is.
    pub kind: TokenKind,
    /// Its first byte.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

/// The tokens of `text` in order, without the end of file. Whitespace and
/// comments (other than `///` doc comments) lie in the gaps between them.
/// `Err` for an unterminated comment or string, or nesting too deep.
// Lexing fails at most once per file, as in `lexer`: boxing would buy nothing.
#[allow(clippy::result_large_err)]
pub fn tokenize(file: FileId, text: &str) -> Result<Vec<SourceToken>, Diagnostic> {
    let lexed = lexer::lex(file, text)?;
    Ok(lexed
        .tokens
        .iter()
        .filter_map(|t| {
            let kind = match t.tok {
                Tok::Ident => TokenKind::Ident,
                Tok::Keyword(k) => TokenKind::Keyword(k),
                Tok::Number => TokenKind::Number,
                Tok::Str => TokenKind::Str,
                Tok::Doc => TokenKind::Doc,
                Tok::Punct(p) => TokenKind::Punct(p),
                Tok::Unknown => TokenKind::Unknown,
                Tok::Eof => return None,
            };
            Some(SourceToken {
                kind,
                start: t.start,
                end: t.end,
            })
        })
        .collect())
}
