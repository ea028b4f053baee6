//! One declaration per statement: `real a = 1, b;` becomes `real a = 1;` and `real b;`.
//!
//! The parser reads a group `KEYWORDS item, item, …;` (for `param`,
//! `input`, `output real|flag`, `real` and `flag`) as one declaration per
//! item. Writing it that way keeps the meaning: each item gets a copy of the
//! group's keywords, and the `,` after an item becomes its `;`. Comments stay
//! where they were among the tokens (a comment after a `,` is now after a `;`),
//! except the `//` comment trailing a group written on one line, which is about
//! the whole group: it goes on a line of its own above the split declarations.
//!
//! A group with doc comments or `#[allow(…)]` attributes stays one group: its
//! doc describes the names together (`/// Position and velocity, m and m/s.`),
//! and copying it onto every name would repeat one sentence as many times as
//! there are names (the parser gives each name the group's doc and attributes
//! either way, so both layouts mean the same).

use crate::pieces::{Kind, Piece};
use sit_parser::parse::TokenKind;

/// The keywords that start a declaration group (`output` only before
/// `real` or `flag`, checked by [`prefix_len`]).
const STARTS: &[&str] = &["param", "input", "output", "real", "flag"];

/// `pieces` with every declaration group split into one declaration per item.
pub(crate) fn split<'a>(pieces: &[Piece<'a>]) -> Vec<Piece<'a>> {
    let mut out = Vec::with_capacity(pieces.len());
    let mut i = 0;
    // Token indices of the doc comments and attributes since the last
    // statement ended, and whether a statement starts at the next token.
    let mut lead: Vec<usize> = Vec::new();
    let mut at_start = true;
    while i < pieces.len() {
        let p = pieces[i];
        let Kind::Token(kind) = p.kind else {
            out.push(p);
            i += 1;
            continue;
        };
        if !at_start {
            out.push(p);
            at_start = matches!(p.text, ";" | "{" | "}");
            if at_start {
                lead.clear();
            }
            i += 1;
            continue;
        }
        if kind == TokenKind::Doc {
            lead.push(i);
            out.push(p);
            i += 1;
            continue;
        }
        if p.text == "#" {
            // An attribute `#[…]`, up to its closing `]`.
            let end = attribute_end(pieces, i);
            for (j, q) in pieces.iter().enumerate().take(end + 1).skip(i) {
                if matches!(q.kind, Kind::Token(_)) {
                    lead.push(j);
                }
                out.push(*q);
            }
            i = end + 1;
            continue;
        }
        if let Some(group) = group_at(pieces, i) {
            if lead.is_empty() {
                match trailing_comment(pieces, i, &group) {
                    // The comment of a group on one line describes the group: it
                    // goes on a line of its own above the split declarations.
                    Some(c) => {
                        out.push(Piece {
                            newlines: p.newlines.max(1),
                            spaced: p.spaced,
                            ..pieces[c]
                        });
                        let mut rest = pieces[..=group.end].to_vec();
                        rest[i].newlines = 1;
                        emit(&rest, &group, &mut out);
                        i = c + 1;
                        at_start = true;
                        lead.clear();
                        continue;
                    }
                    None => emit(pieces, &group, &mut out),
                }
            } else {
                out.extend_from_slice(&pieces[i..=group.end]);
            }
            i = group.end + 1;
            at_start = true;
            lead.clear();
            continue;
        }
        out.push(p);
        at_start = matches!(p.text, ";" | "{" | "}");
        if at_start {
            lead.clear();
        }
        i += 1;
    }
    out
}

/// A declaration group: its keyword tokens, its top-level commas and its `;`.
struct Group {
    /// Indices of the keyword tokens (`output real`, `param`, …).
    prefix: Vec<usize>,
    /// Indices of the commas between items.
    commas: Vec<usize>,
    /// Index of the closing `;`.
    end: usize,
}

/// The index of the `]` closing the attribute whose `#` is at `i` (or the
/// last piece).
fn attribute_end(pieces: &[Piece], i: usize) -> usize {
    let mut depth = 0usize;
    for (j, q) in pieces.iter().enumerate().skip(i + 1) {
        if let Kind::Token(TokenKind::Punct(s)) = q.kind {
            match s {
                "[" | "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                "]" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
        }
    }
    pieces.len() - 1
}

/// The token indices from `i` on (comments skipped).
fn tokens_from<'p>(pieces: &'p [Piece], i: usize) -> impl Iterator<Item = usize> + 'p {
    (i..pieces.len()).filter(|&j| matches!(pieces[j].kind, Kind::Token(_)))
}

/// How many keyword tokens start a variable declaration at the token
/// indices `toks` (0: not one): `param real?`, `input real|flag`,
/// `output real|flag`, `real`, `flag`, each followed by a name and then
/// `=`, `,` or `;` (so `real = x;`, a rule, is not one).
fn prefix_len(pieces: &[Piece], toks: &[usize]) -> usize {
    let text = |k: usize| toks.get(k).map_or("", |&j| pieces[j].text);
    let is_name = |k: usize| {
        toks.get(k)
            .is_some_and(|&j| matches!(pieces[j].kind, Kind::Token(k) if k.is_word()))
    };
    let n = match text(0) {
        "param" if text(1) == "real" => 2,
        "param" => 1,
        "input" | "output" if matches!(text(1), "real" | "flag") => 2,
        "real" | "flag" => 1,
        _ => return 0,
    };
    if is_name(n) && matches!(text(n + 1), "=" | "," | ";") {
        n
    } else {
        0
    }
}

