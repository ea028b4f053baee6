// The Sit extension: the grammar and language configuration are declared in
// package.json; this file starts the language server, `sitc lsp`, for .sit files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("sit").get("server.path", "sitc");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "sit",
    "Sit language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "sit" }, { scheme: "untitled", language: "sit" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
