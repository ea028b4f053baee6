//! Semantic tokens: each token of a document classified by what it is (keyword, model, parameter, variable, procedure, …), for editors that colour by meaning.

use crate::index::Sym;
use crate::text::Lines;
use crate::world::World;
use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};
use sit_middle::parse::TokenKind;

/// The token types, in the legend's order.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::TYPE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
];

/// The token modifiers, in the legend's order (bit `k` is the `k`th).
const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DOCUMENTATION,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

const DECLARATION: u32 = 1;
const READONLY: u32 = 2;
const DOCUMENTATION: u32 = 4;
const DEFAULT_LIBRARY: u32 = 8;

/// The legend announced in the server's capabilities.
pub(crate) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

/// The index of `t` in [`TYPES`].
fn ty(t: SemanticTokenType) -> u32 {
    TYPES.iter().position(|x| *x == t).unwrap_or(0) as u32
}

/// `textDocument/semanticTokens/full` for the main file of `world`.
pub(crate) fn tokens(world: &World) -> SemanticTokens {
    let ix = &world.main().index;
    let lines = Lines::new(&ix.text);
    let mut data = Vec::new();
    let (mut line, mut col) = (0u32, 0u32);
    for (i, t) in ix.tokens.iter().enumerate() {
        let Some((kind, mods)) = classify(world, i) else {
            continue;
        };
        let text = ix.tok(i).trim_end();
        // Tokens do not span lines (a doc comment ends at its line's end).
        let start = lines.position(t.start);
        let length = text.encode_utf16().count() as u32;
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - col
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: kind,
            token_modifiers_bitset: mods,
        });
        (line, col) = (start.line, start.character);
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}

/// The type and modifiers of token `i` of the main file, if it has one.
fn classify(world: &World, i: usize) -> Option<(u32, u32)> {
    let ix = &world.main().index;
    let t = ix.tokens[i];
    Some(match t.kind {
        TokenKind::Number => (ty(SemanticTokenType::NUMBER), 0),
        TokenKind::Str => (ty(SemanticTokenType::STRING), 0),
        TokenKind::Doc => (ty(SemanticTokenType::COMMENT), DOCUMENTATION),
        TokenKind::Punct(p)
            if !matches!(p, "(" | ")" | "{" | "}" | "[" | "]" | "," | ";" | ":" | ".") =>
        {
            (ty(SemanticTokenType::OPERATOR), 0)
        }
        TokenKind::Keyword(_) => (ty(SemanticTokenType::KEYWORD), 0),
        TokenKind::Ident => match ix.resolve(i)? {
            Sym::Model(name) => {
                let declared = world.model(&name).is_some_and(|(f, m)| {
                    std::ptr::eq(f, world.main()) && m.span == (t.start, t.end)
                });
                (
                    ty(SemanticTokenType::TYPE),
                    if declared { DECLARATION } else { 0 },
                )
            }
            Sym::Proc(_) => (ty(SemanticTokenType::FUNCTION), DEFAULT_LIBRARY),
            Sym::Builtin(_) => (ty(SemanticTokenType::VARIABLE), DEFAULT_LIBRARY | READONLY),
            Sym::Decl { model, name } => {
                let found = world
                    .model(&model)
                    .and_then(|(f, m)| Some((f, m.decl(&name)?)));
                let declared = found.is_some_and(|(f, d)| {
                    std::ptr::eq(f, world.main()) && d.span == (t.start, t.end)
                });
                let mut mods = if declared { DECLARATION } else { 0 };
                let member = i >= 1 && ix.tok(i - 1) == ".";
                let kind = match found.map(|(_, d)| d.role()) {
                    Some("param") => {
                        mods |= READONLY;
                        SemanticTokenType::PARAMETER
                    }
                    _ if member => SemanticTokenType::PROPERTY,
                    _ => SemanticTokenType::VARIABLE,
                };
                (ty(kind), mods)
            }
        },
        _ => return None,
    })
}
