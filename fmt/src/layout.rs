//! The canonical layout: pieces (tokens and comments) to lines, indented by block, spaced by operator.

use crate::pieces::{Kind, Piece};
use sit_parser::parse::TokenKind;

/// Spaces per block level.
const INDENT: usize = 4;

/// Punctuation this layout spaces by rule; any other (from a construct it
/// does not know) keeps the spacing of the source.
const KNOWN_PUNCT: &[&str] = &[
    "=>", "->", "=", "<", "<=", ">", ">=", "|", "&", "+", "-", "*", "/", "^", "!", "(", ")", "{",
    "}", "[", "]", ",", ";", ":", ".",
];

/// Binary operators (`-` aside, which may be a prefix), before which a
/// long line may be wrapped.
const BINARY: &[&str] = &[
    "=>", "|", "&", "<", "<=", ">", ">=", "==", "!=", "+", "*", "/", "^",
];

/// One output line: its indentation level, code, and trailing comment.
#[derive(Debug, Default)]
pub(crate) struct Line {
    pub indent: usize,
    pub code: String,
    comment: Option<String>,
    /// Where the line may be wrapped: the index of the piece a new line
    /// would start with, the byte offset in `code` before it, and its rank
    /// ([`crate::wrap::rank`]: the depth of the brackets open there, then how
    /// tightly the operator there binds).
    pub breaks: Vec<(usize, usize, usize)>,
}

/// The last token written, for spacing.
#[derive(Debug, Clone, Copy)]
struct Prev<'a> {
    kind: TokenKind,
    text: &'a str,
    /// A prefix `-` or `!`.
    prefix: bool,
}

/// What was written last on the current line.
#[derive(Debug, Clone, Copy)]
enum Last<'a> {
    Nothing,
    Token(Prev<'a>),
    /// An inline block comment.
    Comment,
}

struct Writer<'a> {
    lines: Vec<Line>,
    cur: Option<Line>,
    depth: usize,
    parens: usize,
    /// The next piece starts a line.
    break_next: bool,
    /// The break is after a `}`: a following `;`, `,` or `)` stays on its line.
    after_close: bool,
    /// Inside a statement (a line started now is a continuation).
    in_stmt: bool,
    /// The previous line opened a block (no blank line after it).
    after_open: bool,
    /// The previous line closed a top-level item (a blank line after it).
    closed_top: bool,
    last: Last<'a>,
    /// The last token, whatever came after it.
    prev_tok: Option<Prev<'a>>,
    /// Inside the `{ … }` of a mode's states, which stay on the declaration's line.
    inline: bool,
    /// Inside an attribute `#[…]`, which is a line of its own.
    attr: bool,
    /// Inside the `[…]` of a unit after a declared name (`real v [m/s^2];`), a number
    /// (`2 [m/s]`) or a table's arguments (`table f(x [K]) [W]`), written without spaces.
    unit: bool,
    /// Inside the range of a loop or generator (`for i in 2:N-1`), from `in` to the
    /// `{`, `,` or bracket that ends it, written without spaces.
    range: bool,
    /// How many index brackets (`T[i-1]`, `real T[N, M]`) are open: inside them only a
    /// `,` is followed by a space.
    index: usize,
    /// Inside a table's arguments (`table f(T [degC])`), where a `[` after a name is
    /// its unit however it is written.
    table_args: bool,
    /// The token before [`Writer::prev_tok`], to recognise `for i in` and `, j in`.
    before_prev: Option<&'a str>,
    /// The index of the piece being written.
    piece: usize,
}

/// Lay out `pieces` (from a file that parses) in the canonical form, lines
/// longer than [`crate::wrap::WIDTH`] wrapped (see [`crate::wrap`]).
pub(crate) fn layout(pieces: &[Piece]) -> String {
    let mut pieces = pieces.to_vec();
    loop {
        let lines = lines(&pieces);
        let breaks = crate::wrap::breaks(&lines, INDENT);
        if breaks.is_empty() {
            return render(&lines);
        }
        for b in breaks {
            pieces[b].newlines = 1;
        }
    }
}

