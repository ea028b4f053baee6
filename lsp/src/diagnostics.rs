//! The checker's diagnostics as LSP diagnostics, for the open file and the files it imports, and their fix-its as code actions.

use crate::text::{Lines, path_to_uri, uri_to_path};
use crate::world::{Documents, normalize};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// Check the document `uri` (with the open documents standing in for the
/// files they are) and return the diagnostics of every file read, an empty
/// list for a file without any.
pub(crate) fn check(docs: &Documents, uri: &Uri) -> Vec<(Uri, Vec<Diagnostic>)> {
    let Some(text) = docs.text(uri) else {
        return Vec::new();
    };
    let path = uri_to_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str()));
    let read = |p: &std::path::Path| docs.read(&normalize(p));
    let out = sit_driver::check_memory(&path, text, &read);
    let uris: Vec<Uri> = out
        .sources
        .files
        .iter()
        .enumerate()
        .map(|(id, f)| {
            if id == 0 {
                uri.clone()
            } else {
                path_to_uri(&normalize(&f.path))
            }
        })
        .collect();
    let lines: Vec<Lines> = out
        .sources
        .files
        .iter()
        .map(|f| Lines::new(&f.text))
        .collect();
    let mut by_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); uris.len()];
    for d in &out.diagnostics {
        let Some(l) = lines.get(d.span.file) else {
            continue;
        };
        let mut message = d.message.clone();
        if !d.label.is_empty() {
            message += &format!(" ({})", d.label);
        }
        for n in &d.notes {
            message += &format!("\nnote: {n}");
        }
        if let Some(h) = &d.help {
            message += &format!("\nhelp: {h}");
        }
        let related: Vec<DiagnosticRelatedInformation> = d
            .related
            .iter()
            .filter_map(|(span, label)| {
                let l = lines.get(span.file)?;
                Some(DiagnosticRelatedInformation {
                    location: Location::new(uris[span.file].clone(), l.range(span.start, span.end)),
                    message: label.clone(),
                })
            })
            .collect();
        let data = d
            .help
            .as_deref()
            .and_then(replacement)
            .map(|r| serde_json::json!({ "replace": r }));
        by_file[d.span.file].push(Diagnostic {
            range: l.range(d.span.start, d.span.end),
            severity: Some(if d.is_error() {
                DiagnosticSeverity::ERROR
            } else {
                DiagnosticSeverity::WARNING
            }),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("sit".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            data,
            ..Diagnostic::default()
        });
    }
    uris.into_iter().zip(by_file).collect()
}

/// The text a `help:` line proposes for the diagnostic's span: `X` in
/// "did you mean `X`?" (a name or a keyword).
fn replacement(help: &str) -> Option<String> {
    let rest = help.strip_prefix("did you mean ")?;
    let rest = rest.strip_prefix("the keyword ").unwrap_or(rest);
    let inner = rest.strip_prefix('`')?.strip_suffix("`?")?;
    (!inner.contains('`')).then(|| inner.to_string())
}

/// `textDocument/codeAction`: a quick fix for each diagnostic of the
/// request whose help proposes a replacement.
// `WorkspaceEdit::changes` is keyed by `Uri` (see `features::rename`).
#[allow(clippy::mutable_key_type)]
pub(crate) fn code_actions(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    diagnostics
        .iter()
        .filter_map(|d| {
            let new = d.data.as_ref()?.get("replace")?.as_str()?.to_string();
            let edit = TextEdit::new(d.range, new.clone());
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Replace with `{new}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit::new(HashMap::from([(
                    uri.clone(),
                    vec![edit],
                )]))),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}

/// What time a trace's row value of variable `var` of model `model` is as of, in a
/// sentence (`sit_middle::rows`), when the document `uri` checks.
pub(crate) fn row_time(
    docs: &Documents,
    uri: &Uri,
    model: &str,
    var: &str,
) -> Option<&'static str> {
    let text = docs.text(uri)?;
    let path = uri_to_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str()));
    let read = |p: &std::path::Path| docs.read(&normalize(p));
    let program = sit_driver::check_memory(&path, text, &read).program?;
    let id = program.model(model)?;
    let v = program.models[id].vars.iter().position(|v| v.name == var)?;
    let rows = sit_middle::rows::row_times(&program);
    Some(rows.get(id)?.get(v)?.sentence())
}

/// The unit of variable `var` of model `model` (declared or inferred, see
/// `sit_middle::units`), when the document `uri` checks and the unit is known.
pub(crate) fn unit(docs: &Documents, uri: &Uri, model: &str, var: &str) -> Option<String> {
    let units = units(docs, uri);
    Some(units.get(model)?.vars.get(var)?.1.clone())
}

/// The units of every model of the program of document `uri` (declared or inferred),
/// by model name: empty when the document does not check.
pub(crate) fn units(
    docs: &Documents,
    uri: &Uri,
) -> std::collections::HashMap<String, sit_middle::units::ModelUnits> {
    let Some(text) = docs.text(uri) else {
        return Default::default();
    };
    let path = uri_to_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str()));
    let read = |p: &std::path::Path| docs.read(&normalize(p));
    match sit_driver::check_memory(&path, text, &read).program {
        Some(program) => sit_middle::units::units_of_sources(&program.sources),
        None => Default::default(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn replacements_are_read_from_help_lines() {
        assert_eq!(
            super::replacement("did you mean `Vy`?").as_deref(),
            Some("Vy")
        );
        assert_eq!(
            super::replacement("did you mean the keyword `when`?").as_deref(),
            Some("when")
        );
        assert_eq!(super::replacement("add the missing `}`"), None);
    }
}
