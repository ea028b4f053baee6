//! Shared input decoding of the fuzz targets: in-memory checking and grammar-aware inputs.

use sit_middle::Output;
use std::path::Path;

/// The one file that inputs may import (`import "lib.sit";`); every other import fails,
/// so that no fuzz input reads the file system.
const LIB: &str = "model Lib { param k = 1; input real u; output real y; y = lag(u, k); }\n";

/// Checks `bytes` as the file `fuzz.sit`, with imports served from memory only.
pub fn check(bytes: &[u8]) -> Output {
    sit_middle::check_bytes(Path::new("fuzz.sit"), bytes.to_vec(), &|p: &Path| {
        if p.file_name().is_some_and(|n| n == "lib.sit") {
            Ok(LIB.as_bytes().to_vec())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not in the fuzz file system",
            ))
        }
    })
}

/// A decoded input: the source text, and what the checker must say of it when the input
/// asks for a known invalid construct and no byte edit follows it.
pub struct Input {
    /// The source text.
    pub text: Vec<u8>,
    /// The text must be refused, with this code unless the text without the construct
    /// is refused too.
    pub must_refuse: Option<Refusal>,
}

/// An invalid construct written into a valid text.
pub struct Refusal {
    /// The error code that refuses it (`E0477`).
    pub code: &'static str,
    /// The text without it: where this is refused too (a random file with an algebraic
    /// loop that `sit_synth` could not break, E0476), the checker may stop before the
    /// construct's own check.
    pub without: Vec<u8>,
}

/// [`input`]'s text.
pub fn source(data: &[u8]) -> Vec<u8> {
    input(data).text
}

/// Source text from fuzz bytes, grammar-aware: the first byte chooses the mode. With an
/// even first byte the rest is the source as is; otherwise the next 8 bytes are a seed
/// and the first byte says what it seeds (issue 53 added the last two):
///
/// - `mode % 8 == 7`: `sit_synth::chain`, a chain of submodels 1 to 64 deep (the
///   generated code grew with the cube of the depth: 64 levels were 12 MB of Rust; now
///   0.5 MB, which `emit` generates and parses in half its timeout of a second);
/// - `mode % 8 == 5`: `sit_synth::random_file` with one of its unguarded top-level
///   `integral` rules written twice, which must be refused with E0477 (two continuous
///   rules on one state were accepted and gave answers that depended on the method);
/// - otherwise `sit_synth::random_file` (seed, model count, reals, rules from the next
///   bytes).
///
/// The remaining bytes are edits `(position, operation, byte)` applied to the text, so
/// the fuzzer explores the neighbourhood of valid models; one of them duplicates the
/// line at the position (a declaration, a rule, a submodel: two rates for one state).
pub fn input(data: &[u8]) -> Input {
    let Some((&mode, rest)) = data.split_first() else {
        return Input {
            text: Vec::new(),
            must_refuse: None,
        };
    };
    if mode % 2 == 0 {
        return Input {
            text: rest.to_vec(),
            must_refuse: None,
        };
    }
    let mut seed = [0u8; 8];
    let n = rest.len().min(8);
    seed[..n].copy_from_slice(&rest[..n]);
    let rest = &rest[n..];
    let at = |i: usize| rest.get(i).copied().unwrap_or(0) as usize;
    let size = sit_synth::Size {
        models: 1 + at(0) % 4,
        reals: 1 + at(1) % 6,
        rules: at(2) % 16,
    };
    let seed = u64::from_le_bytes(seed);
    let mut must_refuse = None;
    let mut text = match mode % 8 {
        7 => sit_synth::chain(1 + (seed % 64) as usize).into_bytes(),
        5 => {
            let text = sit_synth::random_file(seed, size);
            match twice(&text) {
                Some(twice) => {
                    must_refuse = Some(Refusal {
                        code: "E0477",
                        without: text.into_bytes(),
                    });
                    twice.into_bytes()
                }
                None => text.into_bytes(),
            }
        }
        _ => sit_synth::random_file(seed, size).into_bytes(),
    };
    let edits = rest.get(3..).unwrap_or(&[]);
    if edits.len() >= 4 {
        must_refuse = None;
    }
    for edit in edits.chunks_exact(4) {
        let len = text.len().max(1);
        let pos = (usize::from(edit[0]) << 8 | usize::from(edit[1])) % len;
        let byte = edit[3];
        match edit[2] % 6 {
            0 if pos < text.len() => text[pos] = byte,
            1 => text.insert(pos.min(text.len()), byte),
            2 if pos < text.len() => {
                text.remove(pos);
            }
            3 => {
                // Insert a token that the grammar knows, to reach deep checker paths.
                const TOKENS: &[&str] = &[
                    "when ",
                    "otherwise ",
                    "model ",
                    "sub ",
                    "param ",
                    "real ",
                    "flag ",
                    "event ",
                    "pred ",
                    "situation ",
                    "output ",
                    "input ",
                    "reset(",
                    ".on",
                    "integral(",
                    "deriv(",
                    "lag(",
                    "hysteresis(",
                    "/ 0",
                    "1e308",
                    "-0",
                    "NaN",
                    "{",
                    "}",
                    ";",
                    "(",
                    ")",
                    "=",
                    "==",
                    "<",
                    "&",
                    "|",
                    "!",
                    "time",
                    "dt",
                    "import \"lib.sit\";\n",
                    "\n",
                    "///",
                    "sqrt(-1)",
                    "^",
                    // Issue 53: `prev` (of flags and modes too) reached the lowering.
                    "prev(",
                    "step(",
                    "mode ",
                ];
                let token = TOKENS[usize::from(byte) % TOKENS.len()].as_bytes();
                let pos = pos.min(text.len());
                text.splice(pos..pos, token.iter().copied());
            }
            4 => {
                // Duplicate the line at `pos`: a declaration, a rule, a submodel twice.
                let pos = pos.min(text.len());
                let start = text[..pos]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = text[pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |i| pos + i + 1);
                let mut line = text[start..end].to_vec();
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                text.splice(end..end, line);
            }
            _ => {
                // Duplicate a short span (repeats declarations, rules, blocks).
                let end = (pos + usize::from(byte)).min(text.len());
                let span: Vec<u8> = text.get(pos..end).unwrap_or(&[]).to_vec();
                text.splice(end..end, span);
            }
        }
    }
    Input { text, must_refuse }
}

/// `text` with its first unguarded top-level `integral` rule written twice (as
/// `tests/tests/fuzz_loop.rs` does), or `None` when it has none.
fn twice(text: &str) -> Option<String> {
    let top = |l: &&str| l.starts_with("    ") && !l.starts_with("     ");
    let line = text
        .lines()
        .filter(top)
        .find(|l| l.contains("= integral(") && !l.contains("otherwise") && !l.contains(" when "))?;
    Some(text.replacen(line, &format!("{line}\n{line}"), 1))
}
