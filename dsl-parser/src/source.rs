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
    /// The number of characters before each [`CHUNK`] bytes of `text`, so
    /// that columns on long lines cost constant time.
    chars_before: Vec<usize>,
}

/// Bytes between two entries of `SourceFile::chars_before`.
const CHUNK: usize = 4096;

/// The number of characters starting in `bytes` (bytes that are not UTF-8
/// continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
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
        let mut chars_before = Vec::with_capacity(text.len() / CHUNK + 1);
        let mut n = 0;
        for chunk in text.as_bytes().chunks(CHUNK) {
            chars_before.push(n);
            n += char_starts(chunk);
        }
        SourceFile {
            path: path.into(),
            text,
            line_starts,
            chars_before,
        }
    }

    /// The number of characters before byte `offset`, in time bounded by
    /// [`CHUNK`] (not by the length of the line).
    fn chars_to(&self, offset: usize) -> usize {
        let chunk = offset / CHUNK;
        let base = self.chars_before.get(chunk).copied().unwrap_or(0);
        base + char_starts(&self.text.as_bytes()[chunk * CHUNK..offset])
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self.chars_to(offset) - self.chars_to(start);
        (line + 1, col + 1)
    }

    /// The byte range of the line holding `offset`, without its line end.
    pub fn line_bounds(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        (start, end)
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
