//! Parsing: source text to the syntax tree, with limits and readable syntax errors.

// A syntax error ends the parse of its file, so a `Diagnostic` is returned at
// most once per file: boxing it would buy nothing.
#![allow(clippy::result_large_err)]

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::ir::CmpOp;
use crate::source::{FileId, Span};
use pest::Parser as _;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::LazyLock;

mod grammar {
    //! The pest parser generated from `grammar.pest`.
    /// The generated pest parser.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub struct SitParser;
}
use grammar::{Rule, SitParser};

/// Deepest nesting of brackets and block comments accepted.
pub const MAX_NESTING: usize = 64;
/// Most operators in one expression.
pub const MAX_OPERATORS: usize = 1000;
/// Largest source file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or, Assoc::Left))
        .op(Op::infix(Rule::and, Assoc::Left))
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::not))
        .op(Op::infix(Rule::pow, Assoc::Right))
});

/// Most syntax errors reported for one file.
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// The syntax errors after `first` (an E0001 error of `text`): the statement
/// holding each error is blanked out (bytes replaced by spaces, so offsets
/// stay) and the file parsed again, until it parses, makes no progress, or
/// [`MAX_SYNTAX_ERRORS`] are found. Large files stop at the first error.
pub fn more_syntax_errors(file: FileId, text: &str, first: &Diagnostic) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if first.code != "E0001" || text.len() > 1 << 20 {
        return out;
    }
    let mut bytes = text.as_bytes().to_vec();
    let mut at = first.span.start;
    // The reported position may have been moved back to the end of the line
    // before a missing `;`: blank from there.
    for _ in 1..MAX_SYNTAX_ERRORS {
        if !blank_statement(&mut bytes, at) {
            break;
        }
        let Ok(patched) = std::str::from_utf8(&bytes) else {
            break;
        };
        match SitParser::parse(Rule::file, patched) {
            Ok(_) => break,
            Err(e) => {
                let d = syntax_error(file, patched, e);
                if d.span.start <= at && out.last().is_some_and(|l: &Diagnostic| l.span == d.span) {
                    break;
                }
                at = d.span.start;
                if d.span.start >= patched.trim_end().len() {
                    break; // an error at the end of the file is caused by the blanking
                }
                out.push(d);
            }
        }
    }
    out
}

/// Replace the statement around `at` by spaces: from after the previous
/// `;`, `{` or `}` to the next `;` (included) or up to the next `}`. Returns
/// whether anything changed.
fn blank_statement(bytes: &mut [u8], at: usize) -> bool {
    let at = at.min(bytes.len());
    let start = bytes[..at]
        .iter()
        .rposition(|b| matches!(b, b';' | b'{' | b'}'))
        .map_or(0, |p| p + 1);
    let mut end = at;
    while end < bytes.len() {
        match bytes[end] {
            b';' => {
                end += 1;
                break;
            }
            b'}' => break,
            _ => end += 1,
        }
    }
    // A `{` blanked with the statement takes its block with it, so that the
    // block's `}` does not become an error of its own.
    let mut depth = bytes[start..end].iter().fold(0i64, |d, b| {
        d + i64::from(*b == b'{') - i64::from(*b == b'}')
    });
    while depth > 0 && end < bytes.len() {
        depth += i64::from(bytes[end] == b'{') - i64::from(bytes[end] == b'}');
        end += 1;
    }
    let mut changed = false;
    for b in &mut bytes[start..end] {
        if !b.is_ascii_whitespace() {
            *b = b' ';
            changed = true;
        }
    }
    changed
}

/// Parse one file. A syntax error stops the parse of the file; see
/// [`more_syntax_errors`] for the ones after it.
pub fn parse_file(file: FileId, text: &str) -> Result<File, Diagnostic> {
    if text.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::error(
            "E0003",
            Span::new(file, 0, 0),
            format!(
                "the file is too large ({} bytes; the limit is {} bytes)",
                text.len(),
                MAX_FILE_BYTES
            ),
        ));
    }
    let balance = prescan(file, text)?;
    pest::set_error_detail(true);
    let mut pairs = SitParser::parse(Rule::file, text).map_err(|e| {
        let d = syntax_error(file, text, e);
        // An unterminated comment or string explains any syntax error; an
        // unbalanced bracket explains one that pest only saw at the end.
        match balance {
            Some(b) if b.message.starts_with("unterminated") => b,
            Some(b) if d.span.start >= text.trim_end().len() => b,
            _ => d,
        }
    })?;
    let top = pairs.next().expect("pest returns the file rule");
    let mut b = Builder { file };
    let mut out = File::default();
    for p in top.into_inner() {
        match p.as_rule() {
            Rule::import => out.imports.push(b.import(p)?),
            Rule::model => out.models.push(b.model(p)?),
            _ => {}
        }
    }
    Ok(out)
}

