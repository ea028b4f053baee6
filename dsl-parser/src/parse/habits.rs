//! Syntax errors with help for more habits of other languages: `if … then … else` as a value, `real x(start = 1)`, `**` for a power.

use super::lexer::Tok;
use super::parser::{Parser, Stop};
use crate::ast::{DeclKind, Expr, Name};
use crate::diag::Diagnostic;
use crate::source::Span;

/// Longest piece of the user's text quoted back in a help line.
const QUOTE_MAX: usize = 40;

/// Most tokens looked at ahead to quote a conditional value back.
const LOOK_AHEAD: usize = 200;

/// A piece of a statement between two separating words (`then`, `else`, `elseif`,
/// `if`): its text squeezed to one line (`None` when empty or too long to quote) and
/// the word after it (`None` at the end of the statement).
type Piece = (Option<String>, Option<&'static str>);

impl Parser<'_> {
    /// The text from `start` to `end` squeezed to one line, or `None` when it is
    /// empty or too long to quote.
    fn squeeze(&self, start: usize, end: usize) -> Option<String> {
        let s = self.text.get(start..end)?;
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty() && s.chars().count() <= QUOTE_MAX).then_some(s)
    }

    /// The tokens from `ahead` tokens on up to the end of the statement (a `;`, `{` or
    /// `}` outside brackets) or of the brackets around them, split at the words `then`, `else`, `elseif` and `if`
    /// outside brackets (`else if` is one `elseif`), and the byte offset where the
    /// statement's text ends (`None` past [`LOOK_AHEAD`] tokens).
    fn pieces(&self, ahead: usize) -> Option<(Vec<Piece>, usize)> {
        let mut out: Vec<Piece> = Vec::new();
        let mut depth = 0usize;
        let mut start = self.peek_at(ahead).start;
        let mut end = start;
        for i in ahead..ahead + LOOK_AHEAD {
            let t = self.peek_at(i);
            let sep = match t.tok {
                Tok::Eof | Tok::Punct(";" | "{" | "}" | ")" | "]") if depth == 0 => {
                    out.push((self.squeeze(start, end), None));
                    return Some((out, end));
                }
                Tok::Eof => return None,
                Tok::Punct("(" | "[") => {
                    depth += 1;
                    None
                }
                Tok::Punct(")" | "]") => {
                    depth = depth.saturating_sub(1);
                    None
                }
                Tok::Ident if depth == 0 => match self.str(t) {
                    "then" => Some("then"),
                    "else" => Some("else"),
                    "elseif" => Some("elseif"),
                    "if" => Some("if"),
                    _ => None,
                },
                _ => None,
            };
            match sep {
                // `else if`: one `elseif`.
                Some("if")
                    if self.text[start..t.start].trim().is_empty()
                        && out.last().is_some_and(|p| p.1 == Some("else")) =>
                {
                    if let Some(last) = out.last_mut() {
                        last.1 = Some("elseif");
                    }
                    start = t.end;
                }
                Some(word) => {
                    out.push((self.squeeze(start, end), Some(word)));
                    start = t.end;
                }
                None => {}
            }
            end = t.end;
        }
        None
    }

    /// `if` where a value starts (`y = if x > 0.5 then 1 else 0;`): Sit has no
    /// conditional expression. `target` is the rule's target, when the `if` starts its
    /// value; the help rewrites the value as guarded rules with the user's text where
    /// it has the shape `if c then a (elseif c then a)* else b`.
    pub(super) fn if_value(&mut self, target: Option<&Name>) -> Stop {
        let at = self.peek();
        let parsed = self.pieces(1);
        let end = parsed.as_ref().map_or(at.end, |p| p.1.max(at.end));
        let x = target.map_or("v", |t| t.text.as_str());
        let rules = parsed.and_then(|(pieces, _)| {
            // c1 then a1 (elseif c then a)* else b
            let mut rules = Vec::new();
            let mut it = pieces.into_iter();
            loop {
                let (Some(c), Some("then")) = it.next()? else {
                    return None;
                };
                let (Some(a), next) = it.next()? else {
                    return None;
                };
                rules.push(format!("`{x} = {a} when {c};`"));
                match next {
                    Some("elseif") => continue,
                    Some("else") => {
                        let (Some(b), None) = it.next()? else {
                            return None;
                        };
                        rules.push(format!("`{x} = {b} otherwise;`"));
                        return Some(rules);
                    }
                    _ => return None,
                }
            }
        });
        let rules = match rules {
            Some(r) if r.iter().map(String::len).sum::<usize>() <= 3 * QUOTE_MAX => join_rules(&r),
            _ => format!("`{x} = a when c;` and `{x} = b otherwise;`"),
        };
        let help = conditional_help(target.is_some(), &rules);
        self.push_error(
            Diagnostic::error(
                "E0001",
                Span::new(self.file, at.start, end),
                "expected an expression, found `if`: Sit has no conditional expression",
            )
            .with_label("`if … then … else` as a value")
            .with_help(help),
        )
    }

    /// `if` after a value (`y = 1 if x > 0.5 else 0;`, as in Python): the same error as
    /// [`Parser::if_value`]; `value` is the value before the `if`, `target` the rule's
    /// target when known.
    pub(super) fn if_after_value(&mut self, value: &Expr, target: Option<&Name>) -> Stop {
        let at = self.peek();
        let parsed = self.pieces(1);
        let end = parsed.as_ref().map_or(at.end, |p| p.1.max(at.end));
        let x = target.map_or("v", |t| t.text.as_str());
        let first = self.squeeze(value.span.start, value.span.end);
        let rules = parsed.and_then(|(pieces, _)| {
            // a if c else (b if c else)* z
            let mut rules = Vec::new();
            let mut a = first?;
            let mut it = pieces.into_iter();
            loop {
                let (Some(c), Some("else")) = it.next()? else {
                    return None;
                };
                rules.push(format!("`{x} = {a} when {c};`"));
                match it.next()? {
                    (Some(b), None) => {
                        rules.push(format!("`{x} = {b} otherwise;`"));
                        return Some(rules);
                    }
                    (Some(b), Some("if")) => a = b,
                    _ => return None,
                }
            }
        });
        let rules = match rules {
            Some(r) if r.iter().map(String::len).sum::<usize>() <= 3 * QUOTE_MAX => join_rules(&r),
            _ => format!("`{x} = a when c;` and `{x} = b otherwise;`"),
        };
        let help = conditional_help(target.is_some(), &rules);
        self.push_error(
            Diagnostic::error(
                "E0001",
                Span::new(self.file, value.span.start, end),
                "expected `;`, found `if`: Sit has no conditional expression",
            )
            .with_label("`… if … else …` as a value")
            .with_help(help),
        )
    }

    /// `(` after a declared name (`real x(start = 1);`, as in Modelica): a declaration
    /// takes no modifiers. The help writes the declaration with the start value after
    /// `=` and a `unit = "…"` in brackets, where they are given.
    pub(super) fn decl_modifiers(&mut self, name: &Name, kind: DeclKind, output: bool) -> Stop {
        let open = self.peek();
        let mut depth = 0usize;
        let mut close = open;
        let mut items: Vec<(String, usize, usize)> = Vec::new();
        let mut item_start = open.end;
        for i in 0..LOOK_AHEAD {
            let t = self.peek_at(i);
            match t.tok {
                Tok::Eof | Tok::Punct(";" | "{" | "}") => break,
                Tok::Punct("(" | "[") => depth += 1,
                Tok::Punct(")" | "]") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        items.push((String::new(), item_start, t.start));
                        close = t;
                        break;
                    }
                }
                Tok::Punct(",") if depth == 1 => {
                    items.push((String::new(), item_start, t.start));
                    item_start = t.end;
                }
                _ => {}
            }
        }
        // Each item `word = value`: its word and the value's text.
        let mut start = None;
        let mut unit = None;
        for (_, s, e) in &items {
            let Some(text) = self.text.get(*s..*e) else {
                continue;
            };
            let Some((word, value)) = text.split_once('=') else {
                continue;
            };
            let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
            match word.trim() {
                "start" if !value.is_empty() && value.len() <= QUOTE_MAX => start = Some(value),
                "unit" => {
                    let u = value.trim_matches('"');
                    if !u.is_empty() && u.len() <= QUOTE_MAX && !u.contains('"') {
                        unit = Some(u.to_string());
                    }
                }
                _ => {}
            }
        }
        let written = match kind {
            DeclKind::Param => "param",
            DeclKind::InputReal => "input real",
            DeclKind::InputFlag => "input flag",
            DeclKind::Flag => "flag",
            _ => "real",
        };
        let written = if output {
            format!("output {written}")
        } else {
            written.to_string()
        };
        let x = &name.text;
        let unit_text = unit.as_ref().map_or(String::new(), |u| format!(" [{u}]"));
        let help = match (&start, &unit) {
            (Some(v), _) => format!(
                "Sit writes a start value after `=`{}: `{written} {x}{unit_text} = {v};`",
                if unit.is_some() {
                    " and a unit in brackets"
                } else {
                    ""
                }
            ),
            (None, Some(_)) => {
                format!("Sit writes a unit in brackets: `{written} {x}{unit_text};`")
            }
            (None, None) => format!(
                "a declaration takes no modifiers: write `{written} {x} = 1;` for a start value \
                 and `{written} {x} [m];` for a unit"
            ),
        };
        let end = if close.start == open.start {
            open.end
        } else {
            close.end
        };
        self.push_error(
            Diagnostic::error(
                "E0001",
                Span::new(self.file, open.start, end),
                "expected `,`, `;` or `=`, found `(`: a declaration takes no modifiers",
            )
            .with_label("modifiers in brackets, as in Modelica")
            .with_help(help),
        )
    }

    /// `**` after the operand `left` (`v**2`): Sit writes a power with `^`. The error
    /// underlines `**`.
    pub(super) fn double_star(&mut self, left: &Expr) -> Stop {
        let star = self.peek();
        let second = self.peek_at(1);
        let right = self.peek_at(2);
        let l = self.squeeze(left.span.start, left.span.end);
        let r = matches!(right.tok, Tok::Number | Tok::Ident).then(|| self.str(right));
        let example = match (l, r) {
            (Some(l), Some(r)) => format!("`{l}^{r}`"),
            _ => "`x^2`".to_string(),
        };
        self.push_error(
            Diagnostic::error(
                "E0001",
                Span::new(self.file, star.start, second.end),
                "expected an expression, found `*`: Sit writes a power with `^`",
            )
            .with_label("`**` is not an operator of Sit")
            .with_help(format!("write the power with `^`: {example}")),
        )
    }
}

