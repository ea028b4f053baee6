//! `sit_fmt::format` on the example models and on random models: the library (and
//! the models of the README) is formatted, formatting is idempotent, keeps every token and comment in order,
//! and keeps the meaning (same checked IR, bit-identical trace).

use sit_middle::parse::{TokenKind, tokenize};
use sit_runtime::Model;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn examples() -> Vec<PathBuf> {
    let files = sit_codegen_free_walk(&repo().join("examples"));
    assert!(files.len() >= 18, "the example models are found");
    files
}

/// Every `.sit` file below `dir`, sorted.
fn sit_codegen_free_walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "sit") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn format(text: &str) -> String {
    sit_fmt::format(0, text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The tokens' texts (comments excluded) and the comments' texts, in order.
fn tokens_and_comments(text: &str) -> (Vec<String>, Vec<String>) {
    let toks = tokenize(0, text).expect("lexes");
    let mut words = Vec::new();
    let mut comments = Vec::new();
    let mut at = 0;
    for t in &toks {
        let gap = &text[at..t.start];
        comments.extend(gap_comments(gap));
        let s = &text[t.start..t.end];
        if t.kind == TokenKind::Doc {
            comments.push(s.trim_end().to_string());
        }
        words.push(s.trim_end().to_string());
        at = t.end;
    }
    comments.extend(gap_comments(&text[at..]));
    (words, comments)
}

/// The comments of a gap, each with the whitespace of its lines normalised.
fn gap_comments(gap: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = gap.trim_start();
    while !rest.is_empty() {
        let end = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else {
            // A block comment: the formatter only trims line ends inside it.
            let mut depth = 0;
            let b = rest.as_bytes();
            let mut i = 0;
            loop {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break i;
                    }
                } else {
                    i += 1;
                }
            }
        };
        let c: Vec<&str> = rest[..end].lines().map(str::trim_end).collect();
        out.push(c.join("\n"));
        rest = rest[end..].trim_start();
    }
    out
}

/// The IR of the file at `path` with `text` as its contents, line numbers removed.
fn ir(path: &Path, text: &str) -> String {
    let out = sit_middle::check_source(path, text);
    assert!(!out.has_errors(), "{}", out.render());
    let dump = out.program.expect("checked").dump();
    let mut s = String::with_capacity(dump.len());
    for line in dump.lines() {
        let cut = line.find("(line ").unwrap_or(line.len());
        s.push_str(&line[..cut]);
        s.push('\n');
    }
    s
}

/// 300 steps of the root model of `text`, every variable at every step, as bits.
fn trace(path: &Path, text: &str) -> Vec<u64> {
    let out = sit_middle::check_source(path, text);
    let program = out.program.expect("checked");
    // A file of components alone (`examples/lib`) has no model to run: its parts run
    // in the examples that import them.
    let Some(&root) = program.roots().last() else {
        return Vec::new();
    };
    let mut m = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    );
    let mut bits = Vec::new();
    for _ in 0..300 {
        // A model whose rates stay non-finite ends an adaptive method in a fault: the
        // formatted text must end in the same fault at the same time.
        if let Err(fault) = sit_runtime::catch_fault(|| m.step(1e-3)) {
            bits.extend([u64::MAX, fault.time.to_bits()]);
            break;
        }
        bits.extend(
            (0..m.var_count())
                .filter_map(|i| m.get_at(i))
                .map(f64::to_bits),
        );
    }
    bits
}

/// `words` (token texts) with each declaration group `KEYWORDS a = e, b;`
/// without doc comments or attributes written as `KEYWORDS a = e; KEYWORDS b;`
/// (a documented or attributed group stays as it is): what the formatter does,
/// written independently on token texts.
fn split_groups(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut lead: Vec<String> = Vec::new();
    let mut start = true;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let at = |k: usize| words.get(i + k).map_or("", String::as_str);
        let prefix = match (w, at(1)) {
            ("param", "real") | ("input" | "output", "real" | "flag") => 2,
            ("param" | "real" | "flag", _) => 1,
            _ => 0,
        };
        let is_decl = start
            && prefix > 0
            && at(prefix).chars().next().is_some_and(char::is_alphabetic)
            && matches!(at(prefix + 1), "=" | "," | ";");
        if start && (w.starts_with("///") || w == "#") {
            // A doc line, or an attribute up to its `]`.
            let end = if w == "#" {
                i + words[i..].iter().position(|x| x == "]").unwrap()
            } else {
                i
            };
            lead.extend(words[i..=end].iter().cloned());
            out.extend(words[i..=end].iter().cloned());
            i = end + 1;
            continue;
        }
        if is_decl && lead.is_empty() {
            let head: Vec<String> = words[i..i + prefix].to_vec();
            let mut depth = 0i32;
            out.extend(head.iter().cloned());
            i += prefix;
            loop {
                let w = words[i].as_str();
                i += 1;
                match w {
                    "(" | "[" => depth += 1,
                    ")" | "]" => depth -= 1,
                    _ => {}
                }
                if depth == 0 && w == "," {
                    out.push(";".into());
                    out.extend(lead.iter().cloned());
                    out.extend(head.iter().cloned());
                } else {
                    out.push(w.into());
                }
                if depth == 0 && w == ";" {
                    break;
                }
            }
            lead.clear();
            start = true;
            continue;
        }
        start = matches!(w, ";" | "{" | "}");
        if start {
            lead.clear();
        }
        out.push(w.into());
        i += 1;
    }
    out
}

