//! Diagnostics: errors and warnings with spans, rendered as text or JSON.
//!
//! The text form is the one compilers use (gcc, clang, and rustc's source
//! excerpt): a first line `path:line:col: error[E0101]: message` that editors
//! and `grep` understand, the source line with the span underlined, then
//! notes. It is written here rather than with codespan-reporting or ariadne
//! because neither prints that first line, which build scripts, the
//! proc-macro and terminals all rely on; the whole renderer is one function.

use crate::source::{SourceMap, Span};
use std::fmt::Write as _;
use unicode_width::UnicodeWidthStr;

/// Every warning code of the checker and the lints (`sit-middle`), in order.
pub const WARNINGS: &[&str] = &[
    "W0201", "W0202", "W0203", "W0204", "W0205", "W0206", "W0207", "W0208", "W0209", "W0210",
    "W0211", "W0240", "W0241", "W0242", "W0243",
];

/// Whether `code` is the code of a warning (which can be allowed).
pub fn is_warning(code: &str) -> bool {
    WARNINGS.contains(&code)
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The model is invalid.
    Error,
    /// The model is valid but probably not what was meant.
    Warning,
}

/// One message about the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code, `E0101` or `W0201`; see `docs/diagnostics.md`.
    pub code: &'static str,
    /// What is wrong, one sentence without a final period.
    pub message: String,
    /// Where it is wrong.
    pub span: Span,
    /// Text under the primary span (may be empty).
    pub label: String,
    /// Other places that matter, each with its own label.
    pub related: Vec<(Span, String)>,
    /// `note:` lines.
    pub notes: Vec<String>,
    /// A `help:` line: what to write instead.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new error.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            related: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A new warning.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// Set the label under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Add a related span.
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }

    /// Add a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Set the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic as text, without colour.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{}: {}[{}]: {}",
            sources.location(self.span),
            sev,
            self.code,
            self.message
        );
        let mut snippets = vec![(self.span, self.label.as_str(), '^')];
        snippets.extend(self.related.iter().map(|(s, l)| (*s, l.as_str(), '-')));
        let gutter = snippets
            .iter()
            .map(|(s, _, _)| sources.line(*s).to_string().len())
            .max()
            .unwrap_or(1);
        let pad = " ".repeat(gutter);
        for (i, (span, label, mark)) in snippets.iter().enumerate() {
            let file = sources.file(span.file);
            let (line, _) = file.line_col(span.start);
            if i > 0 {
                let _ = writeln!(out, "{pad}--> {}", sources.location(*span));
            }
            // Every step below looks at a bounded window of the line, so that
            // thousands of diagnostics on one long line cost linear time.
            let (line_start, line_end) = file.line_bounds(span.start);
            let text = file.text[line_start..line_end].trim_end_matches('\r');
            let at = span.start.saturating_sub(line_start).min(text.len());
            let at = floor_char_boundary(text, at);
            let covered_end =
                floor_char_boundary(text, span.end.min(line_start + text.len()) - line_start)
                    .max(at);
            let covered_end = prefix_end(&text[at..covered_end], MAX_SHOWN) + at;
            // Long lines are shown as a window around the span.
            let from = text[..at]
                .char_indices()
                .rev()
                .nth(WINDOW_BEFORE - 1)
                .map_or(0, |(i, _)| i);
            let ellipsis = if from > 0 { "…" } else { "" };
            let rest = &text[from..];
            let shown = format!(
                "{ellipsis}{}",
                visible(&rest[..prefix_end(rest, MAX_SHOWN + 1)])
            );
            let shown = truncate_for_display(&shown);
            let before = format!("{ellipsis}{}", visible(&text[from..at]));
            let covered = visible(&text[at..covered_end]);
            let indent = before.width();
            let width = covered
                .width()
                .clamp(1, MAX_SHOWN.saturating_sub(indent).max(1));
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{line:>gutter$} | {shown}");
            let marks = mark.to_string().repeat(width);
            if label.is_empty() {
                let _ = writeln!(out, "{pad} | {}{marks}", " ".repeat(indent));
            } else {
                let _ = writeln!(out, "{pad} | {}{marks} {label}", " ".repeat(indent));
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "{pad} = note: {note}");
        }
        if let Some(help) = &self.help {
            let _ = writeln!(out, "{pad} = help: {help}");
        }
        out
    }

    /// The diagnostic as a JSON value (for `--format json`).
    pub fn to_json(&self, sources: &SourceMap) -> serde_json::Value {
        let loc = |span: Span| {
            let f = sources.file(span.file);
            let (line, column) = f.line_col(span.start);
            let (end_line, end_column) = f.line_col(span.end);
            serde_json::json!({
                "file": f.display_name(),
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "byte_start": span.start,
                "byte_end": span.end,
            })
        };
        serde_json::json!({
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "location": loc(self.span),
            "label": self.label,
            "related": self.related.iter().map(|(s, l)| serde_json::json!({"location": loc(*s), "label": l})).collect::<Vec<_>>(),
            "notes": self.notes,
            "help": self.help,
        })
    }
}

