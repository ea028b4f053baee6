//! The language server driven through its JSON-RPC interface, as an editor would:
//! diagnostics as the text changes, fix-its, hover, definition, references, rename,
//! completion, outline and formatting on the library models.

mod common;

use common::{Client, at, pos, repo, uri};
use lsp_types::request::*;
use lsp_types::*;

/// The hover's text at `p` of the document `u`.
fn hover(c: &mut Client, u: &Uri, p: Position) -> String {
    let h = c
        .request::<HoverRequest>(HoverParams {
            text_document_position_params: at(u, p),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .expect("a hover");
    match h.contents {
        HoverContents::Markup(m) => m.value,
        other => panic!("{other:?}"),
    }
}

/// The completion items at `p` of the document `u`.
fn complete(c: &mut Client, u: &Uri, p: Position) -> Vec<CompletionItem> {
    match c
        .request::<Completion>(CompletionParams {
            text_document_position: at(u, p),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        })
        .unwrap()
    {
        Some(CompletionResponse::Array(items)) => items,
        other => panic!("{other:?}"),
    }
}

fn example(rel: &str) -> (Uri, String) {
    let path = repo().join("examples/models").join(rel);
    (uri(&path), std::fs::read_to_string(&path).unwrap())
}

#[test]
fn diagnostics_follow_the_text_and_offer_fixes() {
    let mut c = Client::start();
    let u = uri(&std::env::temp_dir().join("sit_lsp_fix/a.sit"));
    let text = "model M {\n    output real x = 1;\n    x = integral(-xx);\n}\n";
    c.open(&u, text);
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Some(NumberOrString::String("E0101".into())));
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::ERROR));
    assert_eq!(
        d[0].range,
        Range::new(Position::new(2, 18), Position::new(2, 20))
    );
    assert!(
        d[0].message.starts_with("unknown name `xx`"),
        "{}",
        d[0].message
    );

    // The fix-it: replace `xx` by `x`.
    let actions = c
        .request::<CodeActionRequest>(CodeActionParams {
            text_document: TextDocumentIdentifier::new(u.clone()),
            range: d[0].range,
            context: CodeActionContext {
                diagnostics: d.clone(),
                ..CodeActionContext::default()
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let CodeActionOrCommand::CodeAction(action) = &actions[0] else {
        panic!("{actions:?}")
    };
    assert_eq!(action.title, "Replace with `x`");
    let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&u];
    assert_eq!(edits, &vec![TextEdit::new(d[0].range, "x".into())]);

    // Fixed: an empty list.
    c.change(&u, 2, &text.replace("xx", "x"));
    assert_eq!(c.diagnostics(&u), vec![]);

    // A syntax error, with its related location.
    c.change(&u, 3, "model M {\n    real x = (1;\n}\n");
    let d = c.diagnostics(&u);
    assert_eq!(d[0].code, Some(NumberOrString::String("E0001".into())));
    assert_eq!(d[0].range.start.line, 1);
    c.stop();
}

#[test]
fn errors_in_imported_files_are_published_for_them() {
    let dir = std::env::temp_dir().join("sit_lsp_import");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lib.sit"),
        "model Lib {\n    output real y = z;\n}\n",
    )
    .unwrap();
    let main = uri(&dir.join("main.sit"));
    let mut c = Client::start();
    c.open(
        &main,
        "import \"lib.sit\";\nmodel Main {\n    sub l: Lib();\n    output real z;\n    z = l.y;\n}\n",
    );
    let lib = uri(&dir.join("lib.sit"));
    let d = c.diagnostics(&lib);
    assert_eq!(
        d[0].code,
        Some(NumberOrString::String("E0101".into())),
        "{d:?}"
    );
    assert_eq!(d[0].range.start, Position::new(1, 20));
    assert_eq!(c.diagnostics(&main), vec![]);

    // Opening the imported file and fixing it clears its list; renaming its
    // model makes the file importing it wrong, which is re-checked.
    c.open(&lib, "model Lib {\n    output real y = 1;\n}\n");
    assert_eq!(c.diagnostics(&lib), vec![]);
    c.settle();
    c.change(&lib, 2, "model Lib2 {\n    output real y = 1;\n}\n");
    assert_eq!(c.diagnostics(&lib), vec![]);
    let d = c.diagnostics(&main);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("`Lib`"), "{}", d[0].message);
    assert_eq!(d[0].range.start, Position::new(2, 11));
    c.stop();
}

