//! `sitc fmt`: rewrite `.sit` files in the canonical layout, or (`--check`) report those that differ.

use clap::Args;
use sit_middle::SourceMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `sitc fmt`.
#[derive(Args)]
pub struct FmtArgs {
    /// The `.sit` files, or folders (every `.sit` file below them); `-` formats
    /// standard input to standard output.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Change nothing: print a diff of each file that is not formatted, and exit 1
    /// if there is one.
    #[arg(long)]
    check: bool,
}

/// What happened to one file.
enum Outcome {
    Unchanged,
    Changed,
    /// Syntax errors, or not UTF-8 (reported).
    Invalid,
}

/// Run `sitc fmt`: exit 0 when every file is (now) formatted; 1 when a file has
/// syntax errors or, with `--check`, is not formatted; 2 for usage or I/O errors.
pub fn fmt(args: FmtArgs) -> ExitCode {
    let mut io_error = false;
    let mut invalid = false;
    let mut unformatted = Vec::new();
    for path in &args.paths {
        if path.as_os_str() == "-" {
            match stdin(args.check) {
                Ok(Outcome::Changed) => unformatted.push(PathBuf::from("<stdin>")),
                Ok(Outcome::Invalid) => invalid = true,
                Ok(Outcome::Unchanged) => {}
                Err(e) => {
                    eprintln!("error: cannot read standard input: {e}");
                    io_error = true;
                }
            }
            continue;
        }
        let files = if path.is_dir() {
            let found = sit_build::sit_files(path);
            if found.is_empty() {
                eprintln!("error: no `.sit` file under `{}`", path.display());
                io_error = true;
            }
            found
        } else {
            vec![path.clone()]
        };
        for file in files {
            match one(&file, args.check) {
                Ok(Outcome::Changed) => unformatted.push(file),
                Ok(Outcome::Invalid) => invalid = true,
                Ok(Outcome::Unchanged) => {}
                Err(e) => {
                    eprintln!("error: {e}");
                    io_error = true;
                }
            }
        }
    }
    if args.check && !unformatted.is_empty() {
        let n = unformatted.len();
        eprintln!(
            "{n} file{} not formatted (run `sitc fmt` on {}):",
            if n == 1 { " is" } else { "s are" },
            if n == 1 { "it" } else { "them" }
        );
        for f in &unformatted {
            eprintln!("  {}", f.display());
        }
    }
    if io_error {
        ExitCode::from(2)
    } else if invalid || (args.check && !unformatted.is_empty()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Format `text` (named `name` in messages); `None` after reporting its errors.
fn format(name: &Path, text: String) -> Option<(String, String)> {
    let mut sources = SourceMap::default();
    let id = sources.add(name, text);
    let text = &sources.file(id).text;
    match sit_fmt::format(id, text) {
        Ok(new) => Some((text.clone(), new)),
        Err(diags) => {
            eprint!("{}", sit_middle::diag::render_all(&diags, &sources));
            eprintln!("`{}` was not formatted", name.display());
            None
        }
    }
}

fn decode(name: &Path, bytes: Vec<u8>) -> Option<String> {
    match String::from_utf8(bytes) {
        Ok(s) => Some(s),
        Err(_) => {
            eprintln!(
                "error: `{}` is not valid UTF-8; it was not formatted",
                name.display()
            );
            None
        }
    }
}

fn one(path: &Path, check: bool) -> Result<Outcome, String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "cannot read `{}`: {}",
            path.display(),
            sit_middle::load::io_reason(&e)
        )
    })?;
    let Some(text) = decode(path, bytes) else {
        return Ok(Outcome::Invalid);
    };
    let Some((old, new)) = format(path, text) else {
        return Ok(Outcome::Invalid);
    };
    if old == new {
        return Ok(Outcome::Unchanged);
    }
    if check {
        crate::out::print(sit_fmt::diff(&path.display().to_string(), &old, &new));
    } else {
        std::fs::write(path, &new).map_err(|e| {
            format!(
                "cannot write `{}`: {}",
                path.display(),
                sit_middle::load::io_reason(&e)
            )
        })?;
    }
    Ok(Outcome::Changed)
}

fn stdin(check: bool) -> std::io::Result<Outcome> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes)?;
    let name = Path::new("<stdin>");
    let Some(text) = decode(name, bytes) else {
        return Ok(Outcome::Invalid);
    };
    let Some((old, new)) = format(name, text) else {
        return Ok(Outcome::Invalid);
    };
    if check {
        if old != new {
            crate::out::print(sit_fmt::diff("<stdin>", &old, &new));
        }
    } else {
        crate::out::print(&new);
    }
    Ok(if old == new {
        Outcome::Unchanged
    } else {
        Outcome::Changed
    })
}
