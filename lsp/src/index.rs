//! A token-level index of one file: models, declarations, rules and what each name refers to, built even from half-typed text.
//!
//! The index reads the lexer's tokens, not the syntax tree, so that it exists
//! for any text that lexes (a file being typed rarely parses): declarations
//! are the statements that start with a declaring keyword, and each name is
//! resolved from the tokens around it and the declarations of its model.

use sit_middle::parse::{SourceToken, TokenKind, tokenize};

/// A declared name of a model.
#[derive(Debug, Clone)]
pub(crate) struct Decl {
    /// The name.
    pub name: String,
    /// Byte range of the name.
    pub span: (usize, usize),
    /// The declaring words as written (`output real`, `param`, `sub`).
    pub kind: String,
    /// `= value` as written, if given.
    pub value: Option<String>,
    /// For a submodel: the model it instantiates, and the text of the whole
    /// declaration.
    pub sub_model: Option<String>,
    /// Doc comment lines (without `///`).
    pub doc: Vec<String>,
    /// Byte range of the declaration statement.
    pub stmt: (usize, usize),
}

impl Decl {
    /// What it is, in one word: `param` (also for `param real`), `real`,
    /// `flag`, `pred`, `situation`, `event` or `sub`.
    pub fn role(&self) -> &str {
        if self.kind.split(' ').any(|w| w == "param") {
            "param"
        } else {
            self.kind.rsplit(' ').next().unwrap_or("")
        }
    }

    /// Whether `output` was written.
    pub fn is_output(&self) -> bool {
        self.kind.split(' ').any(|w| w == "output")
    }
}

/// A rule statement (or the head of a guarded block), for the outline.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    /// Its text up to `;` or `{`, on one line.
    pub text: String,
    /// Byte range of the statement (a block: up to its `}`).
    pub span: (usize, usize),
    /// Rules inside a guarded block.
    pub children: Vec<Rule>,
}

/// A model of the file.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    /// The name.
    pub name: String,
    /// Byte range of the name.
    pub span: (usize, usize),
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// From `model` (or its doc) to the closing `}` (or the end of the text).
    pub range: (usize, usize),
    /// Declarations in order.
    pub decls: Vec<Decl>,
    /// Rules in order.
    pub rules: Vec<Rule>,
}

impl Model {
    /// The declaration of `name`, if any.
    pub fn decl(&self, name: &str) -> Option<&Decl> {
        self.decls.iter().find(|d| d.name == name)
    }
}

/// What a name written in the file is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Sym {
    /// A model, by name (model names are global to a program).
    Model(String),
    /// A declaration of a model.
    Decl {
        /// The model declaring it.
        model: String,
        /// The declared name.
        name: String,
    },
    /// A procedure (`sin`, `integral`).
    Proc(String),
    /// `time`, `dt`, or a submodel's `on`.
    Builtin(String),
}

/// The index of one file.
pub(crate) struct Index {
    /// The text.
    pub text: String,
    /// Its tokens (empty if it does not lex).
    pub tokens: Vec<SourceToken>,
    /// `import "path";` paths with the byte range of the string.
    pub imports: Vec<(String, (usize, usize))>,
    /// Models in order.
    pub models: Vec<Model>,
    /// For each token, the model it is inside (an index into `models`).
    tok_model: Vec<Option<usize>>,
    /// For each token, the index of the first token of its statement.
    tok_stmt: Vec<usize>,
}

impl Index {
    /// Index `text` (if it does not lex, an index with no tokens).
    pub fn new(text: &str) -> Index {
        let tokens = tokenize(0, text).unwrap_or_default();
        let mut ix = Index {
            text: text.to_string(),
            tokens,
            imports: Vec::new(),
            models: Vec::new(),
            tok_model: Vec::new(),
            tok_stmt: Vec::new(),
        };
        ix.scan();
        ix
    }

    /// The text of token `i`.
    pub fn tok(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .map_or("", |t| &self.text[t.start..t.end])
    }

