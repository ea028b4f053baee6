//! Bad input gets diagnostics, never a panic or a hang: thousands of random edits of
//! the example schematics (bytes deleted, duplicated, replaced by grid glyphs,
//! punctuation and keywords) are read, checked, and their models written.

const PIECES: &[&str] = &[
    "─", "│", "┌", "┘", "┼", "┤", ".", " ", "\n", "{", "}", "(", ")", ";", ",", "=", "+", "-",
    "J1", "T1i", "T2o", "D1", "pole", "weight", "at", "(4,4)", "grid", "clutch", "/*", "///", "é",
    "\r\n", "0", "1e999",
];

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len());
        match rng.below(3) {
            0 => {
                let n = rng.below(6).min(s.len() - at);
                s.drain(at..at + n);
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                for (k, c) in piece.chars().enumerate() {
                    s.insert(at + k, c);
                }
            }
            _ => {
                let end = (at + rng.below(20)).min(s.len());
                let copy: Vec<char> = s[at..end].to_vec();
                for (k, c) in copy.into_iter().enumerate() {
                    s.insert(end + k, c);
                }
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn random_edits_never_panic() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/schematics");
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut accepted = 0;
    for name in [
        "drive_axle.sch",
        "drivetrain.sch",
        "clutch.sch",
        "drive_axle_convoluted.sch",
    ] {
        let text = std::fs::read_to_string(format!("{root}/{name}")).unwrap();
        for _ in 0..600 {
            let edited = mutate(&text, &mut rng);
            let (found, report) = sit_schematic::analyse_source(name, &edited);
            let _ = report.render();
            let _ = report.to_json();
            if let Some(a) = found {
                accepted += 1;
                let _ = a.matrices().to_text();
                let _ = sit_schematic::svg::draw(&a);
                // The generated model, checked, with its diagnostics mapped back.
                let out = sit_driver::check_schematic(std::path::Path::new(name), &edited, None);
                let _ = out.render();
            } else {
                assert!(report.has_errors(), "rejected without an error:\n{edited}");
            }
        }
    }
    // Some edits keep the schematic valid (inside comments, spaces): those are written too.
    assert!(accepted > 0);
}
