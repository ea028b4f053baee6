//! The server driven as an editor would: incremental edits with UTF-16 columns, the
//! workspace folders (references, rename and symbols across files that are not
//! open), signature help and semantic tokens.

mod common;

use common::{Client, at, pos, uri};
use lsp_types::request::{
    Formatting, References, Rename, SemanticTokensFullRequest, SignatureHelpRequest,
    WorkspaceSymbolRequest,
};
use lsp_types::*;
use std::path::PathBuf;

/// Send the edits `(range, new text)` as one `didChange`.
fn edit(c: &mut Client, u: &Uri, version: i32, edits: &[(Range, &str)]) {
    let changes: Vec<serde_json::Value> = edits
        .iter()
        .map(|(r, t)| serde_json::json!({ "range": r, "text": t }))
        .collect();
    c.notify_raw(
        "textDocument/didChange",
        serde_json::json!({ "textDocument": { "uri": u.as_str(), "version": version }, "contentChanges": changes }),
    );
}

/// The range of the `nth` occurrence of `needle` in `text`.
fn range_of(text: &str, needle: &str, nth: usize) -> Range {
    let start = pos(text, needle, nth, 0);
    let units = needle.encode_utf16().count() as u32;
    Range::new(start, Position::new(start.line, start.character + units))
}

/// What the server's text formats to: its formatting edit applied (the
/// text is kept unformatted so that there is one).
fn formatted(c: &mut Client, u: &Uri) -> String {
    let edits = c
        .request::<Formatting>(DocumentFormattingParams {
            text_document: TextDocumentIdentifier::new(u.clone()),
            options: FormattingOptions {
                tab_size: 4,
                insert_spaces: true,
                ..Default::default()
            },
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    assert_eq!(edits.len(), 1, "one edit, the whole text");
    edits[0].new_text.clone()
}

#[test]
fn incremental_edits_in_the_middle_of_non_ascii_lines() {
    let mut c = Client::start();
    let u = uri(&std::env::temp_dir().join("sit_lsp_incremental.sit"));
    let mut text = String::from(
        "model M {\n    /// Höhe in m², 𝔸-weighted.\n    output real höhe = 1;\n    \
         höhe=integral(-höhe);\n}\n",
    );
    c.open(&u, &text);
    assert_eq!(c.diagnostics(&u), Vec::new());
    // Each edit is given by its range in the current text, and made on the
    // expected text independently, by string replacement.
    let steps: [(&str, usize, &str); 4] = [
        ("-höhe", 0, "-2*höhe"),        // after two non-ASCII names on the line
        ("𝔸-weighted", 0, "𝔹"),         // after `²`, a surrogate pair replaced
        (".\n", 0, " (über alles).\n"), // after `𝔹`, across nothing
        ("= 1", 0, "= 1.5"),
    ];
    for (version, (needle, nth, new)) in steps.into_iter().enumerate() {
        let r = range_of(&text, needle, nth);
        let r = if needle.ends_with('\n') {
            Range::new(r.start, Position::new(r.start.line, r.start.character + 1))
        } else {
            r
        };
        let old = if needle.ends_with('\n') { "." } else { needle };
        let new = if needle.ends_with('\n') {
            new.trim_end_matches('\n')
        } else {
            new
        };
        edit(&mut c, &u, version as i32 + 2, &[(r, new)]);
        let at = text.match_indices(old).nth(nth).unwrap().0;
        text.replace_range(at..at + old.len(), new);
    }
    assert!(text.contains("/// Höhe in m², 𝔹 (über alles).\n"), "{text}");
    assert!(text.contains("höhe=integral(-2*höhe);"), "{text}");
    c.settle();
    assert_eq!(formatted(&mut c, &u), sit_fmt::format(0, &text).unwrap());

    // Two edits in one change, the second in the text left by the first:
    // an error after `höhe`, at a column counted in UTF-16 units.
    let first = range_of(&text, "= 1.5", 0);
    let mut after = text.replacen("= 1.5", "= (1.5", 1);
    let second = range_of(&after, "(1.5;", 0);
    after = after.replacen("(1.5;", "(1.5 +;", 1);
    edit(&mut c, &u, 9, &[(first, "= (1.5"), (second, "(1.5 +;")]);
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].range.start, pos(&after, ";", 0, 0), "{d:?}");
    // Undo both with one range over the line's tail.
    let tail = range_of(&after, "(1.5 +;", 0);
    edit(&mut c, &u, 10, &[(tail, "1.5;")]);
    assert_eq!(c.diagnostics(&u), Vec::new());
    c.stop();
}

/// A workspace folder with `a.sit`, `sub/b.sit` importing it, and `c.sit`,
/// which does not.
fn workspace() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sit_lsp_ws_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::create_dir_all(dir.join("target")).unwrap();
    std::fs::write(
        dir.join("a.sit"),
        "/// The source.\nmodel Alpha {\n    output real y = 1;\n    y = integral(-y);\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("sub/b.sit"),
        "import \"../a.sit\";\n\nmodel Beta {\n    sub a: Alpha;\n    output real z;\n    \
         z = 2 * a.y;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c.sit"),
        "model Gamma {\n    output real y = 3;\n}\n",
    )
    .unwrap();
    // Build output is not searched.
    std::fs::write(dir.join("target/d.sit"), "model Delta {}\n").unwrap();
    dir
}

