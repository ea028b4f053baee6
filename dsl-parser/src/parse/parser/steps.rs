//! The syntax of how a model steps: `method NAME options;`, `substeps N when C limit L;`
//! and `phase name: Model(bindings) step h limit n until c;`.

use super::{Parsed, Parser};
use crate::ast::*;
use crate::parse::keyword::Keyword;
use crate::parse::lexer::Tok;
use crate::source::Span;

impl Parser<'_> {
    /// `substeps_decl = "substeps" expr ("when" expr)? "limit" expr ";"` (`substeps`
    /// and `limit` are words only here).
    pub(super) fn substeps_decl(&mut self, first: usize) -> Parsed<SubstepSpec> {
        self.bump();
        let count = self.expr(&["`limit`", "`when`"])?;
        let when = if self.eat_kw(Keyword::When) {
            Some(self.expr(&["`limit`"])?)
        } else {
            None
        };
        if !self.eat_word("limit") {
            let expected: &[&str] = if when.is_none() {
                &["`limit`", "`when`"]
            } else {
                &["`limit`"]
            };
            return Err(self.error(expected));
        }
        let limit = self.expr(&["`;`"])?;
        let end = self.expect_punct(";", &["`;`"])?;
        Ok(SubstepSpec {
            count,
            when,
            limit,
            span: Span::new(self.file, first, end.end),
        })
    }

    /// `method_decl = "method" name (name number)* ";"`: the integration method
    /// (`euler`, `rk4`, `dopri5`) and its options (`rtol 1e-8 atol 1e-10`).
    pub(super) fn method_decl(&mut self) -> Parsed<(Name, Vec<crate::ast::MethodOption>)> {
        self.bump();
        let name = self.name()?;
        let mut options = Vec::new();
        while self.peek().tok.is_word() {
            let option = self.name()?;
            let t = self.peek();
            if t.tok != Tok::Number {
                return Err(self.error(&["a number"]));
            }
            self.bump();
            let value = self.number(t.start, t.end)?;
            options.push(crate::ast::MethodOption {
                name: option,
                value,
                span: self.span(t),
            });
        }
        let expected: &[&str] = if options.is_empty() {
            &["`;`", "an option (`rtol`, `atol`)"]
        } else {
            &["`;`", "another option"]
        };
        self.expect_punct(";", expected)?;
        Ok((name, options))
    }

    /// `phase_decl = "phase" name ":" name ("(" (binding ("," binding)* ","?)? ")")?
    /// "step" expr "limit" expr "until" expr ";"` (`phase`, `step`, `limit` and `until`
    /// are words only here).
    pub(super) fn phase_decl(&mut self, doc: Vec<String>) -> Parsed<Decl> {
        self.bump();
        let name = self.name()?;
        self.expect_punct(":", &["`:`"])?;
        let model = self.name()?;
        let mut bindings = Vec::new();
        if self.eat_punct("(") {
            while !self.eat_punct(")") {
                let n = self.name()?;
                self.expect_punct("=", &["`=`"])?;
                let e = self.expr(&["`)`", "`,`"])?;
                bindings.push((n, e));
                if !self.at_punct(")") {
                    self.expect_punct(",", &["`)`", "`,`"])?;
                }
            }
        }
        if !self.eat_word("step") {
            let expected: &[&str] = if bindings.is_empty() {
                &["`(`", "`step`"]
            } else {
                &["`step`"]
            };
            return Err(self.error(expected));
        }
        let step = self.expr(&["`limit`"])?;
        if !self.eat_word("limit") {
            return Err(self.error(&["`limit`"]));
        }
        let limit = self.expr(&["`until`"])?;
        if !self.eat_word("until") {
            return Err(self.error(&["`until`"]));
        }
        let until = self.expr(&["`;`"])?;
        self.expect_punct(";", &["`;`"])?;
        Ok(Decl::Sub {
            doc,
            name,
            model,
            bindings,
            off: true,
            phase: Some(Box::new(PhaseSpec { step, limit, until })),
        })
    }

    // --- rules ------------------------------------------------------------
}