/// The lines of `pieces`, where the source breaks them.
fn lines(pieces: &[Piece]) -> Vec<Line> {
    let mut w = Writer {
        lines: Vec::new(),
        cur: None,
        depth: 0,
        parens: 0,
        break_next: true,
        after_close: false,
        in_stmt: false,
        after_open: false,
        closed_top: false,
        last: Last::Nothing,
        prev_tok: None,
        inline: false,
        attr: false,
        unit: false,
        range: false,
        index: 0,
        table_args: false,
        before_prev: None,
        piece: 0,
    };
    // The last two tokens if names (else ""), to find `mode NAME {`.
    let mut before: [&str; 2] = ["", ""];
    let mut i = 0;
    while i < pieces.len() {
        let p = pieces[i];
        let next = pieces.get(i + 1);
        w.piece = i;
        match p.kind {
            Kind::LineComment => w.comment(p, true),
            Kind::BlockComment => {
                let next_newlines = next.map_or(1, |n| n.newlines);
                w.comment(p, next_newlines > 0);
            }
            Kind::Token(TokenKind::Doc) => {
                let indent = w.depth;
                w.start_line(p.newlines, indent);
                w.write(p.text);
                w.end_statement();
            }
            Kind::Token(kind @ TokenKind::Punct("}")) if w.inline => {
                w.token(p, kind);
                w.inline = false;
                w.end_statement();
                w.after_close = true;
                w.closed_top = w.depth == 0;
            }
            Kind::Token(TokenKind::Punct("}")) => {
                w.depth = w.depth.saturating_sub(1);
                w.finish();
                w.cur = Some(Line {
                    indent: w.depth,
                    ..Line::default()
                });
                w.after_open = false;
                w.write("}");
                w.end_statement();
                w.after_close = true;
                w.closed_top = w.depth == 0;
            }
            Kind::Token(kind) if p.text == "{" && before[0] == "mode" && !before[1].is_empty() => {
                // `mode light { red, green, yellow }`: a list, not a block.
                w.inline = true;
                w.token(p, kind);
            }
            Kind::Token(kind) => {
                let empty_block = p.text == "{"
                    && next.is_some_and(|n| n.kind == Kind::Token(TokenKind::Punct("}")));
                w.token(p, kind);
                if empty_block {
                    w.depth -= 1;
                    w.after_open = false;
                    w.write("}");
                    w.end_statement();
                    w.after_close = true;
                    w.closed_top = w.depth == 0;
                    i += 1;
                }
            }
        }
        if let Kind::Token(kind) = p.kind {
            let name = if kind.is_word() { p.text } else { "" };
            before = [before[1], name];
        }
        i += 1;
    }
    w.finish();
    w.lines
}

impl<'a> Writer<'a> {
    /// Move the current line to the output.
    fn finish(&mut self) {
        if let Some(line) = self.cur.take() {
            self.lines.push(line);
        }
    }

    /// Start a line at `indent`, after a blank line if the source had one
    /// (`newlines` > 1) where one is allowed, or where one is required.
    fn start_line(&mut self, newlines: usize, indent: usize) {
        self.finish();
        let blank = (newlines > 1 && !self.after_open && !self.lines.is_empty())
            || (self.closed_top && self.depth == 0);
        if blank {
            self.lines.push(Line::default());
        }
        self.cur = Some(Line {
            indent,
            ..Line::default()
        });
        self.after_open = false;
        self.closed_top = false;
        self.break_next = false;
        self.after_close = false;
        self.last = Last::Nothing;
    }

    fn write(&mut self, text: &str) {
        if let Some(line) = &mut self.cur {
            line.code.push_str(text);
        }
    }

    /// The end of a statement, block opening or doc line: the next piece
    /// starts a line at the block's indentation.
    fn end_statement(&mut self) {
        self.break_next = true;
        self.in_stmt = false;
        self.parens = 0;
    }

    /// The indentation of a continuation line starting with `first`.
    fn continuation(&self, first: &str) -> usize {
        if matches!(first, ")" | "]") {
            self.depth + self.parens.saturating_sub(1)
        } else {
            self.depth + self.parens.max(1)
        }
    }

    /// The indentation of a line starting with `first` outside of any
    /// statement or inside one.
    fn indent_for(&self, first: &str) -> usize {
        if self.in_stmt {
            self.continuation(first)
        } else {
            self.depth
        }
    }

