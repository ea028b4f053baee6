//! Syntax errors with help for what another language would write (`if`, `and`, `+=`, `der(x)`).

use super::lexer::Tok;
use super::parser::{Parser, Stop};
use crate::ast::Name;
use crate::diag::Diagnostic;
use crate::source::Span;

/// Longest piece of the user's text quoted back in a help line.
const QUOTE_MAX: usize = 40;

impl Parser<'_> {
    /// The source text of `span` squeezed to one line, or `None` when it is
    /// too long to quote.
    fn quote(&self, start: usize, end: usize) -> Option<String> {
        let s = self.text.get(start..end)?;
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty() && s.len() <= QUOTE_MAX).then_some(s)
    }

    /// A `=` after an action of `when c => x`: the user wrote an assignment
    /// in a σ rule. The error underlines the `=`; the help rewrites it as a
    /// guarded δ rule or a block.
    pub(super) fn sigma_assign(&mut self, cond: Span, target: Span) -> Stop {
        let eq = self.peek();
        let c = self.quote(cond.start, cond.end);
        let x = self.quote(target.start, target.end);
        let v = self.rest_of_statement(2);
        let help = match (c, x, v) {
            (Some(c), Some(x), Some(v)) => format!(
                "`=>` only sets flags; to assign a value under a condition write the δ rule \
                 `{x} = {v} when {c};` or a block `when {c} {{ {x} = {v}; }}`"
            ),
            _ => "`=>` only sets flags; to assign a value under a condition write the δ rule \
                  `x = e when c;` or a block `when c { x = e; }`"
                .to_string(),
        };
        self.push_error(
            Diagnostic::error(
                "E0001",
                self.span(eq),
                "expected `,` or `;`, found `=`: a `when … =>` rule cannot assign",
            )
            .with_label("assignment in a `=>` action list")
            .with_help(help),
        )
    }

    /// The source text of the tokens from `ahead` tokens on up to the end of
    /// the statement (`;`, a bracket of a block, or `,`), when short enough
    /// to quote.
    fn rest_of_statement(&self, ahead: usize) -> Option<String> {
        let start = self.peek_at(ahead - 1).start;
        let mut end = start;
        for i in ahead - 1.. {
            let t = self.peek_at(i);
            match t.tok {
                Tok::Eof | Tok::Punct(";" | "{" | "}" | ",") => break,
                _ => end = t.end,
            }
            if end - start > QUOTE_MAX {
                return None;
            }
        }
        self.quote(start, end)
    }

    /// `+=`, `-=`, `*=`, `/=` after a rule's target, or `der(x)` / `dx/dt`
    /// as a target: the error for what follows `target` when it is not `=`.
    pub(super) fn assign_hint(&mut self, target: &Name) -> Option<Stop> {
        let t = self.peek();
        let next = self.peek_at(1);
        let x = &target.text;
        let d = match t.tok {
            Tok::Punct(op @ ("+" | "-" | "*" | "/"))
                if next.tok == Tok::Punct("=") && next.start == t.end =>
            {
                let op = op.to_string();
                // A value of several tokens goes in brackets: `x -= a - b`
                // is `x = x - (a - b)`.
                let v = match self.rest_of_statement(3) {
                    Some(v)
                        if v.contains(|c: char| !c.is_alphanumeric() && c != '_' && c != '.') =>
                    {
                        format!("({v})")
                    }
                    Some(v) => v,
                    None => "…".into(),
                };
                Diagnostic::error(
                    "E0001",
                    Span::new(self.file, t.start, next.end),
                    format!("expected `=`, found `{op}=`"),
                )
                .with_label("Sit has no compound assignment")
                .with_help(format!(
                    "a rule gives `{x}` its new value: write `{x} = {x} {op} {v};` \
                     (to accumulate over time, `{x} = integral(rate);`)"
                ))
            }
            Tok::Punct("(") if x == "der" => {
                // `der(v)`: underline it whole and name `v` in the help.
                let (v, end) = match (next.tok, self.peek_at(2).tok) {
                    (Tok::Ident, Tok::Punct(")")) => {
                        (self.str(next).to_string(), self.peek_at(2).end)
                    }
                    _ => ("x".to_string(), target.span.end),
                };
                Diagnostic::error(
                    "E0001",
                    Span::new(self.file, target.span.start, end),
                    "expected `=`, found `(`: `der(…)` is not a rule's target",
                )
                .with_label("a derivative as a rule's target")
                .with_help(format!(
                    "state the derivative by integrating it: `{v} = integral(rate);` \
                     makes `rate` the derivative of `{v}`"
                ))
            }
            Tok::Punct("/")
                if next.tok == Tok::Ident
                    && self.str(next) == "dt"
                    && x.len() > 1
                    && x.starts_with('d') =>
            {
                let v = &x[1..];
                Diagnostic::error(
                    "E0001",
                    Span::new(self.file, target.span.start, next.end),
                    format!("expected `=`, found `/`: `{x}/dt` is not a rule's target"),
                )
                .with_label("a derivative as a rule's target")
                .with_help(format!(
                    "state the derivative by integrating it: `{v} = integral(rate);` \
                     makes `rate` the derivative of `{v}`"
                ))
            }
            _ => return None,
        };
        Some(self.push_error(d))
    }

    /// A statement starting with `if` or `else`: one error for the whole
    /// `if … { } else { }` chain, which is skipped.
    pub(super) fn if_else(&mut self) -> Stop {
        let t = self.peek();
        let word = self.str(t).to_string();
        let d = Diagnostic::error(
            "E0001",
            self.span(t),
            format!("Sit has no `{word}` statement"),
        )
        .with_label(format!("`{word}` is not a keyword of Sit"))
        .with_help(
            "guard a rule with `x = e when c;` or a block `when c { … }`; \
             `x = e otherwise;` replaces `else`",
        );
        let stop = self.push_error(d);
        self.skip_statement();
        while self.at_kw("else") {
            self.bump();
            self.skip_statement();
        }
        self.resynced = true;
        stop
    }

    /// `and`, `or` between operands, or `not` before one: the error, at the
    /// word, with the operator Sit spells instead.
    pub(super) fn word_operator(&mut self) -> Stop {
        let t = self.peek();
        let word = self.str(t);
        let op = match word {
            "and" => "&",
            "or" => "|",
            _ => "!",
        };
        let d = Diagnostic::error(
            "E0001",
            self.span(t),
            format!("`{word}` is not an operator in Sit"),
        )
        .with_label(format!("write `{op}`"))
        .with_help("Sit writes `and`, `or`, `not` as `&`, `|`, `!`");
        self.push_error(d)
    }
}
