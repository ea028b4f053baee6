//! Times the front end on each file given: `check_source` and rendering (what
//! `sitc check` does), the minimum of `REPS` runs, and each phase once.

use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable file");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut sources = sit_check::SourceMap::default();
        let id = sources.add(std::path::Path::new(&path), text.clone());
        let t = Instant::now();
        let parsed = sit_check::parse::parse_file(id, &text);
        let parse = ms(t);
        let (mut check, mut lint) = (0.0, 0.0);
        if let Ok(file) = parsed {
            let mut diags = Vec::new();
            let t = Instant::now();
            let program = sit_check::check::check(&[(id, file)], &sources, &mut diags);
            check = ms(t);
            let t = Instant::now();
            if let Some(p) = &program {
                sit_check::lint::lint(p, &mut diags);
            }
            lint = ms(t);
        }
        // The minimum of several runs (`REPS`, default 1): the machine may be busy.
        let reps: usize = std::env::var("REPS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(1);
        let mut total = f64::INFINITY;
        let mut out = None;
        for _ in 0..reps.max(1) {
            let t = Instant::now();
            let o = sit_check::check_bytes(path.as_ref(), bytes.clone(), &|p: &std::path::Path| {
                std::fs::read(p)
            });
            std::hint::black_box(o.render());
            total = total.min(ms(t));
            out = Some(o);
        }
        let out = out.expect("one run");
        let t = Instant::now();
        let rendered = out.render();
        let render = ms(t);
        println!(
            "{path}: {} bytes, check + render {total:.1} ms (one run: parse {parse:.1}, check {check:.1}, lint {lint:.1}), render {render:.1} ms, {} diagnostics, {} rendered bytes",
            text.len(),
            out.diagnostics.len(),
            rendered.len()
        );
    }
}
