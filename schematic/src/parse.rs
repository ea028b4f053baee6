//! The hand-written reader of `.sch` text: one pass, no backtracking, linear in the input.
//!
//! ```text
//! file       = doc* "schematic" NAME "{" item* "}"
//! item       = "grid" "{" NEWLINE row* "}"            rows: whitespace-separated cell tokens
//!            | doc* KIND NAME [ "(" param { "," param } ")" ] ( ";" | "{" pole* "}" [ ";" ] )
//!            | doc* "action" NAME "on" [ "+" | "-" ] NAME "=" EXPR ";"
//!            | ( "param" | "input" ) TEXT ";"            copied into the model
//!            | "equations" ( "printed" | "power_consistent" ) ";"
//! param      = NAME "=" EXPR                              EXPR: .sit expression text
//! pole       = "pole" ( "up" | "down" | "left" | "right" ) "at" "(" INT "," INT ")" [ "weight" NUMBER ] ";"
//! ```

use crate::ast::{
    Action, Cell, Dir, Element, Form, Glyph, Grid, Kind, Param, PoleDecl, Schematic, Token,
    Verbatim,
};
use sit_parser::{Diagnostic, Span, source::FileId};

/// A syntax error: stops the reading of the file.
type Res<T> = Result<T, Box<Diagnostic>>;

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    file: FileId,
    doc: Vec<String>,
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl<'a> Cursor<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Skip white space and comments, collecting `///` doc lines.
    fn skip(&mut self) -> Res<()> {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            let rest = &self.text[self.pos..];
            if rest.starts_with("///") && !rest.starts_with("////") {
                let end = rest.find('\n').unwrap_or(rest.len());
                let line = rest[3..end].trim_end_matches('\r');
                self.doc
                    .push(line.strip_prefix(' ').unwrap_or(line).to_string());
                self.pos += end;
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(body) = rest.strip_prefix("/*") {
                match body.find("*/") {
                    Some(end) => self.pos += end + 4,
                    None => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "E0500",
                                self.span(self.pos, self.pos + 2),
                                "unterminated block comment",
                            )
                            .with_label("this comment is never closed")
                            .with_help("close it with `*/`"),
                        ));
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    /// The span and text of the next token, for "found ..." in messages.
    fn found(&mut self) -> (Span, String) {
        let start = self.pos;
        match self.peek() {
            None => (self.span(start, start), "the end of the file".into()),
            Some(c) if is_name_char(c) => {
                let end = self.text[start..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(self.text.len(), |e| start + e);
                (
                    self.span(start, end),
                    format!("`{}`", &self.text[start..end]),
                )
            }
            Some(c) => (self.span(start, start + c.len_utf8()), format!("`{c}`")),
        }
    }

    fn expected(&mut self, what: &str) -> Box<Diagnostic> {
        let (span, found) = self.found();
        Box::new(
            Diagnostic::error("E0500", span, format!("expected {what}, found {found}"))
                .with_label(format!("expected {what}")),
        )
    }

    /// Consume `c` if it is next.
    fn eat(&mut self, c: char) -> Res<bool> {
        self.skip()?;
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, c: char) -> Res<Span> {
        let start = self.pos;
        if self.eat(c)? {
            Ok(self.span(self.pos - c.len_utf8(), self.pos))
        } else {
            let _ = start;
            Err(self.expected(&format!("`{c}`")))
        }
    }

    /// A name, if one is next.
    fn name(&mut self) -> Res<Option<(String, Span)>> {
        self.skip()?;
        let start = self.pos;
        match self.peek() {
            Some(c) if is_name_start(c) => {
                let end = self.text[start..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(self.text.len(), |e| start + e);
                self.pos = end;
                Ok(Some((
                    self.text[start..end].to_string(),
                    self.span(start, end),
                )))
            }
            _ => Ok(None),
        }
    }

    fn expect_name(&mut self, what: &str) -> Res<(String, Span)> {
        match self.name()? {
            Some(n) => Ok(n),
            None => Err(self.expected(what)),
        }
    }

    fn expect_word(&mut self, word: &str) -> Res<Span> {
        let save = self.pos;
        match self.name()? {
            Some((w, span)) if w == word => Ok(span),
            _ => {
                self.pos = save;
                self.skip()?;
                Err(self.expected(&format!("`{word}`")))
            }
        }
    }

    /// A number (digits, `.`, exponent), as text.
    fn number(&mut self, what: &str) -> Res<(String, Span)> {
        self.skip()?;
        let start = self.pos;
        let mut end = start;
        let bytes = self.text.as_bytes();
        if end < bytes.len() && (bytes[end] == b'-' || bytes[end] == b'+') {
            end += 1;
        }
        while end < bytes.len()
            && (bytes[end].is_ascii_digit()
                || bytes[end] == b'.'
                || ((bytes[end] == b'e' || bytes[end] == b'E') && end > start)
                || ((bytes[end] == b'-' || bytes[end] == b'+')
                    && end > start
                    && (bytes[end - 1] == b'e' || bytes[end - 1] == b'E')))
        {
            end += 1;
        }
        let text = &self.text[start..end];
        if text.parse::<f64>().is_err() {
            return Err(self.expected(what));
        }
        self.pos = end;
        Ok((text.to_string(), self.span(start, end)))
    }

    /// `.sit` expression text up to (not including) one of `stops` at bracket depth 0.
    fn expression(&mut self, stops: &[char]) -> Res<(String, Span)> {
        self.skip()?;
        let start = self.pos;
        let mut depth = 0usize;
        for (i, c) in self.text[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth > 0 => depth -= 1,
                '\n' | '{' | '}' => break,
                c if depth == 0 && stops.contains(&c) => {
                    let text = self.text[start..start + i].trim_end();
                    if text.is_empty() {
                        break;
                    }
                    self.pos = start + i;
                    return Ok((text.to_string(), self.span(start, start + text.len())));
                }
                _ => {}
            }
        }
        let list: Vec<String> = stops.iter().map(|c| format!("`{c}`")).collect();
        Err(Box::new(
            Diagnostic::error(
                "E0500",
                self.span(start, start),
                format!(
                    "expected an expression ended by {} on the same line",
                    list.join(" or ")
                ),
            )
            .with_label("the expression starts here"),
        ))
    }

    fn take_doc(&mut self) -> Vec<String> {
        std::mem::take(&mut self.doc)
    }
}

/// Read a `.sch` file's text (file `file` of the source map).
pub fn parse(file: FileId, text: &str) -> Result<Schematic, Vec<Diagnostic>> {
    let mut c = Cursor {
        text,
        pos: 0,
        file,
        doc: Vec::new(),
    };
    let mut diags = Vec::new();
    match schematic(&mut c, &mut diags) {
        Ok(s) if diags.is_empty() => Ok(s),
        Ok(_) => Err(diags),
        Err(d) => {
            diags.push(*d);
            Err(diags)
        }
    }
}

fn schematic(c: &mut Cursor, diags: &mut Vec<Diagnostic>) -> Res<Schematic> {
    c.skip()?;
    let doc = c.take_doc();
    c.expect_word("schematic")?;
    let (name, name_span) = c.expect_name("the schematic's name")?;
    c.expect('{')?;
    let mut s = Schematic {
        name,
        name_span,
        doc,
        grid: Grid::default(),
        elements: Vec::new(),
        actions: Vec::new(),
        verbatim: Vec::new(),
        form: None,
    };
    let mut seen_grid = false;
    loop {
        if c.eat('}')? {
            break;
        }
        let start = c.pos;
        let Some((word, span)) = c.name()? else {
            return Err(c.expected("`grid`, an element type, `action`, `param`, `input` or `}`"));
        };
        match word.as_str() {
            "grid" => {
                if seen_grid {
                    return Err(Box::new(
                        Diagnostic::error("E0500", span, "a second grid")
                            .with_label("the schematic already has a grid")
                            .with_help("draw the whole mechanism in one grid"),
                    ));
                }
                seen_grid = true;
                c.take_doc();
                s.grid = grid(c, span, diags)?;
            }
            "action" => s.actions.push(action(c, start, span)?),
            "param" | "input" => {
                c.take_doc();
                let (rest, _) = c.expression(&[';'])?;
                c.expect(';')?;
                s.verbatim.push(Verbatim {
                    text: format!("{word} {rest};"),
                    span: c.span(start, c.pos),
                });
            }
            "equations" => {
                c.take_doc();
                let (form, fspan) = c.expect_name("`printed` or `power_consistent`")?;
                s.form = Some(match form.as_str() {
                    "printed" => Form::Printed,
                    "power_consistent" => Form::PowerConsistent,
                    _ => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "E0500",
                                fspan,
                                format!("unknown equation form `{form}`"),
                            )
                            .with_label("expected `printed` or `power_consistent`"),
                        ));
                    }
                });
                c.expect(';')?;
            }
            w => match Kind::from_keyword(w) {
                Some(kind) => s.elements.push(element(c, kind, start)?),
                None => {
                    return Err(Box::new(
                        Diagnostic::error("E0500", span, format!("unknown item `{w}`"))
                            .with_label("not an element type or item")
                            .with_note(
                                "items are `grid`, `inertia`, `spring`, `damper`, `spring_damper`, \
                                 `gear`, `clutch`, `limiter`, `action`, `param`, `input`, `equations`",
                            ),
                    ));
                }
            },
        }
    }
    c.skip()?;
    if c.pos < c.text.len() {
        return Err(Box::new(
            Diagnostic::error(
                "E0500",
                c.span(c.pos, c.pos + c.peek().map_or(0, char::len_utf8)),
                "text after the schematic",
            )
            .with_label("a file holds one schematic")
            .with_help("put each schematic in its own `.sch` file"),
        ));
    }
    if !seen_grid {
        return Err(Box::new(
            Diagnostic::error("E0500", s.name_span, "the schematic has no grid")
                .with_label("no `grid { ... }` in this schematic"),
        ));
    }
    Ok(s)
}

