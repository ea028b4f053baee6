//! Every code block of README.md, CONTRIBUTING.md and docs/*.md works as written.
//!
//! Blocks run by kind, page by page in order, each page in its own sandbox
//! ([`sandbox::Sandbox`]): `sh` blocks run with `sitc` (the binary under test) on the
//! `PATH` and must end with the status their `fails=N` marker says (0 without it), and
//! print the codes of `error=...`; `sit` blocks are checked with `sitc check` and must give
//! exactly the codes of their `error=`/`warning=` markers (none without); `toml` blocks
//! parse and their dependencies resolve ([`toml_block`]); `rust` blocks are compiled (and
//! run) by the `doc-blocks` crate, which this test checks is up to date; `file=PATH`
//! blocks are also written to the sandbox for the `sh` blocks after them. An unknown kind
//! or marker, or an indented code block, fails. The markers: `CONTRIBUTING.md`.

mod sandbox;
mod toml_block;

use doc_blocks::page::{self, Block, Kind};
use sandbox::Sandbox;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The diagnostic codes in `text`: `(errors, warnings)` from `error[E....]` and `warning[W....]`.
fn codes(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let find = |prefix: &str| {
        text.match_indices(prefix)
            .filter_map(|(i, _)| {
                let code = text.get(i + prefix.len()..i + prefix.len() + 5)?;
                (text.get(i + prefix.len() + 5..i + prefix.len() + 6) == Some("]"))
                    .then(|| code.to_string())
            })
            .collect()
    };
    (find("error["), find("warning["))
}

/// The options of a model's run line, ``/// Run: `sitc run FILE OPTIONS...` ``, if it has one.
fn run_line(code: &str) -> Option<Vec<String>> {
    let line = code
        .lines()
        .find_map(|l| l.split_once("Run: `sitc run "))?
        .1;
    let command = line.split('`').next()?;
    Some(
        command
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect(),
    )
}

/// The Python that runs `python` blocks: `SIT_FMPY_PYTHON`, or the venv `.ci/run` makes
/// (`target/ci-venv`), if it imports FMPy. In CI (`CI=true`) a missing one is a failure,
/// not a skip, as for the FMU tests.
fn fmpy_python() -> Option<PathBuf> {
    let python = std::env::var_os("SIT_FMPY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/ci-venv/bin/python"));
    let ok = std::process::Command::new(&python)
        .args(["-c", "import fmpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok || std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but {} cannot import fmpy: .ci/run installs it",
        python.display()
    );
    ok.then_some(python)
}

