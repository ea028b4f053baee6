//! The VS Code extension of `editors/vscode/`: its JSON files are valid, the grammar's
//! keywords are the lexer's (`sit_middle::parse::Keyword`, each in the rule of its
//! class), its procedure and built-in lists are the checker's, and a small TextMate
//! tokenizer (line by line, begin/end rules on a stack, leftmost match first) gives
//! every library model a scope for every character, the right scope for every token,
//! and no scope left open.

use regex::Regex;
use serde_json::Value;
use sit_middle::parse::{Keyword, KeywordClass};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn vscode() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode")
}

fn json(name: &str) -> Value {
    let text = std::fs::read_to_string(vscode().join(name)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn grammar() -> Value {
    json("syntaxes/sit.tmLanguage.json")
}

#[test]
fn the_extension_declares_the_language_grammar_and_server() {
    let pkg = json("package.json");
    assert_eq!(pkg["contributes"]["languages"][0]["extensions"][0], ".sit");
    assert_eq!(pkg["contributes"]["grammars"][0]["scopeName"], "source.sit");
    let path = pkg["contributes"]["grammars"][0]["path"].as_str().unwrap();
    assert!(vscode().join(path).is_file());
    let config = pkg["contributes"]["languages"][0]["configuration"]
        .as_str()
        .unwrap();
    assert!(vscode().join(config).is_file());
    let conf = json("language-configuration.json");
    assert_eq!(conf["comments"]["lineComment"], "//");
    let main = std::fs::read_to_string(vscode().join("extension.js")).unwrap();
    assert!(main.contains(r#"args: ["lsp"]"#));
    assert_eq!(pkg["main"], "./extension.js");
    assert_eq!(grammar()["scopeName"], "source.sit");
}

/// The words of the alternation `\b(a|b|c)\b` in a rule's match.
fn words(rule: &Value) -> Vec<String> {
    let m = rule["match"].as_str().unwrap();
    let inner = &m[m.find('(').unwrap() + 1..m.find(')').unwrap()];
    inner.split('|').map(str::to_string).collect()
}

/// The scope the grammar gives a keyword of class `class`.
fn scope(class: KeywordClass) -> &'static str {
    match class {
        KeywordClass::Import | KeywordClass::Guard | KeywordClass::Action => "keyword.control",
        KeywordClass::Model | KeywordClass::Declaring => "storage.type",
        KeywordClass::Modifier => "storage.modifier",
        KeywordClass::Value => "constant.language",
    }
}

#[test]
fn the_grammar_knows_the_checkers_words() {
    let g = grammar();
    let mut keywords = BTreeSet::new();
    for rule in g["repository"]["keywords"]["patterns"].as_array().unwrap() {
        let name = rule["name"].as_str().unwrap();
        let words: BTreeSet<String> = words(rule).into_iter().collect();
        let expected: BTreeSet<String> = Keyword::ALL
            .iter()
            .filter(|k| format!("{}.sit", scope(k.class())) == name)
            .map(|k| k.as_str().to_string())
            .collect();
        assert_eq!(words, expected, "the keywords of {name}");
        keywords.extend(words);
    }
    let expected: BTreeSet<String> = Keyword::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect();
    assert_eq!(keywords, expected, "the grammar's keywords are the lexer's");
    let procs: BTreeSet<String> = words(&g["repository"]["procedures"]).into_iter().collect();
    let mut expected: BTreeSet<String> = sit_middle::ir::Func::ALL
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    expected.extend(
        sit_middle::check::Stateful::ALL
            .iter()
            .map(|s| s.name().to_string()),
    );
    // The reductions `sum(e for i in 1:N)`, `prod(…)` (`min` and `max` are procedures).
    expected.extend(sit_middle::parse::REDUCTIONS.iter().map(|s| s.to_string()));
    assert_eq!(
        procs, expected,
        "the grammar's procedures are the checker's"
    );
    let builtins: BTreeSet<String> = words(&g["repository"]["builtins"]).into_iter().collect();
    let expected: BTreeSet<String> = sit_middle::check::RESERVED
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(builtins, expected);
}

/// A grammar rule, compiled.
enum Rule {
    Match {
        re: Regex,
        name: Option<String>,
        captures: Vec<(usize, String)>,
    },
    Block {
        begin: Regex,
        end: Regex,
        name: String,
        patterns: Vec<Value>,
    },
}

/// The rules of `patterns`, includes expanded, in order.
fn rules(g: &Value, patterns: &[Value]) -> Vec<Rule> {
    let mut out = Vec::new();
    for p in patterns {
        if let Some(inc) = p["include"].as_str() {
            let r = &g["repository"][inc.trim_start_matches('#')];
            if r.get("patterns").is_some() && r.get("begin").is_none() {
                out.extend(rules(g, r["patterns"].as_array().unwrap()));
            } else {
                out.extend(rules(g, std::slice::from_ref(r)));
            }
        } else if let Some(m) = p["match"].as_str() {
            let captures = p["captures"]
                .as_object()
                .map(|c| {
                    c.iter()
                        .map(|(k, v)| (k.parse().unwrap(), v["name"].as_str().unwrap().to_string()))
                        .collect()
                })
                .unwrap_or_default();
            out.push(Rule::Match {
                re: Regex::new(m).unwrap_or_else(|e| panic!("{m}: {e}")),
                name: p["name"].as_str().map(str::to_string),
                captures,
            });
        } else if let Some(b) = p["begin"].as_str() {
            out.push(Rule::Block {
                begin: Regex::new(b).unwrap(),
                end: Regex::new(p["end"].as_str().unwrap()).unwrap(),
                name: p["name"].as_str().unwrap().to_string(),
                patterns: p["patterns"].as_array().cloned().unwrap_or_default(),
            });
        } else if let Some(ps) = p["patterns"].as_array() {
            out.extend(rules(g, ps));
        }
    }
    out
}

/// The scope of every byte of `text` ("" where none), and the scopes still
/// open at its end.
fn tokenize(g: &Value, text: &str) -> (Vec<String>, Vec<String>) {
    let root = g["patterns"].as_array().unwrap().clone();
    let mut scopes = vec![String::new(); text.len()];
    // Open blocks: (end, name, inner patterns).
    let mut stack: Vec<(Regex, String, Vec<Value>)> = Vec::new();
    let mut line_start = 0;
    // Compiled rules by the text of their patterns.
    let mut cache: std::collections::HashMap<String, std::rc::Rc<Vec<Rule>>> = Default::default();
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let mut pos = 0;
        while pos <= body.len() {
            let patterns = stack.last().map_or(root.clone(), |s| s.2.clone());
            let key = serde_json::to_string(&patterns).unwrap();
            let compiled = cache
                .entry(key)
                .or_insert_with(|| std::rc::Rc::new(rules(g, &patterns)))
                .clone();
            // The leftmost match; the end of the open block wins a tie.
            let mut best: Option<(usize, usize, Option<&Rule>)> = None;
            if let Some((end, _, _)) = stack.last()
                && let Some(m) = end.find_at(body, pos)
            {
                best = Some((m.start(), m.end(), None));
            }
            for r in compiled.iter() {
                let re = match r {
                    Rule::Match { re, .. } => re,
                    Rule::Block { begin, .. } => begin,
                };
                if let Some(m) = re.find_at(body, pos)
                    && best.is_none_or(|b| m.start() < b.0)
                {
                    best = Some((m.start(), m.end(), Some(r)));
                }
            }
            let Some((s, e, rule)) = best else { break };
            let inside = stack.last().map(|s| s.1.clone()).unwrap_or_default();
            for k in pos..s {
                scopes[line_start + k] = inside.clone();
            }
            match rule {
                None => {
                    for k in s..e {
                        scopes[line_start + k] = inside.clone();
                    }
                    stack.pop();
                }
                Some(Rule::Match { re, name, captures }) => {
                    for k in s..e {
                        scopes[line_start + k] = name.clone().unwrap_or_else(|| inside.clone());
                    }
                    if let Some(c) = re.captures_at(body, s) {
                        for (i, n) in captures {
                            if let Some(g) = c.get(*i) {
                                for k in g.start()..g.end() {
                                    scopes[line_start + k] = n.clone();
                                }
                            }
                        }
                    }
                }
                Some(Rule::Block {
                    end,
                    name,
                    patterns,
                    ..
                }) => {
                    for k in s..e {
                        scopes[line_start + k] = name.clone();
                    }
                    stack.push((end.clone(), name.clone(), patterns.clone()));
                }
            }
            pos = if e > s { e } else { e + 1 };
        }
        // A block open at the end of the line covers the rest of it.
        if let Some((_, name, _)) = stack.last() {
            for k in pos.min(body.len())..body.len() {
                scopes[line_start + k] = name.clone();
            }
        }
        line_start += line.len();
    }
    (scopes, stack.into_iter().map(|s| s.1).collect())
}

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

/// The scope a token of this kind and text must start with.
fn expected(kind: sit_middle::parse::TokenKind, text: &str) -> Option<&'static str> {
    use sit_middle::parse::TokenKind as K;
    Some(match kind {
        K::Doc => "comment.line.documentation",
        K::Str => "string.quoted",
        K::Number => "constant.numeric",
        K::Keyword(k) => scope(k.class()),
        K::Ident if sit_middle::check::RESERVED.contains(&text) => "variable.language",
        K::Ident => return None,
        K::Punct(p) if ["(", ")", "{", "}", "[", "]"].contains(&p) => "punctuation.bracket",
        K::Punct(";") => "punctuation.terminator",
        K::Punct("," | ":" | ".") => "punctuation.separator",
        K::Punct("#") => "punctuation.definition.attribute",
        K::Punct(_) => "keyword.operator",
        K::Unknown => return None,
    })
}

#[test]
fn the_grammar_scopes_every_library_model() {
    let g = grammar();
    let mut files = Vec::new();
    sit_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &mut files,
    );
    assert!(files.len() >= 18);
    // Tricky cases besides: nested block comments, strings with escapes.
    let extra = "/* a /* nested */\n still */ import \"a\\\"b.sit\";\nmodel M { real x = .5e-3; x = 1.; //// not a doc\n}\n";
    let mut texts: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read_to_string(f).unwrap()))
        .collect();
    texts.push(("extra".into(), extra.into()));
    for (name, text) in &texts {
        let (scopes, open) = tokenize(&g, text);
        assert!(open.is_empty(), "{name}: unmatched scopes {open:?}");
        for (i, c) in text.char_indices() {
            assert!(
                c.is_whitespace() || !scopes[i].is_empty(),
                "{name}: byte {i} ({c:?}) has no scope"
            );
        }
        for t in sit_middle::parse::tokenize(0, text).unwrap() {
            let word = &text[t.start..t.end];
            let scope = &scopes[t.start];
            if let Some(want) = expected(t.kind, word) {
                assert!(
                    scope.starts_with(want),
                    "{name}: `{word}` is {scope}, not {want}"
                );
            }
            if t.kind == sit_middle::parse::TokenKind::Ident
                && (sit_middle::ir::Func::from_name(word).is_some()
                    || sit_middle::check::Stateful::from_name(word).is_some())
                && text[t.end..].starts_with('(')
            {
                assert_eq!(scope, "support.function.sit", "{name}: `{word}`");
            }
        }
        // Comments are comments.
        for (i, _) in text.match_indices("// ") {
            if !text[..i].ends_with('/') && scopes[i].starts_with("string") {
                continue;
            }
            assert!(
                scopes[i].starts_with("comment"),
                "{name}: byte {i} is {}",
                scopes[i]
            );
        }
    }
}