/// The width lines are wrapped to.
const WIDTH: usize = 100;

/// Whether `line` (formatted) is longer than [`WIDTH`] and has a place after
/// its first token where it could be wrapped: a `, ` or a binary operator
/// between spaces, outside comments and strings.
fn breakable_beyond_width(line: &str) -> bool {
    if line.chars().count() <= WIDTH {
        return false;
    }
    let code = line.trim_start();
    if code.starts_with("//") || code.starts_with("/*") || code.starts_with("#[") {
        return false;
    }
    let code = code.split(" //").next().unwrap_or(code);
    if code.contains('"') || code.contains("/*") {
        return false;
    }
    let rest = code.split_once(' ').map_or("", |(_, r)| r);
    rest.contains(", ")
        || [
            " + ", " - ", " * ", " / ", " ^ ", " & ", " | ", " < ", " <= ", " > ", " >= ", " == ",
            " != ", " => ",
        ]
        .iter()
        .any(|op| rest.contains(op))
}

/// `text` with every statement on one line: each line break between two
/// tokens of a statement (no comment between them) replaced by a space.
fn joined(text: &str) -> String {
    let toks = tokenize(0, text).expect("lexes");
    let mut out = String::new();
    let mut at = 0;
    let mut prev = "";
    for t in &toks {
        let gap = &text[at..t.start];
        let s = &text[t.start..t.end];
        let ends = matches!(prev, "" | ";" | "{" | "}" | "]") || prev.starts_with("///");
        let starts = matches!(s, "}" | "#") || t.kind == TokenKind::Doc;
        if gap.contains('\n') && !gap.contains('/') && !ends && !starts {
            out.push(' ');
        } else {
            out.push_str(gap);
        }
        out.push_str(s);
        prev = s;
        at = t.end;
    }
    out.push_str(&text[at..]);
    out
}

#[test]
fn long_lines_are_wrapped_idempotently_keeping_meaning() {
    let mut wrapped = 0;
    for f in examples() {
        let text = joined(&std::fs::read_to_string(&f).unwrap());
        holds(&f, &text);
        wrapped += text.lines().filter(|l| l.len() > WIDTH).count();
    }
    let dir = std::env::temp_dir();
    for seed in 0..20 {
        let text = joined(&sit_synth::random_file(seed, sit_synth::Size::default()));
        let path = dir.join(format!("sit_fmt_joined_{seed}.sit"));
        holds(&path, &text);
        wrapped += text.lines().filter(|l| l.len() > WIDTH).count();
    }
    eprintln!("{wrapped} long lines");
    assert!(wrapped > 20, "there are long lines to wrap: {wrapped}");
}

/// The comments but the doc comments, which are tokens too (compared with
/// the tokens, copied to every item of a declaration group).
fn not_doc(comments: &[String]) -> Vec<String> {
    comments
        .iter()
        .filter(|c| !c.starts_with("///"))
        .cloned()
        .collect()
}

/// Formatting `text` keeps its tokens (declaration groups split, see
/// [`split_groups`]), its comments, its IR and its trace, and formatting again
/// changes nothing.
fn holds(path: &Path, text: &str) {
    let once = format(text);
    let twice = format(&once);
    assert_eq!(once, twice, "idempotent: {}", path.display());
    let (words, comments) = tokens_and_comments(text);
    let (words_once, comments_once) = tokens_and_comments(&once);
    assert_eq!(
        split_groups(&words),
        words_once,
        "same tokens: {}",
        path.display()
    );
    assert_eq!(
        not_doc(&comments),
        not_doc(&comments_once),
        "same comments: {}",
        path.display()
    );
    for line in once.lines() {
        assert!(
            !breakable_beyond_width(line),
            "a line longer than {WIDTH} columns that could be wrapped, in {}:\n{line}",
            path.display()
        );
    }
    // A file importing a schematic (`.sch`) checks only through `sit-schematic`; its
    // tokens are the same, and the schematic crate's tests run the model.
    if text.contains(".sch\"") {
        return;
    }
    assert_eq!(
        ir(path, text),
        ir(path, &once),
        "same IR: {}",
        path.display()
    );
    assert_eq!(
        trace(path, text),
        trace(path, &once),
        "same trace: {}",
        path.display()
    );
}

