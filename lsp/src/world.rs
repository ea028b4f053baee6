//! The open documents and the files they import: where the server finds the text and index of every file a request may reach.

use crate::index::{Index, Model, Sym};
use crate::text::{path_to_uri, uri_to_path};
use lsp_types::Uri;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Most files followed through imports for one request.
const MAX_FILES: usize = 256;

/// The documents the editor has open, by URI.
#[derive(Default)]
pub(crate) struct Documents {
    open: HashMap<String, (Uri, String)>,
    /// The workspace folders (from `initialize`).
    pub roots: Vec<PathBuf>,
}

impl Documents {
    /// Open or replace a document.
    pub fn set(&mut self, uri: Uri, text: String) {
        self.open.insert(uri.as_str().to_string(), (uri, text));
    }

    /// Close a document.
    pub fn close(&mut self, uri: &Uri) {
        self.open.remove(uri.as_str());
    }

    /// The open documents' addresses, sorted.
    pub fn uris(&self) -> Vec<Uri> {
        let mut v: Vec<Uri> = self.open.values().map(|(u, _)| u.clone()).collect();
        v.sort();
        v
    }

    /// The text of an open document.
    pub fn text(&self, uri: &Uri) -> Option<&str> {
        self.open.get(uri.as_str()).map(|(_, t)| t.as_str())
    }

    /// The text of the file at `path`: the open document if it is open,
    /// else the file system's.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let uri = path_to_uri(path);
        match self.open.get(uri.as_str()) {
            Some((_, t)) => Ok(t.clone().into_bytes()),
            None => std::fs::read(path),
        }
    }

    /// `uri`, the files it imports (transitively) and every other open
    /// document, indexed; `uri` first.
    pub fn world(&self, uri: &Uri) -> World {
        self.world_and(Some(uri), Vec::new(), MAX_FILES)
    }

    /// [`Documents::world`] (without a first document if `uri` is `None`)
    /// and then the `.sit` files of the workspace folders and their imports:
    /// for what may be written in any file.
    pub fn workspace_world(&self, uri: Option<&Uri>) -> World {
        let files = crate::workspace::files(&self.roots);
        let most = MAX_FILES + files.len();
        self.world_and(uri, files, most)
    }

    /// `uri`, its imports, the open documents, then `extra`, at most `most` files.
    fn world_and(&self, uri: Option<&Uri>, extra: Vec<Uri>, most: usize) -> World {
        let mut files: Vec<File> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut others: Vec<&Uri> = self.open.values().map(|(u, _)| u).collect();
        others.sort_by(|a, b| b.as_str().cmp(a.as_str()));
        // Depth-first from `uri` (popped first): its imports come right after it.
        let mut stack: Vec<Uri> = extra.into_iter().rev().collect();
        stack.extend(others.into_iter().cloned());
        stack.extend(uri.cloned());
        while let Some(u) = stack.pop() {
            if seen.iter().any(|s| s == u.as_str()) || files.len() >= most {
                continue;
            }
            seen.push(u.as_str().to_string());
            let path = uri_to_path(&u);
            let text = match self.text(&u) {
                Some(t) => t.to_string(),
                None => match path.as_deref().map(std::fs::read_to_string) {
                    Some(Ok(t)) => t,
                    _ => continue,
                },
            };
            let index = Index::new(&text);
            if let Some(dir) = path.as_deref().and_then(Path::parent) {
                for (import, _) in index.imports.iter().rev() {
                    stack.push(path_to_uri(&normalize(&dir.join(import))));
                }
            }
            files.push(File {
                uri: u,
                path,
                index,
            });
        }
        World { files }
    }
}

/// One known file.
pub(crate) struct File {
    /// Its address.
    pub uri: Uri,
    /// Its path, for a `file:` URI.
    pub path: Option<PathBuf>,
    /// Its index.
    pub index: Index,
}

/// The files a request can reach; the first is the request's document.
pub(crate) struct World {
    /// The files.
    pub files: Vec<File>,
}

impl World {
    /// The request's document.
    pub fn main(&self) -> &File {
        &self.files[0]
    }

    /// The model called `name` and its file (the main file's first).
    pub fn model(&self, name: &str) -> Option<(&File, &Model)> {
        self.files.iter().find_map(|f| {
            f.index
                .models
                .iter()
                .find(|m| m.name == name)
                .map(|m| (f, m))
        })
    }

    /// Where `sym` is declared: its file and byte range.
    pub fn definition(&self, sym: &Sym) -> Option<(&File, (usize, usize))> {
        match sym {
            Sym::Model(name) => self.model(name).map(|(f, m)| (f, m.span)),
            Sym::Decl { model, name } => {
                let (f, m) = self.model(model)?;
                m.decl(name).map(|d| (f, d.span))
            }
            Sym::Proc(_) | Sym::Builtin(_) => None,
        }
    }

    /// Every place `sym` is written, by file.
    pub fn references(&self, sym: &Sym) -> Vec<(&File, Vec<(usize, usize)>)> {
        self.files
            .iter()
            .map(|f| (f, f.index.occurrences(sym)))
            .filter(|(_, v)| !v.is_empty())
            .collect()
    }

    /// The file an import string of the main file at byte `offset` names.
    pub fn import_at(&self, offset: usize) -> Option<PathBuf> {
        let main = self.main();
        let dir = main.path.as_deref()?.parent()?;
        main.index
            .imports
            .iter()
            .find(|(_, (s, e))| *s <= offset && offset <= *e)
            .map(|(p, _)| normalize(&dir.join(p)))
    }
}

pub(crate) use sit_middle::load::lexical as normalize;
