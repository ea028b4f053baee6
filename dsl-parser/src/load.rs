//! Loading a root file and everything it imports, with cycle and error detection.

use crate::ast;
use crate::diag::Diagnostic;
use crate::source::{FileId, SourceMap, Span};
use std::path::{Path, PathBuf};

/// Reads a file's bytes; the default reads the file system.
pub type ReadFn<'a> = dyn Fn(&Path) -> std::io::Result<Vec<u8>> + 'a;

/// The files parsed so far, in load order.
pub struct Loaded {
    /// Sources of every file that could be read.
    pub sources: SourceMap,
    /// Each parsed file (files with a syntax error are absent).
    pub files: Vec<(FileId, ast::File)>,
}

/// Load `root` (its text already read) and its imports, recursively.
pub fn load(root: &Path, text: Vec<u8>, read: &ReadFn, diags: &mut Vec<Diagnostic>) -> Loaded {
    let mut l = Loaded {
        sources: SourceMap::default(),
        files: Vec::new(),
    };
    let mut stack: Vec<(PathBuf, PathBuf)> = Vec::new();
    visit(&mut l, root.to_path_buf(), text, read, &mut stack, diags);
    l
}

fn decode(
    path: &Path,
    bytes: Vec<u8>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> FileId {
    match String::from_utf8(bytes) {
        Ok(s) => sources.add(path, s),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let lossy = String::from_utf8_lossy(&bytes).into_owned();
            // The offset in the lossy text equals `valid`: all before it is intact.
            let id = sources.add(path, lossy);
            let bom = usize::from(bytes.starts_with(&[0xEF, 0xBB, 0xBF])) * 3;
            let at = valid.saturating_sub(bom);
            // The invalid byte became U+FFFD (3 bytes) in the lossy text.
            diags.push(
                Diagnostic::error(
                    "E0005",
                    Span::new(id, at, at + '\u{FFFD}'.len_utf8()),
                    format!(
                        "the file is not valid UTF-8 (byte 0x{:02X} at offset {valid})",
                        bytes[valid]
                    ),
                )
                .with_label("invalid byte")
                .with_note(
                    ".sit files are UTF-8 text; convert the file, e.g. with `iconv -t UTF-8`",
                ),
            );
            id
        }
    }
}

fn visit(
    l: &mut Loaded,
    path: PathBuf,
    bytes: Vec<u8>,
    read: &ReadFn,
    stack: &mut Vec<(PathBuf, PathBuf)>,
    diags: &mut Vec<Diagnostic>,
) {
    let errors = diags.len();
    let id = decode(&path, bytes, &mut l.sources, diags);
    if diags.len() > errors {
        return;
    }
    let text = l.sources.file(id).text.clone();
    let file = match crate::parse::parse_file(id, &text) {
        Ok(f) => f,
        Err(errors) => {
            diags.extend(errors);
            return;
        }
    };
    stack.push((normal(&path), path.clone()));
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    for imp in &file.imports {
        let target = dir.join(&imp.path);
        let key = normal(&target);
        if let Some(pos) = stack.iter().position(|(p, _)| *p == key) {
            // Paths as the user wrote them, not canonicalised.
            let mut chain: Vec<String> = stack[pos..]
                .iter()
                .map(|(_, shown)| format!("`{}`", shown.display()))
                .collect();
            chain.push(format!("`{}`", target.display()));
            diags.push(
                Diagnostic::error(
                    "E0302",
                    imp.span,
                    format!("import cycle: {}", chain.join(" imports ")),
                )
                .with_label("this import closes the cycle")
                .with_help("move the shared models to a file that both can import"),
            );
            continue;
        }
        if l.sources.files.iter().any(|f| normal(&f.path) == key) {
            continue; // already loaded (a diamond, not a cycle)
        }
        match read(&target) {
            Ok(b) => visit(l, target, b, read, stack, diags),
            Err(e) => diags.push(
                Diagnostic::error(
                    "E0301",
                    imp.span,
                    format!(
                        "cannot read the imported file `{}`: {}",
                        target.display(),
                        io_reason(&e)
                    ),
                )
                .with_label("imported here")
                .with_note("import paths are relative to the importing file's folder"),
            ),
        }
    }
    stack.pop();
    table_files(l, &file, &dir, read, diags);
    l.files.push((id, file));
}

/// Read the CSV files of `file`'s lookup tables into the sources (once each), where the
/// checker finds them and `Output::files` lists them for rebuilds; E0407 for a file that
/// cannot be read, at the path in the declaration.
fn table_files(
    l: &mut Loaded,
    file: &ast::File,
    dir: &Path,
    read: &ReadFn,
    diags: &mut Vec<Diagnostic>,
) {
    for m in &file.models {
        for d in &m.decls {
            let ast::Decl::Table(t) = d else { continue };
            let ast::TableData::File { path, span } = &t.data else {
                continue;
            };
            let target = dir.join(path);
            if l.sources.find(&target).is_some() {
                continue;
            }
            match read(&target) {
                Ok(b) => {
                    decode(&target, b, &mut l.sources, diags);
                }
                Err(e) => diags.push(
                    Diagnostic::error(
                        "E0407",
                        *span,
                        format!(
                            "cannot read the table file `{}`: {}",
                            target.display(),
                            io_reason(&e)
                        ),
                    )
                    .with_label(format!("the data of table `{}`", t.name.text))
                    .with_note("a table file's path is relative to the folder of the `.sit` file that declares it"),
                ),
            }
        }
    }
}

/// A short reason for an I/O error, without the OS error number: `no such file`,
/// `permission denied`, `it is a folder`, else the system's message without its
/// `(os error N)` suffix. Every front end words I/O errors with it.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "it is a folder".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// The file system's name for `p` when it exists, else its [`lexical`] form.
fn normal(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| lexical(p))
}

/// `path` with `.` components dropped and each `..` taking off the component before it
/// (kept at the start where there is none), without the file system: how the loader,
/// the language server and the page name an import's file.
pub fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}
