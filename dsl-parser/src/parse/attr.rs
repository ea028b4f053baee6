//! Attributes: `#[allow(CODE, …, reason = "…")]` before a model, a declaration or a rule; `non_finite` in place of a code: the model means NaN and infinities.

use super::lexer::Tok;
use super::parser::{Parsed, Parser};
use crate::ast::{Allow, Name};
use crate::diag::Diagnostic;
use crate::source::Span;

impl Parser<'_> {
    /// `attribute* `, with `attribute = "#" "[" "allow" "(" code ("," code)*
    /// ("," "reason" "=" string)? ","? ")" "]"`. Their scope is set by
    /// [`Parser::close_attributes`] once what they stand before is parsed.
    pub(super) fn attributes(&mut self) -> Parsed<Vec<Allow>> {
        let mut out = Vec::new();
        while self.at_punct("#") {
            out.push(self.attribute()?);
        }
        Ok(out)
    }

    fn attribute(&mut self) -> Parsed<Allow> {
        let hash = self.bump();
        self.expect_punct("[", &["`[`"])?;
        if !self.at_word("allow") {
            return Err(self.error(&["`allow`"]));
        }
        self.bump();
        self.expect_punct("(", &["`(`"])?;
        let mut codes = Vec::new();
        let mut reason = None;
        loop {
            let t = self.peek();
            if !t.tok.is_word() {
                return Err(self.error(&["a warning code", "`reason`"]));
            }
            if self.str(t) == "reason" {
                if codes.is_empty() {
                    return Err(self.error(&["a warning code"]));
                }
                self.bump();
                self.expect_punct("=", &["`=`"])?;
                let s = self.peek();
                if s.tok != Tok::Str {
                    return Err(self.error(&["a string"]));
                }
                self.bump();
                let raw = &self.text[s.start + 1..s.end - 1];
                reason = Some(raw.replace("\\\"", "\"").replace("\\\\", "\\"));
                let _ = self.eat_punct(",");
                break;
            }
            self.bump();
            let code = Name {
                text: self.str(t).to_string(),
                span: self.span(t),
            };
            // `non_finite`: the model means NaN and infinities (hosts run on past them).
            if !crate::diag::is_warning(&code.text) && code.text != "non_finite" {
                let _ = self.push_error(
                    Diagnostic::error(
                        "E0441",
                        code.span,
                        format!("`{}` is not a warning code", code.text),
                    )
                    .with_label("not a warning")
                    .with_note("only warnings can be allowed; errors make a model invalid")
                    .with_help(format!(
                        "the warning codes are {}; `non_finite` allows NaN and infinities \
                         in a run of the model",
                        crate::diag::WARNINGS.join(", ")
                    )),
                );
            }
            codes.push(code);
            if !self.eat_punct(",") || self.at_punct(")") {
                break;
            }
        }
        self.expect_punct(")", &["`)`", "`,`"])?;
        let end = self.expect_punct("]", &["`]`"])?;
        let span = Span::new(self.file, hash.start, end.end);
        if reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            let list: Vec<&str> = codes.iter().map(|c| c.text.as_str()).collect();
            let _ = self.push_error(
                Diagnostic::error("E0440", span, "an `allow` needs a reason")
                    .with_label("no reason given")
                    .with_note("the reason tells the next reader why the warning does not apply")
                    .with_help(format!(
                        "write `#[allow({}, reason = \"…\")]`",
                        list.join(", ")
                    )),
            );
        }
        Ok(Allow {
            codes,
            reason: reason.unwrap_or_default(),
            span,
            scope: span,
        })
    }

    /// Give `attrs` the scope from `start` to the end of the last token read
    /// (what they stood before), and keep them for the file.
    pub(super) fn close_attributes(&mut self, attrs: Vec<Allow>, start: usize) {
        let end = self.prev_end().max(start);
        for mut a in attrs {
            a.scope = Span::new(self.file, start, end);
            self.allows.push(a);
        }
    }

    /// The error for attributes with nothing after them.
    pub(super) fn dangling_attributes(&mut self, expected: &[&str]) -> Parsed<()> {
        Err(self.error(expected))
    }
}
