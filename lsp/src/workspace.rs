//! The workspace: the `.sit` files under the folders the editor opened, for references, rename and workspace symbols across files.

use crate::features::symbol_kind;
use crate::text::{Lines, path_to_uri, uri_to_path};
use crate::world::World;
use lsp_types::{InitializeParams, Location, SymbolInformation, SymbolKind, Uri};
use std::path::{Path, PathBuf};

/// Most `.sit` files taken from the workspace folders.
const MAX_FILES: usize = 2000;

/// The workspace folders of `params` (or its root), as paths.
pub(crate) fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut uris: Vec<&Uri> = params
        .workspace_folders
        .iter()
        .flatten()
        .map(|f| &f.uri)
        .collect();
    #[allow(deprecated, reason = "clients without workspace folders send the root")]
    if uris.is_empty() {
        uris.extend(params.root_uri.as_ref());
    }
    uris.into_iter().filter_map(uri_to_path).collect()
}

/// The addresses of the `.sit` files below `roots` (hidden folders and
/// `target` skipped), sorted, at most [`MAX_FILES`].
pub(crate) fn files(roots: &[PathBuf]) -> Vec<Uri> {
    let mut out = Vec::new();
    for root in roots {
        walk(root, &mut out);
    }
    out.sort();
    out.dedup();
    out.truncate(MAX_FILES);
    out.iter().map(|p| path_to_uri(p)).collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if out.len() >= MAX_FILES {
            return;
        }
        let p = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out),
            Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "sit") => out.push(p),
            _ => {}
        }
    }
}

/// Whether the letters of `query` appear in `name` in order (ignoring case).
fn matches(query: &str, name: &str) -> bool {
    let mut chars = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| chars.any(|c| c == q))
}

/// `workspace/symbol`: the models and declarations of every file of
/// `world` whose name matches `query`.
#[allow(
    deprecated,
    reason = "SymbolInformation::deprecated is a required field"
)]
pub(crate) fn symbols(world: &World, query: &str) -> Vec<SymbolInformation> {
    let mut out = Vec::new();
    for f in &world.files {
        let lines = Lines::new(&f.index.text);
        let at = |span: (usize, usize)| Location::new(f.uri.clone(), lines.range(span.0, span.1));
        for m in &f.index.models {
            if matches(query, &m.name) {
                out.push(SymbolInformation {
                    name: m.name.clone(),
                    kind: SymbolKind::CLASS,
                    tags: None,
                    deprecated: None,
                    location: at(m.span),
                    container_name: None,
                });
            }
            for d in m.decls.iter().filter(|d| matches(query, &d.name)) {
                out.push(SymbolInformation {
                    name: d.name.clone(),
                    kind: symbol_kind(d),
                    tags: None,
                    deprecated: None,
                    location: at(d.span),
                    container_name: Some(m.name.clone()),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn queries_match_letters_in_order_ignoring_case() {
        assert!(super::matches("", "x"));
        assert!(super::matches("bb", "BouncingBall"));
        assert!(super::matches("vdp", "VanDerPol"));
        assert!(!super::matches("pv", "VanDerPol"));
        assert!(!super::matches("xx", "x"));
    }
}
