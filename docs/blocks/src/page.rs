//! The fenced code blocks of the project's Markdown pages and the markers of their info strings.
//!
//! Shared by this crate's build script (which compiles the `rust` blocks) and by the `sitc`
//! docs test (which runs the `sh`, `sit` and `toml` blocks). The markers are documented in
//! `CONTRIBUTING.md`, "Code blocks in the docs".

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
use std::path::{Path, PathBuf};

/// The pages whose blocks are checked, relative to the workspace root: every `*.md` file at
/// the root and in `docs/`, sorted (so a new page is covered as soon as it exists).
pub fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = Vec::new();
    for dir in ["", "docs"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let is_md = Path::new(&name).extension().is_some_and(|e| e == "md");
            if is_md && entry.path().is_file() {
                pages.push(Path::new(dir).join(name));
            }
        }
    }
    pages.sort();
    pages
}

/// What a block holds, from the first word of its info string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `sh`: shell commands, run in a sandbox with `sitc` on the `PATH`.
    Sh,
    /// `sit`: a model file, checked with `sitc check`.
    Sit,
    /// `rust`: compiled by this crate (statement blocks are also run).
    Rust,
    /// `toml`: parsed; dependencies on workspace crates must resolve.
    Toml,
    /// `python`: run by the Python of the FMPy venv (`target/ci-venv`, or
    /// `SIT_FMPY_PYTHON`) in the sandbox's current folder.
    Python,
    /// `text`, `csv`, `json`: output shown to the reader, not run.
    Output,
}

/// One fenced code block and its markers.
#[derive(Clone, Debug)]
pub struct Block {
    /// The page, relative to the workspace root (`docs/embedding.md`).
    pub page: PathBuf,
    /// 1-based line of the opening fence.
    pub line: usize,
    /// How many headings come before the block: `sh` blocks run from the repository
    /// root again after each heading.
    pub section: usize,
    /// What the block holds.
    pub kind: Kind,
    /// `fails=N` (`sh`): the exit status the block ends with (0 when absent).
    pub fails: i32,
    /// `error=E0101,...`: the error codes the block produces (`sh` and `sit`).
    pub errors: Vec<String>,
    /// `warning=W0201,...` (`sit`): the warning codes the block produces.
    pub warnings: Vec<String>,
    /// `file=PATH` (`sit`, `rust`, `toml`): also written to this path, relative to the
    /// sandbox's current directory, for the `sh` blocks that follow.
    pub file: Option<String>,
    /// `norun` (`sh`, `rust`): not run (a `rust` block is still compiled).
    pub norun: bool,
    /// `fragment` (`sit`, `rust`): deliberately partial, not checked.
    pub fragment: bool,
    /// `from=PATH` (`text`, `csv`, `json`): the block is the start of this file, written
    /// by the blocks before it (relative to the sandbox's current directory).
    pub from: Option<String>,
    /// The block's text.
    pub code: String,
}

impl Block {
    /// `page:line`, for messages.
    pub fn at(&self) -> String {
        format!("{}:{}", self.page.display(), self.line)
    }
}

/// The markers each kind accepts.
fn allowed(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sh => &["fails", "error", "norun"],
        Kind::Sit => &["error", "warning", "file", "fragment"],
        Kind::Rust => &["file", "norun", "fragment"],
        Kind::Toml => &["file"],
        Kind::Python => &["norun"],
        Kind::Output => &["from"],
    }
}

/// Parses an info string into a block without code; `Err` says what is wrong with it.
fn parse_info(info: &str) -> Result<Block, String> {
    let mut words = info.split_whitespace();
    let kind = match words.next() {
        Some("sh") => Kind::Sh,
        Some("sit") => Kind::Sit,
        Some("rust") => Kind::Rust,
        Some("toml") => Kind::Toml,
        Some("python") => Kind::Python,
        Some("text" | "csv" | "json") => Kind::Output,
        Some(other) => {
            return Err(format!(
                "unknown block kind `{other}` (expected sh, sit, rust, toml, python, text, csv or json)"
            ));
        }
        None => {
            return Err(
                "a code block without a kind: write ```sh, ```sit, ```rust, ```toml or ```text"
                    .into(),
            );
        }
    };
    let mut block = Block {
        page: PathBuf::new(),
        line: 0,
        section: 0,
        kind,
        fails: 0,
        errors: Vec::new(),
        warnings: Vec::new(),
        file: None,
        norun: false,
        fragment: false,
        from: None,
        code: String::new(),
    };
    for word in words {
        let (key, value) = match word.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (word, None),
        };
        if !allowed(kind).contains(&key) {
            return Err(format!(
                "unknown marker `{word}` for this kind of block (allowed: {})",
                allowed(kind).join(", ")
            ));
        }
        let value = |what: &str| value.ok_or_else(|| format!("`{key}` needs a value: {what}"));
        let codes = |list: &str, prefix: char| -> Result<Vec<String>, String> {
            list.split(',')
                .map(|c| {
                    let ok = c.len() == 5
                        && c.starts_with(prefix)
                        && c[1..].bytes().all(|b| b.is_ascii_digit());
                    ok.then(|| c.to_string())
                        .ok_or_else(|| format!("`{c}` is not a {prefix}NNNN code"))
                })
                .collect()
        };
        match key {
            "fails" => {
                block.fails = value("`fails=1`")?
                    .parse()
                    .ok()
                    .filter(|&n| n != 0)
                    .ok_or("`fails` takes a non-zero exit status")?;
            }
            "error" => block.errors = codes(value("`error=E0101`")?, 'E')?,
            "warning" => block.warnings = codes(value("`warning=W0201`")?, 'W')?,
            "file" => block.file = Some(value("`file=src/main.rs`")?.to_string()),
            "from" => block.from = Some(value("`from=trace.csv`")?.to_string()),
            "norun" => block.norun = true,
            "fragment" => block.fragment = true,
            _ => unreachable!("checked against `allowed`"),
        }
    }
    Ok(block)
}