/// `grid {` NEWLINE rows `}`: each row a line of whitespace-separated cell tokens.
fn grid(c: &mut Cursor, keyword: Span, diags: &mut Vec<Diagnostic>) -> Res<Grid> {
    c.expect('{')?;
    let text = c.text;
    // The rest of the `{` line must be empty.
    let line_end = text[c.pos..].find('\n').map_or(text.len(), |e| c.pos + e);
    let rest = text[c.pos..line_end].trim();
    if !rest.is_empty() && !rest.starts_with("//") {
        let start = c.pos + text[c.pos..].len() - text[c.pos..].trim_start().len();
        return Err(Box::new(
            Diagnostic::error(
                "E0500",
                c.span(start, start),
                "the grid's first row must start on a new line",
            )
            .with_label("a row starts here"),
        ));
    }
    let mut g = Grid {
        span: keyword,
        ..Grid::default()
    };
    let mut pos = line_end;
    let mut first_row: Option<Span> = None;
    loop {
        if pos >= text.len() {
            return Err(Box::new(
                Diagnostic::error("E0500", keyword, "the grid is never closed")
                    .with_label("this grid has no closing `}`"),
            ));
        }
        pos += 1; // the newline
        let end = text[pos..].find('\n').map_or(text.len(), |e| pos + e);
        let mut line = &text[pos..end];
        if let Some(comment) = line.find("//") {
            line = &line[..comment];
        }
        let trimmed = line.trim();
        if trimmed == "}" {
            c.pos = pos + line.find('}').unwrap_or(0) + 1;
            break;
        }
        if !trimmed.is_empty() {
            let mut row = Vec::new();
            let mut at = 0;
            for token in line.split_whitespace() {
                let off = line[at..].find(token).unwrap_or(0) + at;
                at = off + token.len();
                let span = c.span(pos + off, pos + off + token.len());
                row.push(Cell {
                    token: cell_token(token, span, diags),
                    span,
                });
            }
            let row_span = row[0].span.to(row[row.len() - 1].span);
            match first_row {
                None => {
                    g.width = row.len();
                    first_row = Some(row_span);
                }
                Some(first) if row.len() != g.width => diags.push(
                    Diagnostic::error(
                        "E0502",
                        row_span,
                        format!(
                            "ragged row: row {} has {} cells, the first row has {}",
                            g.height + 1,
                            row.len(),
                            g.width
                        ),
                    )
                    .with_label(format!("{} cells", row.len()))
                    .with_related(first, format!("{} cells", g.width))
                    .with_help("fill every row to the same width with `.` (empty cells)"),
                ),
                Some(_) => {}
            }
            if row.len() == g.width {
                g.cells.extend(row);
                g.height += 1;
            }
        }
        pos = end;
    }
    if g.height == 0 {
        return Err(Box::new(
            Diagnostic::error("E0500", keyword, "the grid is empty")
                .with_label("no rows in this grid"),
        ));
    }
    Ok(g)
}