    fn token(&mut self, p: Piece<'a>, kind: TokenKind) {
        let text = p.text;
        let stays = self.after_close && matches!(text, ";" | "," | ")");
        if self.cur.is_none() || (self.break_next && !stays) || (p.newlines > 0 && self.in_stmt) {
            let indent = self.indent_for(text);
            self.start_line(p.newlines, indent);
        } else {
            if self.may_break_before(text) {
                let (piece, parens) = (self.piece, self.parens);
                let level = if BINARY.contains(&text) || text == "-" {
                    crate::wrap::binding(text)
                } else {
                    0
                };
                if let Some(line) = &mut self.cur {
                    line.breaks
                        .push((piece, line.code.len(), crate::wrap::rank(parens, level)));
                }
            }
            if self.space_before(p, kind) {
                self.write(" ");
            }
        }
        let prefix = (text == "-" && self.prefix_position()) || text == "!";
        // `T[N]`, `T[i]`: a `[` right after a name is an index, not a unit (but in a
        // table's arguments).
        if text == "(" && self.before_prev == Some("table") {
            self.table_args = true;
        } else if text == ")" && self.parens <= 1 {
            self.table_args = false;
        }
        let opens_unit = text == "["
            && self.prev_tok.is_some_and(|prev| {
                opens_unit(prev, p) || (self.table_args && before_unit(prev.kind, prev.text))
            });
        if matches!(text, "{" | "," | ";" | ")" | "]") {
            self.range = false;
        }
        let opens_range = text == "in"
            && kind == TokenKind::Ident
            && self.prev_tok.is_some_and(|p| p.kind == TokenKind::Ident)
            && matches!(self.before_prev, Some("for" | ","));
        self.write(text);
        let opens_index =
            text == "[" && !opens_unit && self.prev_tok.is_some_and(|p| p.kind.is_word());
        if opens_unit {
            self.unit = true;
        } else if text == "]" {
            self.unit = false;
            self.index = self.index.saturating_sub(1);
        }
        if opens_index {
            self.index += 1;
        }
        self.break_next = false;
        self.after_close = false;
        let prev = Prev { kind, text, prefix };
        self.last = Last::Token(prev);
        self.before_prev = self.prev_tok.map(|p| p.text);
        self.prev_tok = Some(prev);
        if opens_range {
            self.range = true;
        }
        match text {
            "(" | "[" => self.parens += 1,
            ")" | "]" => self.parens = self.parens.saturating_sub(1),
            _ => {}
        }
        if text == "#" && !self.in_stmt {
            self.attr = true;
        }
        if self.attr && text == "]" && self.parens == 0 {
            // `#[allow(…)]` is a line of its own, before what it applies to.
            self.attr = false;
            self.end_statement();
            return;
        }
        match text {
            "{" if self.inline => self.in_stmt = true,
            "{" => {
                self.depth += 1;
                self.end_statement();
                self.after_open = true;
            }
            ";" if self.parens == 0 => self.end_statement(),
            _ => self.in_stmt = true,
        }
    }

    /// Whether a long line may be wrapped before `text`, which follows on
    /// the current line: before a binary operator or after a `,`, inside a
    /// statement (not in a mode's states or an attribute).
    fn may_break_before(&self, text: &str) -> bool {
        if !self.in_stmt || self.inline || self.attr || self.unit {
            return false;
        }
        let Last::Token(prev) = self.last else {
            return false;
        };
        let binary = match text {
            "-" => !self.prefix_position(),
            _ => BINARY.contains(&text),
        };
        binary || prev.text == ","
    }

    /// Whether a `-` here is a prefix minus.
    fn prefix_position(&self) -> bool {
        match self.prev_tok {
            None => true,
            Some(p) => match p.kind {
                TokenKind::Punct(s) => !matches!(s, ")" | "]" | "}"),
                // After a keyword other than a value (`when -x > 0`).
                TokenKind::Keyword(k) => !k.is_value(),
                _ => false,
            },
        }
    }

