//! The parser and checker never panic and never overflow the stack: arbitrary
//! bytes, token soup, randomly mutated example models and extreme fixed
//! inputs, each checked on a thread with the 2 MiB stack `cargo test` gives
//! its test threads.

use proptest::prelude::*;
use sit_middle::{Output, check_bytes};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The stack of a `cargo test` thread (and of `std::thread::spawn`).
const STACK: usize = 2 * 1024 * 1024;

/// Run `f` on a fresh thread with a [`STACK`]-byte stack; a panic or a
/// stack overflow there fails the test.
fn on_test_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .expect("spawn a checker thread")
        .join()
        .unwrap_or_else(|_| panic!("the checker panicked"))
}

/// Every example model (and table file), by its path relative to the repository, so
/// that imports and tables between examples resolve in memory.
static EXAMPLES: LazyLock<HashMap<PathBuf, Vec<u8>>> = LazyLock::new(|| {
    let root = sit_tests::repo_root();
    let mut out = HashMap::new();
    // The models, and the component libraries they import.
    let mut todo = vec![
        PathBuf::from("examples/models"),
        PathBuf::from("examples/lib"),
    ];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let rel = dir.join(e.file_name());
            if e.path().is_dir() {
                todo.push(rel);
            } else if rel.extension().is_some_and(|x| x == "sit" || x == "csv")
                && let Ok(b) = std::fs::read(e.path())
            {
                out.insert(rel, b);
            }
        }
    }
    out
});

fn example_paths() -> Vec<PathBuf> {
    // The models; the CSV files of their tables are read through `check`'s reader.
    let mut v: Vec<PathBuf> = (EXAMPLES.keys())
        .filter(|p| p.extension().is_some_and(|x| x == "sit"))
        .filter(|p| p.starts_with("examples/models"))
        .cloned()
        .collect();
    v.sort();
    v
}

/// Check `bytes` as the file `path`, with imports read from the examples in
/// memory; then render every diagnostic as text and JSON, and check the
/// invariants every output keeps.
fn check(path: &Path, bytes: Vec<u8>) -> Output {
    let read = |p: &Path| {
        // `examples/models/../lib/x.sit` is `examples/lib/x.sit`.
        let mut key = PathBuf::new();
        for c in p.components() {
            match c {
                std::path::Component::ParentDir => {
                    key.pop();
                }
                std::path::Component::CurDir => {}
                c => key.push(c),
            }
        }
        EXAMPLES
            .get(&key)
            .cloned()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    };
    let out = check_bytes(path, bytes, &read);
    assert_eq!(
        out.program.is_some(),
        !out.has_errors(),
        "a program exactly when no error"
    );
    let _ = out.render();
    for d in &out.diagnostics {
        let _ = d.to_json(&out.sources);
        let file = &out.sources.files[d.span.file];
        assert!(
            d.span.start <= d.span.end && d.span.end <= file.text.len(),
            "{d:?}"
        );
        for (s, _) in &d.related {
            assert!(
                s.start <= s.end && s.end <= out.sources.files[s.file].text.len(),
                "{d:?}"
            );
        }
    }
    out
}

fn check_on_stack(path: &str, bytes: Vec<u8>) -> Output {
    let path = PathBuf::from(path);
    on_test_stack(move || check(&path, bytes))
}

