//! Expressions: operands and operators to a tree by precedence, without recursion on operator chains.
//!
//! `expr = prefix* primary (infix prefix* primary)*`, with `prefix = "-" |
//! "!"`, `primary = number | "true" | "false" | "always" | call | path |
//! "(" expr ")"`, `call = name "(" (expr ("," expr)* ","?)? ")"` and `path =
//! name ("." name)*`. Precedence, lowest first: `|`, `&`, comparisons, `+ -`,
//! `* /`, prefix `- !`, `^` (right associative). Operator chains are folded
//! with an explicit stack, so a chain of a million `^` needs no deep
//! recursion; only brackets recurse, and the lexer bounds their depth.

use super::MAX_OPERATORS;
use super::keyword::Keyword;
use super::lexer::Tok;
use super::parser::{Parsed, Parser, Stop};
use crate::ast::CmpOp;
use crate::ast::{BinOp, Expr, ExprKind};
use crate::diag::Diagnostic;
use crate::source::Span;

/// An operator waiting for its operands.
#[derive(Clone, Copy)]
enum Op {
    Bin(BinOp),
    Cmp(CmpOp),
    Neg(Span),
    Not(Span),
}

impl Op {
    /// Binding strength; prefix operators bind tighter than `* /` and
    /// looser than `^`.
    fn prec(self) -> u8 {
        match self {
            Op::Bin(BinOp::Or) => 1,
            Op::Bin(BinOp::And) => 2,
            Op::Cmp(_) => 3,
            Op::Bin(BinOp::Add | BinOp::Sub) => 4,
            Op::Bin(BinOp::Mul | BinOp::Div) => 5,
            Op::Neg(_) | Op::Not(_) => 6,
            Op::Bin(BinOp::Pow) => 7,
        }
    }
}

fn infix(p: &str) -> Option<Op> {
    Some(match p {
        "|" | "||" => Op::Bin(BinOp::Or),
        "&" | "&&" => Op::Bin(BinOp::And),
        "==" => Op::Cmp(CmpOp::Eq),
        "!=" => Op::Cmp(CmpOp::Ne),
        "<=" => Op::Cmp(CmpOp::Le),
        ">=" => Op::Cmp(CmpOp::Ge),
        "<" => Op::Cmp(CmpOp::Lt),
        ">" => Op::Cmp(CmpOp::Gt),
        "+" => Op::Bin(BinOp::Add),
        "-" => Op::Bin(BinOp::Sub),
        "*" => Op::Bin(BinOp::Mul),
        "/" => Op::Bin(BinOp::Div),
        "^" => Op::Bin(BinOp::Pow),
        _ => return None,
    })
}

/// Apply `op` to the operands on top of `out`.
fn reduce(op: Op, out: &mut Vec<Expr>) {
    let rhs = out.pop().expect("an operand for every operator");
    let expr = match op {
        Op::Neg(at) | Op::Not(at) => {
            let span = at.to(rhs.span);
            let kind = match op {
                Op::Neg(_) => ExprKind::Neg(Box::new(rhs)),
                _ => ExprKind::Not(Box::new(rhs)),
            };
            Expr { kind, span }
        }
        Op::Bin(b) => {
            let lhs = out.pop().expect("a left operand");
            let span = lhs.span.to(rhs.span);
            Expr {
                kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)),
                span,
            }
        }
        Op::Cmp(c) => {
            let lhs = out.pop().expect("a left operand");
            let span = lhs.span.to(rhs.span);
            // `a < b < c` is one chain, not `(a < b) < c`.
            let kind = match lhs.kind {
                ExprKind::Compare(first, mut rest) => {
                    rest.push((c, rhs));
                    ExprKind::Compare(first, rest)
                }
                other => ExprKind::Compare(
                    Box::new(Expr {
                        kind: other,
                        span: lhs.span,
                    }),
                    vec![(c, rhs)],
                ),
            };
            Expr { kind, span }
        }
    };
    out.push(expr);
}