#[test]
fn hover_describes_declarations_procedures_and_models() {
    let mut c = Client::start();
    let (u, text) = example("hoop.sit");
    c.open(&u, &text);
    let hover = |c: &mut Client, p| hover(c, &u, p);
    let h = hover(&mut c, pos(&text, "h = integral(Vy)", 0, 0));
    assert!(h.contains("output real h = 400.0"), "{h}");
    assert!(h.contains("a real state of `Hoop`, an output"), "{h}");
    assert!(h.contains("Height of the centre of mass, cm."), "{h}");
    assert!(h.contains("declared in `hoop.sit` line 23"), "{h}");
    // What a trace's row holds (issue 28): h is integrated to the row's time, the
    // force is computed from the values the step started with.
    assert!(h.contains("In a trace, the value at the row's time"), "{h}");
    let h = hover(&mut c, pos(&text, "F = Fy - P", 0, 0));
    assert!(
        h.contains("at the start of the step that ended at the row's time"),
        "{h}"
    );
    let h = hover(&mut c, pos(&text, "prev(defl)", 0, 1));
    assert!(h.contains("prev(x)"), "{h}");
    let h = hover(&mut c, pos(&text, "integral(Vy)", 0, 2));
    assert!(h.contains("integral(x) | integral(x, lo, hi)"), "{h}");
    let h = hover(&mut c, pos(&text, "contact & falling", 0, 1));
    assert!(h.contains("pred contact = h < R"), "{h}");
    let h = hover(&mut c, pos(&text, "defl [cm];", 0, 0));
    assert!(h.contains("starts at `0` (no initial value given)"), "{h}");
    assert!(h.contains("Unit: `cm`"), "{h}");
    let h = hover(&mut c, pos(&text, "Hoop {", 0, 1));
    assert!(h.contains("model Hoop"), "{h}");
    assert!(h.contains("An elastic hoop"), "{h}");
    c.stop();
}

/// The hover of a variable shows its unit, declared or inferred (issue 30).
#[test]
fn hover_shows_units() {
    let mut c = Client::start();
    let (u, text) = example("pendulum.sit");
    c.open(&u, &text);
    let mut hover = |p| hover(&mut c, &u, p);
    let h = hover(pos(&text, "omega = integral(eps);", 0, 0));
    assert!(h.contains("output real omega = 0.0"), "{h}");
    assert!(h.contains("Unit: `rad/s`"), "{h}");
    let h = hover(pos(&text, "eps = a / L", 0, 0));
    assert!(h.contains("Unit: `rad/s^2`"), "{h}");
    c.stop();
}

/// A completion's detail ends with the variable's unit, declared or inferred (issue 30).
#[test]
fn completion_shows_units() {
    let mut c = Client::start();
    let (u, text) = example("pendulum.sit");
    c.open(&u, &text);
    let items = complete(&mut c, &u, pos(&text, "omega = integral(eps);", 0, 8));
    let detail = |l: &str| {
        (items.iter().find(|i| i.label == l))
            .unwrap_or_else(|| panic!("{l}"))
            .detail
            .clone()
            .unwrap_or_default()
    };
    assert_eq!(detail("omega"), "output real [rad/s]");
    assert!(detail("eps").ends_with("[rad/s^2]"), "{}", detail("eps"));
    c.stop();
}

#[test]
fn definition_goes_into_submodels_and_imports() {
    let mut c = Client::start();
    let (u, text) = example("complex/coordinator.sit");
    c.open(&u, &text);
    let (pu, ptext) = example("complex/positioning.sit");
    let def = |c: &mut Client, p| {
        let r = c
            .request::<GotoDefinition>(GotoDefinitionParams {
                text_document_position_params: at(&u, p),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            })
            .unwrap();
        match r {
            Some(GotoDefinitionResponse::Scalar(l)) => l,
            other => panic!("{other:?}"),
        }
    };
    // `p1.x` → `output real x` of Positioning, in positioning.sit.
    let l = def(&mut c, pos(&text, "p1.x", 0, 3));
    assert_eq!(l.uri.as_str(), pu.as_str());
    assert_eq!(l.range.start, pos(&ptext, "x [m] = start;", 0, 0));
    // `Positioning(` → the model's name.
    let l = def(&mut c, pos(&text, "Positioning(", 0, 2));
    assert_eq!(l.range.start, pos(&ptext, "Positioning {", 0, 0));
    // A binding's name → the submodel's param.
    let l = def(&mut c, pos(&text, "tilt = tilt1", 0, 1));
    assert_eq!(l.range.start, pos(&ptext, "tilt [rad] = 0.1", 0, 0));
    // A local name → its declaration.
    let l = def(&mut c, pos(&text, "start1, tilt", 0, 0));
    assert_eq!(
        (l.uri.as_str(), l.range.start),
        (u.as_str(), pos(&text, "start1 [m] = 0.0", 0, 0))
    );
    // The import → the file.
    let l = def(&mut c, pos(&text, "positioning.sit", 0, 3));
    assert_eq!(l.uri.as_str(), pu.as_str());
    c.stop();
}

