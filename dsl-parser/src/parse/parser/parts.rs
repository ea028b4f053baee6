//! The syntax of acausal components: `connector Name { … }`, `port p: Connector;`,
//! `part r1: Model(bindings);` and `connect(a.p, b.n);` (`connector`, `port`, `part`,
//! `flow` and `connect` are words only there).

use super::{Parsed, Parser};
use crate::ast::*;
use crate::parse::keyword::Keyword;
use crate::parse::lexer::Tok;
use crate::source::Span;

impl Parser<'_> {
    /// Whether a `connector Name {` starts here.
    pub(super) fn at_connector(&self) -> bool {
        self.at_word("connector")
            && self.peek_at(1).tok.is_word()
            && self.peek_at(2).tok == Tok::Punct("{")
    }

    /// Whether a `port name :` or `part name :` starts here.
    pub(super) fn at_port_or_part(&self) -> bool {
        (self.at_word("port") || self.at_word("part"))
            && self.peek_at(1).tok.is_word()
            && self.peek_at(2).tok == Tok::Punct(":")
    }

    /// `connector = "connector" name "{" (("flow")? "real" name unit? ";")* "}"`.
    pub(super) fn connector(&mut self, doc: Vec<String>) -> Parsed<Connector> {
        self.bump();
        let name = self.name()?;
        self.expect_punct("{", &["`{`"])?;
        let mut fields = Vec::new();
        loop {
            let _ = self.docs();
            if self.eat_punct("}") {
                return Ok(Connector { doc, name, fields });
            }
            let flow = self.eat_word("flow");
            if !self.eat_kw(Keyword::Real) {
                let expected: &[&str] = if flow {
                    &["`real`"]
                } else {
                    &["`flow`", "`real`", "`}`"]
                };
                return Err(self.error(expected));
            }
            let field = self.name()?;
            let unit = self.unit_text()?;
            self.expect_punct(";", &["`;`"])?;
            fields.push(ConnectorField {
                flow,
                name: field,
                unit,
            });
        }
    }

    /// `port = "port" name ":" name ";"`, `part = "part" name ":" name ("(" (binding
    /// ("," binding)* ","?)? ")")? ";"`.
    pub(super) fn port_or_part(
        &mut self,
        first: usize,
        doc: Vec<String>,
        m: &mut Model,
    ) -> Parsed<()> {
        let port = self.at_word("port");
        self.bump();
        let name = self.name()?;
        self.expect_punct(":", &["`:`"])?;
        let model = self.name()?;
        if port {
            self.expect_punct(";", &["`;`"])?;
            m.ports.push(Port {
                doc,
                name,
                connector: model,
            });
            return Ok(());
        }
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
        let expected: &[&str] = if bindings.is_empty() {
            &["`(`", "`;`"]
        } else {
            &["`;`"]
        };
        let end = self.expect_punct(";", expected)?;
        m.parts.push(Part {
            doc,
            name,
            model,
            bindings,
            span: Span::new(self.file, first, end.end),
        });
        Ok(())
    }

    /// `connect = "connect" "(" path "," path ")" ";"`.
    pub(super) fn connect(&mut self, first: usize) -> Parsed<Connect> {
        self.bump();
        self.bump();
        let a = self.port_path()?;
        self.expect_punct(",", &["`,`"])?;
        let b = self.port_path()?;
        self.expect_punct(")", &["`)`"])?;
        let end = self.expect_punct(";", &["`;`"])?;
        Ok(Connect {
            a,
            b,
            span: Span::new(self.file, first, end.end),
        })
    }

    /// `path = name ("." name)*`.
    fn port_path(&mut self) -> Parsed<Vec<Name>> {
        let mut out = vec![self.name()?];
        while self.eat_punct(".") {
            out.push(self.name()?);
        }
        Ok(out)
    }
}