fn cell_token(token: &str, span: Span, diags: &mut Vec<Diagnostic>) -> Token {
    if token == "." {
        return Token::Empty;
    }
    if let Some(g) = Glyph::from_token(token) {
        return Token::Glyph(g);
    }
    let mut chars = token.chars();
    if chars.next().is_some_and(is_name_start) && chars.all(is_name_char) {
        return Token::Name(token.to_string());
    }
    diags.push(
        Diagnostic::error("E0501", span, format!("unknown cell token `{token}`"))
            .with_label("not a cell")
            .with_note(
                "a cell is `.` (empty), an extender `─ │ ┌ ┐ └ ┘` (ASCII `-` `|`), a splitter \
                 `├ ┤ ┬ ┴ ┼` (ASCII `+`), an element's name, or a gear cell `NAMEi`/`NAMEo`",
            ),
    );
    Token::Empty
}

/// `action NAME on [+|-]INERTIA = EXPR;`
fn action(c: &mut Cursor, start: usize, _keyword: Span) -> Res<Action> {
    let doc = c.take_doc();
    let (name, name_span) = c.expect_name("the action's name")?;
    c.expect_word("on")?;
    let sign = if c.eat('-')? {
        -1
    } else {
        c.eat('+')?;
        1
    };
    let (target, target_span) = c.expect_name("the name of the inertia it acts on")?;
    c.expect('=')?;
    let (value, value_span) = c.expression(&[';'])?;
    c.expect(';')?;
    Ok(Action {
        name,
        name_span,
        sign,
        target,
        target_span,
        value,
        value_span,
        doc,
        span: c.span(start, c.pos),
    })
}