#[test]
fn references_and_rename() {
    let mut c = Client::start();
    let (u, text) = example("hoop.sit");
    c.open(&u, &text);
    let p = pos(&text, "contact =", 0, 2);
    let refs = c
        .request::<References>(ReferenceParams {
            text_document_position: at(&u, p),
            context: ReferenceContext {
                include_declaration: true,
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    let expected: Vec<Position> = (0..text.matches("contact").count())
        .map(|k| pos(&text, "contact", k, 0))
        .filter(|p| {
            let line = text.lines().nth(p.line as usize).unwrap();
            !line[..p.character as usize].contains("//")
        })
        .collect();
    let got: Vec<Position> = refs.iter().map(|l| l.range.start).collect();
    assert_eq!(got, expected);
    assert!(got.len() >= 4);

    let rename = |c: &mut Client, new: &str| {
        c.request::<Rename>(RenameParams {
            text_document_position: at(&u, p),
            new_name: new.into(),
            work_done_progress_params: Default::default(),
        })
    };
    let edit = rename(&mut c, "touching").unwrap().unwrap();
    let edits = &edit.changes.unwrap()[&u];
    assert_eq!(edits.len(), got.len());
    assert!(edits.iter().all(|e| e.new_text == "touching"));
    for (new, why) in [
        ("when", "`when` is a keyword"),
        ("falling", "`Hoop` already declares `falling`"),
        ("time", "`time` is a built-in name"),
        ("2x", "`2x` is not a name"),
        ("sin", "`sin` is a procedure"),
    ] {
        let err = rename(&mut c, new).expect_err(new);
        assert_eq!(err.message, why);
    }
    c.stop();
}

#[test]
fn completion_offers_what_fits() {
    let mut c = Client::start();
    let (u, text) = example("complex/coordinator.sit");
    // Type `p1.` on a new line before the last `}`.
    let end = text.rfind('}').unwrap();
    let typed = format!("{}    x1 = p1.\n{}", &text[..end], &text[end..]);
    c.open(&u, &typed);
    let complete = |c: &mut Client, p| complete(c, &u, p);
    let items = complete(&mut c, pos(&typed, "x1 = p1.", 0, 8));
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["x", "v", "arrived", "t_arrival", "on"]);
    // In a rule: names of the model, procedures with signatures, keywords.
    let items = complete(&mut c, pos(&typed, "x1 = p1.", 0, 5));
    let find = |l: &str| {
        items
            .iter()
            .find(|i| i.label == l)
            .unwrap_or_else(|| panic!("{l}"))
    };
    assert_eq!(find("start1").detail.as_deref(), Some("param"));
    assert_eq!(find("p1").detail.as_deref(), Some("sub p1: Positioning"));
    assert_eq!(find("atan2").detail.as_deref(), Some("atan2(y, x)"));
    assert_eq!(find("when").kind, Some(CompletionItemKind::KEYWORD));
    // After `sub name:`, model names.
    c.change(&u, 2, &typed.replace("x1 = p1.", "sub p3: "));
    let items = complete(&mut c, pos(&typed, "x1 = p1.", 0, 8));
    assert!(items.iter().any(|i| i.label == "Positioning"), "{items:?}");
    c.stop();
}

#[test]
fn outline_and_formatting() {
    let mut c = Client::start();
    let (u, text) = example("hoop.sit");
    c.open(&u, &text);
    let symbols = c
        .request::<DocumentSymbolRequest>(DocumentSymbolParams {
            text_document: TextDocumentIdentifier::new(u.clone()),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap();
    let Some(DocumentSymbolResponse::Nested(models)) = symbols else {
        panic!("{symbols:?}")
    };
    assert_eq!(models.len(), 1);
    assert_eq!(models[0].name, "Hoop");
    let children = models[0].children.as_ref().unwrap();
    let names: Vec<&str> = children.iter().map(|s| s.name.as_str()).take(6).collect();
    assert_eq!(names, ["m", "R", "g", "k_press", "k_release", "h"]);
    assert!(
        children
            .iter()
            .any(|s| s.name == "Fy = k_press * prev(defl) when braking")
    );

    let format = |c: &mut Client| {
        c.request::<Formatting>(DocumentFormattingParams {
            text_document: TextDocumentIdentifier::new(u.clone()),
            options: FormattingOptions::default(),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap()
    };
    assert_eq!(format(&mut c), vec![], "the library is formatted");
    c.change(&u, 2, "model M{real x=1;x=integral(-x);}");
    let edits = format(&mut c);
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0].new_text,
        "model M {\n    real x = 1;\n    x = integral(-x);\n}\n"
    );
    c.stop();
}
