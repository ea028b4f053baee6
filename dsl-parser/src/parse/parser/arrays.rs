//! Arrays and loops: `real T[N] [K] = …;`, `T[i - 1]`, `for i in 2:N-1 { … }` and `sum(e for i in 1:N)`.
//!
//! `for` and `in` mean something only where the grammar expects them (a rule that
//! starts `for NAME in`, a generator after a reduction's first term) and are names
//! elsewhere. The checker expands every construct of this module into scalar
//! declarations and rules (`sit_check::check::arrays`).

use super::{Parsed, Parser};
use crate::ast::{ArrayDecl, ArrayInit, DeclKind, Expr, ForRule, Generator, LoopRange, Name, Rule};
use crate::parse::lexer::Tok;
use crate::source::Span;

/// The procedures that take a generator, `sum(e for i in 1:N)` (`min` and `max` also
/// take two values).
pub const REDUCTIONS: &[&str] = &["sum", "prod", "min", "max"];

impl Parser<'_> {
    /// Whether a `for` loop starts here: `for NAME in`.
    pub(super) fn at_for(&self) -> bool {
        self.at_word("for") && self.peek_at(1).tok.is_word() && {
            let t = self.peek_at(2);
            t.tok == Tok::Ident && self.str(t) == "in"
        }
    }

    /// `for_rule = "for" ranges "{" body_rule* "}"`.
    pub(super) fn for_rule(&mut self, first: usize) -> Parsed<Rule> {
        self.bump(); // for
        self.ops = 0;
        let ranges = self.ranges(&["`{`", "`,`"])?;
        let end = ranges.last().map_or(first, |r| r.span.end);
        let head = Span::new(self.file, first, end);
        self.expect_punct("{", &["`{`", "`,`"])?;
        let rules = self.block_rules(head)?;
        Ok(Rule::For(Box::new(ForRule {
            ranges,
            rules,
            span: head,
        })))
    }

    /// `ranges = range ("," range)*`, `range = name "in" expr ":" expr`; `follow` is
    /// what may come after the last one.
    fn ranges(&mut self, follow: &[&str]) -> Parsed<Vec<LoopRange>> {
        let mut out = Vec::new();
        loop {
            let var = self.name()?;
            if !self.eat_word("in") {
                return Err(self.error(&["`in`"]));
            }
            if let Some(stop) = self.dotted_range() {
                return Err(stop);
            }
            let from = self.expr_inner(&["`:`"])?;
            self.expect_punct(":", &["`:`"])?;
            let to = self.expr_inner(follow)?;
            let span = var.span.to(to.span);
            out.push(LoopRange {
                var,
                from,
                to,
                span,
            });
            // `, j in …`: another range; anything else ends them.
            let more = self.at_punct(",") && self.peek_at(1).tok.is_word() && {
                let t = self.peek_at(2);
                t.tok == Tok::Ident && self.str(t) == "in"
            };
            if !more {
                return Ok(out);
            }
            self.bump();
        }
    }

    /// A range written `a..b` (Rust) or `a...b`: an error whose help writes `a:b`, or
    /// `None` when the range ahead has no `..` (looked for up to its end, a bounded
    /// number of tokens).
    fn dotted_range(&mut self) -> Option<super::Stop> {
        let start = self.peek().start;
        let mut end = start;
        for k in 0..64 {
            let t = self.peek_at(k);
            if matches!(
                t.tok,
                Tok::Eof | Tok::Punct("{" | "}" | ";" | ")" | "]" | ",")
            ) {
                break;
            }
            end = t.end;
        }
        let text = self.text.get(start..end)?;
        let at = text.find("..")?;
        let from = text[..at].trim_end_matches('.').trim();
        let to = text[at..].trim_start_matches('.').trim();
        let dots = Span::new(self.file, start + at, start + at + 2);
        Some(
            self.push_error(
                crate::diag::Diagnostic::error(
                    "E0001",
                    dots,
                    "a range is written `a:b`, not `a..b`",
                )
                .with_label("`..` in a range")
                .with_help(format!(
                    "write `{from}:{to}`: the values from `{from}` to `{to}`, both included"
                )),
            ),
        )
    }

    /// `array = name "[" expr ("," expr)* "]" unit? ("=" init)?` with `init = expr |
    /// "[" expr ("," expr)* "]" | "[" expr "for" ranges "]"`: the sizes right after
    /// the name (no space: `T [K]` is a unit).
    pub(super) fn array_decl(
        &mut self,
        doc: Vec<String>,
        kind: DeclKind,
        output: bool,
        name: Name,
        at: usize,
    ) -> Parsed<ArrayDecl> {
        self.ops = 0;
        let dims = self.index_list()?;
        let unit = self.unit_text()?;
        let init = if self.eat_punct("=") {
            Some(self.array_init()?)
        } else {
            None
        };
        Ok(ArrayDecl {
            doc,
            kind,
            output,
            name,
            dims,
            unit,
            init,
            at,
        })
    }

    /// An array's `init` (see [`Parser::array_decl`]).
    fn array_init(&mut self) -> Parsed<ArrayInit> {
        if !self.at_punct("[") {
            return Ok(ArrayInit::Each(self.expr(&["`,`", "`;`"])?));
        }
        let open = self.bump();
        self.ops = 0;
        let first = self.expr_inner(&["`]`", "`,`", "`for`"])?;
        if self.eat_word("for") {
            let ranges = self.ranges(&["`]`", "`,`"])?;
            let close = self.expect_punct("]", &["`]`", "`,`"])?;
            return Ok(ArrayInit::Comprehension(Box::new(Generator {
                body: first,
                ranges,
                span: self.span(open).to(self.span(close)),
            })));
        }
        let mut items = vec![first];
        while self.eat_punct(",") {
            if self.at_punct("]") {
                break;
            }
            items.push(self.expr_inner(&["`]`", "`,`"])?);
        }
        let close = self.expect_punct("]", &["`]`", "`,`"])?;
        Ok(ArrayInit::List(items, self.span(open).to(self.span(close))))
    }

    /// `index = "[" expr ("," expr)* "]"`: the indices of a cell, or an array's sizes.
    pub(in crate::parse) fn index_list(&mut self) -> Parsed<Vec<Expr>> {
        self.expect_punct("[", &["`[`"])?;
        let mut out = vec![self.expr_inner(&["`]`", "`,`"])?];
        while self.eat_punct(",") {
            out.push(self.expr_inner(&["`]`", "`,`"])?);
        }
        self.expect_punct("]", &["`]`", "`,`"])?;
        Ok(out)
    }

    /// After a reduction's first term, `for ranges` up to the `)` (not read): the
    /// generator of `sum(body for i in a:b)`.
    pub(in crate::parse) fn generator_tail(
        &mut self,
        body: Expr,
        start: Span,
    ) -> Parsed<Generator> {
        self.bump(); // for
        let ranges = self.ranges(&["`)`", "`,`"])?;
        let end = ranges.last().map_or(body.span, |r| r.span);
        Ok(Generator {
            body,
            ranges,
            span: start.to(end),
        })
    }
}
