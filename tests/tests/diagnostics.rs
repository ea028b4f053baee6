//! The diagnostics corpus: every file of `tests/malformed/` is checked and its
//! diagnostics are rendered into a snapshot; each file names the code it must
//! produce on its first line (`// expect: E0101`), and together the files (and
//! a few inputs generated here) cover every code of the front end.

use sit_middle::{Output, check_bytes};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    sit_tests::repo_root()
}

/// Check `rel` (a path relative to the repository, which is how it appears
/// in messages), reading it and its imports from the repository.
fn check(rel: &str, bytes: Vec<u8>) -> Output {
    let root = root();
    check_bytes(Path::new(rel), bytes, &|p: &Path| {
        std::fs::read(root.join(p))
    })
}

/// The rendered diagnostics, with control characters (a NUL byte in the
/// source line) made visible so that the snapshot is text.
fn rendered(out: &Output) -> String {
    out.render()
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                format!("\\u{{{:04X}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The corpus files, sorted, as paths relative to the repository.
fn corpus() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/malformed"))
        .expect("tests/malformed exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".sit"))
        .map(|n| format!("tests/malformed/{n}"))
        .collect();
    files.sort();
    files
}

/// The codes named by `// expect: ...` on the first line.
fn expected(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let first = text.lines().next().unwrap_or("");
    first
        .strip_prefix("// expect:")
        .map(|s| s.split(',').map(|c| c.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Whether `line` starts with `FILE:LINE:COL: error[CODE]: ` (or warning),
/// FILE being a `.sit` file of the corpus (or a table's `.csv` file it reads).
fn names_location(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("tests/malformed/") else {
        return false;
    };
    let Some(at) = rest.find(".sit:").or_else(|| rest.find(".csv:")) else {
        return false;
    };
    let mut parts = rest[at + 5..].splitn(3, ':');
    let digits =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    let (l, c, tail) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
    digits(l) && digits(c) && (tail.starts_with(" error[") || tail.starts_with(" warning["))
}

#[test]
fn every_malformed_file_has_its_diagnostic() {
    let files = corpus();
    assert!(
        files.len() >= 45,
        "only {} files in the corpus",
        files.len()
    );
    for rel in &files {
        let bytes = std::fs::read(root().join(rel)).expect("readable corpus file");
        let want = expected(&bytes);
        assert!(
            !want.is_empty(),
            "{rel}: the first line must be `// expect: CODE`"
        );
        let out = check(rel, bytes);
        let text = rendered(&out);
        let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code).collect();
        for code in &want {
            assert!(
                codes.contains(&code.as_str()),
                "{rel}: expected {code}, got:\n{text}"
            );
        }
        if want.iter().all(|c| c.starts_with('W')) {
            // One mistake each: a warning file has no other diagnostic.
            assert!(
                !out.has_errors(),
                "{rel}: a warning file has errors:\n{text}"
            );
            assert!(
                codes.iter().all(|c| want.iter().any(|w| w == c)),
                "{rel}: unexpected diagnostics:\n{text}"
            );
            assert!(out.program.is_some(), "{rel}: warnings only, so a program");
        } else {
            assert!(out.has_errors(), "{rel}: expected an error:\n{text}");
            assert!(out.program.is_none(), "{rel}: no program with errors");
        }
        let first = text.lines().next().unwrap_or("");
        assert!(names_location(first), "{rel}: first line `{first}`");
        let stem = rel
            .trim_start_matches("tests/malformed/")
            .trim_end_matches(".sit");
        insta::assert_snapshot!(format!("malformed__{stem}"), text);
    }
}

#[test]
fn json_format() {
    let rel = "tests/malformed/overlapping_rules.sit";
    let out = check(rel, std::fs::read(root().join(rel)).expect("readable"));
    let json: Vec<String> = out
        .diagnostics
        .iter()
        .map(|d| format!("{:#}", d.to_json(&out.sources)))
        .collect();
    assert_eq!(json.len(), 1);
    insta::assert_snapshot!("json__overlapping_rules", json.join("\n"));
}

/// Brackets and comments nested far too deeply: E0002 at the first level
/// over the limit, in reasonable time.
#[test]
fn deep_nesting() {
    let n = 100_000;
    let cases = [
        (
            "deep_nesting_brackets",
            format!(
                "model M {{\n    output real x = {}1{};\n}}\n",
                "(".repeat(n),
                ")".repeat(n)
            ),
        ),
        (
            "deep_nesting_comments",
            format!("model M {{}}\n{}{}\n", "/*".repeat(n), "*/".repeat(n)),
        ),
        (
            "deep_nesting_blocks",
            format!(
                "model M {{\n    flag q;\n{}{}\n}}\n",
                "when q { ".repeat(n),
                "}".repeat(n)
            ),
        ),
    ];
    for (name, src) in cases {
        let rel = format!("tests/malformed/{name}.sit");
        let start = std::time::Instant::now();
        let out = check(&rel, src.into_bytes());
        // Generous: the prescan is linear; seconds mean something quadratic.
        assert!(start.elapsed().as_secs() < 10, "{name}: too slow");
        let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0002"], "{name}");
        let text = rendered(&out);
        assert!(names_location(text.lines().next().unwrap_or("")), "{name}");
        insta::assert_snapshot!(format!("generated__{name}"), text);
    }
}

/// A file over the size limit is refused before it is parsed.
#[test]
fn file_too_large() {
    let mut src = b"// ".to_vec();
    src.resize(sit_middle::parse::MAX_FILE_BYTES + 1, b'x');
    let out = check("tests/malformed/too_large.sit", src);
    let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0003"]);
    let text = out.render();
    assert!(
        text.starts_with("tests/malformed/too_large.sit:1:1: error[E0003]: the file is too large")
    );
}

/// Every code the front end can produce (read from its source), covered by
/// the corpus or by the generated cases above, and listed in
/// `docs/diagnostics.md`.
#[test]
fn corpus_and_docs_cover_every_code() {
    let mut in_source = BTreeSet::new();
    let mut todo = vec![root().join("dsl-parser/src"), root().join("check/src")];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).expect("readable source folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("readable source");
                let b = text.as_bytes();
                for i in 0..b.len().saturating_sub(6) {
                    let quoted = b[i] == b'"' && b[i + 6] == b'"';
                    if quoted
                        && (b[i + 1] == b'E' || b[i + 1] == b'W')
                        && b[i + 2..i + 6].iter().all(u8::is_ascii_digit)
                    {
                        in_source.insert(text[i + 1..i + 6].to_string());
                    }
                }
            }
        }
    }
    assert!(in_source.len() > 30, "codes found: {in_source:?}");
    let mut covered: BTreeSet<String> = ["E0002", "E0003"].map(String::from).into();
    for rel in corpus() {
        let bytes = std::fs::read(root().join(&rel)).expect("readable");
        covered.extend(expected(&bytes));
    }
    let missing: Vec<&String> = in_source.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "codes without a malformed file: {missing:?}"
    );
    let stale: Vec<&String> = covered.difference(&in_source).collect();
    assert!(
        stale.is_empty(),
        "expected codes the front end never emits: {stale:?}"
    );
    let docs =
        std::fs::read_to_string(root().join("docs/diagnostics.md")).expect("docs/diagnostics.md");
    let undocumented: Vec<&String> = in_source
        .iter()
        .filter(|c| !docs.contains(&format!("## {c}")))
        .collect();
    assert!(
        undocumented.is_empty(),
        "codes missing from docs/diagnostics.md: {undocumented:?}"
    );
}