/// Reject nesting deeper than [`MAX_NESTING`] before the recursive parser
/// sees it, naming the place where the limit is crossed (`Err`). Also find
/// the first unterminated comment or string or unbalanced bracket (`Ok(Some)`),
/// which explains a syntax error better than pest's list of expected tokens.
fn prescan(file: FileId, text: &str) -> Result<Option<Diagnostic>, Diagnostic> {
    let bytes = text.as_bytes();
    // Open brackets and block comments: (byte, offset).
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut comments: Vec<usize> = Vec::new();
    let mut i = 0;
    let at = |from: usize, len: usize| Span::new(file, from, from + len);
    let too_deep = |from: usize, what: &str| {
        let help = if what == "comments are" {
            "a comment inside a comment is rarely needed: close the outer one first"
        } else {
            "split the expression with intermediate variables, or the nested `when` blocks with situations"
        };
        Diagnostic::error(
            "E0002",
            at(from, 1),
            format!("{what} nested too deeply (the limit is {MAX_NESTING} levels)"),
        )
        .with_label("this level is one too many")
        .with_help(help)
    };
    while i < bytes.len() {
        let c = bytes[i];
        if !comments.is_empty() {
            if c == b'*' && bytes.get(i + 1) == Some(&b'/') {
                comments.pop();
                i += 2;
                continue;
            }
            if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
                comments.push(i);
                if comments.len() > MAX_NESTING {
                    return Err(too_deep(i, "comments are"));
                }
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                comments.push(i);
                i += 2;
                continue;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] != b'"' {
                    return Ok(Some(
                        Diagnostic::error("E0006", at(start, 1), "unterminated string")
                            .with_label("this string has no closing `\"` on its line")
                            .with_help("close it with `\"`; strings cannot span lines"),
                    ));
                }
            }
            b'(' | b'{' | b'[' => {
                open.push((c, i));
                if open.len() > MAX_NESTING {
                    return Err(too_deep(i, "brackets are"));
                }
            }
            b')' | b'}' | b']' => {
                let want = match c {
                    b')' => b'(',
                    b'}' => b'{',
                    _ => b'[',
                };
                match open.pop() {
                    Some((o, _)) if o == want => {}
                    Some((o, pos)) => {
                        return Ok(Some(
                            Diagnostic::error(
                                "E0006",
                                at(i, 1),
                                format!("`{}` does not close `{}`", c as char, o as char),
                            )
                            .with_label("mismatched closing bracket")
                            .with_related(at(pos, 1), "the bracket still open here"),
                        ));
                    }
                    None => {
                        return Ok(Some(
                            Diagnostic::error(
                                "E0006",
                                at(i, 1),
                                format!("unexpected `{}`: no bracket is open", c as char),
                            )
                            .with_label("nothing to close"),
                        ));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(&start) = comments.first() {
        return Ok(Some(
            Diagnostic::error("E0006", at(start, 2), "unterminated block comment")
                .with_label("this `/*` is never closed")
                .with_note("block comments nest: every `/*` inside needs its own `*/`"),
        ));
    }
    if let Some(&(c, pos)) = open.last() {
        let close = match c {
            b'(' => ')',
            b'{' => '}',
            _ => ']',
        };
        return Ok(Some(
            Diagnostic::error("E0006", at(pos, 1), format!("unclosed `{}`", c as char))
                .with_label(format!("this `{}` is never closed", c as char))
                .with_help(format!("add the missing `{close}`")),
        ));
    }
    Ok(None)
}

fn friendly_rule(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::name => "a name",
        Rule::number => "a number",
        Rule::string => "a string",
        Rule::expr | Rule::primary | Rule::paren | Rule::call | Rule::path => "an expression",
        Rule::bool_lit => "`true`, `false` or `always`",
        Rule::EOI => "end of file",
        Rule::import | Rule::kw_import => "`import`",
        Rule::model | Rule::kw_model => "`model`",
        Rule::kw_param | Rule::param_decl => "`param`",
        Rule::kw_input | Rule::input_decl => "`input`",
        Rule::kw_output => "`output`",
        Rule::kw_real => "`real`",
        Rule::kw_flag => "`flag`",
        Rule::type_kw => "`real` or `flag`",
        Rule::kw_pred => "`pred`",
        Rule::kw_situation => "`situation`",
        Rule::kw_event => "`event`",
        Rule::var_decl | Rule::cond_kw | Rule::cond_decl => "a declaration",
        Rule::kw_sub | Rule::sub_decl => "`sub`",
        Rule::kw_off => "`off`",
        Rule::kw_when | Rule::when_guard | Rule::sigma_rule | Rule::block => "`when`",
        Rule::kw_otherwise | Rule::otherwise_guard => "`otherwise`",
        Rule::kw_reset | Rule::reset_action => "`reset`",
        Rule::assign => "a rule",
        Rule::action | Rule::set_action | Rule::clear_action => "an action",
        Rule::binding => "a binding `name = value`",
        Rule::var_item => "a name",
        Rule::or
        | Rule::and
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::lt
        | Rule::gt
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::pow => "an operator",
        Rule::neg | Rule::not => "an expression",
        Rule::doc => "a doc comment",
        _ => return None,
    })
}

fn syntax_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let mut pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let Some(a) = e.parse_attempts() {
        pos = pos.max(a.max_position.min(text.len()));
    }
    let mut expected: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if !expected.contains(&s) {
            expected.push(s);
        }
    };
    if let Some(attempts) = e.parse_attempts() {
        for t in attempts.expected_tokens() {
            // ParsingToken is not exported by name; its Debug form tells
            // literal tokens (`Sensitive`) from character ranges.
            if format!("{t:?}").starts_with("Sensitive") {
                let token = t.to_string();
                if !token.trim().is_empty() && !token.starts_with('/') && token != "\"" {
                    push(format!("`{token}`"));
                }
            }
        }
    }
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for r in positives {
            if let Some(f) = friendly_rule(*r) {
                push(f.to_string());
            }
        }
    }
    // Literal operators are summarised by "an operator".
    let ops = [
        "`|`", "`||`", "`&`", "`&&`", "`==`", "`!=`", "`<=`", "`>=`", "`<`", "`>`", "`+`", "`-`",
        "`*`", "`/`", "`^`",
    ];
    let had_infix = expected
        .iter()
        .any(|s| ops.contains(&s.as_str()) && s != "`-`");
    let wants_operand = expected.iter().any(|s| s == "an expression");
    expected.retain(|s| !ops.contains(&s.as_str()) && s != "`!`" && s != "`.`");
    expected.retain(|s| s != "an operator");
    if had_infix {
        expected.push("an operator".into());
    }
    if wants_operand {
        // The operand forms are all "an expression".
        expected.retain(|s| {
            ![
                "`(`",
                "`_`",
                "`true`",
                "`false`",
                "`always`",
                "a name",
                "a number",
                "`true`, `false` or `always`",
            ]
            .contains(&s.as_str())
        });
    }
    expected.retain(|s| s != "`_`");
    expected.sort_by_key(|s| (s.starts_with('`') as u8 ^ 1, s.clone()));
    let found = describe_found(text, pos);
    let (message, label) = if expected.is_empty() {
        (
            format!("unexpected {found}"),
            "not expected here".to_string(),
        )
    } else {
        let list = join_or(&expected);
        (
            format!("expected {list}, found {found}"),
            format!("expected {list}"),
        )
    };
    let mut start = pos;
    let mut end = next_char_end(text, pos);
    let wants_semi = expected.iter().any(|s| s == "`;`");
    if wants_semi {
        // Point just after the previous token when the next one is on a
        // later line: that is where the `;` is missing.
        let before = &text[..pos.min(text.len())];
        let prev_end = before.trim_end().len();
        if before[prev_end..].contains('\n') && prev_end > 0 {
            start = prev_end;
            end = next_char_end(text, prev_end).max(prev_end);
            if text[start..end].chars().all(char::is_whitespace) {
                end = start;
            }
        }
    }
    let (message, label) = if start != pos {
        (
            format!("expected `;`, found {found}"),
            "add `;` here".to_string(),
        )
    } else {
        (message, label)
    };
    let mut d = Diagnostic::error("E0001", Span::new(file, start, end), message).with_label(label);
    if wants_semi {
        d = d.with_help("every declaration and rule ends with `;`");
    }
    let word: String = text[pos.min(text.len())..]
        .chars()
        .take_while(|c| unicode_ident::is_xid_continue(*c))
        .collect();
    if !word.is_empty()
        && let Some(k) = crate::suggest::did_you_mean(&word, crate::check::KEYWORDS.iter().copied())
        && expected.iter().any(|s| s.contains(&format!("`{k}`")))
    {
        d = d.with_help(format!("did you mean the keyword `{k}`?"));
    }
    d
}