impl Parser<'_> {
    /// A whole expression (a declaration's value, a rule's right-hand side
    /// or guard, a binding), of at most [`MAX_OPERATORS`] operators;
    /// `follow` lists what may come after it, for the error message.
    pub(super) fn expr(&mut self, follow: &[&str]) -> Parsed<Expr> {
        let first = self.peek().start;
        let first_token = self.position();
        self.ops = 0;
        let e = self.expr_inner(follow);
        let mut count = self.ops;
        if count > MAX_OPERATORS {
            // expr_inner stopped at the operator over the limit: count the
            // rest without building a tree that deep.
            let mut depth = self.open_parens_since(first_token);
            let mut end = first;
            loop {
                let t = self.peek();
                match t.tok {
                    Tok::Eof | Tok::Punct(";" | "{" | "}") => break,
                    Tok::Punct(p)
                        if depth == 0 && follow.iter().any(|f| f.trim_matches('`') == p) =>
                    {
                        break;
                    }
                    Tok::Punct("(") => depth += 1,
                    Tok::Punct(")") if depth == 0 => break,
                    Tok::Punct(")") => depth -= 1,
                    Tok::Punct(p) if infix(p).is_some() || p == "!" => count += 1,
                    tok if tok.is_word() && self.peek_at(1).tok == Tok::Punct("(") => count += 1,
                    tok if tok.is_word()
                        && depth == 0
                        && follow.iter().any(|f| f.trim_matches('`') == self.str(t)) =>
                    {
                        break;
                    }
                    _ => {}
                }
                end = self.bump().end;
            }
            return Err(self.push_error(
                Diagnostic::error(
                    "E0002",
                    Span::new(self.file, first, end),
                    format!(
                        "expression too long ({count} operators; the limit is {MAX_OPERATORS})"
                    ),
                )
                .with_help("split it with intermediate variables"),
            ));
        }
        e
    }

    /// An expression inside a whole one (in brackets or a call's arguments).
    pub(super) fn expr_inner(&mut self, follow: &[&str]) -> Parsed<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        let mut ops: Vec<Op> = Vec::new();
        loop {
            // prefix*
            loop {
                let t = self.peek();
                let op = match t.tok {
                    Tok::Punct("-") => Op::Neg(self.span(t)),
                    Tok::Punct("!") => Op::Not(self.span(t)),
                    _ => break,
                };
                self.bump();
                self.ops += 1;
                ops.push(op);
                if self.ops > MAX_OPERATORS {
                    return Err(Stop);
                }
            }
            out.push(self.primary()?);
            // infix?
            let t = self.peek();
            if t.tok == Tok::Punct("*")
                && self.peek_at(1).tok == Tok::Punct("*")
                && self.peek_at(1).start == t.end
                && let Some(left) = out.last()
            {
                let left = left.clone();
                return Err(self.double_star(&left));
            }
            let Some(op) = (match t.tok {
                Tok::Punct(p) => infix(p),
                _ => None,
            }) else {
                break;
            };
            self.bump();
            self.ops += 1;
            if self.ops > MAX_OPERATORS {
                return Err(Stop);
            }
            let right = matches!(op, Op::Bin(BinOp::Pow));
            while let Some(&top) = ops.last() {
                if top.prec() > op.prec() || (top.prec() == op.prec() && !right) {
                    ops.pop();
                    reduce(top, &mut out);
                } else {
                    break;
                }
            }
            ops.push(op);
        }
        while let Some(op) = ops.pop() {
            reduce(op, &mut out);
        }
        let e = out.pop().expect("one expression");
        // What follows must not continue the expression.
        let t = self.peek();
        let continues = match t.tok {
            Tok::Punct(p) => follow.iter().all(|f| f.trim_matches('`') != p),
            tok if tok.is_word() => follow.iter().all(|f| f.trim_matches('`') != self.str(t)),
            _ => true,
        };
        if continues {
            if t.tok == Tok::Ident && matches!(self.str(t), "and" | "or") {
                return Err(self.word_operator());
            }
            if t.tok == Tok::Ident && self.str(t) == "if" {
                let target = self.target_at(e.span.start);
                return Err(self.if_after_value(&e, target.as_ref()));
            }
            if t.tok == Tok::Punct("=") {
                return Err(self.single_equals(&e));
            }
            let mut expected = follow.to_vec();
            expected.push("an operator");
            return Err(self.error(&expected));
        }
        Ok(e)
    }

    /// `primary = number unit? | "true" | "false" | "always" | call | path | "(" expr ")"`.
    fn primary(&mut self) -> Parsed<Expr> {
        let t = self.peek();
        let span = self.span(t);
        let kind = match t.tok {
            Tok::Number => {
                self.bump();
                let x = self.number(t.start, t.end)?;
                // `2 [m/s]`: a number's unit (no expression continues with `[`).
                match self.unit_text()? {
                    Some(u) => {
                        let end = u.span.end + 1; // the closing `]`
                        return Ok(Expr {
                            kind: ExprKind::Quantity(x, u),
                            span: Span::new(self.file, span.start, end),
                        });
                    }
                    None => ExprKind::Num(x),
                }
            }
            Tok::Punct("(") => {
                self.bump();
                let inner = self.expr_inner(&["`)`"])?;
                let end = self.bump();
                return Ok(Expr {
                    kind: ExprKind::Paren(Box::new(inner)),
                    span: span.to(self.span(end)),
                });
            }
            Tok::Keyword(Keyword::True | Keyword::Always) => {
                self.bump();
                ExprKind::Bool(true)
            }
            Tok::Keyword(Keyword::False) => {
                self.bump();
                ExprKind::Bool(false)
            }
            Tok::Ident
                if self.str(t) == "not"
                    && matches!(
                        self.peek_at(1).tok,
                        Tok::Ident | Tok::Keyword(_) | Tok::Number | Tok::Punct("(" | "!")
                    ) =>
            {
                return Err(self.word_operator());
            }
            // `if c then a else b`: `if` is never a name (E0103).
            Tok::Ident
                if self.str(t) == "if"
                    && matches!(
                        self.peek_at(1).tok,
                        Tok::Ident | Tok::Keyword(_) | Tok::Number | Tok::Punct("(" | "!" | "-")
                    ) =>
            {
                let target = self.target_at(t.start);
                return Err(self.if_value(target.as_ref()));
            }
            // A keyword other than a value is read as a name, for the checker
            // to report (or, for `off`, to read as a mode's state).
            tok if tok.is_word() && self.peek_at(1).tok == Tok::Punct("(") => return self.call(),
            tok if tok.is_word() => return self.path(),
            _ => return Err(self.error(&["an expression"])),
        };
        Ok(Expr { kind, span })
    }

    /// The target of the rule being read, when its value starts at `start` (the help
    /// for a conditional value that is the whole value rewrites the rule).
    fn target_at(&self, start: usize) -> Option<crate::ast::Name> {
        let (name, at) = self.target.as_ref()?;
        (*at == start).then(|| name.clone())
    }

    /// `call = name "(" (expr ("," expr)* ","?)? ")"`.
    fn call(&mut self) -> Parsed<Expr> {
        let t = self.bump();
        let name = crate::ast::Name {
            text: self.str(t).to_string(),
            span: self.span(t),
        };
        self.bump(); // (
        self.ops += 1;
        if self.ops > MAX_OPERATORS {
            return Err(Stop);
        }
        let mut args = Vec::new();
        // `sum(e for i in 1:N)`: a reduction's first term may be followed by a generator.
        let reduction = super::parser::REDUCTIONS.contains(&name.text.as_str());
        if reduction && !self.at_punct(")") {
            let first = self.expr_inner(&["`)`", "`,`", "`for`"])?;
            if self.at_word("for") {
                let generator = self.generator_tail(first, name.span)?;
                let end = self.expect_punct(")", &["`)`", "`,`"])?;
                let span = name.span.to(self.span(end));
                return Ok(Expr {
                    kind: ExprKind::Reduce(name, Box::new(generator)),
                    span,
                });
            }
            args.push(first);
            if !self.eat_punct(",") || self.at_punct(")") {
                let end = self.bump(); // `)`
                let span = name.span.to(self.span(end));
                return Ok(Expr {
                    kind: ExprKind::Call(name, args),
                    span,
                });
            }
        }
        if !self.at_punct(")") {
            loop {
                args.push(self.expr_inner(&["`)`", "`,`"])?);
                // expr_inner made sure that `,` or `)` follows.
                if !self.eat_punct(",") || self.at_punct(")") {
                    break;
                }
            }
        }
        let end = self.bump(); // `)`
        let span = name.span.to(self.span(end));
        Ok(Expr {
            kind: ExprKind::Call(name, args),
            span,
        })
    }

    /// `path = name ("." name)* index?` (`index` in `parser/arrays.rs`).
    fn path(&mut self) -> Parsed<Expr> {
        let mut names = Vec::new();
        loop {
            let t = self.bump();
            names.push(crate::ast::Name {
                text: self.str(t).to_string(),
                span: self.span(t),
            });
            if !(self.at_punct(".") && self.peek_at(1).tok.is_word()) {
                break;
            }
            self.bump();
        }
        let span = names[0].span.to(names[names.len() - 1].span);
        // `T[i - 1]`: a cell of an array, the `[` right after the name (`v [m]` is no
        // expression: a unit follows only a number).
        if self.at_punct("[") && self.peek().start == span.end {
            let indices = self.index_list()?;
            let span = span.to(Span::new(self.file, self.prev_end(), self.prev_end()));
            return Ok(Expr {
                kind: ExprKind::Index(names, indices),
                span,
            });
        }
        Ok(Expr {
            kind: ExprKind::Path(names),
            span,
        })
    }

    /// The value of the real literal at `start..end`.
    pub(super) fn number(&mut self, start: usize, end: usize) -> Parsed<f64> {
        let text = &self.text[start..end];
        let span = Span::new(self.file, start, end);
        let Ok(v) = text.parse::<f64>() else {
            return Err(self.push_error(Diagnostic::error(
                "E0004",
                span,
                format!("`{text}` is not a number"),
            )));
        };
        if !v.is_finite() {
            let shown = if text.len() > 40 {
                format!("{}…", &text[..37]) // ASCII digits: any cut is a char boundary
            } else {
                text.to_string()
            };
            return Err(self.push_error(
                Diagnostic::error(
                    "E0004",
                    span,
                    format!("`{shown}` is too large for a 64-bit float"),
                )
                .with_label("this literal overflows to infinity")
                .with_note("the largest finite value is 1.7976931348623157e308"),
            ));
        }
        Ok(v)
    }
}