    fn is(&self, i: usize, s: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind != TokenKind::Str) && self.tok(i) == s
    }

    /// Whether token `i` is a word: a name, or a keyword written where a name goes.
    fn is_ident(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind.is_word())
    }

    /// Whether token `i` is a word that declares: a declaring keyword
    /// ([`sit_middle::parse::Keyword::is_declaring`]), or `table` (a word only before
    /// `name(`), `part` or `port` (words only before `name:`).
    fn is_declaring(&self, i: usize) -> bool {
        match self.tokens.get(i).map(|t| t.kind) {
            Some(TokenKind::Keyword(k)) => k.is_declaring(),
            Some(TokenKind::Ident) => {
                self.tok(i) == "table"
                    // `part name: Model(…)` and `port name: Connector` (words only there).
                    || (matches!(self.tok(i), "part" | "port")
                        && self.is_ident(i + 1)
                        && self.is(i + 2, ":"))
            }
            _ => false,
        }
    }

    fn span(&self, i: usize) -> (usize, usize) {
        self.tokens.get(i).map_or((0, 0), |t| (t.start, t.end))
    }

    /// One pass over the tokens: imports, models, statements.
    fn scan(&mut self) {
        let n = self.tokens.len();
        self.tok_model = vec![None; n];
        self.tok_stmt = (0..n).collect();
        let mut i = 0;
        let mut docs: Vec<usize> = Vec::new();
        while i < n {
            let t = self.tokens[i];
            if t.kind == TokenKind::Doc {
                docs.push(i);
                i += 1;
                continue;
            }
            if self.is(i, "import") {
                if self
                    .tokens
                    .get(i + 1)
                    .is_some_and(|t| t.kind == TokenKind::Str)
                {
                    let (s, e) = self.span(i + 1);
                    let raw = &self.text[s + 1..e.saturating_sub(1).max(s + 1)];
                    let path = raw.replace("\\\"", "\"").replace("\\\\", "\\");
                    self.imports.push((path, (s, e)));
                }
                docs.clear();
                i += 1;
                continue;
            }
            if self.is(i, "model") && self.is_ident(i + 1) {
                i = self.model(i, std::mem::take(&mut docs));
                continue;
            }
            docs.clear();
            i += 1;
        }
    }

    /// Index the model whose `model` keyword is token `at`; returns the
    /// index of the token after it.
    fn model(&mut self, at: usize, docs: Vec<usize>) -> usize {
        let n = self.tokens.len();
        let m = self.models.len();
        let start = docs.first().map_or(self.span(at).0, |&d| self.span(d).0);
        self.models.push(Model {
            name: self.tok(at + 1).to_string(),
            span: self.span(at + 1),
            doc: docs.iter().map(|&d| doc_line(self.tok(d))).collect(),
            range: (start, self.text.len()),
            decls: Vec::new(),
            rules: Vec::new(),
        });
        for k in at..(at + 2).min(n) {
            self.tok_model[k] = Some(m);
        }
        let mut i = at + 2;
        if !self.is(i, "{") {
            return i;
        }
        self.tok_model[i] = Some(m);
        i += 1;
        // Statements at depth 1 until the closing `}`.
        let mut docs: Vec<usize> = Vec::new();
        while i < n {
            if self.is(i, "}") {
                self.tok_model[i] = Some(m);
                self.models[m].range.1 = self.span(i).1;
                return i + 1;
            }
            if self.tokens[i].kind == TokenKind::Doc {
                self.tok_model[i] = Some(m);
                docs.push(i);
                i += 1;
                continue;
            }
            if self.is(i, "model") && self.is_ident(i + 1) && self.is(i + 2, "{") {
                // A model not closed before the next one starts.
                self.models[m].range.1 = self.span(i).0;
                return i;
            }
            let (end, rule) = self.statement(i, m, std::mem::take(&mut docs));
            if let Some(rule) = rule {
                self.models[m].rules.push(rule);
            }
            i = end;
        }
        i
    }

    /// Index the statement starting at token `at` in model `m`; returns the
    /// token after it, and the rule if it is one.
    fn statement(&mut self, at: usize, m: usize, docs: Vec<usize>) -> (usize, Option<Rule>) {
        let n = self.tokens.len();
        let mut i = at;
        let mut parens = 0usize;
        // The statement's end: `;` outside brackets, or `{` (a block), or a
        // `}` that closes the model.
        while i < n {
            if i > at && self.is(i, "model") && self.is_ident(i + 1) && self.is(i + 2, "{") {
                // The next model starts before this statement ends.
                break;
            }
            self.tok_model[i] = Some(m);
            self.tok_stmt[i] = at;
            match self.tok(i) {
                "(" | "[" => parens += 1,
                ")" | "]" => parens = parens.saturating_sub(1),
                ";" if parens == 0 => break,
                "{" | "}" => break,
                _ => {}
            }
            if self.tokens[i].kind == TokenKind::Doc {
                break;
            }
            i += 1;
        }
        let head_end = i;
        // `table` declares only as `table name(`: elsewhere it may be a name.
        let table = self.tok(at) == "table" && !(self.is_ident(at + 1) && self.is(at + 2, "("));
        if self.is_declaring(at) && !table {
            self.declaration(at, head_end, m, &docs);
            let next = if self.is(i, ";") { i + 1 } else { i };
            return (next.max(at + 1), None);
        }
        let text = self.joined(at, head_end);
        let stmt_start = self.span(at).0;
        if self.is(i, "{") {
            // A guarded block: its rules until the matching `}`.
            self.tok_model[i] = Some(m);
            self.tok_stmt[i] = at;
            let mut children = Vec::new();
            let mut j = i + 1;
            while j < n && !self.is(j, "}") {
                if self.tokens[j].kind == TokenKind::Doc {
                    self.tok_model[j] = Some(m);
                    j += 1;
                    continue;
                }
                if self.is(j, "model") && self.is_ident(j + 1) && self.is(j + 2, "{") {
                    break;
                }
                let (end, rule) = self.statement(j, m, Vec::new());
                children.extend(rule);
                j = end.max(j + 1);
            }
            let end = if self.is(j, "}") {
                self.tok_model[j] = Some(m);
                self.tok_stmt[j] = at;
                j + 1
            } else {
                j
            };
            let span_end = self.span(end.saturating_sub(1)).1;
            return (
                end,
                Some(Rule {
                    text,
                    span: (stmt_start, span_end.max(stmt_start)),
                    children,
                }),
            );
        }
        let next = if self.is(i, ";") { i + 1 } else { i };
        if head_end == at {
            // A lone `}` or doc: nothing to record.
            return (next.max(at + 1).min(n.max(at + 1)), None);
        }
        let span_end = self.span(next.saturating_sub(1)).1;
        (
            next.max(at + 1),
            Some(Rule {
                text,
                span: (stmt_start, span_end.max(stmt_start)),
                children: Vec::new(),
            }),
        )
    }

    /// Tokens `from..to` joined by single spaces.
    fn joined(&self, from: usize, to: usize) -> String {
        let mut s = String::new();
        for k in from..to.min(self.tokens.len()) {
            if !s.is_empty()
                && !matches!(self.tok(k), "," | ")" | "." | "(")
                && !s.ends_with(['(', '.', '!'])
            {
                s.push(' ');
            }
            s.push_str(self.tok(k));
        }
        s
    }

    /// Record the names declared by tokens `at..end` (a declaration
    /// statement without its `;`).
    fn declaration(&mut self, at: usize, end: usize, m: usize, docs: &[usize]) {
        let doc: Vec<String> = docs.iter().map(|&d| doc_line(self.tok(d))).collect();
        let stmt = (
            self.span(at).0,
            self.span(end.min(self.tokens.len()).saturating_sub(1)).1,
        );
        let mut i = at;
        let mut kind = Vec::new();
        while i < end && self.is_declaring(i) && (i == at || self.tok(i) != "table") {
            kind.push(self.tok(i).to_string());
            i += 1;
        }
        let kind = kind.join(" ");
        if matches!(kind.as_str(), "sub" | "part" | "port") {
            // `sub name: Model(bindings) [off]`, `part name: Model(bindings)`,
            // `port name: Connector`
            if self.is_ident(i) {
                let model = if self.is(i + 1, ":") && self.is_ident(i + 2) {
                    Some(self.tok(i + 2).to_string())
                } else {
                    None
                };
                let decl = Decl {
                    name: self.tok(i).to_string(),
                    span: self.span(i),
                    kind,
                    value: None,
                    sub_model: model,
                    doc,
                    stmt,
                };
                self.models[m].decls.push(decl);
            }
            return;
        }
        // `name [= value], name [= value]`
        while i < end {
            if !self.is_ident(i) {
                break;
            }
            let name_at = i;
            i += 1;
            // A unit after the name (`real v [m/s]`): the hover shows it as checked.
            if self.is(i, "[") {
                while i < end && !self.is(i, "]") {
                    i += 1;
                }
                i += 1;
            }
            let mut value = None;
            if self.is(i, "=") {
                let from = i + 1;
                let mut parens = 0usize;
                while i < end {
                    match self.tok(i) {
                        "(" | "[" => parens += 1,
                        ")" | "]" => parens = parens.saturating_sub(1),
                        "," if parens == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                value = Some(self.joined(from, i));
            }
            let decl = Decl {
                name: self.tok(name_at).to_string(),
                span: self.span(name_at),
                kind: kind.clone(),
                value,
                sub_model: None,
                doc: doc.clone(),
                stmt,
            };
            self.models[m].decls.push(decl);
            if !self.is(i, ",") {
                break;
            }
            i += 1;
        }
    }

    /// The index of the token holding byte `offset`, or ending at it.
    /// The token that starts at `offset` or holds it wins over one that ends there.
    pub fn token_at(&self, offset: usize) -> Option<usize> {
        let i = self.tokens.partition_point(|t| t.end <= offset);
        if self.tokens.get(i).is_some_and(|t| t.start <= offset) {
            return Some(i);
        }
        (i > 0 && self.tokens[i - 1].end == offset).then(|| i - 1)
    }

    /// The model token `i` is inside.
    pub fn model_of(&self, i: usize) -> Option<&Model> {
        self.tok_model
            .get(i)
            .copied()
            .flatten()
            .map(|m| &self.models[m])
    }

    /// The model containing byte `offset`.
    pub fn model_at(&self, offset: usize) -> Option<&Model> {
        self.models
            .iter()
            .find(|m| m.range.0 <= offset && offset <= m.range.1)
    }

    /// The model a name of model `model` that is a submodel instance
    /// (`sub`) instantiates.
    pub fn sub_model<'a>(&'a self, model: &'a Model, sub: &str) -> Option<&'a str> {
        model.decl(sub).and_then(|d| d.sub_model.as_deref())
    }

    /// What the identifier token `i` refers to, if it is a name.
    pub fn resolve(&self, i: usize) -> Option<Sym> {
        let t = self.tokens.get(i)?;
        if !t.kind.is_word() {
            return None;
        }
        let word = self.tok(i);
        if i > 0 && self.is(i - 1, "model") {
            return Some(Sym::Model(word.to_string()));
        }
        if t.kind.keyword().is_some() {
            return None;
        }
        let model = self.model_of(i)?;
        let stmt = self.tok_stmt[i];
        if i >= 2 && self.is(i - 1, ".") && self.is_ident(i - 2) {
            // `sub.member`
            let sub = self.tok(i - 2);
            if word == "on" {
                return Some(Sym::Builtin("on".into()));
            }
            let of = self.sub_model(model, sub)?;
            return Some(Sym::Decl {
                model: of.to_string(),
                name: word.to_string(),
            });
        }
        if self.is(stmt, "sub") || self.is(stmt, "part") {
            // `sub name: Model(binding = value, ...)`, `part name: Model(…)`
            if i == stmt + 3 && self.is(i - 1, ":") {
                return Some(Sym::Model(word.to_string()));
            }
            let in_bindings = self.is(stmt + 4, "(")
                && i > stmt + 4
                && self.is(i + 1, "=")
                && (self.is(i - 1, "(") || self.is(i - 1, ","))
                && self.depth_between(stmt + 4, i) == 1;
            if in_bindings {
                let of = self.tok(stmt + 3).to_string();
                return Some(Sym::Decl {
                    model: of,
                    name: word.to_string(),
                });
            }
        }
        if self.is(i + 1, "(")
            && (sit_middle::ir::Func::from_name(word).is_some()
                || sit_middle::check::Stateful::from_name(word).is_some()
                || word == "prev")
            && model.decl(word).is_none()
        {
            return Some(Sym::Proc(word.to_string()));
        }
        if model.decl(word).is_some() {
            return Some(Sym::Decl {
                model: model.name.clone(),
                name: word.to_string(),
            });
        }
        if sit_middle::check::RESERVED.contains(&word) {
            return Some(Sym::Builtin(word.to_string()));
        }
        // An undeclared name: still one symbol, for references and rename.
        Some(Sym::Decl {
            model: model.name.clone(),
            name: word.to_string(),
        })
    }

    /// Open `(` minus `)` from token `from` up to (not including) `to`.
    fn depth_between(&self, from: usize, to: usize) -> usize {
        let mut d = 0usize;
        for k in from..to {
            match self.tok(k) {
                "(" => d += 1,
                ")" => d = d.saturating_sub(1),
                _ => {}
            }
        }
        d
    }

    /// Byte ranges of the tokens that refer to `sym`.
    pub fn occurrences(&self, sym: &Sym) -> Vec<(usize, usize)> {
        (0..self.tokens.len())
            .filter(|&i| self.resolve(i).as_ref() == Some(sym))
            .map(|i| self.span(i))
            .collect()
    }
}

/// A `///` line without its slashes and the one space after them.
fn doc_line(tok: &str) -> String {
    let s = tok.strip_prefix("///").unwrap_or(tok);
    s.strip_prefix(' ').unwrap_or(s).trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::{Index, Sym};

    fn decl(model: &str, name: &str) -> Option<Sym> {
        Some(Sym::Decl {
            model: model.into(),
            name: name.into(),
        })
    }

    #[test]
    fn parts_and_ports_are_declarations() {
        let text = "model R { param R = 1; port p: Pin; real v; }\n\
                    model C { part r1: R(R = 2); real part; part = r1.v; }";
        let ix = Index::new(text);
        assert_eq!(ix.models[0].decl("p").unwrap().role(), "port");
        let c = &ix.models[1];
        assert_eq!(c.decl("r1").unwrap().role(), "part");
        assert_eq!(c.decl("r1").unwrap().sub_model.as_deref(), Some("R"));
        assert_eq!(
            c.decl("part").unwrap().role(),
            "real",
            "`part` is a name elsewhere"
        );
        let off = text.find("R = 2").unwrap();
        assert_eq!(ix.resolve(ix.token_at(off).unwrap()), decl("R", "R"));
        let off = text.find("r1.v").unwrap() + 3;
        assert_eq!(ix.resolve(ix.token_at(off).unwrap()), decl("R", "v"));
    }

    #[test]
    fn a_table_is_a_declaration_and_elsewhere_table_a_name() {
        let text = "model T { table gain(x) = [0, 1] -> [0, 2] clamp; real y; y = gain(y); }\n\
                    model U { real table; table = 1; }";
        let ix = Index::new(text);
        let t = &ix.models[0];
        assert_eq!(t.decl("gain").unwrap().role(), "table");
        let off = text.find("gain(y)").unwrap();
        assert_eq!(ix.resolve(ix.token_at(off).unwrap()), decl("T", "gain"));
        let u = &ix.models[1];
        assert_eq!(u.decl("table").unwrap().role(), "real");
        assert_eq!(u.rules.len(), 1, "`table = 1;` is a rule");
    }

    #[test]
    fn declarations_and_names_are_read_from_tokens() {
        let text = "model A { param real k = 1; output real y; }\n\
                    model B { sub a: A(k = 2); sub c: A; real x = a.y, z; x = a.y + c.on; }";
        let ix = Index::new(text);
        let a = &ix.models[0];
        assert_eq!(a.decl("k").unwrap().role(), "param");
        assert_eq!(a.decl("y").unwrap().role(), "real");
        assert!(a.decl("y").unwrap().is_output());
        let b = &ix.models[1];
        let names: Vec<&str> = b.decls.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["a", "c", "x", "z"]);
        assert_eq!(b.decl("c").unwrap().sub_model.as_deref(), Some("A"));
        assert_eq!(b.decl("x").unwrap().value.as_deref(), Some("a.y"));
        let at = |needle: &str, nth: usize| {
            let off = text.match_indices(needle).nth(nth).unwrap().0;
            ix.resolve(ix.token_at(off).unwrap())
        };
        assert_eq!(
            at("k = 2", 0),
            decl("A", "k"),
            "a binding names the submodel's param"
        );
        assert_eq!(at("A(", 0), Some(Sym::Model("A".into())));
        assert_eq!(at("y + c", 0), decl("A", "y"));
        assert_eq!(at("on;", 0), Some(Sym::Builtin("on".into())));
        assert_eq!(at("x = a.y +", 0), decl("B", "x"));
        assert_eq!(at("real x", 0), None, "a keyword");
        assert_eq!(b.rules.len(), 1);
        assert_eq!(b.rules[0].text, "x = a.y + c.on");
    }

    #[test]
    fn half_typed_text_is_indexed() {
        let ix = Index::new("model A { real x = ; x = integral(\nmodel B { sub");
        assert_eq!(ix.models.len(), 2);
        assert_eq!(ix.models[0].name, "A");
        assert!(ix.models[0].decl("x").is_some());
        // An unterminated comment does not lex: an empty index.
        assert!(Index::new("model A { /* ").models.is_empty());
    }
}
