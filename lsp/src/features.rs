//! The requests on a document: hover, definition, references, rename, completion, outline and formatting.

use crate::index::{Decl, Index, Model, Sym};
use crate::procs;
use crate::text::{Lines, path_to_uri};
use crate::world::{File, World};
use lsp_types::*;
use sit_middle::parse::{Keyword, KeywordClass};
use std::collections::HashMap;

/// The name token at `offset` of the main file and what it refers to.
fn symbol_at(world: &World, offset: usize) -> Option<(usize, Sym)> {
    let ix = &world.main().index;
    let i = ix.token_at(offset)?;
    // Between two tokens (`a|.b`), the name.
    if let Some(s) = ix.resolve(i) {
        return Some((i, s));
    }
    let before = i.checked_sub(1).filter(|&b| ix.tokens[b].end == offset)?;
    ix.resolve(before).map(|s| (before, s))
}

fn location(file: &File, span: (usize, usize)) -> Location {
    let lines = Lines::new(&file.index.text);
    Location::new(file.uri.clone(), lines.range(span.0, span.1))
}

/// `textDocument/hover`.
pub(crate) fn hover(
    world: &World,
    offset: usize,
    row_time: &dyn Fn(&str, &str) -> Option<&'static str>,
    unit: &dyn Fn(&str, &str) -> Option<String>,
) -> Option<Hover> {
    let ix = &world.main().index;
    let (i, sym) = symbol_at(world, offset)?;
    let text = match &sym {
        Sym::Model(name) => {
            let (file, m) = world.model(name)?;
            let mut s = format!("```sit\nmodel {}\n```\n", m.name);
            push_doc(&mut s, &m.doc);
            s += &format!("\n{}", place(file, m.span.0));
            s
        }
        Sym::Decl { model, name } => {
            let (file, m) = world.model(model)?;
            let d = m.decl(name)?;
            let mut s = describe_decl(file, m, d);
            if let Some(u) = unit(model, name) {
                s += &format!("\n\nUnit: `{u}` (declared or inferred)");
            }
            if let Some(when) = row_time(model, name) {
                s += &format!("\n\n{}", capitalized(when));
            }
            s
        }
        Sym::Proc(name) => {
            let (sig, meaning) = procs::describe(name)?;
            format!("```sit\n{sig}\n```\n{meaning}")
        }
        Sym::Builtin(name) => procs::builtin(name)?.to_string(),
    };
    let t = ix.tokens[i];
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(Lines::new(&ix.text).range(t.start, t.end)),
    })
}

