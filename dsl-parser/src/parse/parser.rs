//! The recursive-descent parser: tokens to the syntax tree of files, models, declarations and rules.

use super::MAX_SYNTAX_ERRORS;
use super::error::{BLOCK_MEMBER, MEMBER, syntax_error};
use super::keyword::Keyword;
use super::lexer::{Lexed, Tok, Token};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};
pub use arrays::REDUCTIONS;

mod arrays;
mod blocks;
mod modes;
mod parts;
mod steps;
mod table;

/// An error was recorded in [`Parser::errors`]: unwind to the statement
/// loop, which skips to the next statement.
pub(super) struct Stop;

/// What parsing functions return.
pub(super) type Parsed<T> = Result<T, Stop>;

/// The parser's state: the tokens, the position, the errors so far.
pub(super) struct Parser<'a> {
    pub(super) file: FileId,
    pub(super) text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// The first unbalanced bracket, reported instead of an error at the end
    /// of the file (which it explains).
    balance: Option<Diagnostic>,
    errors: Vec<Diagnostic>,
    /// Operators counted so far in the current whole expression.
    pub(super) ops: usize,
    /// Where the last recovery left the parser.
    last_recovery: Option<usize>,
    /// The last error already skipped its statement: recovery must not
    /// skip the next one.
    pub(super) resynced: bool,
    /// The `#[allow(…)]` attributes read so far, with their scopes.
    pub(super) allows: Vec<Allow>,
    /// The target of the rule whose value is being read and where the value starts, for
    /// help that rewrites it.
    pub(super) target: Option<(Name, usize)>,
}

