//! Standard output: what a command prints there, and a reader that went away.
//!
//! A command whose standard output is a pipe that its reader closed early (`sitc info
//! FILE --format json | head -1`) stops at its next write, quietly (no message, no
//! panic) and with exit 0, as `sitc --help` says: the reader has what it wanted. Every
//! write to stdout goes through [`print`](fn@print) or [`unless_closed`]. `-o -` names standard
//! output ([`is_stdout`]).

use std::io::{ErrorKind, Write};

/// Writes `text` to stdout and flushes it. A closed pipe ends `sitc` with exit 0 and no
/// message; another error (a full disk) with exit 2 and the error.
pub fn print(text: impl std::fmt::Display) {
    let mut out = std::io::stdout().lock();
    let written = unless_closed(write!(out, "{text}").and_then(|()| out.flush()));
    if let Err(e) = written {
        drop(out);
        eprintln!(
            "error: cannot write to stdout: {}",
            sit_middle::load::io_reason(&e)
        );
        std::process::exit(2);
    }
}

/// `result`, the result of a write to stdout, unless it is a closed pipe: then `sitc`
/// ends at once with exit 0 and no message.
pub fn unless_closed<T>(result: std::io::Result<T>) -> std::io::Result<T> {
    match result {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        other => other,
    }
}

/// Whether `path`, given to `-o`, names standard output: `-`, as in every Unix tool.
pub fn is_stdout(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// `-o PATH` of a command writing text: `None` for standard output (no `-o`, or
/// `-o -`), else the file.
pub fn file(output: Option<&std::path::Path>) -> Option<&std::path::Path> {
    output.filter(|p| !is_stdout(p))
}
