//! The syntax of modes: `output mode light { red, green, yellow }` and the transition
//! `light: red -> green when c { … }`.

use super::{Parsed, Parser, Stop};
use crate::ast::{Decl, Rule};
use crate::parse::error::BLOCK_MEMBER;
use crate::parse::keyword::Keyword;
use crate::parse::lexer::Tok;
use crate::source::Span;

impl Parser<'_> {
    /// Whether a mode declaration starts here: `"output"? "mode" name "{"`.
    pub(super) fn at_mode_decl(&self) -> bool {
        let k = usize::from(self.at_kw(Keyword::Output));
        let t = self.peek_at(k);
        t.tok == Tok::Ident
            && self.str(t) == "mode"
            && self.peek_at(k + 1).tok.is_word()
            && self.peek_at(k + 2).tok == Tok::Punct("{")
    }

    /// `mode_decl = "output"? "mode" name "{" name ("," name)* ","? "}"`.
    pub(super) fn mode_decl(&mut self, doc: Vec<String>) -> Parsed<Decl> {
        let output = self.eat_kw(Keyword::Output);
        self.bump();
        let name = self.name()?;
        self.expect_punct("{", &["`{`"])?;
        let mut states = vec![self.name()?];
        while !self.eat_punct("}") {
            self.expect_punct(",", &["`,`", "`}`"])?;
            if self.eat_punct("}") {
                break;
            }
            states.push(self.name()?);
        }
        Ok(Decl::Mode {
            doc,
            output,
            name,
            states,
        })
    }

    /// `transition = name ":" name "->" name ("when" expr)? (";" | "{" body_rule* "}")`.
    pub(super) fn transition(&mut self, first: usize) -> Parsed<Rule> {
        let mode = self.name()?;
        self.bump();
        let from = self.name()?;
        self.expect_punct("->", &["`->`"])?;
        let to = self.name()?;
        let guard = if self.eat_kw(Keyword::When) {
            Some(self.expr(&["`;`", "`{`"])?)
        } else {
            None
        };
        let head_end = guard.as_ref().map_or(to.span.end, |g| g.span.end);
        let span = Span::new(self.file, first, head_end);
        let mut rules = Vec::new();
        if self.eat_punct(";") {
            return Ok(Rule::Transition {
                mode,
                from,
                to,
                guard,
                rules,
                span,
            });
        }
        let expected: &[&str] = if guard.is_none() {
            &["`;`", "`when`", "`{`"]
        } else {
            &["`;`", "`{`"]
        };
        self.expect_punct("{", expected)?;
        loop {
            let start = self.peek().start;
            let docs = self.docs();
            if self.at_punct("}") && docs.is_empty() {
                self.bump();
                break;
            }
            if self.peek().tok == Tok::Eof {
                return Err(self.error(BLOCK_MEMBER));
            }
            match self.body_rule(start) {
                Ok(r) => rules.push(r),
                Err(Stop) => self.recover()?,
            }
        }
        Ok(Rule::Transition {
            mode,
            from,
            to,
            guard,
            rules,
            span,
        })
    }
}
