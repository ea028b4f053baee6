//! Syntax error messages: "expected …, found …", placed where the fix goes.

use super::keyword::Keyword;
use super::lexer::{Tok, Token};
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// What may start a member of a model.
pub(super) const MEMBER: &[&str] = &[
    "`event`",
    "`flag`",
    "`input`",
    "`output`",
    "`param`",
    "`pred`",
    "`real`",
    "`situation`",
    "`sub`",
    "`when`",
    "`}`",
    "a declaration",
    "a rule",
];

/// What may start a rule in a `when` block.
pub(super) const BLOCK_MEMBER: &[&str] = &["`when`", "`}`", "a rule"];

/// The E0001 error for `found` when one of `expected` was wanted. When `;`
/// is among them and `found` is on a later line than the token before it,
/// the error points just after that token: that is where the `;` is missing.
pub(super) fn syntax_error(
    file: FileId,
    text: &str,
    expected: &[&str],
    found: Token,
    prev_end: usize,
) -> Diagnostic {
    let mut expected: Vec<&str> = expected.to_vec();
    expected.sort_by_key(|s| (!s.starts_with('`'), *s));
    expected.dedup();
    let pos = found.start;
    let what = describe_found(text, found);
    let wants_semi = expected.contains(&"`;`");
    let list = join_or(&expected);
    let mut d = if wants_semi && prev_end > 0 && text[prev_end..pos].contains('\n') {
        let end = if text[prev_end..].starts_with(char::is_whitespace) {
            prev_end
        } else {
            next_char_end(text, prev_end)
        };
        Diagnostic::error(
            "E0001",
            Span::new(file, prev_end, end),
            format!("expected `;`, found {what}"),
        )
        .with_label("add `;` here")
    } else if expected.is_empty() {
        Diagnostic::error(
            "E0001",
            Span::new(file, pos, next_char_end(text, pos)),
            format!("unexpected {what}"),
        )
        .with_label("not expected here")
    } else {
        // An operator is underlined whole; a word by its first character.
        let end = match found.tok {
            Tok::Punct(_) => found.end,
            _ => next_char_end(text, pos),
        };
        Diagnostic::error(
            "E0001",
            Span::new(file, pos, end),
            format!("expected {list}, found {what}"),
        )
        .with_label(format!("expected {list}"))
    };
    if wants_semi {
        d = d.with_help("every declaration and rule ends with `;`");
    }
    if found.tok == Tok::Punct("==") && expected.contains(&"`=`") {
        d = d.with_help("a rule assigns with `=`; `==` compares");
    }
    if found.tok.is_word() {
        let word = &text[found.start..found.end];
        let keywords = Keyword::ALL.iter().map(|k| k.as_str());
        if let Some(k) = crate::suggest::did_you_mean(word, keywords)
            && expected.iter().any(|s| s.contains(&format!("`{k}`")))
        {
            d = d.with_help(format!("did you mean the keyword `{k}`?"));
        }
    }
    d
}

fn next_char_end(text: &str, pos: usize) -> usize {
    text.get(pos..)
        .and_then(|s| s.chars().next())
        .map_or(pos, |c| pos + c.len_utf8())
}

/// How a token is named in a message: `` `word` ``, `` `==` ``, "end of
/// file", "a NUL byte", "the control character U+0007".
fn describe_found(text: &str, found: Token) -> String {
    if found.tok == Tok::Eof {
        return "end of file".into();
    }
    let rest = &text[found.start..];
    let c = rest.chars().next().unwrap_or('\0');
    if c == '\0' {
        return "a NUL byte".into();
    }
    if c.is_control() {
        return format!("the control character U+{:04X}", c as u32);
    }
    match found.tok {
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Doc => "a doc comment".into(),
        Tok::Str => "a string".into(),
        _ => {
            let word: String = if unicode_ident::is_xid_continue(c) {
                rest.chars()
                    .take_while(|c| unicode_ident::is_xid_continue(*c))
                    .take(40)
                    .collect()
            } else {
                c.to_string()
            };
            format!("`{word}`")
        }
    }
}

fn join_or(items: &[&str]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].to_string(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}