    /// Whether a space separates the last thing written from `p`.
    fn space_before(&self, p: Piece, kind: TokenKind) -> bool {
        let prev = match self.last {
            Last::Nothing => return false,
            Last::Comment => return p.spaced,
            Last::Token(prev) => prev,
        };
        if self.unit
            || (self.range && prev.text != "in" && p.text != "{")
            || (self.index > 0 && prev.text != ",")
        {
            return false;
        }
        if p.text == "["
            && (opens_unit(prev, p) || (self.table_args && before_unit(prev.kind, prev.text)))
        {
            return true;
        }
        let unknown = |k: TokenKind| match k {
            TokenKind::Punct(s) => !KNOWN_PUNCT.contains(&s),
            TokenKind::Unknown => true,
            _ => false,
        };
        if unknown(prev.kind) || unknown(kind) {
            return p.spaced;
        }
        let (a, b) = (prev.text, p.text);
        if matches!(b, "," | ";" | ")" | "]" | "." | ":") {
            return false;
        }
        if matches!(a, "(" | "[" | ".") || prev.prefix {
            return false;
        }
        match b {
            // A name before `(` is a call, as is a keyword written like one
            // (`reset(x)`); other keywords are spaced (`when (a | b) …`).
            "(" => match prev.kind {
                TokenKind::Ident => false,
                TokenKind::Keyword(k) => !k.is_call_like(),
                _ => true,
            },
            "[" => p.spaced || a == "=",
            _ => true,
        }
    }

    /// A comment: trailing the current line when it follows code on the same
    /// source line and ends its line (`ends_line`), otherwise on a line of
    /// its own or inline.
    fn comment(&mut self, p: Piece<'a>, ends_line: bool) {
        let block = p.kind == Kind::BlockComment;
        let multiline = p.text.contains('\n');
        let text = tidy(p.text);
        let has_code = self.cur.as_ref().is_some_and(|l| !l.code.is_empty());
        if p.newlines == 0 && has_code {
            if ends_line && !multiline {
                if let Some(line) = &mut self.cur {
                    line.comment = Some(match line.comment.take() {
                        Some(c) => format!("{c} {text}"),
                        None => text,
                    });
                }
                self.break_next = true;
                self.after_close = false;
            } else {
                if p.spaced {
                    self.write(" ");
                }
                self.write(&text);
                self.last = Last::Comment;
                if ends_line {
                    self.break_next = true;
                }
            }
            return;
        }
        let indent = self.indent_for("");
        self.start_line(p.newlines, indent);
        self.write(&text);
        self.last = Last::Comment;
        self.break_next = !block || ends_line;
    }
}

/// A comment's text with trailing whitespace removed from every line.
fn tidy(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines as text, trailing comments of consecutive lines aligned.
fn render(lines: &[Line]) -> String {
    let width = |l: &Line| l.indent * INDENT + l.code.chars().count();
    let aligned = |l: &Line| l.comment.is_some() && !l.code.contains('\n');
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j < lines.len() && aligned(&lines[j]) {
            j += 1;
        }
        let column = lines[i..j].iter().map(width).max().unwrap_or(0) + 2;
        let end = j.max(i + 1);
        for l in &lines[i..end] {
            let mut s = String::new();
            if !l.code.is_empty() || l.comment.is_some() {
                s.push_str(&" ".repeat(l.indent * INDENT));
            }
            s.push_str(&l.code);
            if let Some(c) = &l.comment {
                let pad = if aligned(l) { column - width(l) } else { 1 };
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
            out.push_str(s.trim_end());
            out.push('\n');
        }
        i = end;
    }
    out
}

/// Whether the `[` of `p` after `prev` opens a unit: after a name, only when the source
/// separates them (`v [m]`; `T[N]` gives an array's sizes or a cell's indices).
fn opens_unit(prev: Prev<'_>, p: Piece<'_>) -> bool {
    before_unit(prev.kind, prev.text) && (p.spaced || !prev.kind.is_word())
}

/// Whether a `[` after the token `kind`/`text` opens a unit: after a name (a declared
/// variable, a table's argument), a number (`2 [m/s]`), the `)` of a table's arguments
/// or the `]` of an array's sizes;
/// no list of numbers follows any of these.
fn before_unit(kind: TokenKind, text: &str) -> bool {
    // `]`: an array's sizes, `real T[N] [K]`.
    kind.is_word() || kind == TokenKind::Number || text == ")" || text == "]"
}
