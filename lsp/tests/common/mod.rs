//! An in-process client for the server: `lsp-server`'s memory connection, driven as an editor would.

#![allow(dead_code)]

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::*;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

/// A client connected to a server running on its own thread.
pub struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next: i32,
    /// Diagnostics notifications received while waiting for responses.
    pub published: Vec<PublishDiagnosticsParams>,
}

impl Client {
    /// Start a server and initialize it.
    pub fn start() -> Client {
        Client::start_with(serde_json::json!({ "capabilities": {} }))
    }

    /// Start a server and initialize it with `init` as the `initialize` params.
    pub fn start_with(init: serde_json::Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle =
            std::thread::spawn(move || sit_lsp::serve(&server).expect("the server ends cleanly"));
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 0,
            published: Vec::new(),
        };
        let init: serde_json::Value = c.request_raw("initialize", init).expect("initialized");
        assert!(
            init["capabilities"]["hoverProvider"]
                .as_bool()
                .unwrap_or(false)
        );
        c.notify_raw("initialized", serde_json::json!({}));
        c
    }

    /// Send a request and wait for its response (keeping notifications).
    pub fn request_raw(
        &mut self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, lsp_server::ResponseError> {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .expect("sent");
        loop {
            match self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer")
            {
                Message::Response(Response {
                    id: rid,
                    result,
                    error,
                }) if rid == id => {
                    return match error {
                        Some(e) => Err(e),
                        None => Ok(result.unwrap_or(serde_json::Value::Null)),
                    };
                }
                Message::Notification(n) => self.keep(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// A typed request.
    pub fn request<R: lsp_types::request::Request>(
        &mut self,
        params: R::Params,
    ) -> Result<R::Result, lsp_server::ResponseError> {
        self.request_raw(R::METHOD, serde_json::to_value(params).unwrap())
            .map(|v| serde_json::from_value(v).expect("a well-formed result"))
    }

    fn keep(&mut self, n: Notification) {
        if n.method == notification::PublishDiagnostics::METHOD {
            self.published
                .push(serde_json::from_value(n.params).unwrap());
        }
    }

    /// Send a notification.
    pub fn notify_raw(&mut self, method: &str, params: serde_json::Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .expect("sent");
    }

    /// Open a document.
    pub fn open(&mut self, uri: &Uri, text: &str) {
        self.notify_raw(
            "textDocument/didOpen",
            serde_json::json!({ "textDocument": { "uri": uri.as_str(), "languageId": "sit", "version": 1, "text": text } }),
        );
    }

    /// Replace a document's text.
    pub fn change(&mut self, uri: &Uri, version: i32, text: &str) {
        self.notify_raw(
            "textDocument/didChange",
            serde_json::json!({ "textDocument": { "uri": uri.as_str(), "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// The next diagnostics published for `uri` (waiting for them).
    pub fn diagnostics(&mut self, uri: &Uri) -> Vec<Diagnostic> {
        loop {
            if let Some(i) = self
                .published
                .iter()
                .position(|p| p.uri.as_str() == uri.as_str())
            {
                return self.published.remove(i).diagnostics;
            }
            match self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("diagnostics")
            {
                Message::Notification(n) => self.keep(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// Wait until the server has handled everything sent so far, and drop
    /// the diagnostics it published meanwhile.
    pub fn settle(&mut self) {
        let _ = self.request_raw("sit/unknownMethod", serde_json::Value::Null);
        self.published.clear();
    }

    /// Shut the server down and wait for it to end.
    pub fn stop(mut self) {
        self.request_raw("shutdown", serde_json::Value::Null)
            .expect("shut down");
        self.notify_raw("exit", serde_json::Value::Null);
        self.server
            .take()
            .unwrap()
            .join()
            .expect("the server did not panic");
    }
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The `file:` URI of `path`.
pub fn uri(path: &Path) -> Uri {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).unwrap()
}

/// The position of the start of the `nth` (from 0) occurrence of `needle`
/// in `text`, plus `shift` characters.
pub fn pos(text: &str, needle: &str, nth: usize, shift: u32) -> Position {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle} #{nth}"))
        .0;
    let line = text[..at].matches('\n').count() as u32;
    let col = text[..at]
        .rsplit('\n')
        .next()
        .unwrap()
        .encode_utf16()
        .count() as u32;
    Position::new(line, col + shift)
}

/// A document position.
pub fn at(uri: &Uri, position: Position) -> TextDocumentPositionParams {
    TextDocumentPositionParams::new(TextDocumentIdentifier::new(uri.clone()), position)
}
