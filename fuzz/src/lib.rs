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

/// Source text from fuzz bytes, grammar-aware: the first byte chooses the mode. With an
/// even first byte the rest is the source as is; otherwise the next bytes seed
/// `sit_synth::random_file` (seed, model count, reals, rules) and the remaining bytes
/// are edits `(position, operation, byte)` applied to the generated valid text, so the
/// fuzzer explores the neighbourhood of valid models.
pub fn source(data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return Vec::new();
    };
    if mode % 2 == 0 {
        return rest.to_vec();
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
    let mut text = sit_synth::random_file(u64::from_le_bytes(seed), size).into_bytes();
    for edit in rest.get(3..).unwrap_or(&[]).chunks_exact(4) {
        let len = text.len().max(1);
        let pos = (usize::from(edit[0]) << 8 | usize::from(edit[1])) % len;
        let byte = edit[3];
        match edit[2] % 5 {
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
                ];
                let token = TOKENS[usize::from(byte) % TOKENS.len()].as_bytes();
                let pos = pos.min(text.len());
                text.splice(pos..pos, token.iter().copied());
            }
            _ => {
                // Duplicate a short span (repeats declarations, rules, blocks).
                let end = (pos + usize::from(byte)).min(text.len());
                let span: Vec<u8> = text.get(pos..end).unwrap_or(&[]).to_vec();
                text.splice(end..end, span);
            }
        }
    }
    text
}