fn next_char_end(text: &str, pos: usize) -> usize {
    text.get(pos..)
        .and_then(|s| s.chars().next())
        .map_or(pos, |c| pos + c.len_utf8())
}

fn describe_found(text: &str, pos: usize) -> String {
    let rest = text.get(pos..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return "end of file".into();
    };
    if c == '\0' {
        return "a NUL byte".into();
    }
    if c.is_control() && c != '\n' {
        return format!("the control character U+{:04X}", c as u32);
    }
    if c == '\n' || c == '\r' {
        return "end of line".into();
    }
    let word: String = if unicode_ident::is_xid_continue(c) {
        rest.chars()
            .take_while(|c| unicode_ident::is_xid_continue(*c))
            .take(40)
            .collect()
    } else {
        c.to_string()
    };
    format!("`{word}`")
}

fn join_or(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// The span of a pair without the white space and comments pest may leave
/// at its end.
fn trimmed(file: FileId, p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    let text = p.as_str();
    let mut end = s.start() + text.trim_end().len();
    // pest keeps the white space and comments skipped before a trailing
    // repetition that matched nothing (`path = { name ~ ("." ~ name)* }`):
    // cut a trailing `//` comment too.
    if let Some(i) = text[..end - s.start()].rfind("//")
        && !text[..i].contains('\n')
        && text[i..].lines().count() == 1
        && !text[..i].trim_end().is_empty()
    {
        end = s.start() + text[..i].trim_end().len();
    }
    Span::new(file, s.start(), end.max(s.start()))
}

struct Builder {
    file: FileId,
}

impl Builder {
    fn span(&self, p: &Pair<Rule>) -> Span {
        trimmed(self.file, p)
    }

    fn name(&self, p: Pair<Rule>) -> Name {
        Name {
            text: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    fn docs(p: &Pair<Rule>) -> Vec<String> {
        p.clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::doc)
            .map(|c| {
                let t = c.into_inner().next().map_or("", |t| t.as_str());
                let t = t.trim_end_matches('\r');
                t.strip_prefix(' ').unwrap_or(t).to_string()
            })
            .collect()
    }

    fn import(&mut self, p: Pair<Rule>) -> Result<Import, Diagnostic> {
        let s = p
            .into_inner()
            .find(|c| c.as_rule() == Rule::string)
            .expect("grammar: import has a string");
        let span = self.span(&s);
        let raw = s.into_inner().next().map_or("", |i| i.as_str());
        let path = raw.replace("\\\"", "\"").replace("\\\\", "\\");
        Ok(Import { path, span })
    }

    fn model(&mut self, p: Pair<Rule>) -> Result<Model, Diagnostic> {
        let doc = Self::docs(&p);
        let mut it = p.into_inner().filter(|c| c.as_rule() != Rule::doc);
        it.next(); // kw_model
        let name = self.name(it.next().expect("grammar: model name"));
        let mut m = Model {
            doc,
            name,
            decls: Vec::new(),
            rules: Vec::new(),
        };
        for member in it {
            match member.as_rule() {
                Rule::param_decl | Rule::input_decl | Rule::var_decl => {
                    self.var_decl(member, &mut m.decls)?
                }
                Rule::cond_decl => m.decls.push(self.cond_decl(member)?),
                Rule::sub_decl => m.decls.push(self.sub_decl(member)?),
                _ => m.rules.push(self.rule(member)?),
            }
        }
        Ok(m)
    }

    fn var_decl(&mut self, p: Pair<Rule>, out: &mut Vec<Decl>) -> Result<(), Diagnostic> {
        let doc = Self::docs(&p);
        let decl_rule = p.as_rule();
        let mut output = false;
        let mut ty_flag = false;
        let mut items = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_output => output = true,
                Rule::type_kw => {
                    ty_flag = c.into_inner().next().map(|k| k.as_rule()) == Some(Rule::kw_flag)
                }
                Rule::var_item => items.push(c),
                _ => {}
            }
        }
        let kind = match (decl_rule, ty_flag) {
            (Rule::param_decl, _) => DeclKind::Param,
            (Rule::input_decl, false) => DeclKind::InputReal,
            (Rule::input_decl, true) => DeclKind::InputFlag,
            (_, false) => DeclKind::Real,
            (_, true) => DeclKind::Flag,
        };
        for item in items {
            let mut it = item.into_inner();
            let name = self.name(it.next().expect("grammar: var name"));
            let value = it.next().map(|e| self.expr(e)).transpose()?;
            out.push(Decl::Var {
                doc: doc.clone(),
                kind,
                output,
                name,
                value,
            });
        }
        Ok(())
    }

    fn cond_decl(&mut self, p: Pair<Rule>) -> Result<Decl, Diagnostic> {
        let doc = Self::docs(&p);
        let mut output = false;
        let mut kind = DeclKind::Pred;
        let mut name = None;
        let mut value = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_output => output = true,
                Rule::cond_kw => {
                    kind = match c.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::kw_situation) => DeclKind::Situation,
                        Some(Rule::kw_event) => DeclKind::Event,
                        _ => DeclKind::Pred,
                    }
                }
                Rule::name => name = Some(self.name(c)),
                Rule::expr => value = Some(self.expr(c)?),
                _ => {}
            }
        }
        Ok(Decl::Var {
            doc,
            kind,
            output,
            name: name.expect("grammar: cond name"),
            value,
        })
    }

    fn sub_decl(&mut self, p: Pair<Rule>) -> Result<Decl, Diagnostic> {
        let doc = Self::docs(&p);
        let mut names = Vec::new();
        let mut bindings = Vec::new();
        let mut off = false;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::name => names.push(self.name(c)),
                Rule::binding => {
                    let mut it = c.into_inner();
                    let n = self.name(it.next().expect("grammar: binding name"));
                    let e = self.expr(it.next().expect("grammar: binding value"))?;
                    bindings.push((n, e));
                }
                Rule::kw_off => off = true,
                _ => {}
            }
        }
        let model = names.pop().expect("grammar: sub model");
        let name = names.pop().expect("grammar: sub name");
        Ok(Decl::Sub {
            doc,
            name,
            model,
            bindings,
            off,
        })
    }

    fn rule(&mut self, p: Pair<Rule>) -> Result<crate::ast::Rule, Diagnostic> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::assign => {
                let mut it = p.into_inner().filter(|c| c.as_rule() != Rule::doc);
                let target = self.name(it.next().expect("grammar: target"));
                let value = self.expr(it.next().expect("grammar: value"))?;
                let guard = match it.next() {
                    None => Guard::None,
                    Some(g) if g.as_rule() == Rule::when_guard => {
                        let e = g
                            .into_inner()
                            .find(|c| c.as_rule() == Rule::expr)
                            .expect("grammar: guard");
                        Guard::When(self.expr(e)?)
                    }
                    Some(g) => Guard::Otherwise(self.span(&g)),
                };
                Ok(crate::ast::Rule::Assign {
                    target,
                    value,
                    guard,
                    span,
                })
            }
            Rule::sigma_rule => {
                let mut cond = None;
                let mut actions = Vec::new();
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::expr => cond = Some(self.expr(c)?),
                        Rule::action => actions.push(self.action(c)),
                        _ => {}
                    }
                }
                Ok(crate::ast::Rule::Sigma {
                    cond: cond.expect("grammar: sigma cond"),
                    actions,
                    span,
                })
            }
            Rule::block => {
                let mut cond = None;
                let mut rules = Vec::new();
                let mut head = span;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::doc | Rule::kw_when => {}
                        Rule::expr => {
                            let e = self.expr(c)?;
                            head = Span::new(self.file, span.start, e.span.end);
                            cond = Some(e);
                        }
                        _ => rules.push(self.rule(c)?),
                    }
                }
                Ok(crate::ast::Rule::Block {
                    cond: cond.expect("grammar: block cond"),
                    rules,
                    span: head,
                })
            }
            r => unreachable!("grammar: unexpected rule {r:?} in a model body"),
        }
    }

    fn action(&mut self, p: Pair<Rule>) -> Action {
        let span = self.span(&p);
        let inner = p.into_inner().next().expect("grammar: action");
        match inner.as_rule() {
            Rule::reset_action => {
                let n = inner
                    .into_inner()
                    .find(|c| c.as_rule() == Rule::name)
                    .expect("grammar: reset name");
                Action::Reset {
                    sub: self.name(n),
                    span,
                }
            }
            r => {
                let path = inner
                    .into_inner()
                    .find(|c| c.as_rule() == Rule::path)
                    .expect("grammar: action path");
                Action::Set {
                    path: path.into_inner().map(|n| self.name(n)).collect(),
                    value: r == Rule::set_action,
                    span,
                }
            }
        }
    }

    fn expr(&mut self, p: Pair<Rule>) -> Result<Expr, Diagnostic> {
        let span = self.span(&p);
        let count = p
            .clone()
            .into_inner()
            .flatten()
            .filter(|c| {
                matches!(
                    c.as_rule(),
                    Rule::or
                        | Rule::and
                        | Rule::eq
                        | Rule::ne
                        | Rule::le
                        | Rule::ge
                        | Rule::lt
                        | Rule::gt
                        | Rule::add
                        | Rule::sub
                        | Rule::mul
                        | Rule::div
                        | Rule::pow
                        | Rule::neg
                        | Rule::not
                        | Rule::call
                )
            })
            .count();
        if count > MAX_OPERATORS {
            return Err(Diagnostic::error(
                "E0002",
                span,
                format!("expression too long ({count} operators; the limit is {MAX_OPERATORS})"),
            )
            .with_help("split it with intermediate variables"));
        }
        self.pratt(p)
    }

    fn pratt(&mut self, p: Pair<Rule>) -> Result<Expr, Diagnostic> {
        let file = self.file;
        let sp = |p: &Pair<Rule>| trimmed(file, p);
        PRATT
            .map_primary(|prim| self.primary(prim))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).to(rhs.span);
                let kind = match op.as_rule() {
                    Rule::neg => ExprKind::Neg(Box::new(rhs)),
                    _ => ExprKind::Not(Box::new(rhs)),
                };
                Ok(Expr { kind, span })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.span.to(rhs.span);
                let cmp = match op.as_rule() {
                    Rule::lt => Some(CmpOp::Lt),
                    Rule::le => Some(CmpOp::Le),
                    Rule::gt => Some(CmpOp::Gt),
                    Rule::ge => Some(CmpOp::Ge),
                    Rule::eq => Some(CmpOp::Eq),
                    Rule::ne => Some(CmpOp::Ne),
                    _ => None,
                };
                let kind = if let Some(c) = cmp {
                    match lhs.kind {
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
                    }
                } else {
                    let b = match op.as_rule() {
                        Rule::or => BinOp::Or,
                        Rule::and => BinOp::And,
                        Rule::add => BinOp::Add,
                        Rule::sub => BinOp::Sub,
                        Rule::mul => BinOp::Mul,
                        Rule::div => BinOp::Div,
                        _ => BinOp::Pow,
                    };
                    ExprKind::Binary(b, Box::new(lhs), Box::new(rhs))
                };
                Ok(Expr { kind, span })
            })
            .parse(p.into_inner())
    }

    fn primary(&mut self, p: Pair<Rule>) -> Result<Expr, Diagnostic> {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::number => {
                let v: f64 = p.as_str().parse().map_err(|_| {
                    Diagnostic::error("E0004", span, format!("`{}` is not a number", p.as_str()))
                })?;
                if !v.is_finite() {
                    let text = p.as_str();
                    let shown = if text.len() > 40 {
                        format!("{}…", &text[..37]) // ASCII digits: any cut is a char boundary
                    } else {
                        text.to_string()
                    };
                    return Err(Diagnostic::error(
                        "E0004",
                        span,
                        format!("`{shown}` is too large for a 64-bit float"),
                    )
                    .with_label("this literal overflows to infinity")
                    .with_note("the largest finite value is 1.7976931348623157e308"));
                }
                ExprKind::Num(v)
            }
            Rule::bool_lit => ExprKind::Bool(p.as_str() != "false"),
            Rule::path => ExprKind::Path(p.into_inner().map(|n| self.name(n)).collect()),
            Rule::call => {
                let mut it = p.into_inner();
                let name = self.name(it.next().expect("grammar: call name"));
                let args = it.map(|a| self.pratt(a)).collect::<Result<Vec<_>, _>>()?;
                ExprKind::Call(name, args)
            }
            Rule::paren => {
                let inner = p.into_inner().next().expect("grammar: paren expr");
                ExprKind::Paren(Box::new(self.pratt(inner)?))
            }
            r => unreachable!("grammar: unexpected primary {r:?}"),
        };
        Ok(Expr { kind, span })
    }
}
