//! The syntax of lookup tables: `table gain(x) = [0, 1] -> [0, 10] clamp;` and `table torque(w, p) from "engine.csv" clamp;`.

use super::{Parsed, Parser};
use crate::ast::{Decl, NumList, TableData, TableDecl, Values};
use crate::parse::lexer::Tok;
use crate::source::Span;

impl Parser<'_> {
    /// Whether a table declaration starts here: `"table" name "("`.
    pub(super) fn at_table_decl(&self) -> bool {
        self.at_word("table")
            && self.peek_at(1).tok.is_word()
            && self.peek_at(2).tok == Tok::Punct("(")
    }

    /// `table_decl = "table" name "(" name unit? ("," name unit?)* ")" unit? (inline |
    /// "from" string) name? ";"`, with `inline = "=" list ("," list)* "->" (list | "[" list ("," list)*
    /// ","? "]")` and `list = "[" expr ("," expr)* ","? "]"`.
    pub(super) fn table_decl(&mut self, doc: Vec<String>) -> Parsed<Decl> {
        self.bump();
        let name = self.name()?;
        self.expect_punct("(", &["`(`"])?;
        let mut args = vec![self.name()?];
        let mut arg_units = vec![self.unit_text()?];
        while self.eat_punct(",") {
            args.push(self.name()?);
            arg_units.push(self.unit_text()?);
        }
        self.expect_punct(")", &["`,`", "`)`"])?;
        let unit = self.unit_text()?;
        let data = if self.eat_word("from") {
            let t = self.peek();
            if t.tok != Tok::Str {
                return Err(self.error(&["a string"]));
            }
            self.bump();
            let raw = &self.str(t)[1..t.end - t.start - 1];
            TableData::File {
                path: raw.replace("\\\"", "\"").replace("\\\\", "\\"),
                span: self.span(t),
            }
        } else {
            self.expect_punct("=", &["`=`", "`from`"])?;
            let mut grids = vec![self.num_list()?];
            while self.eat_punct(",") {
                grids.push(self.num_list()?);
            }
            self.expect_punct("->", &["`,`", "`->`"])?;
            let values = if self.peek_at(1).tok == Tok::Punct("[") {
                let start = self.expect_punct("[", &["`[`"])?.start;
                let mut rows = vec![self.num_list()?];
                while self.eat_punct(",") && !self.at_punct("]") {
                    rows.push(self.num_list()?);
                }
                let end = self.expect_punct("]", &["`,`", "`]`"])?.end;
                Values::Rows(rows, Span::new(self.file, start, end))
            } else {
                Values::Flat(self.num_list()?)
            };
            TableData::Inline { grids, values }
        };
        let beyond = if self.peek().tok.is_word() {
            Some(self.name()?)
        } else {
            None
        };
        let expected: &[&str] = if beyond.is_some() {
            &["`;`"]
        } else {
            &["`clamp`", "`extrapolate`"]
        };
        self.expect_punct(";", expected)?;
        Ok(Decl::Table(Box::new(TableDecl {
            doc,
            name,
            args,
            arg_units,
            unit,
            data,
            beyond,
        })))
    }

    /// `list = "[" expr ("," expr)* ","? "]"`.
    fn num_list(&mut self) -> Parsed<NumList> {
        let start = self.expect_punct("[", &["`[`"])?.start;
        let mut items = Vec::new();
        loop {
            if self.at_punct("]") && !items.is_empty() {
                break;
            }
            items.push(self.expr(&["`,`", "`]`"])?);
            if !self.eat_punct(",") {
                break;
            }
        }
        let end = self.expect_punct("]", &["`,`", "`]`"])?.end;
        Ok(NumList {
            items,
            span: Span::new(self.file, start, end),
        })
    }
}