/// Most items a note lists (`its outputs: …`) before "and N more".
pub const MAX_LISTED: usize = 20;

/// Items joined with `, `, the first [`MAX_LISTED`] of them, then "and N
/// more": a message's length does not grow with the model.
pub fn list(items: impl Iterator<Item = String>) -> String {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for item in items {
        if shown.len() < MAX_LISTED {
            shown.push(item);
        } else {
            more += 1;
        }
    }
    let mut out = shown.join(", ");
    if more > 0 {
        let _ = write!(out, " and {more} more");
    }
    out
}

/// A name or excerpt cut to 40 characters for a message.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX).collect();
        s.push('…');
        s
    }
}

/// Characters of a source line shown before the span when the line is long.
const WINDOW_BEFORE: usize = 60;
/// Characters of a source line shown at most.
const MAX_SHOWN: usize = 200;

fn truncate_for_display(line: &str) -> String {
    if line.chars().count() <= MAX_SHOWN {
        line.to_string()
    } else {
        let mut s: String = line.chars().take(MAX_SHOWN).collect();
        s.push('…');
        s
    }
}

/// A source excerpt as it can be shown on a terminal: tabs as four spaces,
/// control characters (NUL included) as their visible symbols (␀, ␁, …).
fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str("    "),
            c if (c as u32) < 0x20 => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{FFFD}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The byte length of the first `n` characters of `text` (all of it if shorter).
fn prefix_end(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(i, _)| i)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Diagnostics with one code and message shown in full, at most; the rest
/// are counted in one line.
pub const MAX_IDENTICAL: usize = 3;

/// Render a list of diagnostics with a closing summary line. Of identical
/// diagnostics (one severity, code and message, as a rule repeated over
/// thousands of rules gives), the first [`MAX_IDENTICAL`] are shown and the
/// others counted in one line naming the first location.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    // (severity, code, message) -> (count, first diagnostic), in order of first appearance.
    let mut seen: std::collections::HashMap<(Severity, &str, &str), usize> =
        std::collections::HashMap::new();
    let mut groups: Vec<(usize, &Diagnostic)> = Vec::new();
    for d in diags {
        let g = *seen
            .entry((d.severity, d.code, d.message.as_str()))
            .or_insert_with(|| {
                groups.push((0, d));
                groups.len() - 1
            });
        groups[g].0 += 1;
        if groups[g].0 <= MAX_IDENTICAL {
            out.push_str(&d.render(sources));
            out.push('\n');
        }
    }
    for (n, d) in groups {
        if n > MAX_IDENTICAL {
            let what = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let _ = writeln!(
                out,
                "{what}[{}]: {} ({} more, not shown; the first is at {})\n",
                d.code,
                d.message,
                n - MAX_IDENTICAL,
                sources.location(d.span)
            );
        }
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("1 {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    match (errors, warnings) {
        (0, 0) => {}
        (0, w) => {
            let _ = writeln!(out, "{} emitted", plural(w, "warning"));
        }
        (e, 0) => {
            let _ = writeln!(out, "{} emitted", plural(e, "error"));
        }
        (e, w) => {
            let _ = writeln!(
                out,
                "{} and {} emitted",
                plural(e, "error"),
                plural(w, "warning")
            );
        }
    }
    out
}