/// `text` with its first letter upper-case.
fn capitalized(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn push_doc(s: &mut String, doc: &[String]) {
    if !doc.is_empty() {
        s.push('\n');
        s.push_str(&doc.join("\n"));
        s.push('\n');
    }
}

/// `file.sit:LINE`, where a declaration is.
fn place(file: &File, offset: usize) -> String {
    let name = file
        .path
        .as_deref()
        .and_then(|p| p.file_name())
        .map_or_else(
            || file.uri.as_str().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
    let line = Lines::new(&file.index.text).position(offset).line + 1;
    format!("declared in `{name}` line {line}")
}

/// The hover text of a declaration: kind, type, value, doc, where.
fn describe_decl(file: &File, m: &Model, d: &Decl) -> String {
    let mut s = String::from("```sit\n");
    match &d.sub_model {
        Some(of) => s += &format!("sub {}: {of}\n```\n", d.name),
        None => {
            s += &format!("{} {}", d.kind, d.name);
            if let Some(v) = &d.value {
                s += &format!(" = {v}");
            }
            s += "\n```\n";
        }
    }
    let role = d.role();
    let what = match role {
        "param"
            if d.value
                .as_deref()
                .is_some_and(|v| v.parse::<f64>().is_err()) =>
        {
            "a derived param (computed from other params)"
        }
        "param" => "a param (set before a run, constant during it)",
        "real" if d.kind.contains("input") => "a real input (set from outside)",
        "flag" if d.kind.contains("input") => "a flag input (set from outside)",
        "real" => "a real state",
        "flag" => "a flag (a boolean state)",
        "pred" => "a predicate (a condition on the current state)",
        "situation" => "a situation (a combination of predicates)",
        "event" => "an event (true in the step where its condition becomes true)",
        "sub" => "a submodel instance",
        "part" => "a component instance (its equations flattened into this model)",
        "port" => "a port (its connector's potentials and flows)",
        "table" => "a lookup table (its numbers interpolated linearly, read like a procedure)",
        _ => "a declaration",
    };
    s += &format!("{what} of `{}`", m.name);
    if d.is_output() {
        s += ", an output";
    }
    if d.value.is_none() && matches!(role, "real" | "flag") {
        s += if role == "flag" {
            "; starts `false` (no initial value given)"
        } else {
            "; starts at `0` (no initial value given)"
        };
    }
    s.push('\n');
    push_doc(&mut s, &d.doc);
    s += &format!("\n{}", place(file, d.span.0));
    s
}

/// `textDocument/definition`.
pub(crate) fn definition(world: &World, offset: usize) -> Option<Location> {
    if let Some(path) = world.import_at(offset) {
        return Some(Location::new(path_to_uri(&path), Range::default()));
    }
    let (_, sym) = symbol_at(world, offset)?;
    let (file, span) = world.definition(&sym)?;
    Some(location(file, span))
}

/// `textDocument/references`.
pub(crate) fn references(world: &World, offset: usize, declaration: bool) -> Vec<Location> {
    let Some((_, sym)) = symbol_at(world, offset) else {
        return Vec::new();
    };
    let def = world
        .definition(&sym)
        .map(|(f, s)| (f.uri.as_str().to_string(), s));
    let mut out = Vec::new();
    for (file, spans) in world.references(&sym) {
        for span in spans {
            let is_def = def
                .as_ref()
                .is_some_and(|(u, s)| u == file.uri.as_str() && *s == span);
            if declaration || !is_def {
                out.push(location(file, span));
            }
        }
    }
    out
}

/// Why a rename is refused.
pub(crate) type Refusal = String;

/// `textDocument/rename`: every occurrence of the symbol at `offset`
/// renamed, or why not.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose cache clippy sees as
// mutable; its hash and equality use only the text.
#[allow(clippy::mutable_key_type)]
pub(crate) fn rename(world: &World, offset: usize, new: &str) -> Result<WorkspaceEdit, Refusal> {
    let (_, sym) = symbol_at(world, offset).ok_or("no name to rename here")?;
    if !is_identifier(new) {
        return Err(format!("`{new}` is not a name"));
    }
    if Keyword::is_keyword(new) {
        return Err(format!("`{new}` is a keyword"));
    }
    if sit_middle::check::RESERVED.contains(&new) {
        return Err(format!("`{new}` is a built-in name"));
    }
    match &sym {
        Sym::Model(name) => {
            world
                .model(name)
                .ok_or_else(|| format!("the model `{name}` is not found"))?;
            if world.model(new).is_some() {
                return Err(format!("a model `{new}` already exists"));
            }
        }
        Sym::Decl { model, name } => {
            let (_, m) = world
                .model(model)
                .ok_or_else(|| format!("the model `{model}` is not found"))?;
            if m.decl(name).is_none() {
                return Err(format!("`{name}` is not declared in `{model}`"));
            }
            if m.decl(new).is_some() {
                return Err(format!("`{model}` already declares `{new}`"));
            }
            if procs::names().contains(&new) {
                return Err(format!("`{new}` is a procedure"));
            }
        }
        Sym::Proc(name) | Sym::Builtin(name) => {
            return Err(format!("`{name}` is built in and cannot be renamed"));
        }
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (file, spans) in world.references(&sym) {
        let lines = Lines::new(&file.index.text);
        changes.insert(
            file.uri.clone(),
            spans
                .into_iter()
                .map(|(s, e)| TextEdit::new(lines.range(s, e), new.to_string()))
                .collect(),
        );
    }
    Ok(WorkspaceEdit::new(changes))
}

fn is_identifier(s: &str) -> bool {
    match sit_middle::parse::tokenize(0, s) {
        Ok(t) => t.len() == 1 && t[0].kind.is_word() && t[0].end == s.len(),
        Err(_) => false,
    }
}

/// `textDocument/completion` at byte `offset` of the main file.
/// `unit(model, var)` is a variable's unit where the program checks (the detail shows it).
pub(crate) fn completion(
    world: &World,
    offset: usize,
    unit: &dyn Fn(&str, &str) -> Option<String>,
) -> Vec<CompletionItem> {
    let ix = &world.main().index;
    let text = &ix.text;
    // The start of the word being typed.
    let mut start = offset.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while let Some(c) = text[..start].chars().next_back() {
        if c == '_' || c.is_alphanumeric() {
            start -= c.len_utf8();
        } else {
            break;
        }
    }
    let before = text[..start].trim_end_matches([' ', '\t']);
    let model = ix.model_at(start);
    // `sub.` : the submodel's outputs and `on`.
    if let Some(head) = before.strip_suffix('.') {
        let sub: String = head
            .chars()
            .rev()
            .take_while(|c| *c == '_' || c.is_alphanumeric())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let Some(of) = model.and_then(|m| ix.sub_model(m, &sub)) else {
            return Vec::new();
        };
        let Some((_, target)) = world.model(of) else {
            return Vec::new();
        };
        let mut items: Vec<CompletionItem> = target
            .decls
            .iter()
            .filter(|d| d.is_output())
            .map(|d| decl_item(d, unit(&target.name, &d.name)))
            .collect();
        items.push(item(
            "on",
            CompletionItemKind::FIELD,
            "flag: whether the submodel steps",
        ));
        return items;
    }
    // `sub name:` : model names.
    if before.ends_with(':') {
        return model_names(world);
    }
    let Some(model) = model else {
        return Keyword::ALL
            .into_iter()
            .filter(|k| matches!(k.class(), KeywordClass::Import | KeywordClass::Model))
            .map(|k| item(k.as_str(), CompletionItemKind::KEYWORD, "keyword"))
            .collect();
    };
    let mut items: Vec<CompletionItem> = (model.decls.iter())
        .map(|d| decl_item(d, unit(&model.name, &d.name)))
        .collect();
    for name in procs::names() {
        if let Some((sig, meaning)) = procs::describe(name) {
            let mut it = item(name, CompletionItemKind::FUNCTION, &sig);
            it.documentation = Some(Documentation::String(meaning));
            items.push(it);
        }
    }
    for b in ["time", "dt"] {
        items.push(item(
            b,
            CompletionItemKind::VARIABLE,
            procs::builtin(b).unwrap_or(""),
        ));
    }
    // Keywords that fit: declaration keywords at the start of a statement,
    // the others anywhere in a model.
    let stmt_start =
        before.is_empty() || before.ends_with([';', '{', '}']) || before.ends_with('\n');
    let fits = |k: Keyword| match k.class() {
        KeywordClass::Import | KeywordClass::Model => false,
        KeywordClass::Declaring => stmt_start,
        KeywordClass::Guard => k == Keyword::When || !stmt_start,
        KeywordClass::Modifier | KeywordClass::Action | KeywordClass::Value => !stmt_start,
    };
    items.extend(
        Keyword::ALL
            .into_iter()
            .filter(|&k| fits(k))
            .map(|k| item(k.as_str(), CompletionItemKind::KEYWORD, "keyword")),
    );
    items
}

fn model_names(world: &World) -> Vec<CompletionItem> {
    let mut seen = Vec::new();
    let mut items = Vec::new();
    for f in &world.files {
        for m in &f.index.models {
            if !seen.contains(&m.name) {
                seen.push(m.name.clone());
                let mut it = item(&m.name, CompletionItemKind::MODULE, "model");
                it.documentation = Some(Documentation::String(m.doc.join("\n")));
                items.push(it);
            }
        }
    }
    items
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        ..CompletionItem::default()
    }
}

/// The item of a declaration; its detail ends with the unit, if known (`output real [m/s]`).
fn decl_item(d: &Decl, unit: Option<String>) -> CompletionItem {
    let kind = match d.role() {
        "param" => CompletionItemKind::CONSTANT,
        "event" => CompletionItemKind::EVENT,
        "sub" | "part" => CompletionItemKind::MODULE,
        _ => CompletionItemKind::VARIABLE,
    };
    let detail = match (&d.sub_model, unit) {
        (Some(m), _) => format!("{} {}: {m}", d.kind, d.name),
        (None, Some(u)) => format!("{} [{u}]", d.kind),
        (None, None) => d.kind.clone(),
    };
    let mut it = item(&d.name, kind, &detail);
    if !d.doc.is_empty() {
        it.documentation = Some(Documentation::String(d.doc.join("\n")));
    }
    it
}

/// One outline entry: `range` is extended to hold `sel`, as LSP requires.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
fn outline(
    lines: &Lines,
    name: &str,
    detail: Option<String>,
    kind: SymbolKind,
    range: (usize, usize),
    sel: (usize, usize),
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: if name.is_empty() {
            "_".into()
        } else {
            name.to_string()
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(range.0.min(sel.0), range.1.max(sel.1)),
        selection_range: lines.range(sel.0, sel.1),
        children: Some(children),
    }
}

fn rule_outline(lines: &Lines, r: &crate::index::Rule) -> DocumentSymbol {
    let children = r.children.iter().map(|c| rule_outline(lines, c)).collect();
    outline(
        lines,
        &r.text,
        None,
        SymbolKind::OPERATOR,
        r.span,
        r.span,
        children,
    )
}

/// `textDocument/documentSymbol`: models, their declarations and rules.
pub(crate) fn symbols(ix: &Index) -> Vec<DocumentSymbol> {
    let lines = Lines::new(&ix.text);
    ix.models
        .iter()
        .map(|m| {
            let mut children: Vec<DocumentSymbol> = m
                .decls
                .iter()
                .map(|d| {
                    let kind = symbol_kind(d);
                    let detail = d.sub_model.clone().unwrap_or_else(|| d.kind.clone());
                    outline(
                        &lines,
                        &d.name,
                        Some(detail),
                        kind,
                        d.stmt,
                        d.span,
                        Vec::new(),
                    )
                })
                .collect();
            children.extend(m.rules.iter().map(|r| rule_outline(&lines, r)));
            let detail = Some("model".to_string());
            outline(
                &lines,
                &m.name,
                detail,
                SymbolKind::CLASS,
                m.range,
                m.span,
                children,
            )
        })
        .collect()
}

/// The kind of symbol a declaration is, for outlines and workspace symbols.
pub(crate) fn symbol_kind(d: &Decl) -> SymbolKind {
    match d.role() {
        "param" => SymbolKind::CONSTANT,
        "flag" | "pred" | "situation" => SymbolKind::BOOLEAN,
        "event" => SymbolKind::EVENT,
        "sub" | "part" | "port" => SymbolKind::OBJECT,
        _ => SymbolKind::VARIABLE,
    }
}

/// `textDocument/formatting`: the whole text replaced by its formatted
/// form; nothing when it is formatted or has syntax errors (which the
/// diagnostics show).
pub(crate) fn formatting(text: &str) -> Vec<TextEdit> {
    match sit_fmt::format(0, text) {
        Ok(new) if new != text => {
            let lines = Lines::new(text);
            vec![TextEdit::new(lines.range(0, text.len()), new)]
        }
        _ => Vec::new(),
    }
}