/// Cases per property: 200, or `SIT_FUZZ_CASES`.
fn fuzz_cases() -> u32 {
    std::env::var("SIT_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// Pieces of `.sit` text, for token soup and insertions.
const TOKENS: &[&str] = &[
    "model",
    "M",
    "N",
    "{",
    "}",
    "(",
    ")",
    ";",
    ",",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "=>",
    "when",
    "otherwise",
    "param",
    "input",
    "output",
    "real",
    "flag",
    "pred",
    "situation",
    "event",
    "sub",
    "off",
    "reset",
    "import",
    "\"x.sit\"",
    "x",
    "y",
    "q",
    "s",
    "s.on",
    "s.x",
    "!",
    "-",
    "+",
    "*",
    "/",
    "^",
    "&",
    "|",
    "1",
    "0.5",
    "1e308",
    "1e999",
    "integral",
    "lag",
    "deriv",
    "hysteresis",
    "abs",
    "atan2",
    "time",
    "dt",
    "true",
    "false",
    "always",
    "//",
    "/*",
    "*/",
    "///",
    "\n",
    " ",
    "\t",
    "\r\n",
    "торможение",
    "\u{feff}",
    "\0",
    "é",
];

/// One edit of a source text; positions are fractions of its length.
#[derive(Debug, Clone)]
enum Edit {
    Delete(f64, usize),
    Insert(f64, usize),
    Replace(f64, usize),
    SwapLines(f64, f64),
    DeleteToken(f64),
}

fn edit() -> impl Strategy<Value = Edit> {
    let pos = 0.0..1.0f64;
    let tok = 0..TOKENS.len();
    prop_oneof![
        (pos.clone(), 1..20usize).prop_map(|(p, n)| Edit::Delete(p, n)),
        (pos.clone(), tok.clone()).prop_map(|(p, t)| Edit::Insert(p, t)),
        (pos.clone(), tok).prop_map(|(p, t)| Edit::Replace(p, t)),
        (pos.clone(), pos.clone()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        pos.prop_map(Edit::DeleteToken),
    ]
}

/// The char boundary nearest below `frac` of the text.
fn at(text: &str, frac: f64) -> usize {
    let mut i = ((text.len() as f64) * frac) as usize;
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &mut String, e: &Edit) {
    match *e {
        Edit::Delete(p, n) => {
            let i = at(text, p);
            let j = text[i..]
                .char_indices()
                .nth(n)
                .map_or(text.len(), |(k, _)| i + k);
            text.replace_range(i..j, "");
        }
        Edit::Insert(p, t) => {
            let i = at(text, p);
            text.insert_str(i, TOKENS[t]);
        }
        Edit::Replace(p, t) => {
            let i = at(text, p);
            let j = text[i..].chars().next().map_or(i, |c| i + c.len_utf8());
            text.replace_range(i..j, TOKENS[t]);
        }
        Edit::SwapLines(a, b) => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            let n = lines.len();
            let (x, y) = (((n as f64) * a) as usize, ((n as f64) * b) as usize);
            lines.swap(x.min(n - 1), y.min(n - 1));
            *text = lines.join("\n");
        }
        Edit::DeleteToken(p) => {
            // The word (or run of punctuation) at p.
            let i = at(text, p);
            let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
            let Some(c) = text[i..].chars().next() else {
                return;
            };
            let same = |d: char| word(d) == word(c) && !d.is_whitespace();
            let end = text[i..]
                .char_indices()
                .find(|(_, d)| !same(*d))
                .map_or(text.len(), |(k, _)| i + k);
            text.replace_range(i..end.max(i + c.len_utf8()), "");
        }
    }
}

proptest! {
    // A few seconds in all: a few hundred cases per property (set
    // SIT_FUZZ_CASES for a longer run).
    #![proptest_config(ProptestConfig { cases: fuzz_cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_on_stack("fuzz.sit", bytes);
    }

    #[test]
    fn token_soup(tokens in proptest::collection::vec(0..TOKENS.len(), 0..200)) {
        let text: String = tokens.iter().map(|&t| TOKENS[t]).collect::<Vec<_>>().join(" ");
        check_on_stack("soup.sit", text.into_bytes());
    }

    #[test]
    fn mutated_examples(pick in any::<prop::sample::Index>(), edits in proptest::collection::vec(edit(), 1..6)) {
        let paths = example_paths();
        prop_assume!(!paths.is_empty());
        let path = pick.get(&paths).clone();
        let mut text = String::from_utf8_lossy(&EXAMPLES[&path]).into_owned();
        for e in &edits {
            apply(&mut text, e);
        }
        let p = path.to_string_lossy().into_owned();
        check_on_stack(&p, text.into_bytes());
    }
}

/// The examples themselves have no errors (else the mutations above would
/// start from broken files and test less).
#[test]
fn examples_are_valid() {
    let paths = example_paths();
    assert!(!paths.is_empty(), "no example models found");
    for p in paths {
        let bytes = EXAMPLES[&p].clone();
        let out = check_on_stack(&p.to_string_lossy(), bytes);
        assert!(!out.has_errors(), "{}:\n{}", p.display(), out.render());
    }
}

/// Extreme inputs: each gives at most one error, without panicking or
/// overflowing the stack, in reasonable time.
#[test]
fn fixed_cases() {
    let n = 100_000;
    let hoop = String::from_utf8_lossy(
        EXAMPLES
            .get(Path::new("examples/models/hoop.sit"))
            .expect("examples/models/hoop.sit"),
    )
    .into_owned();
    let op_chain = |op: &str, k: usize| vec!["x > 0"; k].join(op);
    let cases: Vec<(&str, Vec<u8>, usize)> = vec![
        (
            "parentheses",
            format!(
                "model M {{ output real x = {}1{}; }}",
                "(".repeat(n),
                ")".repeat(n)
            )
            .into_bytes(),
            1,
        ),
        (
            "nots",
            format!(
                "model M {{ flag q; output situation s = {}q; }}",
                "!".repeat(n)
            )
            .into_bytes(),
            1,
        ),
        (
            "minuses",
            format!("model M {{ output real x = {}1; }}", "-".repeat(n)).into_bytes(),
            1,
        ),
        (
            "long identifier",
            format!("model M {{ output real {} = 1; }}", "a".repeat(n)).into_bytes(),
            0,
        ),
        // A misspelt name is compared with every name for a suggestion;
        // see `long_identifier_typo` for 10⁵ characters.
        (
            "long identifier typo",
            format!("model M {{ output real {0}; {0}b = 1; }}", "a".repeat(2000)).into_bytes(),
            1,
        ),
        (
            "long number",
            format!("model M {{ output real x = {}; }}", "9".repeat(n)).into_bytes(),
            1,
        ),
        (
            "long fraction",
            format!("model M {{ output real x = 0.{}; }}", "9".repeat(n)).into_bytes(),
            0,
        ),
        ("empty file", Vec::new(), 0),
        ("only a BOM", "\u{feff}".into(), 0),
        ("CRLF", hoop.replace('\n', "\r\n").into_bytes(), 0),
        ("tabs", hoop.replace("    ", "\t").into_bytes(), 0),
        ("NUL bytes", vec![0; 1000], 1),
        ("NUL in a model", b"model M {\0}".to_vec(), 1),
        ("binary garbage", garbage(100_000), 1),
        // Just under the operator limit: deep trees reach the checker and
        // the lints.
        (
            "999 ands",
            format!(
                "model M {{ output real x; output flag q; when {} => q; }}",
                op_chain(" & ", 500)
            )
            .into_bytes(),
            0,
        ),
        (
            "999 ors",
            format!(
                "model M {{ output real x; output flag q; when {} => q; }}",
                op_chain(" | ", 500)
            )
            .into_bytes(),
            0,
        ),
        (
            "999 nots",
            format!(
                "model M {{ output real x; output flag q; when {}(x > 0) => q; }}",
                "!".repeat(998)
            )
            .into_bytes(),
            0,
        ),
        (
            "999 minuses",
            format!("model M {{ output real x = {}1; }}", "- ".repeat(999)).into_bytes(),
            0,
        ),
        (
            "999 powers",
            format!("model M {{ output real x = {}1; }}", "1 ^ ".repeat(999)).into_bytes(),
            0,
        ),
        (
            "999 pluses",
            format!("model M {{ output real x = {}1; }}", "1 + ".repeat(999)).into_bytes(),
            0,
        ),
        (
            "64 levels",
            format!(
                "model M {{ output real x = {}1{}; }}",
                "(-".repeat(62),
                ")".repeat(62)
            )
            .into_bytes(),
            0,
        ),
        ("many situations", many_situations(2000).into_bytes(), 0),
        ("many rules", many_rules(2000).into_bytes(), 0),
        ("situation chain", situation_chain(20_000).into_bytes(), 0),
    ];
    for (name, bytes, max_errors) in cases {
        let start = Instant::now();
        let out = check_on_stack(&format!("{}.sit", name.replace(' ', "_")), bytes);
        let took = start.elapsed();
        let errors = out.diagnostics.iter().filter(|d| d.is_error()).count();
        assert!(
            errors <= max_errors,
            "{name}: {errors} errors:\n{}",
            out.render()
        );
        if max_errors == 0 {
            assert_eq!(errors, 0, "{name}:\n{}", out.render());
        }
        // Generous, for a shared machine: linear work takes milliseconds.
        assert!(took < Duration::from_secs(10), "{name}: took {took:?}");
    }
}

/// A misspelt 10⁵-character name must not take a minute: the "did you
/// mean" search (`suggest::did_you_mean`, edit distances in O(n·m)) skips
/// names far longer than any real one (it took 62 s before it did).
#[test]
fn long_identifier_typo() {
    let name = "a".repeat(100_000);
    let src = format!("model M {{ output real {name}; {name}b = 1; }}");
    let start = Instant::now();
    let out = check_on_stack("typo.sit", src.into_bytes());
    assert!(out.has_errors());
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
}

/// Deterministic pseudo-random bytes (a 64-bit LCG).
fn garbage(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

/// A chain of situations, each reading the previous one twice, and one
/// guard reading the last: expanding it naively doubles at every level.
fn many_situations(k: usize) -> String {
    let mut s = String::from("model M {\n    output real x = 1;\n    situation s0 = x > 0;\n");
    for i in 1..k {
        s.push_str(&format!(
            "    situation s{i} = s{} & !s{} | x < {i};\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!(
        "    x = 2 when s{};\n    x = 3 when s{};\n}}\n",
        k - 1,
        k - 2
    ));
    s
}

/// A chain of situations, each reading the one before: nothing may recurse
/// along it.
fn situation_chain(k: usize) -> String {
    let mut s = String::from(
        "model M {\n    output real x = 1;\n    output flag q;\n    situation s0 = x > 0;\n",
    );
    for i in 1..k {
        s.push_str(&format!("    situation s{i} = s{} & x > {i};\n", i - 1));
    }
    s.push_str(&format!(
        "    when s{} => q;\n    x = integral(1);\n}}\n",
        k - 1
    ));
    s
}

/// Many guarded rules for one target: the pairwise checks stay bounded.
fn many_rules(k: usize) -> String {
    let mut s = String::from("model M {\n    output real x = 1, y;\n");
    for i in 0..k {
        s.push_str(&format!("    y = {i} when x > {i} & x < {};\n", i + 1));
    }
    s.push_str("    x = integral(1);\n}\n");
    s
}

/// A 50 MB file (a small model, then 50 MB of comments and blank space, the
/// shape of a generated file with a large header) is checked without a
/// crash, valid, and in linear time.
#[test]
fn fifty_megabyte_file() {
    let mut src = String::from("model M {\n    output real x = 1;\n    x = integral(-x);\n}\n");
    let line = "// a comment line of a large generated header, padded to eighty chars ....\n";
    while src.len() < 50_000_000 {
        src.push_str(line);
    }
    src.push_str("/* and a block comment at the end */\n");
    let start = Instant::now();
    let out = check_on_stack("fifty.sit", src.into_bytes());
    assert!(!out.has_errors(), "{}", out.render());
    // Generous, for a shared machine: about a second of scanning here.
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "took {:?}",
        start.elapsed()
    );
}