#[test]
fn the_example_models_are_formatted() {
    let mut unformatted = Vec::new();
    for f in examples() {
        let text = std::fs::read_to_string(&f).unwrap();
        if format(&text) != text {
            unformatted.push(f.display().to_string());
        }
    }
    assert!(
        unformatted.is_empty(),
        "run `sitc fmt examples/models` for: {unformatted:?}"
    );
}

/// The whole-file `sit` blocks of the README, the models a new user sees first
/// (`fragment` and `error=` blocks aside), with their line. The docs' blocks are not
/// held to the layout: many are one-line models, written to show one message or rule
/// in little room, and `docs/editors.md` shows `sitc fmt`'s input.
fn doc_models() -> Vec<(String, String)> {
    let pages = vec![repo().join("README.md")];
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(repo())
            .unwrap_or(&page)
            .display()
            .to_string();
        let mut lines = text.lines().enumerate();
        while let Some((i, line)) = lines.next() {
            let Some(info) = line.strip_prefix("```") else {
                continue;
            };
            let mut words = info.split_whitespace();
            let kind = words.next();
            let skip = words.any(|w| w == "fragment" || w.starts_with("error="));
            let mut block = String::new();
            for (_, l) in lines.by_ref() {
                if l.starts_with("```") {
                    break;
                }
                block.push_str(l);
                block.push('\n');
            }
            if kind == Some("sit") && !skip {
                out.push((format!("{name}:{}", i + 1), block));
            }
        }
    }
    out
}

#[test]
fn the_models_of_the_readme_are_formatted() {
    let models = doc_models();
    assert!(models.len() >= 2, "the README's models are found");
    let unformatted: Vec<&str> = (models.iter())
        .filter(|(_, text)| format(text) != *text)
        .map(|(at, _)| at.as_str())
        .collect();
    assert!(
        unformatted.is_empty(),
        "write these blocks as `sitc fmt` does: {unformatted:?}"
    );
}

#[test]
fn formatting_examples_is_idempotent_and_keeps_meaning() {
    for f in examples() {
        let text = std::fs::read_to_string(&f).unwrap();
        holds(&f, &text);
        // The same file with its layout spoiled: extra spaces and tabs between
        // tokens on a line, indentation removed, blank lines doubled.
        let spoiled = spoil(&text);
        holds(&f, &spoiled);
        assert_eq!(
            format(&spoiled),
            format(&text),
            "layout settled: {}",
            f.display()
        );
    }
}

#[test]
fn formatting_random_models_is_idempotent_and_keeps_meaning() {
    let dir = std::env::temp_dir();
    for seed in 0..40 {
        let text = sit_synth::random_file(seed, sit_synth::Size::default());
        let path = dir.join(format!("sit_fmt_random_{seed}.sit"));
        holds(&path, &text);
        holds(&path, &spoil(&text));
    }
}

/// `text` with its spacing changed where that cannot change tokens: every
/// space between tokens outside comments doubled, lines unindented, blank lines
/// doubled.
fn spoil(text: &str) -> String {
    let toks = tokenize(0, text).expect("lexes");
    let mut out = String::new();
    let mut at = 0;
    for t in &toks {
        let gap = &text[at..t.start];
        if gap.contains("/") {
            out.push_str(gap);
        } else if gap.contains('\n') {
            out.push_str(&gap.replace(' ', "").replace("\n\n", "\n\n\n"));
        } else {
            out.push_str(&gap.replace(' ', " \t "));
        }
        out.push_str(&text[t.start..t.end]);
        at = t.end;
    }
    out.push_str(&text[at..]);
    out
}

/// `text` with comments inserted between tokens, chosen by `seed`: line and
/// block comments, on the token's line or on lines of their own.
fn commented(text: &str, seed: u64) -> String {
    let toks = tokenize(0, text).expect("lexes");
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut out = String::new();
    let mut at = 0;
    for t in &toks {
        out.push_str(&text[at..t.start]);
        // A comment right after a `/` (`[m/s]`) would make `//` or `/*`: one space between.
        if out.ends_with('/') {
            out.push(' ');
        }
        // A doc comment must stay right before its declaration, and an array's `[`
        // right after its name (`T[N]`; with a space between, `[N]` is a unit).
        let index = at == t.start && &text[t.start..t.end] == "[";
        if t.kind != TokenKind::Doc && !index {
            match next() % 10 {
                0 => out.push_str("// line\n"),
                1 => out.push_str("/* block */ "),
                2 => out.push_str("\n    /* own\n       lines */\n"),
                3 => out.push_str(" // trailing\n\n\n"),
                _ => {}
            }
        }
        out.push_str(&text[t.start..t.end]);
        at = t.end;
    }
    out.push_str(&text[at..]);
    out
}