/// 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The code blocks of `text` (the page `page`), in order, or every problem found: an
/// indented code block (write a fenced one), an unknown kind or marker.
pub fn parse(page: &Path, text: &str) -> Result<Vec<Block>, Vec<String>> {
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    let mut open: Option<Block> = None;
    let mut section = 0;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { .. }) => section += 1,
            Event::Start(Tag::CodeBlock(kind)) => {
                let line = line_of(text, range.start);
                let at = format!("{}:{line}", page.display());
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.into_string(),
                    CodeBlockKind::Indented => {
                        problems.push(format!(
                            "{at}: an indented code block; write a fenced one (```sh, ...) so that it is checked"
                        ));
                        continue;
                    }
                };
                match parse_info(&info) {
                    Ok(mut block) => {
                        block.page = page.to_path_buf();
                        block.line = line;
                        block.section = section;
                        open = Some(block);
                    }
                    Err(e) => problems.push(format!("{at}: ```{info}: {e}")),
                }
            }
            Event::Text(t) => {
                if let Some(block) = &mut open {
                    block.code.push_str(&t);
                }
            }
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => {
                if let Some(block) = open.take() {
                    blocks.push(block);
                }
            }
            _ => {}
        }
    }
    if problems.is_empty() {
        Ok(blocks)
    } else {
        Err(problems)
    }
}

/// The blocks of every page under `root` (see [`pages`]), or every problem found.
pub fn all(root: &Path) -> Result<Vec<Block>, Vec<String>> {
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    for page in pages(root) {
        let text = match std::fs::read_to_string(root.join(&page)) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{}: {e}", page.display()));
                continue;
            }
        };
        match parse(&page, &text) {
            Ok(b) => blocks.extend(b),
            Err(p) => problems.extend(p),
        }
    }
    if problems.is_empty() {
        Ok(blocks)
    } else {
        Err(problems)
    }
}

/// The relative links and images of a page (`docs/language.md#one-step-exactly`,
/// `img/hoop.svg`, `#hierarchy`) with their lines; links with a scheme are left out.
pub fn links(text: &str) -> Vec<(usize, String)> {
    Parser::new(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((line_of(text, range.start), dest_url.into_string()))
            }
            _ => None,
        })
        .filter(|(_, dest)| !dest.contains("://") && !dest.starts_with("mailto:"))
        .collect()
}

/// The anchors of a page's headings as GitHub makes them: lower case, punctuation other
/// than `-` and `_` dropped, spaces as `-` (`## One step, exactly` is `one-step-exactly`).
pub fn anchors(text: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = &mut heading {
                    h.push_str(&t);
                }
            }
            Event::End(pulldown_cmark::TagEnd::Heading(_)) => {
                if let Some(h) = heading.take() {
                    anchors.push(
                        h.trim()
                            .to_lowercase()
                            .chars()
                            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                            .map(|c| if c == ' ' { '-' } else { c })
                            .collect(),
                    );
                }
            }
            _ => {}
        }
    }
    anchors
}

/// A Rust identifier for a block: `docs_embedding_md_l25`.
pub fn ident(block: &Block) -> String {
    let page: String = block
        .page
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{page}_l{}", block.line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(md: &str) -> Result<Vec<Block>, Vec<String>> {
        parse(Path::new("p.md"), md)
    }

    #[test]
    fn markers_are_read() {
        let b = one("x\n\n```sit error=E0101,E0102 file=a.sit\nmodel M {}\n```\n").unwrap();
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].line, 3);
        assert_eq!(b[0].kind, Kind::Sit);
        assert_eq!(b[0].errors, ["E0101", "E0102"]);
        assert_eq!(b[0].file.as_deref(), Some("a.sit"));
        assert_eq!(b[0].code, "model M {}\n");
        let b = one("```sh fails=2\nsitc check x\n```\n# Next\n```sh\nx\n```\n").unwrap();
        assert_eq!(b[0].fails, 2);
        assert_eq!((b[0].section, b[1].section), (0, 1));
    }

    #[test]
    fn unknown_kinds_markers_and_indented_blocks_are_refused() {
        for md in [
            "```javascript\nconsole.log(1)\n```\n",
            "```python fragment\nprint(1)\n```\n",
            "```\nbare\n```\n",
            "```sh fail=1\nx\n```\n",
            "```sit error=101\nx\n```\n",
            "```sh fails=0\nx\n```\n",
            "```text norun\nx\n```\n",
            "```csv from\nx\n```\n",
            "text\n\n    sitc run x.sit\n",
        ] {
            assert!(one(md).is_err(), "{md}");
        }
    }

    #[test]
    fn links_and_anchors() {
        let md = "# One step, exactly\n\nSee [a](docs/a.md#x), ![i](img/h.svg), [w](https://x.org).\n\n## `no_std` use\n";
        assert_eq!(
            links(md),
            [(3, "docs/a.md#x".to_string()), (3, "img/h.svg".to_string())]
        );
        assert_eq!(anchors(md), ["one-step-exactly", "no_std-use"]);
    }

    #[test]
    fn blocks_in_lists_are_found() {
        let b = one("- item\n\n  ```sh\n  sitc check a.sit\n  ```\n").unwrap();
        assert_eq!(b[0].code, "sitc check a.sit\n");
        assert_eq!(b[0].line, 3);
    }
}
