//! Source files, spans and line/column lookup.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
pub type FileId = usize;

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span of `file` from `start` to `end`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given by the user (or as resolved from an import).
    pub path: PathBuf,
    /// The text (a leading byte-order mark is removed).
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file with the given path and text.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> SourceFile {
        let mut text: String = text.into();
        if text.starts_with('\u{feff}') {
            text.replace_range(0..3, "");
        }
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, col + 1)
    }

    /// 1-based line of a byte offset (a binary search: the column, which counts the
    /// characters before the offset, is not computed).
    pub fn line(&self, offset: usize) -> usize {
        self.line_index(offset) + 1
    }

    /// Byte offset of the start of the line holding `offset`.
    pub fn line_start(&self, offset: usize) -> usize {
        self.line_starts[self.line_index(offset)]
    }

    /// 0-based line of a byte offset.
    fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        }
    }

    /// The text of the 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts.get(line.wrapping_sub(1)).copied();
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |e| e - 1);
        start
            .and_then(|s| self.text.get(s..end.max(s)))
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    /// The file name to show in generated code and messages.
    pub fn display_name(&self) -> String {
        self.path.display().to_string()
    }
}

/// All files of one compilation.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// The files, indexed by [`FileId`].
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    /// Add a file and return its id.
    pub fn add(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(path, text));
        self.files.len() - 1
    }

    /// The file with this id.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id]
    }

    /// The id of an already loaded file with this path.
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files.iter().position(|f| f.path == path)
    }

    /// The text a span covers.
    pub fn text(&self, span: Span) -> &str {
        self.files[span.file]
            .text
            .get(span.start..span.end)
            .unwrap_or("")
    }

    /// 1-based line of a span's start.
    pub fn line(&self, span: Span) -> usize {
        self.files[span.file].line(span.start)
    }

    /// `path:line:col` of a span's start.
    pub fn location(&self, span: Span) -> String {
        let f = &self.files[span.file];
        let (l, c) = f.line_col(span.start);
        format!("{}:{}:{}", f.display_name(), l, c)
    }
}