/// `KIND NAME [(params)] ;` or `KIND NAME [(params)] { poles } [;]`
fn element(c: &mut Cursor, kind: Kind, start: usize) -> Res<Element> {
    let doc = c.take_doc();
    let (name, name_span) = c.expect_name(&format!("the {}'s name", kind.keyword()))?;
    // The end of the declaration before its `;` or pole block, for a missing `;`.
    let mut end = name_span.end;
    let mut params = Vec::new();
    let parens = c.eat('(')?;
    if parens && !c.eat(')')? {
        loop {
            let (pname, pspan) = c.expect_name("a parameter name")?;
            c.expect('=')?;
            let (value, value_span) = c.expression(&[',', ')'])?;
            params.push(Param {
                name: pname,
                name_span: pspan,
                value,
                value_span,
            });
            if c.eat(')')? {
                break;
            }
            c.expect(',')?;
        }
    }
    if parens {
        end = c.pos;
    }
    let mut poles = Vec::new();
    let block = c.eat('{')?;
    if block {
        while !c.eat('}')? {
            let pstart = c.pos;
            c.expect_word("pole")?;
            let (dir, dspan) = c.expect_name("a direction (`up`, `down`, `left`, `right`)")?;
            let dir = match dir.as_str() {
                "up" => Dir::Up,
                "down" => Dir::Down,
                "left" => Dir::Left,
                "right" => Dir::Right,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error("E0500", dspan, format!("unknown direction `{dir}`"))
                            .with_label("expected `up`, `down`, `left` or `right`"),
                    ));
                }
            };
            c.expect_word("at")?;
            c.expect('(')?;
            let x = coordinate(c)?;
            c.expect(',')?;
            let y = coordinate(c)?;
            c.expect(')')?;
            let (weight, weight_text) = if c.name_is("weight")? {
                let (w, span) = c.number("a pole weight")?;
                let v: f64 = w.parse().unwrap_or(0.0);
                if !(v.is_finite() && v > 0.0) {
                    return Err(Box::new(
                        Diagnostic::error("E0500", span, "a pole weight must be a positive number")
                            .with_label("not positive"),
                    ));
                }
                (v, w)
            } else {
                (1.0, "1".to_string())
            };
            c.expect(';')?;
            poles.push(PoleDecl {
                dir,
                at: (x, y),
                weight,
                weight_text,
                span: c.span(pstart, c.pos),
            });
        }
    }
    // A pole block ends the declaration; without one, its `;` does.
    if !c.eat(';')? && !block {
        let (found_span, found) = c.found();
        return Err(Box::new(
            Diagnostic::error(
                "E0500",
                c.span(end, end),
                format!(
                    "expected `;` after the declaration of {} `{name}`, found {found}",
                    kind.keyword()
                ),
            )
            .with_label("expected `;` here")
            .with_related(found_span, "the next item starts here")
            .with_help(format!(
                "end the declaration of `{name}` with `;`: `{} {name} (PARAM = VALUE, ...);`, \
                 or with its block of poles `{{ pole ...; }}`",
                kind.keyword()
            )),
        ));
    }
    Ok(Element {
        kind,
        name,
        name_span,
        params,
        poles,
        doc,
        span: c.span(start, c.pos),
    })
}

fn coordinate(c: &mut Cursor) -> Res<i64> {
    c.skip()?;
    let start = c.pos;
    let digits = c.text[start..]
        .find(|ch: char| !ch.is_ascii_digit())
        .unwrap_or(c.text.len() - start);
    match c.text[start..start + digits].parse::<i64>() {
        Ok(v) if digits <= 9 => {
            c.pos = start + digits;
            Ok(v)
        }
        _ => Err(c.expected("a cell coordinate (a whole number from 1)")),
    }
}

impl Cursor<'_> {
    /// Consume the name `word` if it is next.
    fn name_is(&mut self, word: &str) -> Res<bool> {
        let save = self.pos;
        match self.name()? {
            Some((w, _)) if w == word => Ok(true),
            _ => {
                self.pos = save;
                Ok(false)
            }
        }
    }
}
