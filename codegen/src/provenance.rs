//! Where generated code comes from: doc lines on items and comment markers in bodies.
//!
//! prettyplease drops comments (they are not tokens), so a comment inside a function is
//! emitted as a marker statement `__sit_comment!(N);` and replaced by `// text` after
//! formatting (see `format.rs`); doc lines are `#[doc]` attributes, which prettyplease
//! prints as `///` lines.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use sit_parser::lower::Stmt;
use sit_parser::{SourceMap, Span};

/// The name of the marker macro; no real macro has it (the markers never reach rustc).
pub(crate) const MARKER: &str = "__sit_comment";

/// Longest source excerpt shown in a comment or doc line, in characters.
const MAX_EXCERPT: usize = 100;

/// Comment texts of one generated file, referred to by marker statements.
#[derive(Debug, Default)]
pub(crate) struct Comments {
    /// The texts, by marker number.
    pub texts: Vec<String>,
}

impl Comments {
    /// A marker statement standing for the line comment `// text`.
    pub(crate) fn marker(&mut self, text: String) -> TokenStream {
        let n = Literal::usize_unsuffixed(self.texts.len());
        self.texts.push(comment_safe(&text));
        let name = proc_macro2::Ident::new(MARKER, proc_macro2::Span::call_site());
        quote!(#name!(#n);)
    }
}

/// Source locations and excerpts for generated comments.
pub(crate) struct Provenance<'a> {
    /// The program's files.
    pub sources: &'a SourceMap,
}

impl Provenance<'_> {
    /// The file name (without directories, so that output does not depend on where the
    /// project is checked out).
    pub(crate) fn file_name(&self, span: Span) -> String {
        let path = &self.sources.file(span.file).path;
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    }

    /// 1-based line of the span's start.
    pub(crate) fn line(&self, span: Span) -> usize {
        self.sources.line(span)
    }

    /// `hoop.sit:12`.
    pub(crate) fn location(&self, span: Span) -> String {
        format!("{}:{}", self.file_name(span), self.line(span))
    }

    /// The whole source line where `span` starts, trimmed, spaces collapsed.
    pub(crate) fn line_text(&self, span: Span) -> String {
        let file = self.sources.file(span.file);
        let text = &file.text;
        let start = span.start.min(text.len());
        let begin = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        excerpt(&text[begin..end], false)
    }

    /// The text the span covers, on one line, without `//` comments.
    pub(crate) fn span_text(&self, span: Span) -> String {
        excerpt(self.sources.text(span), true)
    }

    /// `hoop.sit:12: Fy = k_press * defl when braking;`: the comment of a rule.
    pub(crate) fn rule_note(&self, span: Span) -> String {
        format!("{}: {}", self.location(span), self.span_text(span))
    }

    /// `hoop.sit:12: <the whole line>`: the comment of a declaration, guard or action.
    pub(crate) fn line_note(&self, span: Span) -> String {
        format!("{}: {}", self.location(span), self.line_text(span))
    }

    /// The comment above a guard `s` (a [`Stmt::If`]): the rule's when the guard was
    /// written on one rule (`x = e when c;`), else the guard's line.
    pub(crate) fn guard_note(&self, s: &Stmt) -> String {
        match s {
            Stmt::If {
                then,
                one_rule: true,
                ..
            } if matches!(then.as_slice(), [Stmt::Assign(_)]) => match then.as_slice() {
                [Stmt::Assign(a)] => self.rule_note(a.span),
                _ => String::new(),
            },
            Stmt::If { span, .. }
            | Stmt::SetFlag { span, .. }
            | Stmt::Switch { span, .. }
            | Stmt::Reset { span, .. } => self.line_note(*span),
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => self.rule_note(a.span),
        }
    }

    /// `/// From hoop.sit line 12: `text`` as a doc attribute.
    pub(crate) fn provenance_doc(&self, span: Span, text: &str) -> TokenStream {
        let code = if text.contains('`') {
            format!("`` {text} ``")
        } else {
            format!("`{text}`")
        };
        doc(&format!(
            "From {} line {}: {code}",
            self.file_name(span),
            self.line(span)
        ))
    }
}

/// `#[doc = " text"]`.
pub(crate) fn doc(text: &str) -> TokenStream {
    let text = format!(" {}", comment_safe(text.trim_end()));
    quote!(#[doc = #text])
}

/// Doc attributes for the `///` lines of a `.sit` declaration, then a blank doc line
/// when there are any. The lines are Markdown about the model, not Rust: every fenced
/// code block is marked `text` so that rustdoc never runs it as a doctest, and a block
/// left open is closed (else it would swallow the provenance line).
pub(crate) fn docs(lines: &[String]) -> TokenStream {
    if lines.is_empty() {
        return TokenStream::new();
    }
    let mut open: Option<(char, usize)> = None;
    let mut texts = Vec::with_capacity(lines.len() + 1);
    for l in lines {
        let mut text = comment_safe(l.strip_prefix(' ').unwrap_or(l).trim_end());
        let body = text.trim_start();
        let indent = text.len() - body.len();
        if let Some((c, n)) = fence(body) {
            match open {
                None => {
                    text = format!("{}{}text", &text[..indent], c.to_string().repeat(n));
                    open = Some((c, n));
                }
                Some((oc, on))
                    if c == oc && n >= on && body[n * c.len_utf8()..].trim().is_empty() =>
                {
                    open = None;
                }
                Some(_) => {}
            }
        }
        texts.push(text);
    }
    if let Some((c, n)) = open {
        texts.push(c.to_string().repeat(n));
    }
    let attrs = texts.into_iter().map(|text| {
        let text = if text.is_empty() {
            text
        } else {
            format!(" {text}")
        };
        quote!(#[doc = #text])
    });
    quote!(#(#attrs)* #[doc = ""])
}

/// `text` made safe inside a `//` or `///` comment line: control characters (a bare
/// CR, which rustc refuses in doc comments, a line feed, NUL, ...) become spaces, tabs
/// excepted, and the bidirectional-text controls that rustc denies in comments
/// (`text_direction_codepoint_in_comment`) become U+FFFD.
pub(crate) fn comment_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => c,
            c if c.is_control() => ' ',
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// The fence character and length if `line` (without its indentation) starts a fenced
/// code block or closes one: three or more `` ` `` or `~`.
fn fence(line: &str) -> Option<(char, usize)> {
    let c = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let n = line.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// Source text on one line: spaces collapsed, `//` comments removed when asked, and at
/// most [`MAX_EXCERPT`] characters.
fn excerpt(text: &str, strip_comments: bool) -> String {
    let joined: Vec<&str> = text
        .lines()
        .map(|l| {
            if strip_comments {
                l.find("//").map_or(l, |i| &l[..i])
            } else {
                l
            }
        })
        .collect();
    let one = joined
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if one.chars().count() > MAX_EXCERPT {
        let mut cut: String = one.chars().take(MAX_EXCERPT).collect();
        cut.push('…');
        cut
    } else {
        one
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts() {
        assert_eq!(excerpt("  x =  1;   // c", false), "x = 1; // c");
        assert_eq!(excerpt("x =\n  1 // c\n  + 2;", true), "x = 1 + 2;");
        assert_eq!(excerpt(&"a".repeat(150), true).chars().count(), 101);
    }
}