impl<'a> Parser<'a> {
    /// A parser over `lexed`, the tokens of `text`.
    pub(super) fn new(file: FileId, text: &'a str, lexed: Lexed) -> Parser<'a> {
        Parser {
            file,
            text,
            tokens: lexed.tokens,
            pos: 0,
            balance: lexed.balance,
            errors: Vec::new(),
            ops: 0,
            last_recovery: None,
            resynced: false,
            allows: Vec::new(),
            target: None,
        }
    }

    // --- tokens -----------------------------------------------------------

    pub(super) fn peek(&self) -> Token {
        self.tokens[self.pos]
    }

    pub(super) fn peek_at(&self, ahead: usize) -> Token {
        self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)]
    }

    pub(super) fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos];
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    /// Where the last token read ends (0 before the first).
    pub(super) fn prev_end(&self) -> usize {
        self.pos.checked_sub(1).map_or(0, |p| self.tokens[p].end)
    }

    /// The index of the next token.
    pub(super) fn position(&self) -> usize {
        self.pos
    }

    /// How many `(` opened since the token at `from` are still open.
    pub(super) fn open_parens_since(&self, from: usize) -> usize {
        self.tokens[from..self.pos]
            .iter()
            .fold(0usize, |d, t| match t.tok {
                Tok::Punct("(") => d + 1,
                Tok::Punct(")") => d.saturating_sub(1),
                _ => d,
            })
    }

    pub(super) fn str(&self, t: Token) -> &'a str {
        &self.text[t.start..t.end]
    }

    pub(super) fn span(&self, t: Token) -> Span {
        Span::new(self.file, t.start, t.end)
    }

    pub(super) fn at_punct(&self, p: &'static str) -> bool {
        self.peek().tok == Tok::Punct(p)
    }

    /// Whether the next token is the keyword `kw`.
    pub(super) fn at_kw(&self, kw: Keyword) -> bool {
        self.peek().tok == Tok::Keyword(kw)
    }

    /// Whether the next token is the name `word`: a word with a meaning only
    /// where the grammar expects it (`mode`, `table`, `limit`, …), a name
    /// elsewhere.
    pub(super) fn at_word(&self, word: &str) -> bool {
        let t = self.peek();
        t.tok == Tok::Ident && self.str(t) == word
    }

    pub(super) fn eat_punct(&mut self, p: &'static str) -> bool {
        let yes = self.at_punct(p);
        if yes {
            self.bump();
        }
        yes
    }

    pub(super) fn eat_kw(&mut self, kw: Keyword) -> bool {
        let yes = self.at_kw(kw);
        if yes {
            self.bump();
        }
        yes
    }

    /// Read the name `word` if it is next (see [`Parser::at_word`]).
    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        let yes = self.at_word(word);
        if yes {
            self.bump();
        }
        yes
    }

    pub(super) fn expect_punct(&mut self, p: &'static str, expected: &[&str]) -> Parsed<Token> {
        if self.at_punct(p) {
            Ok(self.bump())
        } else {
            Err(self.error(expected))
        }
    }

    /// Record "expected one of `expected`" at the next token.
    pub(super) fn error(&mut self, expected: &[&str]) -> Stop {
        let found = self.peek();
        let prev_end = if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].end
        };
        let mut d = syntax_error(self.file, self.text, expected, found, prev_end);
        if found.tok == Tok::Eof
            && let Some(b) = self.balance.take()
        {
            d = b; // an unclosed bracket explains an error at the end of the file
        }
        self.push_error(d)
    }

    /// Record an error found by the parser (not a syntax error as such).
    pub(super) fn push_error(&mut self, d: Diagnostic) -> Stop {
        if self.errors.last() != Some(&d) {
            self.errors.push(d);
        }
        Stop
    }

    /// A name; a keyword is read as one, for the checker to report (E0103)
    /// with what it was meant to name.
    fn name(&mut self) -> Parsed<Name> {
        let t = self.peek();
        if !t.tok.is_word() {
            return Err(self.error(&["a name"]));
        }
        self.bump();
        Ok(Name {
            text: self.str(t).to_string(),
            span: self.span(t),
        })
    }

    /// The text of a run of `///` lines (possibly none), each without its
    /// slashes, one leading space and a trailing CR.
    fn docs(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while self.peek().tok == Tok::Doc {
            let t = self.bump();
            let s = &self.text[t.start + 3..t.end];
            let s = s.trim_end_matches('\r');
            out.push(s.strip_prefix(' ').unwrap_or(s).to_string());
        }
        out
    }

    /// Skip to the end of the statement holding the error: past the next
    /// `;`, or past a `{ … }` block it opens, or up to the `}` that closes
    /// the enclosing block.
    pub(super) fn skip_statement(&mut self) {
        loop {
            match self.peek().tok {
                Tok::Eof | Tok::Punct("}") => return,
                Tok::Punct(";") => {
                    self.bump();
                    return;
                }
                Tok::Punct("{") => {
                    let mut depth = 0usize;
                    loop {
                        match self.bump().tok {
                            Tok::Punct("{") => depth += 1,
                            Tok::Punct("}") => {
                                depth -= 1;
                                if depth == 0 {
                                    return;
                                }
                            }
                            Tok::Eof => return,
                            _ => {}
                        }
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// After an error in a statement: `Err` when no more errors may be
    /// reported, else skip the statement (unless the error was a missing
    /// `;`, where the next statement starts right away).
    fn recover(&mut self) -> Parsed<()> {
        if self.errors.len() >= MAX_SYNTAX_ERRORS || self.peek().tok == Tok::Eof {
            return Err(Stop);
        }
        let missing_semi = self
            .errors
            .last()
            .is_some_and(|d| d.label == "add `;` here");
        let resynced = std::mem::take(&mut self.resynced);
        if (!missing_semi && !resynced) || self.last_recovery == Some(self.pos) {
            self.skip_statement();
        }
        // Each recovery moves on, so statement loops always end.
        if self.last_recovery == Some(self.pos) && !self.at_punct("}") {
            self.bump();
        }
        self.last_recovery = Some(self.pos);
        Ok(())
    }

    // --- files and models -------------------------------------------------

    /// `file = (import | model)* EOF`.
    pub(super) fn file(mut self) -> Result<File, Vec<Diagnostic>> {
        let mut out = File::default();
        loop {
            let mut docs = self.docs();
            let attrs = self.attributes();
            docs.extend(self.docs());
            let t = self.peek();
            let item = match attrs {
                Err(stop) => Err(stop),
                Ok(attrs) => match t.tok {
                    Tok::Eof if docs.is_empty() && attrs.is_empty() => break,
                    Tok::Keyword(Keyword::Import) if attrs.is_empty() => {
                        self.import().map(|i| out.imports.push(i))
                    }
                    Tok::Keyword(Keyword::Model) => self.model(docs).map(|m| {
                        self.close_attributes(attrs, t.start);
                        out.models.push(m)
                    }),
                    Tok::Ident if attrs.is_empty() && self.at_connector() => {
                        self.connector(docs).map(|c| out.connectors.push(c))
                    }
                    _ if !attrs.is_empty() => Err(self.error(&["`model`"])),
                    _ => Err(self.error(&["`import`", "`model`", "end of file"])),
                },
            };
            if item.is_err() {
                if self.errors.len() >= MAX_SYNTAX_ERRORS {
                    break;
                }
                // Skip to the next `import` or `model` outside brackets.
                let mut depth = 0usize;
                loop {
                    let t = self.peek();
                    match t.tok {
                        Tok::Eof => break,
                        Tok::Keyword(Keyword::Import | Keyword::Model) if depth == 0 => break,
                        Tok::Ident if depth == 0 && self.at_connector() => break,
                        Tok::Punct("(" | "{" | "[") => depth += 1,
                        Tok::Punct(")" | "}" | "]") => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    self.bump();
                }
                if self.peek().tok == Tok::Eof {
                    break;
                }
            }
        }
        if self.errors.is_empty() {
            out.allows = self.allows;
            Ok(out)
        } else {
            Err(self.errors)
        }
    }

    /// `import = "import" string ";"`.
    fn import(&mut self) -> Parsed<Import> {
        self.bump();
        let t = self.peek();
        if t.tok != Tok::Str {
            return Err(self.error(&["a string"]));
        }
        self.bump();
        let raw = &self.text[t.start + 1..t.end - 1];
        let path = raw.replace("\\\"", "\"").replace("\\\\", "\\");
        self.expect_punct(";", &["`;`"])?;
        Ok(Import {
            path,
            span: self.span(t),
        })
    }

    /// `model = "model" name "{" member* "}"`.
    fn model(&mut self, doc: Vec<String>) -> Parsed<Model> {
        self.bump();
        let name = self.name()?;
        self.expect_punct("{", &["`{`"])?;
        let mut m = Model {
            doc,
            name,
            decls: Vec::new(),
            rules: Vec::new(),
            methods: Vec::new(),
            substeps: Vec::new(),
            method_options: Vec::new(),
            ports: Vec::new(),
            parts: Vec::new(),
            connects: Vec::new(),
            arrays: Vec::new(),
        };
        loop {
            let mut first = self.peek().start;
            let mut docs = self.docs();
            let attrs = match self.attributes() {
                Ok(a) => a,
                Err(_) => {
                    self.recover()?;
                    continue;
                }
            };
            if !attrs.is_empty() {
                docs.extend(self.docs());
                first = self.peek().start;
                if self.at_punct("}") || self.peek().tok == Tok::Eof {
                    let _ = self.dangling_attributes(&["a declaration", "a rule"]);
                    self.recover()?;
                    continue;
                }
            }
            if self.at_punct("}") && docs.is_empty() {
                self.bump();
                return Ok(m);
            }
            if self.peek().tok == Tok::Eof {
                return Err(self.error(MEMBER));
            }
            if self.at_bare_name() {
                let _ = self.bare_name(None);
                self.recover()?;
                continue;
            }
            if self.member(first, docs, &mut m).is_err() {
                self.recover()?;
            } else {
                self.close_attributes(attrs, first);
            }
        }
    }

    /// One declaration or rule of a model.
    fn member(&mut self, first: usize, doc: Vec<String>, m: &mut Model) -> Parsed<()> {
        let t = self.peek();
        let word = if t.tok.is_word() { self.str(t) } else { "" };
        if matches!(word, "if" | "else") && self.peek_at(1).tok != Tok::Punct("=") {
            return Err(self.if_else());
        }
        // A keyword followed by `=` is a rule assigning to it (which the
        // checker rejects with a message naming the keyword).
        if t.tok.is_word() && self.peek_at(1).tok == Tok::Punct("=") {
            m.rules.push(self.assign(first)?);
            return Ok(());
        }
        if t.tok.is_word() && self.peek_at(1).tok == Tok::Punct(":") {
            m.rules.push(self.transition(first)?);
            return Ok(());
        }
        if self.at_mode_decl() {
            m.decls.push(self.mode_decl(doc)?);
            return Ok(());
        }
        if self.at_table_decl() {
            m.decls.push(self.table_decl(doc)?);
            return Ok(());
        }
        if self.at_for() {
            m.rules.push(self.for_rule(first)?);
            return Ok(());
        }
        match t.tok {
            Tok::Keyword(Keyword::Param | Keyword::Input | Keyword::Real | Keyword::Flag) => {
                self.var_decl(doc, m)
            }
            Tok::Keyword(Keyword::Pred | Keyword::Situation | Keyword::Event) => {
                m.decls.push(self.cond_decl(doc)?);
                Ok(())
            }
            Tok::Keyword(Keyword::Output) => match self.peek_at(1).tok {
                Tok::Keyword(Keyword::Real | Keyword::Flag) => self.var_decl(doc, m),
                _ => {
                    m.decls.push(self.cond_decl(doc)?);
                    Ok(())
                }
            },
            Tok::Keyword(Keyword::Sub) => {
                m.decls.push(self.sub_decl(doc)?);
                Ok(())
            }
            Tok::Keyword(Keyword::When) => {
                m.rules.push(self.when_rule(first)?);
                Ok(())
            }
            Tok::Ident if word == "method" && self.peek_at(1).tok.is_word() => {
                let (name, options) = self.method_decl()?;
                m.methods.push(name);
                m.method_options.push(options);
                Ok(())
            }
            Tok::Ident if word == "phase" && self.peek_at(1).tok.is_word() => {
                m.decls.push(self.phase_decl(doc)?);
                Ok(())
            }
            Tok::Ident if word == "substeps" => {
                m.substeps.push(self.substeps_decl(first)?);
                Ok(())
            }
            Tok::Ident if word == "step" && self.peek_at(1).tok == Tok::Punct("(") => {
                m.rules.push(self.step_rule(first)?);
                Ok(())
            }
            Tok::Ident if word == "equation" => {
                m.rules.push(self.equation(first)?);
                Ok(())
            }
            Tok::Ident if self.at_port_or_part() => self.port_or_part(first, doc, m),
            Tok::Ident if word == "connect" && self.peek_at(1).tok == Tok::Punct("(") => {
                m.connects.push(self.connect(first)?);
                Ok(())
            }
            _ if word.is_empty() => Err(self.error(MEMBER)),
            _ => {
                m.rules.push(self.assign(first)?);
                Ok(())
            }
        }
    }

    /// `param_decl = "param" "real"? items ";"`, `input_decl = "input" type
    /// items ";"`, `var_decl = "output"? type items ";"`, with `items =
    /// item ("," item)*` and `item = name unit? ("=" expr)? | array` (see
    /// `arrays.rs` for `array`).
    fn var_decl(&mut self, doc: Vec<String>, out: &mut Model) -> Parsed<()> {
        let kind = if self.eat_kw(Keyword::Param) {
            self.eat_kw(Keyword::Real);
            DeclKind::Param
        } else {
            let input = self.eat_kw(Keyword::Input);
            let output = !input && self.eat_kw(Keyword::Output);
            let flag = if self.eat_kw(Keyword::Flag) {
                true
            } else if self.eat_kw(Keyword::Real) {
                false
            } else {
                return Err(self.error(&["`real`", "`flag`"]));
            };
            let kind = match (input, flag) {
                (true, false) => DeclKind::InputReal,
                (true, true) => DeclKind::InputFlag,
                (false, false) => DeclKind::Real,
                (false, true) => DeclKind::Flag,
            };
            if output {
                return self.var_items(doc, kind, true, out);
            }
            kind
        };
        self.var_items(doc, kind, false, out)
    }

    fn var_items(
        &mut self,
        doc: Vec<String>,
        kind: DeclKind,
        output: bool,
        m: &mut Model,
    ) -> Parsed<()> {
        loop {
            let name = self.name()?;
            // `T[N]`: a `[` right after the name gives the array's sizes (a unit is
            // written after a space, `v [m]`).
            if self.at_punct("[") && self.peek().start == name.span.end {
                let array = self.array_decl(doc.clone(), kind, output, name, m.decls.len())?;
                m.arrays.push(array);
                if self.eat_punct(";") {
                    return Ok(());
                }
                self.expect_punct(",", &["`,`", "`;`"])?;
                continue;
            }
            let out = &mut m.decls;
            let unit = self.unit_text()?;
            if self.at_punct("(") {
                return Err(self.decl_modifiers(&name, kind, output));
            }
            let value = if self.eat_punct("=") {
                Some(self.expr(&["`,`", "`;`"])?)
            } else {
                None
            };
            out.push(Decl::Var {
                doc: doc.clone(),
                kind,
                output,
                name,
                unit,
                value,
            });
            if self.eat_punct(";") {
                return Ok(());
            }
            let expected: &[&str] = if value_is_none(out) {
                &["`,`", "`;`", "`=`"]
            } else {
                &["`,`", "`;`"]
            };
            self.expect_punct(",", expected)?;
        }
    }

    /// `unit = "[" text "]"` after a declared name: the text up to the closing bracket as
    /// written (any tokens but `]`, `;`, `=`, `{` and `}`), parsed by the checker.
    pub(super) fn unit_text(&mut self) -> Parsed<Option<UnitText>> {
        if !self.at_punct("[") {
            return Ok(None);
        }
        let open = self.bump();
        let (mut text, mut pieces, mut last_end) = (String::new(), Vec::new(), open.end);
        loop {
            let t = self.peek();
            match t.tok {
                Tok::Punct("]") => break,
                Tok::Punct(";" | "=" | "{" | "}" | "[") | Tok::Eof => {
                    return Err(self.error(&["a unit (like `m/s^2`) closed by `]`"]));
                }
                _ => {
                    self.bump();
                    if !text.is_empty() && t.start > last_end {
                        text.push(' ');
                    }
                    pieces.push((text.len(), t.start));
                    text.push_str(self.str(t));
                    last_end = t.end;
                }
            }
        }
        let close = self.bump();
        Ok(Some(UnitText {
            text,
            span: Span::new(self.file, open.end, close.start),
            pieces,
        }))
    }

    /// `cond_decl = ""output"? ("pred" | "situation" | "event") name ("=" expr)? ";"`.
    fn cond_decl(&mut self, doc: Vec<String>) -> Parsed<Decl> {
        let output = self.eat_kw(Keyword::Output);
        let kind = if self.eat_kw(Keyword::Pred) {
            DeclKind::Pred
        } else if self.eat_kw(Keyword::Situation) {
            DeclKind::Situation
        } else if self.eat_kw(Keyword::Event) {
            DeclKind::Event
        } else {
            return Err(self.error(&["`event`", "`flag`", "`pred`", "`real`", "`situation`"]));
        };
        let name = self.name()?;
        let value = if self.eat_punct("=") {
            Some(self.expr(&["`;`"])?)
        } else {
            None
        };
        let expected: &[&str] = if value.is_none() {
            &["`;`", "`=`"]
        } else {
            &["`;`"]
        };
        self.expect_punct(";", expected)?;
        Ok(Decl::Var {
            doc,
            kind,
            output,
            name,
            unit: None,
            value,
        })
    }

    /// `sub_decl = "sub" name ":" name ("(" (binding ("," binding)* ","?)? ")")? "off"? ";"`.
    fn sub_decl(&mut self, doc: Vec<String>) -> Parsed<Decl> {
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
        let off = self.eat_kw(Keyword::Off);
        if !self.at_punct(";") {
            let expected: &[&str] = match (bindings.is_empty(), off) {
                (_, true) => &["`;`"],
                (true, false) => &["`(`", "`;`", "`off`"],
                (false, false) => &["`;`", "`off`"],
            };
            return Err(self.error(expected));
        }
        self.bump();
        Ok(Decl::Sub {
            doc,
            name,
            model,
            bindings,
            off,
            phase: None,
        })
    }

    /// A rule of a `when` block: `sigma_rule | block | assign`.
    fn body_rule(&mut self, first: usize) -> Parsed<Rule> {
        let t = self.peek();
        if self.at_for() {
            return self.for_rule(first);
        }
        if t.tok.is_word() && self.peek_at(1).tok == Tok::Punct("=") {
            return self.assign(first);
        }
        if t.tok.is_word() && self.peek_at(1).tok == Tok::Punct(":") {
            return self.transition(first);
        }
        if self.at_word("step") && self.peek_at(1).tok == Tok::Punct("(") {
            return self.step_rule(first);
        }
        if self.at_word("equation") {
            // Refused by the checker (E0494) with a message; parsed so that it can say so.
            return self.equation(first);
        }
        match t.tok {
            Tok::Keyword(Keyword::When) => self.when_rule(first),
            Tok::Ident if matches!(self.str(t), "if" | "else") => Err(self.if_else()),
            tok if tok.is_word() => self.assign(first),
            _ => Err(self.error(BLOCK_MEMBER)),
        }
    }

    /// `step_rule = "step" "(" name ")" ";"`.
    fn step_rule(&mut self, first: usize) -> Parsed<Rule> {
        self.bump();
        self.bump();
        let sub = self.name()?;
        self.expect_punct(")", &["`)`"])?;
        let end = self.expect_punct(";", &["`;`"])?;
        Ok(Rule::Step {
            sub,
            span: Span::new(self.file, first, end.end),
        })
    }

    /// `equation = "equation" expr "=" expr ";"` (`equation` is a keyword only here: a
    /// rule `equation = …;` assigns to a variable of that name).
    fn equation(&mut self, first: usize) -> Parsed<Rule> {
        self.bump();
        let lhs = self.expr(&["`=`"])?;
        self.expect_punct("=", &["`=`"])?;
        let rhs = self.expr(&["`;`"])?;
        let end = self.expect_punct(";", &["`;`"])?;
        Ok(Rule::Equation {
            lhs,
            rhs,
            span: Span::new(self.file, first, end.end),
        })
    }

    /// `assign = name index? "=" expr ("when" expr | "otherwise")? ";"`, with `index =
    /// "[" expr ("," expr)* "]"` (a cell of an array).
    fn assign(&mut self, first: usize) -> Parsed<Rule> {
        let target = self.name()?;
        let index = if self.at_punct("[") && self.peek().start == target.span.end {
            self.index_list()?
        } else {
            Vec::new()
        };
        if !self.at_punct("=")
            && let Some(stop) = self.assign_hint(&target)
        {
            return Err(stop);
        }
        self.expect_punct("=", &["`=`"])?;
        self.target = Some((target.clone(), self.peek().start));
        let value = self.expr(&["`;`", "`otherwise`", "`when`"]);
        self.target = None;
        let value = value?;
        let guard = if self.at_kw(Keyword::When) {
            self.bump();
            Guard::When(self.expr(&["`;`"])?)
        } else if self.at_kw(Keyword::Otherwise) {
            let t = self.bump();
            Guard::Otherwise(self.span(t))
        } else {
            Guard::None
        };
        let end = self.expect_punct(";", &["`;`", "`otherwise`", "`when`"])?;
        Ok(Rule::Assign {
            target,
            index,
            value,
            guard,
            span: Span::new(self.file, first, end.end),
        })
    }
}

/// Whether the declaration just pushed has no value.
fn value_is_none(out: &[Decl]) -> bool {
    matches!(out.last(), Some(Decl::Var { value: None, .. }))
}
