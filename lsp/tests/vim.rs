//! The Vim and Neovim files of `editors/vim/`: the syntax file's word lists are the
//! checker's, every group it defines is linked to a highlight group, and Vim itself
//! (when installed) gives every token of every library model the group it should.

use sit_middle::parse::{Keyword, KeywordClass, TokenKind, tokenize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn vim_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vim")
}

fn syntax() -> String {
    std::fs::read_to_string(vim_dir().join("syntax/sit.vim")).unwrap()
}

/// The words of each `syn keyword GROUP word…` line, by group.
fn keyword_groups(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("syn") || words.next() != Some("keyword") {
            continue;
        }
        let group = words.next().unwrap().to_string();
        out.entry(group)
            .or_default()
            .extend(words.filter(|w| !w.contains('=')).map(str::to_string));
    }
    out
}

/// The procedures of the `sitProcedure` match, `\<\%(a\|b\)\ze\s*(`.
fn procedures(text: &str) -> BTreeSet<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with("syn match sitProcedure"))
        .expect("a sitProcedure match");
    let inner = &line[line.find(r"\%(").unwrap() + 3..line.find(r"\)\ze").unwrap()];
    inner.split(r"\|").map(str::to_string).collect()
}

/// The keyword groups, each highlighting the keywords of its classes.
const KEYWORD_GROUPS: &[(&str, &[KeywordClass])] = &[
    ("sitInclude", &[KeywordClass::Import]),
    ("sitConditional", &[KeywordClass::Guard]),
    ("sitStatement", &[KeywordClass::Action]),
    (
        "sitStorage",
        &[KeywordClass::Model, KeywordClass::Declaring],
    ),
    ("sitModifier", &[KeywordClass::Modifier]),
    ("sitBoolean", &[KeywordClass::Value]),
];

#[test]
fn the_syntax_file_knows_the_checkers_words() {
    let text = syntax();
    let groups = keyword_groups(&text);
    for (group, classes) in KEYWORD_GROUPS {
        let expected: BTreeSet<String> = Keyword::ALL
            .iter()
            .filter(|k| classes.contains(&k.class()))
            .map(|k| k.as_str().to_string())
            .collect();
        assert_eq!(groups[*group], expected, "the keywords of {group}");
    }
    let keywords: BTreeSet<String> = KEYWORD_GROUPS
        .iter()
        .flat_map(|(g, _)| groups[*g].iter().cloned())
        .collect();
    let expected: BTreeSet<String> = Keyword::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect();
    assert_eq!(keywords, expected, "the keywords are the lexer's");
    let count: usize = KEYWORD_GROUPS.iter().map(|(g, _)| groups[*g].len()).sum();
    assert_eq!(count, keywords.len(), "each keyword in one group");
    let builtins: BTreeSet<String> = sit_middle::check::RESERVED
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(groups["sitBuiltin"], builtins, "the built-in names");
    let mut procs: BTreeSet<String> = sit_middle::ir::Func::ALL
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    procs.extend(
        sit_middle::check::Stateful::ALL
            .iter()
            .map(|s| s.name().to_string()),
    );
    // The reductions `sum(e for i in 1:N)`, `prod(…)` (`min` and `max` are procedures).
    procs.extend(sit_middle::parse::REDUCTIONS.iter().map(|s| s.to_string()));
    assert_eq!(procedures(&text), procs, "the procedures are the checker's");
}

#[test]
fn every_group_is_defined_and_linked() {
    let text = syntax();
    let mut defined = BTreeSet::new();
    let mut linked = BTreeSet::new();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["syn", "keyword" | "match" | "region", group, ..] => {
                defined.insert(group.to_string());
            }
            ["hi", "def", "link", group, _] => {
                linked.insert(group.to_string());
            }
            _ => {}
        }
    }
    assert_eq!(defined, linked);
    let detect = std::fs::read_to_string(vim_dir().join("ftdetect/sit.vim")).unwrap();
    assert!(detect.contains("*.sit setfiletype sit"), "{detect}");
    let plugin = std::fs::read_to_string(vim_dir().join("ftplugin/sit.vim")).unwrap();
    assert!(plugin.contains(r"formatprg=sitc\ fmt\ -"), "{plugin}");
}

