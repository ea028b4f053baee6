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
                    (tok, Tok::Punct(")")) if tok.is_word() => {
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
        while self.at_word("else") {
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
    fn word_operators_name_their_symbol() {
        for (text, word, op) in [
            ("model M { pred p = a > 0 and b > 0; }", "and", "write `&`"),
            ("model M { pred p = a > 0 or b; }", "or", "write `|`"),
            ("model M { pred p = not a; }", "not", "write `!`"),
            ("model M { pred p = not (a > 0); }", "not", "write `!`"),
        ] {
            let d = parse_file(0, text).expect_err(text);
            assert_eq!(d.len(), 1, "{text}");
            assert_eq!(&text[d[0].span.start..d[0].span.end], word);
            assert_eq!(d[0].label, op);
        }
        // A variable named `not` or `and` still parses where it is a value.
        assert!(parse_file(0, "model M { x = not + and; }").is_ok());
    }

    #[test]
    fn compound_assignment_brackets_a_compound_value() {
        let e = errors("model M { x -= a - b; y *= 2; }");
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].1, "-=");
        assert!(e[0].2.contains("`x = x - (a - b);`"), "{}", e[0].2);
        assert_eq!(e[1].1, "*=");
        assert!(e[1].2.contains("`y = y * 2;`"), "{}", e[1].2);
        // With a space between, `x + = 1` is an ordinary syntax error.
        let e = errors("model M { x + = 1; }");
        assert_eq!(e[0].0, "expected `=`, found `+`");
    }

    #[test]
    fn if_else_chain_is_one_error_and_the_next_rule_is_read() {
        let text = "model M {\n if a { x = 1; } else if b { x = 2; } else { x = 3; }\n y = ;\n}\n";
        let e = errors(text);
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].0, "Sit has no `if` statement");
        assert_eq!(e[1].0, "expected an expression, found `;`");
        let e = errors("model M { when c { else { x = 1; } } }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "else");
        // A rule assigning to `if` is left to the checker (E0103).
        assert!(parse_file(0, "model M { if = 1; }").is_ok());
    }

    #[test]
    fn sigma_assignment_suggests_a_delta_rule_with_the_users_names() {
        let e = errors("model M { when h < 0 => f, x = -v * e; g = 1; }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "=");
        assert!(
            e[0].2.contains("`x = -v * e when h < 0;`")
                && e[0].2.contains("`when h < 0 { x = -v * e; }`"),
            "{}",
            e[0].2
        );
    }

    #[test]
    fn derivative_targets_point_to_integral() {
        let e = errors("model M { der(h) = -k * h; }");
        assert_eq!(e[0].1, "der(h)");
        assert!(e[0].2.contains("`h = integral(rate);`"));
        let e = errors("model M { dv/dt = -g; }");
        assert_eq!(e[0].1, "dv/dt");
        assert!(e[0].2.contains("`v = integral(rate);`"));
        // Any other division after a target is the ordinary error.
        let e = errors("model M { x/y = 1; }");
        assert_eq!(e[0].0, "expected `=`, found `/`");
    }
}