/// The help for a conditional value rewritten as `rules`: the rule's own rules where
/// the conditional is the rule's whole value (`whole`), else rules for a variable `v`
/// of its own, read where the conditional stood.
fn conditional_help(whole: bool, rules: &str) -> String {
    if whole {
        format!(
            "a value that depends on a condition is given by guarded rules, each on its own \
             line: {rules}"
        )
    } else {
        format!(
            "a value that depends on a condition is given by guarded rules: compute it in a \
             variable of its own, {rules}, and read `v` here"
        )
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_rules(rules: &[String]) -> String {
    match rules {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
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
    fn a_conditional_value_is_rewritten_as_guarded_rules() {
        let e = errors("model M { y = if x > 0.5 then 1 else 0; z = 1; }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "if x > 0.5 then 1 else 0");
        assert!(
            e[0].2
                .ends_with("`y = 1 when x > 0.5;` and `y = 0 otherwise;`"),
            "{}",
            e[0].2
        );
        let e = errors("model M { y = if a then 1 elseif b then 2 else if c then 3 else 4; }");
        assert!(
            e[0].2.ends_with(
                "`y = 1 when a;`, `y = 2 when b;`, `y = 3 when c;` and `y = 4 otherwise;`"
            ),
            "{}",
            e[0].2
        );
        // Python's order.
        let e = errors("model M { y = 2 * k if x > 0.5 else 0; }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "2 * k if x > 0.5 else 0");
        assert!(
            e[0].2
                .ends_with("`y = 2 * k when x > 0.5;` and `y = 0 otherwise;`"),
            "{}",
            e[0].2
        );
        // Inside an expression: the general form.
        let e = errors("model M { y = 2 * (if a then 1 else 0); }");
        assert!(e[0].0.contains("no conditional expression"), "{e:?}");
        assert!(
            e[0].2
                .ends_with("`v = 1 when a;` and `v = 0 otherwise;`, and read `v` here"),
            "{e:?}"
        );
        // `if` is never a name, and `if … { }` is still the statement's error.
        let e = errors("model M { if a { x = 1; } }");
        assert_eq!(e[0].0, "Sit has no `if` statement");
    }

    #[test]
    fn modifiers_of_a_declaration_give_the_sit_declaration() {
        let e = errors("model M { output real x(start = 1); }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "(start = 1)");
        assert!(e[0].2.ends_with("`output real x = 1;`"), "{}", e[0].2);
        let e = errors("model M { real v(start = -2.5, unit = \"m/s\", fixed = true); }");
        assert!(e[0].2.ends_with("`real v [m/s] = -2.5;`"), "{}", e[0].2);
        let e = errors("model M { param k(min = 0); }");
        assert!(e[0].2.contains("`param k = 1;`"), "{}", e[0].2);
    }

    #[test]
    fn a_double_star_is_a_power() {
        let e = errors("model M { y = v**2; }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].1, "**");
        assert!(e[0].2.ends_with("`v^2`"), "{}", e[0].2);
        let e = errors("model M { y = 3 * (a + b) ** n; }");
        assert!(e[0].2.ends_with("`(a + b)^n`"), "{}", e[0].2);
        // `* *` apart is the ordinary error.
        let e = errors("model M { y = v * * 2; }");
        assert_eq!(e[0].0, "expected an expression, found `*`");
    }
}