/// The last lines of a command's output, for messages.
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// What went wrong with `block`, if anything.
fn run_block(block: &Block, sandbox: &mut Sandbox, ws: &toml_block::Workspace) -> Option<String> {
    let written = block.file.as_ref().map(|f| sandbox.write(f, &block.code));
    match block.kind {
        Kind::Rust => None,
        Kind::Output => {
            let from = block.from.as_ref()?;
            let path = sandbox.cwd().join(from);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            (!text.starts_with(&block.code)).then(|| {
                format!(
                    "`{from}` does not start with the block's text; it starts with:\n{}",
                    text.lines()
                        .take(block.code.lines().count())
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            })
        }
        Kind::Sh if block.norun => None,
        Kind::Sh => {
            let out = sandbox.sh(&block.code);
            let status = out.status.code().unwrap_or(-1);
            let (errors, _) = codes(&String::from_utf8_lossy(&out.stderr));
            let expected: BTreeSet<String> = block.errors.iter().cloned().collect();
            if status != block.fails {
                Some(format!(
                    "exit status {status}, expected {} (mark a block meant to fail `sh fails=N`)\nstdout:\n{}\nstderr:\n{}",
                    block.fails,
                    tail(&out.stdout),
                    tail(&out.stderr)
                ))
            } else if !expected.is_subset(&errors) {
                Some(format!(
                    "expected errors {expected:?}, got {errors:?}\nstderr:\n{}",
                    tail(&out.stderr)
                ))
            } else {
                None
            }
        }
        Kind::Sit if block.fragment => None,
        Kind::Sit => {
            let path = written.unwrap_or_else(|| {
                let path = sandbox.scratch(&format!("{}.sit", page::ident(block)));
                std::fs::write(&path, &block.code).unwrap();
                path
            });
            let out = sandbox
                .command(env!("CARGO_BIN_EXE_sitc"))
                .arg("check")
                .arg(&path)
                .output()
                .expect("sitc runs");
            let (errors, warnings) = codes(&String::from_utf8_lossy(&out.stderr));
            let want_e: BTreeSet<String> = block.errors.iter().cloned().collect();
            let want_w: BTreeSet<String> = block.warnings.iter().cloned().collect();
            let want_status = if want_e.is_empty() { 0 } else { 1 };
            let status = out.status.code().unwrap_or(-1);
            if errors != want_e || warnings != want_w || status != want_status {
                return Some(format!(
                    "`sitc check`: status {status}, errors {errors:?}, warnings {warnings:?}; the markers say status {want_status}, errors {want_e:?}, warnings {want_w:?} (```sit error=E0101 warning=W0201; ```sit fragment for a deliberately partial block)\n{}",
                    tail(&out.stderr)
                ));
            }
            let args = run_line(&block.code)?;
            let out = sandbox
                .command(env!("CARGO_BIN_EXE_sitc"))
                .arg("run")
                .arg(&path)
                .args(&args)
                .output()
                .expect("sitc runs");
            (!out.status.success()).then(|| {
                format!(
                    "the run line (`sitc run FILE {}`) fails:\n{}",
                    args.join(" "),
                    tail(&out.stderr)
                )
            })
        }
        Kind::Python if block.norun => None,
        Kind::Python => {
            let Some(python) = fmpy_python() else {
                eprintln!(
                    "docs test: SKIPPED the python block at {}: no Python with FMPy \
                     (target/ci-venv, made by .ci/run, or SIT_FMPY_PYTHON)",
                    block.at()
                );
                return None;
            };
            let script = sandbox.scratch(&format!("{}.py", page::ident(block)));
            std::fs::write(&script, &block.code).unwrap();
            let out = sandbox
                .command(python.to_str().expect("a UTF-8 path"))
                .arg(&script)
                .output()
                .expect("python runs");
            (!out.status.success()).then(|| {
                format!(
                    "the Python block fails:\nstdout:\n{}\nstderr:\n{}",
                    tail(&out.stdout),
                    tail(&out.stderr)
                )
            })
        }
        Kind::Toml => {
            let problems = ws.check(&block.code, written.as_deref());
            (!problems.is_empty()).then(|| problems.join("\n"))
        }
    }
}

#[test]
fn every_block_of_every_page_works_as_written() {
    let root = root();
    let start = Instant::now();
    let blocks = match page::all(&root) {
        Ok(b) => b,
        Err(problems) => panic!("bad code blocks:\n{}", problems.join("\n")),
    };
    // The rust blocks: compiled by `doc-blocks`, which must have seen every one.
    let compiled: BTreeSet<&str> = doc_blocks::COMPILED.iter().copied().collect();
    let stale: Vec<String> = blocks
        .iter()
        .filter(|b| b.kind == Kind::Rust && !b.fragment && !compiled.contains(b.at().as_str()))
        .map(Block::at)
        .collect();
    assert!(
        stale.is_empty(),
        "rust blocks not compiled by doc-blocks: {stale:?}; a new page at the root is seen after `touch docs/blocks/build.rs`"
    );
    let ws = toml_block::Workspace::read(&root);
    let sitc = Path::new(env!("CARGO_BIN_EXE_sitc"));
    let pages = page::pages(&root);
    let failures = Mutex::new(Vec::new());
    let counts = Mutex::new(std::collections::BTreeMap::<String, usize>::new());
    // Pages in parallel, each in its own sandbox, blocks in order.
    std::thread::scope(|s| {
        for page in &pages {
            let (root, ws, blocks, failures, counts) = (&root, &ws, &blocks, &failures, &counts);
            s.spawn(move || {
                let mut sandbox = Sandbox::new(root, sitc);
                let mut section = 0;
                for block in blocks.iter().filter(|b| &b.page == page) {
                    if block.section != section {
                        sandbox.home();
                        section = block.section;
                    }
                    let t = Instant::now();
                    let problem = run_block(block, &mut sandbox, ws);
                    let key = format!(
                        "{:?}{}",
                        block.kind,
                        if block.fragment || block.norun {
                            " (not run)"
                        } else {
                            ""
                        }
                    );
                    *counts.lock().unwrap().entry(key).or_default() += 1;
                    if t.elapsed().as_secs() >= 5 {
                        eprintln!("{}: {:.1} s", block.at(), t.elapsed().as_secs_f64());
                    }
                    if let Some(p) = problem {
                        failures.lock().unwrap().push(format!(
                            "{}: ```{:?} block: {p}",
                            block.at(),
                            block.kind
                        ));
                    }
                }
            });
        }
    });
    eprintln!(
        "{} pages, blocks: {:?}, {:.1} s",
        pages.len(),
        counts.lock().unwrap(),
        start.elapsed().as_secs_f64()
    );
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} blocks do not work as written:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every relative link and image of the pages leads to a file, and every `#anchor` to a
/// heading of its page.
#[test]
fn links_lead_somewhere() {
    let root = root();
    let mut broken = Vec::new();
    for page in page::pages(&root) {
        let text = std::fs::read_to_string(root.join(&page)).unwrap();
        let dir = page.parent().unwrap_or(Path::new(""));
        for (line, dest) in page::links(&text) {
            let (file, anchor) = dest.split_once('#').unwrap_or((&dest, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            let ok = match std::fs::read_to_string(root.join(&target)) {
                Err(_) => root.join(&target).exists() && anchor.is_empty(),
                Ok(text) => anchor.is_empty() || page::anchors(&text).iter().any(|a| a == anchor),
            };
            if !ok {
                broken.push(format!("{}:{line}: {dest}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn run_lines_are_read() {
    let code = "/// A ball.\n///\n/// Run: `sitc run ball.sit --dt 0.1 --t-end 2`\nmodel Ball {}\n";
    assert_eq!(run_line(code).unwrap(), ["--dt", "0.1", "--t-end", "2"]);
    assert_eq!(run_line("model M {}"), None);
}

/// A page whose blocks are each wrong in one way: every one is reported.
#[test]
fn wrong_blocks_are_reported() {
    let md = "```sh\nsitc check no_such_file.sit\n```\n\n\
              ```sh fails=1\nsitc check examples/models/hoop.sit\n```\n\n\
              ```sit\nmodel M { output real v; v = integral(-g); }\n```\n\n\
              ```sit error=E0102\nmodel M { output real v; v = integral(-g); }\n```\n\n\
              ```sit\n/// Run: `sitc run m.sit --dt 0`\nmodel M { output real x = 1; }\n```\n\n\
              ```toml\n[dependencies]\nsit-runtime = \"0.1\"\n```\n\n\
              ```toml\n[dependencies]\nsit-runtime = { path = \"../sit/codegen\" }\n```\n\n\
              ```toml\n[dependencies]\nsit-runtime = { path = \"../sit/runtime\", features = [\"fast\"] }\n```\n\n\
              ```toml\n[dependencies]\nsit-runtime = { git = \"https://example.org/other\" }\n```\n\n\
              ```sh\necho a,b > out.csv\n```\n\n```csv from=out.csv\na,c\n```\n";
    let blocks = page::parse(Path::new("wrong.md"), md).unwrap();
    assert_eq!(blocks.len(), 11);
    let root = root();
    let ws = toml_block::Workspace::read(&root);
    let mut sandbox = Sandbox::new(&root, Path::new(env!("CARGO_BIN_EXE_sitc")));
    for block in &blocks {
        let problem = run_block(block, &mut sandbox, &ws);
        // The `echo` block writes the file the wrong `csv` block is compared with.
        assert!(
            problem.is_some() || block.code.starts_with("echo"),
            "not reported: {}",
            block.code
        );
    }
    // And their right forms pass.
    let md = "```sh fails=2 error=E0101\nprintf 'model M { output real v; v = integral(-g); }' > m.sit\n\
              sitc check m.sit || exit 2\n```\n\n\
              ```sit error=E0101\nmodel M { output real v; v = integral(-g); }\n```\n\n\
              ```toml\n[dependencies]\nsit-runtime = { path = \"../sit/runtime\", features = [\"parallel\"] }\n```\n\n\
              ```csv from=out.csv\na,b\n```\n";
    for block in page::parse(Path::new("right.md"), md).unwrap() {
        assert_eq!(run_block(&block, &mut sandbox, &ws), None, "{}", block.code);
    }
}

#[test]
fn codes_are_read_from_diagnostics() {
    let (e, w) = codes("a.sit:1:2: error[E0101]: x\nb: warning[W0202]: y\nerror[E01]: z");
    assert_eq!(e.into_iter().collect::<Vec<_>>(), ["E0101"]);
    assert_eq!(w.into_iter().collect::<Vec<_>>(), ["W0202"]);
}