fn references(c: &mut Client, u: &Uri, p: Position) -> Vec<Location> {
    c.request::<References>(ReferenceParams {
        text_document_position: at(u, p),
        context: ReferenceContext {
            include_declaration: true,
        },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    })
    .unwrap()
    .unwrap_or_default()
}

#[test]
fn references_rename_and_symbols_reach_the_workspace() {
    let dir = workspace();
    let a = uri(&dir.join("a.sit"));
    let b = uri(&dir.join("sub/b.sit"));
    let a_text = std::fs::read_to_string(dir.join("a.sit")).unwrap();
    let b_text = std::fs::read_to_string(dir.join("sub/b.sit")).unwrap();
    let y = pos(&a_text, "y = 1", 0, 0);

    // Without workspace folders, `sub/b.sit` is out of reach.
    let mut c = Client::start();
    c.open(&a, &a_text);
    let refs = references(&mut c, &a, y);
    assert!(refs.iter().all(|l| l.uri == a), "{refs:?}");
    c.stop();

    let mut c = Client::start_with(serde_json::json!({
        "capabilities": {},
        "workspaceFolders": [{ "uri": uri(&dir).as_str(), "name": "ws" }],
    }));
    c.open(&a, &a_text);
    let refs = references(&mut c, &a, y);
    let in_b: Vec<Position> = refs
        .iter()
        .filter(|l| l.uri == b)
        .map(|l| l.range.start)
        .collect();
    assert_eq!(in_b, [pos(&b_text, "y;", 0, 0)], "{refs:?}");
    assert_eq!(refs.iter().filter(|l| l.uri == a).count(), 3, "{refs:?}");
    assert!(
        refs.iter().all(|l| !l.uri.as_str().ends_with("c.sit")),
        "Gamma's `y` is another variable: {refs:?}"
    );

    let edit = c
        .request::<Rename>(RenameParams {
            text_document_position: at(&a, y),
            new_name: "height".into(),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    // By address, as text (a `Uri` key is a mutable key type for clippy).
    let changes: std::collections::HashMap<String, Vec<TextEdit>> = edit
        .changes
        .unwrap()
        .into_iter()
        .map(|(u, e)| (u.as_str().to_string(), e))
        .collect();
    let (a, b) = (a.as_str(), b.as_str());
    assert_eq!(changes[a].len(), 3);
    assert_eq!(changes[b].len(), 1);
    let y_in_b = pos(&b_text, "y;", 0, 0);
    assert_eq!(
        changes[b][0].range,
        Range::new(y_in_b, Position::new(y_in_b.line, y_in_b.character + 1))
    );
    assert_eq!(changes.len(), 2, "{changes:?}");

    let symbols = |c: &mut Client, query: &str| -> Vec<(String, Option<String>, String)> {
        let r = c
            .request::<WorkspaceSymbolRequest>(WorkspaceSymbolParams {
                query: query.into(),
                ..Default::default()
            })
            .unwrap()
            .unwrap();
        let WorkspaceSymbolResponse::Flat(list) = r else {
            panic!("a flat list");
        };
        list.into_iter()
            .map(|s| {
                let file = s
                    .location
                    .uri
                    .as_str()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string();
                (s.name, s.container_name, file)
            })
            .collect()
    };
    let all = symbols(&mut c, "");
    let mut models: Vec<&str> = all
        .iter()
        .filter(|s| s.1.is_none())
        .map(|s| s.0.as_str())
        .collect();
    models.sort_unstable();
    assert_eq!(models, ["Alpha", "Beta", "Gamma"], "{all:?}");
    assert_eq!(
        symbols(&mut c, "bta"),
        [("Beta".to_string(), None, "b.sit".to_string())]
    );
    assert_eq!(
        symbols(&mut c, "Z"),
        [(
            "z".to_string(),
            Some("Beta".to_string()),
            "b.sit".to_string()
        )]
    );
    c.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn signature_help_follows_the_arguments() {
    let mut c = Client::start();
    let u = uri(&std::env::temp_dir().join("sit_lsp_signature.sit"));
    let text = "model M {\n    output real x;\n    x = limit(x, min(1, 2), ";
    c.open(&u, text);
    let help = |c: &mut Client, p: Position| {
        c.request::<SignatureHelpRequest>(SignatureHelpParams {
            text_document_position_params: at(&u, p),
            context: None,
            work_done_progress_params: Default::default(),
        })
        .unwrap()
    };
    let end = pos(text, ", ", 2, 2);
    let h = help(&mut c, end).expect("inside limit(");
    assert_eq!(h.signatures[0].label, "limit(x, lo, hi)");
    assert_eq!(h.active_parameter, Some(2));
    let params = h.signatures[0].parameters.as_ref().unwrap();
    assert_eq!(params.len(), 3);
    let h = help(&mut c, pos(text, "2)", 0, 0)).expect("inside min(");
    assert_eq!(h.signatures[0].label, "min(a, b)");
    assert_eq!(h.active_parameter, Some(1));
    assert!(help(&mut c, pos(text, "x;", 0, 0)).is_none());
    c.stop();
}

/// The semantic tokens of `u` as (text, type, modifiers), decoded from
/// their relative positions against `text`.
fn semantic(c: &mut Client, u: &Uri, text: &str) -> Vec<(String, String, u32)> {
    let r = c
        .request::<SemanticTokensFullRequest>(SemanticTokensParams {
            text_document: TextDocumentIdentifier::new(u.clone()),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .expect("tokens");
    let SemanticTokensResult::Tokens(tokens) = r else {
        panic!("full tokens");
    };
    let types = [
        "keyword",
        "type",
        "parameter",
        "variable",
        "property",
        "function",
        "number",
        "string",
        "comment",
        "operator",
    ];
    let lines: Vec<Vec<u16>> = text.lines().map(|l| l.encode_utf16().collect()).collect();
    let (mut line, mut col) = (0usize, 0usize);
    let mut out = Vec::new();
    for t in tokens.data {
        if t.delta_line > 0 {
            line += t.delta_line as usize;
            col = 0;
        }
        col += t.delta_start as usize;
        let units = &lines[line][col..col + t.length as usize];
        out.push((
            String::from_utf16(units).expect("whole characters"),
            types[t.token_type as usize].to_string(),
            t.token_modifiers_bitset,
        ));
    }
    out
}

#[test]
fn semantic_tokens_say_what_each_name_is() {
    let mut c = Client::start();
    let init_types: Vec<String> = {
        // The legend the server announces is the one decoded above.
        let caps = serde_json::to_value(sit_lsp::capabilities()).unwrap();
        caps["semanticTokensProvider"]["legend"]["tokenTypes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        init_types,
        [
            "keyword",
            "type",
            "parameter",
            "variable",
            "property",
            "function",
            "number",
            "string",
            "comment",
            "operator"
        ]
    );
    let u = uri(&std::env::temp_dir().join("sit_lsp_semantic.sit"));
    let text = "model Inner {\n    output real y = 1;\n}\n\nmodel M {\n    /// Höhe in m², 𝔸.\n    \
                param k = 2;\n    sub s: Inner;\n    output real höhe = k;\n    \
                höhe = integral(-k * s.y + time);\n}\n";
    c.open(&u, text);
    let got = semantic(&mut c, &u, text);
    let find = |s: &str, nth: usize| -> (String, u32) {
        let (_, ty, m) = got
            .iter()
            .filter(|(t, _, _)| t == s)
            .nth(nth)
            .unwrap_or_else(|| panic!("{s} #{nth} in {got:?}"));
        (ty.clone(), *m)
    };
    let (decl, readonly, doc, lib) = (1, 2, 4, 8);
    assert_eq!(find("model", 1), ("keyword".into(), 0));
    assert_eq!(find("M", 0), ("type".into(), decl));
    assert_eq!(find("Inner", 1), ("type".into(), 0));
    assert_eq!(find("/// Höhe in m², 𝔸.", 0), ("comment".into(), doc));
    assert_eq!(find("k", 0), ("parameter".into(), decl | readonly));
    assert_eq!(find("k", 2), ("parameter".into(), readonly));
    assert_eq!(find("höhe", 0), ("variable".into(), decl));
    assert_eq!(find("höhe", 1), ("variable".into(), 0));
    assert_eq!(find("integral", 0), ("function".into(), lib));
    assert_eq!(find("y", 1), ("property".into(), 0));
    assert_eq!(find("time", 0), ("variable".into(), lib | readonly));
    assert_eq!(find("2", 0), ("number".into(), 0));
    assert_eq!(find("*", 0), ("operator".into(), 0));

    // On every library model: the decoded tokens are tokens of the text (the
    // positions are right), in order, and the keywords are the lexer's.
    let mut files = Vec::new();
    let mut stack = vec![common::repo().join("examples")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "sit") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 18);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let u = uri(&f);
        c.open(&u, &text);
        let got = semantic(&mut c, &u, &text);
        let toks: Vec<&str> = sit_middle::parse::tokenize(0, &text)
            .unwrap()
            .iter()
            .map(|t| text[t.start..t.end].trim_end())
            .collect();
        let mut rest = toks.iter();
        for (s, ty, _) in &got {
            assert!(
                rest.any(|t| t == s),
                "{}: `{s}` is not the next token",
                f.display()
            );
            assert_eq!(
                ty == "keyword",
                sit_middle::parse::Keyword::is_keyword(s),
                "{}: `{s}` as {ty}",
                f.display()
            );
        }
        let keywords = sit_middle::parse::tokenize(0, &text)
            .unwrap()
            .iter()
            .filter(|t| t.kind.keyword().is_some())
            .count();
        assert_eq!(
            got.iter().filter(|g| g.1 == "keyword").count(),
            keywords,
            "{}",
            f.display()
        );
    }
    c.stop();
}
