//! Syntax errors with help for two slips of newcomers: `=` for `==` in a condition, a bare flag in a block.

use super::lexer::Tok;
use super::parser::{Parser, Stop};
use crate::ast::Expr;
use crate::diag::Diagnostic;
use crate::source::Span;

/// Longest piece of the user's text quoted back in a help line.
const QUOTE_MAX: usize = 40;

impl Parser<'_> {
    /// The source text from `start` to `end` squeezed to one line, or `None`
    /// when it is empty or too long to quote.
    fn excerpt(&self, start: usize, end: usize) -> Option<String> {
        let s = self.text.get(start..end)?;
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty() && s.chars().count() <= QUOTE_MAX).then_some(s)
    }

    /// A `=` right after the expression `left` (a guard, a condition, a
    /// value): a comparison written with one `=`. The error underlines the
    /// `=`; the help rewrites the comparison with `==`.
    pub(super) fn single_equals(&mut self, left: &Expr) -> Stop {
        let eq = self.peek();
        let right = self.peek_at(1);
        let quoted = match (self.excerpt(left.span.start, left.span.end), right.tok) {
            (Some(l), Tok::Number | Tok::Ident | Tok::Keyword(_)) => {
                Some(format!("`{l} == {}`", &self.text[right.start..right.end]))
            }
            (Some(l), _) => Some(format!("`{l} == …`")),
            _ => None,
        };
        let help = match quoted {
            Some(q) => format!("`=` only assigns, in a rule `x = e;`; to compare, write {q}"),
            None => "`=` only assigns, in a rule `x = e;`; to compare, write `==`".into(),
        };
        self.push_error(
            Diagnostic::error(
                "E0001",
                self.span(eq),
                "expected an operator, found `=`: a comparison is written `==`",
            )
            .with_label("write `==` to compare")
            .with_help(help),
        )
    }

    /// `q;` or `!q;` in a `when cond { … }` block (`cond` is the block's
    /// guard) or among a model's rules (`None`): a σ action written as a
    /// rule.
    pub(super) fn bare_name(&mut self, cond: Option<Span>) -> Stop {
        let first = self.peek();
        let bang = first.tok == Tok::Punct("!");
        let name = if bang { self.peek_at(1) } else { first };
        let semi = self.peek_at(if bang { 2 } else { 1 });
        let q = self.text[name.start..name.end].to_string();
        let action = if bang { format!("!{q}") } else { q.clone() };
        let c = cond.map(|c| self.excerpt(c.start, c.end));
        let (message, label, help) = match c {
            Some(Some(c)) => (
                format!("`{action};` is not a rule: a `when` block cannot set a flag"),
                "a σ action inside a block",
                format!(
                    "a block holds δ rules `x = e;`; if `{q}` is a flag, set it with the σ \
                     rule `when {c} => {action};` outside the block"
                ),
            ),
            Some(None) => (
                format!("`{action};` is not a rule: a `when` block cannot set a flag"),
                "a σ action inside a block",
                format!(
                    "a block holds δ rules `x = e;`; if `{q}` is a flag, set it with a σ rule \
                     `when c => {action};` outside the block"
                ),
            ),
            None => (
                format!("`{action};` is not a rule"),
                "a σ action without its condition",
                format!(
                    "a rule gives a value, `x = e;`; if `{q}` is a flag, set it with a σ rule \
                     `when CONDITION => {action};`"
                ),
            ),
        };
        let stop = self.push_error(
            Diagnostic::error(
                "E0001",
                Span::new(self.file, first.start, semi.end),
                message,
            )
            .with_label(label)
            .with_help(help),
        );
        // The statement is understood: go on after its `;`.
        for _ in 0..if bang { 3 } else { 2 } {
            self.bump();
        }
        self.resynced = true;
        stop
    }

    /// Whether the next tokens are `name ;` or `! name ;`.
    pub(super) fn at_bare_name(&self) -> bool {
        let (a, b, c) = (self.peek_at(0), self.peek_at(1), self.peek_at(2));
        (a.tok.is_word() && b.tok == Tok::Punct(";"))
            || (a.tok == Tok::Punct("!") && b.tok.is_word() && c.tok == Tok::Punct(";"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_file;

    /// The (message, underlined text, help) of each syntax error of `text`.
    fn errors(text: &str) -> Vec<(String, String, String)> {
        parse_file(0, text)
            .expect_err("syntax errors")
            .into_iter()
            .map(|d| {
                let under = text[d.span.start..d.span.end].to_string();
                (d.message, under, d.help.unwrap_or_default())
            })
            .collect()
    }

    #[test]
    fn single_equals_in_a_condition_suggests_double_equals() {
        for (text, want) in [
            ("model M { x = 1 when y = 0; }", "`y == 0`"),
            ("model M { when y = 0 => q; }", "`y == 0`"),
            ("model M { when a & y = b { x = 1; } }", "`a & y == b`"),
            ("model M { pred p = y = 0; }", "`y == 0`"),
        ] {
            let e = errors(text);
            assert_eq!(e.len(), 1, "{text}: {e:?}");
            assert_eq!(e[0].1, "=", "{text}");
            assert!(e[0].0.contains("a comparison is written `==`"), "{text}");
            assert!(e[0].2.contains(want), "{text}: {}", e[0].2);
            assert!(!e[0].2.contains("ends with `;`"), "{text}");
        }
        // `==` is a comparison and parses.
        assert!(parse_file(0, "model M { x = 1 when y == 0; }").is_ok());
    }

    #[test]
    fn bare_flag_in_a_block_suggests_a_sigma_rule() {
        let e = errors("model M { when y > 1 { q; x = 1; !r; } z = ; }");
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].1, "q;");
        assert!(e[0].2.contains("`when y > 1 => q;`"), "{}", e[0].2);
        assert_eq!(e[1].1, "!r;");
        assert!(e[1].2.contains("`when y > 1 => !r;`"), "{}", e[1].2);
        // The rules after it are read: the next error is the real one.
        assert_eq!(e[2].0, "expected an expression, found `;`");
        // Among the model's rules: no condition to quote.
        let e = errors("model M { flag q; q; }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(
            (e[0].0.as_str(), e[0].1.as_str()),
            ("`q;` is not a rule", "q;")
        );
        assert!(e[0].2.contains("`when CONDITION => q;`"), "{}", e[0].2);
    }
}
