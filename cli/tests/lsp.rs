//! `sitc lsp` over real standard input and output: the handshake, a diagnostic, shutdown.

use assert_cmd::cargo::cargo_bin_cmd;

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn sitc_lsp_speaks_json_rpc_on_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!("file://{}/a.sit", dir.path().display());
    let open = serde_json::json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": uri, "languageId": "sit", "version": 1,
            "text": "model M {\n    real x = y;\n}\n" } }
    });
    let input = [
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#),
        frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
        frame(&open.to_string()),
        frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
        frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
    ]
    .concat();
    let out = cargo_bin_cmd!("sitc")
        .arg("lsp")
        .write_stdin(input)
        .output()
        .expect("sitc lsp runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(r#""documentFormattingProvider":true"#),
        "{stdout}"
    );
    assert!(stdout.contains(r#""name":"sitc lsp""#), "{stdout}");
    assert!(stdout.contains(r#""code":"E0101""#), "{stdout}");
    assert!(
        stdout.contains(
            r#""range":{"end":{"character":14,"line":1},"start":{"character":13,"line":1}}"#
        ),
        "{stdout}"
    );
}