/// The Vim script writing, for every line of the buffer, the syntax group
/// of each byte ("-" for none) to `$SIT_OUT`.
const DUMP: &str = "function! SitDump() abort
  let out = []
  for lnum in range(1, line('$'))
    let names = []
    for c in range(1, len(getline(lnum)))
      let n = synIDattr(synID(lnum, c, 1), 'name')
      call add(names, n ==# '' ? '-' : n)
    endfor
    call add(out, join(names, ' '))
  endfor
  call writefile(out, $SIT_OUT)
endfunction
call SitDump()
";

/// The syntax group Vim gives each byte of the file `path`, or `None`
/// without a `vim` to run.
fn vim_groups(path: &Path, tmp: &Path) -> Option<Vec<String>> {
    let script = tmp.join("dump.vim");
    std::fs::write(&script, DUMP).unwrap();
    let out = tmp.join("groups.txt");
    let status = Command::new("vim")
        .args(["-Nu", "NONE", "-i", "NONE", "-es", "-c"])
        .arg(format!("set rtp^={}", vim_dir().display()))
        .args(["-c", "filetype plugin on", "-c", "syntax on", "-c"])
        .arg(format!("edit {}", path.display()))
        .arg("-c")
        .arg(format!("source {}", script.display()))
        .args(["-c", "qa!"])
        .env("SIT_OUT", &out)
        .stdin(std::process::Stdio::null())
        .status()
        .ok()?;
    assert!(status.success(), "vim on {}", path.display());
    let text = std::fs::read_to_string(&out).unwrap();
    let mut groups = Vec::new();
    for line in text.lines() {
        groups.extend(line.split(' ').filter(|s| !s.is_empty()).map(String::from));
        groups.push("\n".to_string());
    }
    Some(groups)
}

/// The byte ranges of the comments in `text` (gaps between tokens hold only
/// whitespace and comments), with whether each is a block comment.
fn comments(text: &str) -> Vec<(usize, usize, bool)> {
    let toks = tokenize(0, text).expect("lexes");
    let mut out = Vec::new();
    let mut at = 0;
    let ends = toks
        .iter()
        .map(|t| (t.start, t.end))
        .chain([(text.len(), text.len())]);
    for (start, end) in ends {
        let b = text.as_bytes();
        let mut i = at;
        while i < start {
            if b[i..].starts_with(b"//") {
                let e = text[i..start].find('\n').map_or(start, |p| i + p);
                out.push((i, e, false));
                i = e;
            } else if b[i..].starts_with(b"/*") {
                let mut depth = 0;
                let s = i;
                while i < start {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push((s, i, true));
            } else {
                i += 1;
            }
        }
        at = end;
    }
    out
}

/// Check the groups Vim gives the tokens and comments of `text` (the file
/// `path`); the mistakes, one per line.
fn check_groups(path: &Path, text: &str, groups: &[String]) -> Vec<String> {
    let kw = keyword_groups(&syntax());
    let group_of_word: BTreeMap<&str, &str> = kw
        .iter()
        .filter(|(g, _)| KEYWORD_GROUPS.iter().any(|(k, _)| k == g) || *g == "sitBuiltin")
        .flat_map(|(g, ws)| ws.iter().map(move |w| (w.as_str(), g.as_str())))
        .collect();
    let procs = procedures(&syntax());
    let mut bad = Vec::new();
    let mut want = |at: usize, ok: &[&str], what: &str| {
        let got = groups.get(at).map_or("?", String::as_str);
        if !ok.contains(&got) {
            let line = text[..at].matches('\n').count() + 1;
            bad.push(format!(
                "{}:{line}: {what}: {got}, expected {ok:?}",
                path.display()
            ));
        }
    };
    let toks = tokenize(0, text).expect("lexes");
    let mut attribute = false;
    for (k, t) in toks.iter().enumerate() {
        let s = &text[t.start..t.end];
        let next = toks.get(k + 1).map(|n| &text[n.start..n.end]);
        if s == "#" {
            attribute = true;
        }
        match t.kind {
            TokenKind::Doc => {
                for at in t.start..t.start + s.trim_end().len() {
                    want(at, &["sitDoc", "sitTodo"], s);
                }
            }
            TokenKind::Number => want(t.start, &["sitNumber"], s),
            TokenKind::Str => want(t.start, &["sitString"], s),
            TokenKind::Ident | TokenKind::Keyword(_) if attribute => {
                want(t.start, &["sitAttribute"], s)
            }
            TokenKind::Keyword(k) => {
                let group = KEYWORD_GROUPS
                    .iter()
                    .find(|(_, classes)| classes.contains(&k.class()))
                    .map_or("?", |(g, _)| g);
                want(t.start, &[group], s);
            }
            TokenKind::Ident => {
                if let Some(g) = group_of_word.get(s) {
                    want(t.start, &[g], s);
                } else if procs.contains(s) && next == Some("(") {
                    want(t.start, &["sitProcedure"], s);
                } else {
                    want(t.start, &["-", "sitModelName"], s);
                }
            }
            TokenKind::Punct(p) if !attribute => {
                let op = matches!(
                    p,
                    "=>" | "->"
                        | "=="
                        | "!="
                        | "<="
                        | ">="
                        | "<"
                        | ">"
                        | "="
                        | "!"
                        | "&"
                        | "|"
                        | "+"
                        | "-"
                        | "*"
                        | "/"
                        | "^"
                );
                want(t.start, if op { &["sitOperator"] } else { &["-"] }, s);
            }
            _ => {}
        }
        if attribute && s == "]" {
            attribute = false;
        }
    }
    for (start, end, block) in comments(text) {
        let ok: &[&str] = if block {
            &["sitBlockComment", "sitTodo"]
        } else {
            &["sitComment", "sitTodo"]
        };
        for at in start..end {
            if !text.as_bytes()[at].is_ascii_whitespace() {
                want(at, ok, &text[start..end]);
            }
        }
    }
    bad
}

/// Every `.sit` file below `dir`.
fn sit_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sit_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "sit") {
            out.push(p);
        }
    }
}

#[test]
fn vim_highlights_every_token_of_the_library_models() {
    let tmp = std::env::temp_dir().join(format!("sit_vim_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let tricky = tmp.join("tricky.sit");
    std::fs::write(
        &tricky,
        "/* a /* nested */ block\n   comment */\n//// not a doc\n/// A doc. TODO\n\
         model M { // trailing\n    #[allow(W0201, reason = \"a \\\"quoted\\\" reason\")]\n    \
         param k = 1.5e-3; real x2 = .5;\n    x2 = integral(-k * x2 ^ 2) /* inline */;\n    \
         when x2 <= 0 & time > 1 => reset(x2);\n}\n",
    )
    .unwrap();
    let mut files = vec![tricky];
    sit_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &mut files,
    );
    assert!(files.len() > 18, "the library models are found");
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Some(groups) = vim_groups(f, &tmp) else {
            eprintln!("vim is not installed: the highlighting itself is not checked");
            return;
        };
        // One entry per byte, "\n" for line ends: the same length as the text.
        assert_eq!(
            groups.len(),
            text.len() + usize::from(!text.ends_with('\n')),
            "{}",
            f.display()
        );
        bad.extend(check_groups(f, &text, &groups));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