/// The declaration group starting at the token `i`, if it is one with more
/// than one item.
fn group_at(pieces: &[Piece], i: usize) -> Option<Group> {
    if !STARTS.contains(&pieces[i].text) {
        return None;
    }
    let head: Vec<usize> = tokens_from(pieces, i).take(4).collect();
    let n = prefix_len(pieces, &head);
    if n == 0 {
        return None;
    }
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for j in tokens_from(pieces, head[n]) {
        match pieces[j].text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.checked_sub(1)?,
            "," if depth == 0 => commas.push(j),
            ";" if depth == 0 => {
                if commas.is_empty() {
                    return None;
                }
                return Some(Group {
                    prefix: head[..n].to_vec(),
                    commas,
                    end: j,
                });
            }
            _ => {}
        }
    }
    None
}

/// The index of the `//` comment that trails `group` (starting at `i`) on its line,
/// when the whole group is on that line and holds no comment: the comment is then
/// about the group, not about its last item.
fn trailing_comment(pieces: &[Piece], i: usize, group: &Group) -> Option<usize> {
    let inline = pieces[i + 1..=group.end]
        .iter()
        .all(|q| q.newlines == 0 && matches!(q.kind, Kind::Token(_)));
    let next = group.end + 1;
    let trails = pieces
        .get(next)
        .is_some_and(|c| c.kind == Kind::LineComment && c.newlines == 0);
    (inline && trails).then_some(next)
}

/// Write `group` (which has no doc comments or attributes) as one declaration
/// per item.
fn emit<'a>(pieces: &[Piece<'a>], group: &Group, out: &mut Vec<Piece<'a>>) {
    let first = group.prefix[0];
    // After a `,`, before the next item's name: block comments on the name's
    // line, which go after the copied head, right before the name.
    let mut between: Option<Vec<Piece<'a>>> = None;
    for (j, &p) in pieces.iter().enumerate().take(group.end + 1).skip(first) {
        if group.commas.contains(&j) {
            out.push(Piece {
                kind: Kind::Token(TokenKind::Punct(";")),
                text: ";",
                ..p
            });
            between = Some(Vec::new());
            continue;
        }
        let Some(before_name) = &mut between else {
            out.push(p);
            continue;
        };
        if p.kind == Kind::BlockComment && pieces.get(j + 1).is_some_and(|n| n.newlines == 0) {
            before_name.push(p);
            continue;
        }
        if !matches!(p.kind, Kind::Token(_)) {
            out.push(p);
            continue;
        }
        // The next item's name: the group's head goes before it.
        let inline = between.take().unwrap_or_default();
        let starts = inline.first().unwrap_or(&p).newlines.max(1);
        for (k, &h) in group.prefix.iter().enumerate() {
            let mut q = pieces[h];
            if k == 0 {
                q.newlines = starts;
                q.spaced = true;
            }
            out.push(q);
        }
        for c in inline.into_iter().chain([p]) {
            out.push(Piece {
                newlines: 0,
                spaced: true,
                ..c
            });
        }
    }
}

#[cfg(test)]
mod tests {
    /// The layout of `text` (which parses).
    fn fmt(text: &str) -> String {
        crate::format(0, text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn groups_become_one_declaration_per_line() {
        assert_eq!(
            fmt("model M{param real k=1,m=f(1,2);real a,b=k*(m+1),c;output flag f,g;}"),
            "model M {\n    param real k = 1;\n    param real m = f(1, 2);\n    real a;\n    \
             real b = k * (m + 1);\n    real c;\n    output flag f;\n    output flag g;\n}\n"
        );
    }

    #[test]
    fn documented_groups_stay_groups_comments_stay_in_place() {
        assert_eq!(
            fmt("model M {\nparam a = 1, // first\n  // about b\n  b;\n real x; x = a + b;\n}"),
            "model M {\n    param a = 1;  // first\n    // about b\n    param b;\n    \
             real x;\n    x = a + b;\n}\n"
        );
        // A doc comment or attribute describes the group: kept once, on the group.
        for lead in ["/// Gains.", "#[allow(W0201, reason = \"r\")]"] {
            let text = format!("model M {{\n    {lead}\n    param a = 1, b;\n    real x;\n}}\n");
            assert_eq!(fmt(&text), text);
        }
    }

    #[test]
    fn a_comment_trailing_a_group_on_one_line_goes_above_its_declarations() {
        assert_eq!(
            fmt("model M {\n    output real t_on = -1, t_off = -1; // last switching instants\n}"),
            "model M {\n    // last switching instants\n    output real t_on = -1;\n    \
             output real t_off = -1;\n}\n"
        );
        // A group over several lines keeps each comment with its item.
        assert_eq!(
            fmt("model M {\n    real a, // first\n        b; // second\n}"),
            "model M {\n    real a;  // first\n    real b;  // second\n}\n"
        );
    }

    #[test]
    fn rules_subs_modes_and_single_declarations_are_left_alone() {
        let text = "model A {\n    param k = 1;\n    output real y;\n    y = k;\n}\n\n\
                    model M {\n    real = 1;\n    sub a: A(k = 1, k = 2);\n    \
                    output mode m { p, q }\n    real x = max(1, 2);\n}\n";
        assert_eq!(fmt(text), text);
    }
}
