//! Where generated code comes from: doc lines on items and comment markers in bodies.
//!
//! prettyplease drops comments (they are not tokens), so a comment inside a function is
//! emitted as a marker statement `__sit_comment!(N);` and replaced by `// text` after
//! formatting (see `format.rs`); doc lines are `#[doc]` attributes, which prettyplease
//! prints as `///` lines.

use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::quote;
use sit_lir::Stmt;
use sit_lir::{SourceMap, Span};

/// The name of the marker macro; no real macro has it (the markers never reach rustc).
pub(crate) const MARKER: &str = "__sit_comment";

/// Longest source excerpt shown in a comment or doc line, in characters.
const MAX_EXCERPT: usize = 100;

/// The name of the statement standing for a list of statements built as syntax trees
/// (`__sit_stmts!(N);`), which `format` replaces by them.
pub(crate) const SPLICE: &str = "__sit_stmts";

/// Comment texts of one generated file, referred to by marker statements, and the
/// statements built as syntax trees, referred to by splice statements.
#[derive(Default)]
pub(crate) struct Comments {
    /// The texts, by marker number.
    pub texts: Vec<String>,
    /// The statement lists, by splice number (taken when formatted).
    pub stmts: Vec<Vec<syn::Stmt>>,
}

impl Comments {
    /// A marker statement standing for the line comment `// text`.
    pub(crate) fn marker(&mut self, text: String) -> TokenStream {
        let n = Literal::usize_unsuffixed(self.texts.len());
        self.texts.push(comment_safe(&text));
        let name = proc_macro2::Ident::new(MARKER, proc_macro2::Span::call_site());
        quote!(#name!(#n);)
    }

    /// The marker statement of [`Comments::marker`], as a syntax tree.
    pub(crate) fn marker_stmt(&mut self, text: String) -> syn::Stmt {
        let n = Literal::usize_unsuffixed(self.texts.len());
        self.texts.push(comment_safe(&text));
        crate::ast::macro_stmt(MARKER, TokenTree::Literal(n).into())
    }

    /// A statement that `format` replaces by `stmts`.
    pub(crate) fn splice(&mut self, stmts: Vec<syn::Stmt>) -> TokenStream {
        let n = Literal::usize_unsuffixed(self.stmts.len());
        self.stmts.push(stmts);
        let name = proc_macro2::Ident::new(SPLICE, proc_macro2::Span::call_site());
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

    /// The whole source line where `span` starts, trimmed, spaces collapsed (read only
    /// as far as the excerpt reaches).
    pub(crate) fn line_text(&self, span: Span) -> String {
        let file = self.sources.file(span.file);
        let begin = file.line_start(span.start);
        let mut e = Excerpt::default();
        e.push(file.text[begin..].chars().take_while(|&c| c != '\n'));
        e.out
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
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => self.rule_note(a.span),
            other => self.line_note(other.span()),
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

/// `text` with its square brackets escaped, so that rustdoc reads `T[1]` as text
/// rather than as an intra-doc link to `1`.
pub(crate) fn not_links(text: &str) -> String {
    text.replace('[', "\\[").replace(']', "\\]")
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
/// most [`MAX_EXCERPT`] characters (then `…`).
fn excerpt(text: &str, strip_comments: bool) -> String {
    let mut e = Excerpt::default();
    for l in text.lines() {
        let l = if strip_comments {
            l.find("//").map_or(l, |i| &l[..i])
        } else {
            l
        };
        if !e.push(l.chars().chain([' '])) {
            break;
        }
    }
    e.out
}

/// An excerpt being built: whitespace runs collapsed to one space, none at the ends, cut
/// after [`MAX_EXCERPT`] characters. It reads only as far as the excerpt reaches, so
/// that the excerpt of a declaration on a very long line (a whole model on one line)
/// costs the excerpt, not the line, and a file's comments cost time linear in its size.
#[derive(Default)]
struct Excerpt {
    out: String,
    chars: usize,
    space: bool,
}

impl Excerpt {
    /// Adds `text`; false once the excerpt is full (and ends with `…`).
    fn push(&mut self, text: impl Iterator<Item = char>) -> bool {
        for c in text {
            if c.is_whitespace() {
                self.space = self.chars > 0;
                continue;
            }
            let space = std::mem::take(&mut self.space).then_some(' ');
            for c in space.into_iter().chain([c]) {
                if self.chars == MAX_EXCERPT {
                    self.out.push('…');
                    return false;
                }
                self.out.push(c);
                self.chars += 1;
            }
        }
        true
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
        assert_eq!(excerpt(&"a".repeat(100), true), "a".repeat(100));
        // The 101st character is the space between two words: still cut.
        let two = format!("{} b", "a".repeat(100));
        assert_eq!(excerpt(&two, false), format!("{}…", "a".repeat(100)));
        assert_eq!(excerpt(" \n x\r\n\t y // z\n", true), "x y");
    }

    /// The excerpt as first written (join every line, collapse, cut): the reading-only-
    /// what-is-needed version must give the same text.
    fn excerpt_whole(text: &str, strip_comments: bool) -> String {
        let joined: Vec<&str> = text
            .lines()
            .map(|l| match (strip_comments, l.find("//")) {
                (true, Some(i)) => &l[..i],
                _ => l,
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

    #[test]
    fn excerpts_equal_the_whole_line_version() {
        let pieces = [
            "x",
            "yé",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "// c",
            "/",
            "a".repeat(40).leak(),
        ];
        let mut seed = 7u64;
        for _ in 0..5_000 {
            let mut text = String::new();
            for _ in 0..(seed % 23) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for strip in [false, true] {
                assert_eq!(
                    excerpt(&text, strip),
                    excerpt_whole(&text, strip),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn line_text_reads_one_line() {
        let mut sources = SourceMap::default();
        let long = format!("a {}  b;\n  c  d \n", "x ".repeat(200));
        sources.add("m.sit", long.clone());
        let prov = Provenance { sources: &sources };
        let at = |needle: &str| {
            let start = long.rfind(needle).unwrap();
            Span::new(0, start, start + needle.len())
        };
        let first = long.lines().next().unwrap();
        assert_eq!(prov.line_text(at("b;")), excerpt_whole(first, false));
        assert_eq!(prov.line_text(at("d")), "c d");
    }
}
