//! Guarded rules: `when c => actions;` (σ rules and their actions) and `when c { rules }` blocks, whose body parser the `for` loops share.

use super::{Parsed, Parser, Stop};
use crate::ast::{Action, Rule};
use crate::parse::error::BLOCK_MEMBER;
use crate::parse::keyword::Keyword;
use crate::parse::lexer::Tok;
use crate::source::Span;

impl Parser<'_> {
    /// `sigma_rule = "when" expr "=>" action ("," action)* ","? ";"` or
    /// `block = "when" expr "{" body_rule* "}"`.
    pub(super) fn when_rule(&mut self, first: usize) -> Parsed<Rule> {
        self.bump();
        let cond = self.expr(&["`=>`", "`{`"])?;
        if self.eat_punct("=>") {
            let mut actions = vec![self.action()?];
            loop {
                if self.at_punct(";") {
                    break;
                }
                if self.at_punct("=")
                    && let Some(Action::Set { span, .. }) = actions.last()
                {
                    return Err(self.sigma_assign(cond.span, *span));
                }
                self.expect_punct(",", &["`,`", "`;`"])?;
                if self.at_punct(";") {
                    break;
                }
                actions.push(self.action()?);
            }
            let end = self.bump();
            return Ok(Rule::Sigma {
                cond,
                actions,
                span: Span::new(self.file, first, end.end),
            });
        }
        self.expect_punct("{", &["`=>`", "`{`"])?;
        let head = Span::new(self.file, first, cond.span.end);
        let rules = self.block_rules(cond.span)?;
        Ok(Rule::Block {
            cond,
            rules,
            span: head,
        })
    }

    /// The rules of a block up to its `}` (read): `body_rule*`; `head` is the
    /// block's condition (or loop header), for the help of a bare name.
    pub(super) fn block_rules(&mut self, head: Span) -> Parsed<Vec<Rule>> {
        let mut rules = Vec::new();
        loop {
            let mut start = self.peek().start;
            let docs = self.docs();
            let attrs = match self.attributes() {
                Ok(a) => a,
                Err(_) => {
                    self.recover()?;
                    continue;
                }
            };
            if !attrs.is_empty() {
                let _ = self.docs();
                start = self.peek().start;
                if self.at_punct("}") || self.peek().tok == Tok::Eof {
                    let _ = self.dangling_attributes(&["a rule"]);
                    self.recover()?;
                    continue;
                }
            }
            if self.at_punct("}") && docs.is_empty() {
                self.bump();
                break;
            }
            if self.peek().tok == Tok::Eof {
                return Err(self.error(BLOCK_MEMBER));
            }
            if self.at_bare_name() {
                let _ = self.bare_name(Some(head));
                self.recover()?;
                continue;
            }
            match self.body_rule(start) {
                Ok(r) => {
                    rules.push(r);
                    self.close_attributes(attrs, start);
                }
                Err(Stop) => self.recover()?,
            }
        }
        Ok(rules)
    }

    /// `action = "reset" "(" name ")" | "run" "(" name ")" | "!"? path index?` (`index`
    /// in `parser/arrays.rs`: a cell of a flag array, `hot[i]`).
    fn action(&mut self) -> Parsed<Action> {
        let first = self.peek();
        if self.at_kw(Keyword::Reset) && self.peek_at(1).tok == Tok::Punct("(") {
            self.bump();
            self.bump();
            let sub = self.name()?;
            let end = self.expect_punct(")", &["`)`"])?;
            return Ok(Action::Reset {
                sub,
                span: Span::new(self.file, first.start, end.end),
            });
        }
        if self.at_word("run") && self.peek_at(1).tok == Tok::Punct("(") {
            self.bump();
            self.bump();
            let phase = self.name()?;
            let end = self.expect_punct(")", &["`)`"])?;
            return Ok(Action::Run {
                phase,
                span: Span::new(self.file, first.start, end.end),
            });
        }
        let value = !self.eat_punct("!");
        if !self.peek().tok.is_word() {
            return Err(self.error(&["an action"]));
        }
        let mut path = vec![self.name()?];
        while self.eat_punct(".") {
            path.push(self.name()?);
        }
        let mut end = path.last().map_or(first.end, |n| n.span.end);
        let mut index = Vec::new();
        if self.at_punct("[") && self.peek().start == end {
            index = self.index_list()?;
            end = self.prev_end();
        }
        Ok(Action::Set {
            path,
            index,
            value,
            span: Span::new(self.file, first.start, end),
        })
    }
}
