//! Positions and addresses: byte offsets to LSP positions (UTF-16 columns) and back, file URIs to paths and back.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The line starts of a text, for converting between byte offsets and
/// LSP positions (lines from 0, columns in UTF-16 code units).
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// The line starts of `text`.
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of byte `offset` (clamped to the text, and back to a
    /// character boundary).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, col as u32)
    }

    /// The range of bytes `start..end`.
    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of `pos`, clamped to its line and to the text.
    pub(crate) fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let mut units = 0usize;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// `text` with the change `new` made over `range` (LSP positions, UTF-16
/// columns; an end before the start is taken as the start).
pub(crate) fn edit(text: &str, range: Range, new: &str) -> String {
    let lines = Lines::new(text);
    let start = lines.offset(range.start);
    let end = lines.offset(range.end).max(start);
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..start]);
    out.push_str(new);
    out.push_str(&text[end..]);
    out
}

/// The path of a `file:` URI, if it is one.
pub(crate) fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///path` (empty host) or `file://localhost/path`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let decoded = percent_decode(rest)?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path.
pub(crate) fn path_to_uri(path: &Path) -> Uri {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "a²b\n𝔸x\n\nlast";
        let lines = Lines::new(text);
        // `²` is one UTF-16 unit (2 bytes), `𝔸` two units (4 bytes).
        assert_eq!(lines.position(3), Position::new(0, 2));
        assert_eq!(lines.position(9), Position::new(1, 2));
        assert_eq!(lines.offset(Position::new(1, 2)), 9);
        assert_eq!(lines.offset(Position::new(0, 99)), 4, "clamped to the line");
        assert_eq!(
            lines.offset(Position::new(9, 0)),
            text.len(),
            "clamped to the text"
        );
        assert_eq!(
            lines.position(2),
            Position::new(0, 1),
            "inside `²`: back to its start"
        );
        for (i, _) in text.char_indices() {
            assert_eq!(lines.offset(lines.position(i)), i);
        }
    }

    #[test]
    fn edits_in_the_middle_of_lines_count_utf16_units() {
        let text = "a²b = 𝔸x;\nnext";
        let r = |l0, c0, l1, c1| Range::new(Position::new(l0, c0), Position::new(l1, c1));
        // After `a²` (2 units): replace `b`.
        assert_eq!(edit(text, r(0, 2, 0, 3), "β"), "a²β = 𝔸x;\nnext");
        // `𝔸` is 2 units: columns 6..8; insert after it.
        assert_eq!(edit(text, r(0, 8, 0, 8), "·"), "a²b = 𝔸·x;\nnext");
        // Across the line end.
        assert_eq!(edit(text, r(0, 10, 1, 1), ""), "a²b = 𝔸x;ext");
        // Past the end of a line or the text: clamped.
        assert_eq!(edit(text, r(0, 99, 0, 99), "!"), "a²b = 𝔸x;!\nnext");
        assert_eq!(edit(text, r(7, 0, 9, 0), "\nend"), "a²b = 𝔸x;\nnext\nend");
    }

    #[test]
    fn file_uris_round_trip() {
        let p = Path::new("/tmp/a dir/Größe.sit");
        let uri = path_to_uri(p);
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/Gr%C3%B6%C3%9Fe.sit");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(p));
        assert_eq!(uri_to_path(&Uri::from_str("untitled:1").unwrap()), None);
    }
}