#[test]
fn comments_anywhere_are_kept_in_order() {
    for f in examples() {
        let text = std::fs::read_to_string(&f).unwrap();
        for seed in 0..3 {
            let c = commented(&text, seed);
            holds(&f, &c);
        }
    }
}

#[test]
fn syntax_errors_are_reported_not_formatted() {
    let err = sit_fmt::format(0, "model M {\n    real x = ;\n}\n").expect_err("refused");
    assert_eq!(err[0].code, "E0001");
    assert_eq!(err[0].message, "expected an expression, found `;`");
}

#[test]
fn tricky_layouts() {
    let cases = [
        (
            "comments_between_rules",
            "model M{real x=1;\n// before a rule\n\n\n   x=integral(-x);   // trailing\n/* block */ x = x;\n}",
        ),
        (
            "doc_comments_and_models",
            "/// The first.\nmodel A { /// A doc.\noutput real y=1; y=integral(-y); }\n// between\nmodel B{}\n/// The second.\nmodel C {sub a : A() off; real z; z = a.y;}",
        ),
        (
            "nested_blocks",
            "model M { real x; flag f; event e = x>1;\nwhen e {\nwhen x > 2 { x = 0; } // inner\n   x=x*2;\n}\nwhen e => !f, reset(s) ;  }",
        ),
        (
            "continuation_lines",
            "model M { real x = 1, y;\n y = max(x,\n  2 *x, -x ^ -2)\n    + 1; x = integral(\n-x\n);\n}",
        ),
        (
            "declaration_groups",
            "model M {\n/// Gains.\n#[allow(W0201, reason = \"spare\")]\nparam k = 1, m = max(k, 2), // m\n  n;\n\
             output real x = -k, /* y */ y;  // both\n input flag f, g; output pred p = f | g;\n\
             x = integral(-m * x); y = n;}",
        ),
        (
            "long_lines",
            "model M { param k = 1; real x = 1; real y; output real z; output real a_rather_long_name; flag f; flag g;\n\
             z = integral(-k * x + max(k * x * x - y * k / 3, min(y, k) + 2 * a_rather_long_name) - 1.0 * k + y * y); // why\n\
             when x > 1 & y < 2 | z >= 3 & a_rather_long_name <= 4 & x + y + z > 5 => f, !g, reset(x);\n\
             y = 123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890;\n\
             x = integral(a_rather_long_name * (k + a_rather_long_name * (k + a_rather_long_name * (k + a_rather_long_name * (k + x)))));\n\
             a_rather_long_name = y; }",
        ),
        (
            "units",
            "model M { param g [ m / s ^ 2 ]=9.81, k [kg·m^2] = 2;\noutput real h  [m]=10;input real u [%];\nreal w [ cm/s ], z\t[1/s]; w = integral(h * z) + 2[ m ]*z - ( 1 [cm/s] );\n\
             table heat(T[degC],p [ 1 ])[ W ]= [0, 1], [0,1] -> [[0,1], [2,3]] clamp; table q( x [K] ) from \"q.csv\" clamp;}",
        ),
        (
            "arrays",
            "model M { param N=4; real T[N][K]=[300+i for i in 1 : N], F [N];\nparam w[2,2] =1;\n\
             for i in 2:N - 1,j in 1 :2 {T[ i ]=integral(T[i-1]-2*T[ i ]+T[i +1]);}\nT[1]=F; T[N]=sum( w[i,j] for i in 1:2, j in 1:2);}",
        ),
        (
            "block_comments",
            "/* a /* nested */ header\n   spanning lines */\nmodel M { real x /* inline */ = 1; x = integral(-x); /* after */\n}",
        ),
    ];
    for (name, text) in cases {
        let once = sit_fmt::format(0, text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            sit_fmt::format(0, &once).unwrap(),
            once,
            "idempotent: {name}"
        );
        let (words, comments) = tokens_and_comments(text);
        let (words_once, comments_once) = tokens_and_comments(&once);
        assert_eq!(
            (split_groups(&words), not_doc(&comments)),
            (words_once, not_doc(&comments_once)),
            "tokens and comments: {name}"
        );
        insta::assert_snapshot!(name, once);
    }
}
