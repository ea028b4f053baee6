//! `sitc lsp`: the Sit language server, on stdio, built on `lsp-server` and `lsp-types`.
//!
//! `lsp-server` (rust-analyzer's transport) is synchronous: a channel of
//! messages and a loop, with no async runtime, so the server adds
//! `crossbeam-channel`, `lsp-types` and `fluent-uri` to the build and not
//! tokio, tower and their dependencies as `tower-lsp` would; a `.sit` file
//! is checked in milliseconds, so one thread answering in order is enough.
//!
//! The server keeps the text of open documents (incremental
//! synchronisation: the editor sends its edits), checks a document and the
//! files it imports on each change and publishes their diagnostics, and
//! answers requests from a token-level index (`index`) of those files
//! (and, for references, rename and workspace symbols, of the `.sit` files
//! of the workspace folders, module `workspace`) that exists for any text that
//! lexes, so that every request on half-typed text has an answer. A request that panics anyway is
//! answered with an error instead of ending the server.

mod diagnostics;
mod features;
mod index;
mod procs;
mod semantic;
mod signature;
mod text;
mod workspace;
mod world;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    References, Rename, Request as _, SemanticTokensFullRequest, SignatureHelpRequest,
    WorkspaceSymbolRequest,
};
use lsp_types::*;
use std::collections::HashMap;
use text::Lines;
use world::Documents;

