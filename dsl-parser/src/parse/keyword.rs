//! The keywords of Sit: the one list of the words the lexer reads as keywords, which cannot name anything.
//!
//! Other words have a meaning only where the grammar expects them (`mode`,
//! `table`, `method`, `phase`, `substeps`, `run`, `from`, …): they are
//! names everywhere else, and the lexer reads them as names. The checker
//! (E0103), the formatter, the language server and the editor grammars
//! (tested in `lsp/tests/grammar.rs` and `lsp/tests/vim.rs`) read this list.

use std::fmt;

/// A keyword of Sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Keyword {
    /// `import "file.sit";`
    Import,
    /// `model Name { … }`
    Model,
    /// `param k = 1;`
    Param,
    /// `input real u;`
    Input,
    /// `output real y;`
    Output,
    /// `real x;`
    Real,
    /// `flag f;`
    Flag,
    /// `pred p = …;`
    Pred,
    /// `situation s = …;`
    Situation,
    /// `event e = …;`
    Event,
    /// `sub s: Model;`
    Sub,
    /// `sub s: Model off;`: a submodel switched off at the start.
    Off,
    /// `x = … when c;`, `when c { … }`, `when c => …;`
    When,
    /// `x = … otherwise;`
    Otherwise,
    /// `when c => reset(s);`
    Reset,
    /// The logical value true.
    True,
    /// The logical value false.
    False,
    /// The condition that always holds (`true` as a guard).
    Always,
}

/// What a keyword does, for the tools that colour, space or complete it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeywordClass {
    /// Brings in another file: `import`.
    Import,
    /// Declares a model: `model`.
    Model,
    /// Starts a declaration inside a model: `param`, `input`, `output`, `real`,
    /// `flag`, `pred`, `situation`, `event`, `sub`.
    Declaring,
    /// Modifies a declaration: `off`.
    Modifier,
    /// Guards a rule: `when`, `otherwise`.
    Guard,
    /// An action written like a call, `reset(s)`.
    Action,
    /// A logical value: `true`, `false`, `always`.
    Value,
}

impl Keyword {
    /// Every keyword.
    pub const ALL: [Keyword; 18] = [
        Keyword::Import,
        Keyword::Model,
        Keyword::Param,
        Keyword::Input,
        Keyword::Output,
        Keyword::Real,
        Keyword::Flag,
        Keyword::Pred,
        Keyword::Situation,
        Keyword::Event,
        Keyword::Sub,
        Keyword::Off,
        Keyword::When,
        Keyword::Otherwise,
        Keyword::Reset,
        Keyword::True,
        Keyword::False,
        Keyword::Always,
    ];

    /// The word as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            Keyword::Import => "import",
            Keyword::Model => "model",
            Keyword::Param => "param",
            Keyword::Input => "input",
            Keyword::Output => "output",
            Keyword::Real => "real",
            Keyword::Flag => "flag",
            Keyword::Pred => "pred",
            Keyword::Situation => "situation",
            Keyword::Event => "event",
            Keyword::Sub => "sub",
            Keyword::Off => "off",
            Keyword::When => "when",
            Keyword::Otherwise => "otherwise",
            Keyword::Reset => "reset",
            Keyword::True => "true",
            Keyword::False => "false",
            Keyword::Always => "always",
        }
    }

    /// The keyword written `word`, if it is one.
    pub fn from_name(word: &str) -> Option<Keyword> {
        Some(match word {
            "import" => Keyword::Import,
            "model" => Keyword::Model,
            "param" => Keyword::Param,
            "input" => Keyword::Input,
            "output" => Keyword::Output,
            "real" => Keyword::Real,
            "flag" => Keyword::Flag,
            "pred" => Keyword::Pred,
            "situation" => Keyword::Situation,
            "event" => Keyword::Event,
            "sub" => Keyword::Sub,
            "off" => Keyword::Off,
            "when" => Keyword::When,
            "otherwise" => Keyword::Otherwise,
            "reset" => Keyword::Reset,
            "true" => Keyword::True,
            "false" => Keyword::False,
            "always" => Keyword::Always,
            _ => return None,
        })
    }

    /// Whether `word` is a keyword.
    pub fn is_keyword(word: &str) -> bool {
        Keyword::from_name(word).is_some()
    }

    /// What it does.
    pub const fn class(self) -> KeywordClass {
        match self {
            Keyword::Import => KeywordClass::Import,
            Keyword::Model => KeywordClass::Model,
            Keyword::Param
            | Keyword::Input
            | Keyword::Output
            | Keyword::Real
            | Keyword::Flag
            | Keyword::Pred
            | Keyword::Situation
            | Keyword::Event
            | Keyword::Sub => KeywordClass::Declaring,
            Keyword::Off => KeywordClass::Modifier,
            Keyword::When | Keyword::Otherwise => KeywordClass::Guard,
            Keyword::Reset => KeywordClass::Action,
            Keyword::True | Keyword::False | Keyword::Always => KeywordClass::Value,
        }
    }

    /// Whether it starts a declaration inside a model (`param`, `output`, `sub`, …).
    pub const fn is_declaring(self) -> bool {
        matches!(self.class(), KeywordClass::Declaring)
    }

    /// Whether it is a value (`true`, `false`, `always`): an operator after it is binary.
    pub const fn is_value(self) -> bool {
        matches!(self.class(), KeywordClass::Value)
    }

    /// Whether it is written like a call, its `(` right after it (`reset(s)`).
    pub const fn is_call_like(self) -> bool {
        matches!(self.class(), KeywordClass::Action)
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Keyword;

    #[test]
    fn every_keyword_reads_back_from_its_word() {
        for k in Keyword::ALL {
            assert_eq!(Keyword::from_name(k.as_str()), Some(k));
        }
        let mut words: Vec<&str> = Keyword::ALL.iter().map(|k| k.as_str()).collect();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), Keyword::ALL.len());
        assert_eq!(Keyword::from_name("mode"), None, "a contextual word");
        assert_eq!(Keyword::from_name("When"), None);
    }

    #[test]
    fn the_lexer_reads_keywords_and_leaves_other_words_names() {
        use crate::parse::{TokenKind, tokenize};
        let text = "mode heater { off, on } sub s: M off; x = on_ when time;";
        let kinds: Vec<(&str, TokenKind)> = tokenize(0, text)
            .unwrap()
            .into_iter()
            .filter(|t| t.kind.is_word())
            .map(|t| (&text[t.start..t.end], t.kind))
            .collect();
        let keyword = |k| TokenKind::Keyword(k);
        assert_eq!(
            kinds,
            [
                ("mode", TokenKind::Ident),
                ("heater", TokenKind::Ident),
                ("off", keyword(Keyword::Off)),
                ("on", TokenKind::Ident),
                ("sub", keyword(Keyword::Sub)),
                ("s", TokenKind::Ident),
                ("M", TokenKind::Ident),
                ("off", keyword(Keyword::Off)),
                ("x", TokenKind::Ident),
                ("on_", TokenKind::Ident),
                ("when", keyword(Keyword::When)),
                ("time", TokenKind::Ident),
            ]
        );
    }
}