/// An error that ends the server: the connection failed or the client broke
/// the protocol.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serve on standard input and output until the client says `exit`.
pub fn run_stdio() -> Result<(), Error> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// What the server can do, as announced in the `initialize` answer.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), ":".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            ..SignatureHelpOptions::default()
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// Run the server on `connection` (after its `initialize` handshake) until
/// the client asks it to shut down.
pub fn serve(connection: &Connection) -> Result<(), Error> {
    let caps = serde_json::to_value(capabilities())?;
    let (id, init) = connection.initialize_start()?;
    // Workspace folders are optional: a client that sends none (or params
    // this version of lsp-types cannot read) gets a server without them.
    let roots = serde_json::from_value::<InitializeParams>(init)
        .map(|p| workspace::roots(&p))
        .unwrap_or_default();
    connection.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": caps,
            "serverInfo": { "name": "sitc lsp", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let mut server = Server::default();
    server.docs.roots = roots;
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    return Ok(());
                }
                let id = req.id.clone();
                let response =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.request(req)))
                        .unwrap_or_else(|_| {
                            Response::new_err(
                                id,
                                ErrorCode::InternalError as i32,
                                "the request failed".into(),
                            )
                        });
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(n) => {
                let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    server.notification(n)
                }))
                .unwrap_or_default();
                for n in out {
                    connection.sender.send(Message::Notification(n))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// The server's state: open documents and what was published for each.
#[derive(Default)]
struct Server {
    docs: Documents,
    /// For each checked document, the files it published diagnostics for.
    published: HashMap<String, Vec<Uri>>,
}

fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Response> {
    serde_json::from_value(req.params.clone()).map_err(|e| {
        Response::new_err(
            req.id.clone(),
            ErrorCode::InvalidParams as i32,
            format!("invalid params: {e}"),
        )
    })
}

fn ok<T: serde::Serialize>(id: RequestId, value: T) -> Response {
    Response::new_ok(id, value)
}

impl Server {
    /// The world of a document and the byte offset of `pos` in it.
    fn at(&self, doc: &TextDocumentIdentifier, pos: Position) -> (world::World, usize) {
        let world = self.docs.world(&doc.uri);
        let offset = match world.files.first() {
            Some(f) if f.uri.as_str() == doc.uri.as_str() => Lines::new(&f.index.text).offset(pos),
            _ => 0,
        };
        (world, offset)
    }

    /// [`Server::at`] with the workspace's files too.
    fn at_wide(&self, doc: &TextDocumentIdentifier, pos: Position) -> (world::World, usize) {
        let world = self.docs.workspace_world(Some(&doc.uri));
        let offset = match world.files.first() {
            Some(f) if f.uri.as_str() == doc.uri.as_str() => Lines::new(&f.index.text).offset(pos),
            _ => 0,
        };
        (world, offset)
    }

    fn request(&mut self, req: Request) -> Response {
        match self.answer(&req) {
            Ok(r) | Err(r) => r,
        }
    }

    fn answer(&mut self, req: &Request) -> Result<Response, Response> {
        let id = req.id.clone();
        let has = |uri: &Uri| self.docs.text(uri).is_some();
        let unknown = |id: RequestId| {
            Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                "the document is not open".into(),
            )
        };
        Ok(match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: HoverParams = params(req)?;
                let d = &p.text_document_position_params;
                if !has(&d.text_document.uri) {
                    return Err(unknown(id));
                }
                let (world, offset) = self.at(&d.text_document, d.position);
                let uri = &d.text_document.uri;
                let row_time =
                    |model: &str, var: &str| diagnostics::row_time(&self.docs, uri, model, var);
                let unit = |model: &str, var: &str| diagnostics::unit(&self.docs, uri, model, var);
                ok(id, features::hover(&world, offset, &row_time, &unit))
            }
            GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = params(req)?;
                let d = &p.text_document_position_params;
                if !has(&d.text_document.uri) {
                    return Err(unknown(id));
                }
                let (world, offset) = self.at(&d.text_document, d.position);
                ok(
                    id,
                    features::definition(&world, offset).map(GotoDefinitionResponse::Scalar),
                )
            }
            References::METHOD => {
                let p: ReferenceParams = params(req)?;
                let d = &p.text_document_position;
                if !has(&d.text_document.uri) {
                    return Err(unknown(id));
                }
                let (world, offset) = self.at_wide(&d.text_document, d.position);
                ok(
                    id,
                    features::references(&world, offset, p.context.include_declaration),
                )
            }
            Rename::METHOD => {
                let p: RenameParams = params(req)?;
                let d = &p.text_document_position;
                if !has(&d.text_document.uri) {
                    return Err(unknown(id));
                }
                let (world, offset) = self.at_wide(&d.text_document, d.position);
                match features::rename(&world, offset, &p.new_name) {
                    Ok(edit) => ok(id, edit),
                    Err(why) => Response::new_err(id, ErrorCode::RequestFailed as i32, why),
                }
            }
            Completion::METHOD => {
                let p: CompletionParams = params(req)?;
                let d = &p.text_document_position;
                if !has(&d.text_document.uri) {
                    return Err(unknown(id));
                }
                let (world, offset) = self.at(&d.text_document, d.position);
                // Checked once for all the items (a document that does not check has none).
                let units = diagnostics::units(&self.docs, &d.text_document.uri);
                let unit =
                    |model: &str, var: &str| Some(units.get(model)?.vars.get(var)?.1.clone());
                ok(
                    id,
                    CompletionResponse::Array(features::completion(&world, offset, &unit)),
                )
            }
            DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params(req)?;
                let Some(text) = self.docs.text(&p.text_document.uri) else {
                    return Err(unknown(id));
                };
                let ix = index::Index::new(text);
                ok(id, DocumentSymbolResponse::Nested(features::symbols(&ix)))
            }
            Formatting::METHOD => {
                let p: DocumentFormattingParams = params(req)?;
                let Some(text) = self.docs.text(&p.text_document.uri) else {
                    return Err(unknown(id));
                };
                ok(id, features::formatting(text))
            }
            SignatureHelpRequest::METHOD => {
                let p: SignatureHelpParams = params(req)?;
                let d = &p.text_document_position_params;
                let Some(text) = self.docs.text(&d.text_document.uri) else {
                    return Err(unknown(id));
                };
                let ix = index::Index::new(text);
                let offset = Lines::new(text).offset(d.position);
                ok(id, signature::help(&ix, offset))
            }
            SemanticTokensFullRequest::METHOD => {
                let p: SemanticTokensParams = params(req)?;
                if !has(&p.text_document.uri) {
                    return Err(unknown(id));
                }
                let world = self.docs.world(&p.text_document.uri);
                ok(id, SemanticTokensResult::Tokens(semantic::tokens(&world)))
            }
            WorkspaceSymbolRequest::METHOD => {
                let p: WorkspaceSymbolParams = params(req)?;
                let world = self.docs.workspace_world(None);
                ok(
                    id,
                    WorkspaceSymbolResponse::Flat(workspace::symbols(&world, &p.query)),
                )
            }
            CodeActionRequest::METHOD => {
                let p: CodeActionParams = params(req)?;
                ok(
                    id,
                    diagnostics::code_actions(&p.text_document.uri, &p.context.diagnostics),
                )
            }
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("`{}` is not supported", req.method),
            ),
        })
    }

    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.docs
                    .set(p.text_document.uri.clone(), p.text_document.text);
                p.text_document.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                // Incremental synchronisation: the edits, in order (a change
                // without a range is the whole text).
                let Some(mut text) = self.docs.text(&p.text_document.uri).map(String::from) else {
                    return Vec::new();
                };
                for change in p.content_changes {
                    text = match change.range {
                        Some(range) => text::edit(&text, range, &change.text),
                        None => change.text,
                    };
                }
                self.docs.set(p.text_document.uri.clone(), text);
                p.text_document.uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.docs.close(&p.text_document.uri);
                let cleared = self
                    .published
                    .remove(p.text_document.uri.as_str())
                    .unwrap_or_default();
                return cleared
                    .into_iter()
                    .map(|u| publish(u, Vec::new()))
                    .collect();
            }
            _ => return Vec::new(),
        };
        // The changed document first, then the other open ones, which may
        // import it.
        let mut out = self.check(&uri);
        for other in self.docs.uris() {
            if other.as_str() != uri.as_str() {
                out.extend(self.check(&other));
            }
        }
        out
    }

    /// Check `uri` and publish the diagnostics of every file it reads, and
    /// an empty list for a file it published for before and reads no more.
    fn check(&mut self, uri: &Uri) -> Vec<Notification> {
        let results = diagnostics::check(&self.docs, uri);
        let now: Vec<Uri> = results.iter().map(|(u, _)| u.clone()).collect();
        let before = self
            .published
            .insert(uri.as_str().to_string(), now.clone())
            .unwrap_or_default();
        let mut out: Vec<Notification> = results.into_iter().map(|(u, d)| publish(u, d)).collect();
        for u in before {
            if !now.iter().any(|x| x.as_str() == u.as_str()) {
                out.push(publish(u, Vec::new()));
            }
        }
        out
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}
