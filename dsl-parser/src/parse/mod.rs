//! Parsing: source text to the syntax tree, with limits and readable syntax errors.
//!
//! A hand-written lexer (`lexer`) and recursive-descent parser
//! (`parser`, `expr`) with one token of lookahead: no backtracking, so
//! parsing is linear in the file's length, and a syntax error is followed by
//! skipping to the end of its statement and going on, so one pass reports up
//! to [`MAX_SYNTAX_ERRORS`] errors. `docs/language.md` describes the
//! language; the doc comment of each parsing function gives the grammar
//! production it reads.

mod attr;
mod error;
mod expr;
mod foreign;
mod habits;
mod keyword;
mod lexer;
mod parser;
mod slips;
mod tokens;

pub use keyword::{Keyword, KeywordClass};
pub use parser::REDUCTIONS;
pub use tokens::{SourceToken, TokenKind, tokenize};

use crate::ast::File;
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// Deepest nesting of brackets and block comments accepted.
pub const MAX_NESTING: usize = 64;
/// Most operators in one expression.
pub const MAX_OPERATORS: usize = 1000;
/// Largest source file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;
/// Most syntax errors reported for one file.
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// Parse one file. `Err` holds its syntax errors (at least one, at most
/// [`MAX_SYNTAX_ERRORS`]), in source order.
pub fn parse_file(file: FileId, text: &str) -> Result<File, Vec<Diagnostic>> {
    if text.len() > MAX_FILE_BYTES {
        return Err(vec![Diagnostic::error(
            "E0003",
            Span::new(file, 0, 0),
            format!(
                "the file is too large ({} bytes; the limit is {} bytes)",
                text.len(),
                MAX_FILE_BYTES
            ),
        )]);
    }
    let lexed = lexer::lex(file, text).map_err(|d| vec![d])?;
    parser::Parser::new(file, text, lexed).file()
}

#[cfg(test)]
mod tests {
    use super::parse_file;
    use crate::ast::{Decl, Expr, ExprKind};

    /// The value of `x` in `model M { real x = EXPR; }`, fully bracketed.
    fn tree(expr: &str) -> String {
        fn show(e: &Expr) -> String {
            match &e.kind {
                ExprKind::Num(v) => format!("{v}"),
                ExprKind::Quantity(v, u) => format!("{v}[{}]", u.text),
                ExprKind::Bool(b) => format!("{b}"),
                ExprKind::Path(p) => p
                    .iter()
                    .map(|n| n.text.as_str())
                    .collect::<Vec<_>>()
                    .join("."),
                ExprKind::Call(n, args) => format!(
                    "{}({})",
                    n.text,
                    args.iter().map(show).collect::<Vec<_>>().join(", ")
                ),
                ExprKind::Neg(a) => format!("(-{})", show(a)),
                ExprKind::Not(a) => format!("(!{})", show(a)),
                ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
                ExprKind::Compare(first, rest) => {
                    let mut s = format!("({}", show(first));
                    for (op, x) in rest {
                        s += &format!(" {op:?} {}", show(x));
                    }
                    s + ")"
                }
                ExprKind::Paren(a) => format!("[{}]", show(a)),
                ExprKind::Index(path, ix) => format!(
                    "{}<{}>",
                    (path.iter().map(|n| n.text.as_str()))
                        .collect::<Vec<_>>()
                        .join("."),
                    ix.iter().map(show).collect::<Vec<_>>().join(", ")
                ),
                ExprKind::Reduce(n, g) => format!(
                    "{}({} for {})",
                    n.text,
                    show(&g.body),
                    (g.ranges.iter())
                        .map(|r| format!("{} in {}:{}", r.var.text, show(&r.from), show(&r.to)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
        let text = format!("model M {{ real x = {expr}; }}");
        let file = parse_file(0, &text).unwrap_or_else(|e| panic!("{expr}: {e:?}"));
        match &file.models[0].decls[0] {
            Decl::Var { value: Some(v), .. } => show(v),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn a_number_takes_the_unit_in_brackets_after_it() {
        assert_eq!(tree("v + 2 [m/s] * 3"), "(v + (2[m/s] * 3))");
        assert_eq!(tree("-9.81 [m/s^2]"), "(-9.81[m/s^2])");
        assert_eq!(tree("(1 [cm]) ^ 2"), "([1[cm]] ^ 2)");
        // Only a number takes a unit: a name followed by `[` is not an expression.
        assert!(parse_file(0, "model M { real x = v [m]; }").is_err());
        assert!(parse_file(0, "model M { real x = 2 [m; }").is_err());
    }

    #[test]
    fn cells_and_reductions() {
        assert_eq!(tree("T[i-1] + U[i, j+1]"), "(T<(i - 1)> + U<i, (j + 1)>)");
        assert_eq!(tree("sum(T[i] for i in 1:N)"), "sum(T<i> for i in 1:N)");
        assert_eq!(
            tree("max(U[i, j] for i in 2:N-1, j in 1:M) * 2"),
            "(max(U<i, j> for i in 2:(N - 1), j in 1:M) * 2)"
        );
        assert_eq!(tree("max(a, b)"), "max(a, b)");
        assert_eq!(tree("sum(a)"), "sum(a)");
    }

    #[test]
    fn arrays_and_loops() {
        use crate::ast::{ArrayInit, Rule};
        let text = "model M {\n  param N = 4;\n  real T[N] [K] = [i for i in 1:N], F [N];\n  \
                    param w[2, 2] = 1;\n  for i in 2:N-1, j in 1:2 { T[i] = integral(T[i-1]); }\n  \
                    T[1] = 0;\n  T[N] = 0;\n}\n";
        let m = &parse_file(0, text).expect("parses").models[0];
        assert_eq!(m.arrays.len(), 2);
        assert_eq!(m.arrays[0].name.text, "T");
        assert_eq!(
            m.arrays[0].unit.as_ref().map(|u| u.text.as_str()),
            Some("K")
        );
        assert!(matches!(
            m.arrays[0].init,
            Some(ArrayInit::Comprehension(_))
        ));
        assert_eq!(m.arrays[1].dims.len(), 2);
        // `F [N]` (a space) is a scalar with its unit, declared after `T`'s cells.
        assert_eq!(m.arrays[0].at, 1);
        assert!(matches!(&m.decls[1], Decl::Var { name, unit: Some(u), .. }
            if name.text == "F" && u.text == "N"));
        let Rule::For(f) = &m.rules[0] else {
            panic!("{:?}", m.rules[0])
        };
        assert_eq!(f.ranges.len(), 2);
        assert!(matches!(&f.rules[0], Rule::Assign { index, .. } if index.len() == 1));
        assert!(matches!(&m.rules[1], Rule::Assign { index, .. } if index.len() == 1));
        // `for` and `in` stay names elsewhere.
        assert!(parse_file(0, "model M { real for, in; for = in; }").is_ok());
        let rust = parse_file(0, "model M { for i in 2..N-1 { } }").expect_err("a Rust range");
        assert_eq!(
            rust[0].help.as_deref(),
            Some("write `2:N-1`: the values from `2` to `N-1`, both included")
        );
        for bad in [
            "model M { for i 1:3 { } }",
            "model M { for i in 1..3 { } }",
            "model M { real T[3 = 1; }",
            "model M { real x = sum(T[i] for i in 1:); }",
        ] {
            assert!(parse_file(0, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(tree("1 - 2 - 3"), "((1 - 2) - 3)");
        assert_eq!(tree("2 ^ 3 ^ 2"), "(2 ^ (3 ^ 2))");
        assert_eq!(tree("-a ^ 2"), "(-(a ^ 2))");
        assert_eq!(tree("-a * b"), "((-a) * b)");
        assert_eq!(tree("a ^ -b ^ c"), "(a ^ (-(b ^ c)))");
        assert_eq!(tree("a + b * c ^ d"), "(a + (b * (c ^ d)))");
        assert_eq!(tree("a | b & !c"), "(a | (b & (!c)))");
        assert_eq!(tree("a < b <= c + 1 & d"), "((a Lt b Le (c + 1)) & d)");
        assert_eq!(tree("(a < b) < c"), "([(a Lt b)] Lt c)");
        assert_eq!(tree("f(x, g(y),) + s.y"), "(f(x, g(y)) + s.y)");
        assert_eq!(tree("- - 1e-3 + .5 + 3."), "(((-(-0.001)) + 0.5) + 3)");
    }

    #[test]
    fn comments_nest_as_in_rust() {
        let ok = |t: &str| parse_file(0, t).is_ok();
        assert!(ok("/* a /* b */ c */ model M {}"));
        assert!(
            ok("/*/ */ model M {}"),
            "`/*/` opens; the `*` is not reused"
        );
        assert!(!ok("/*/ model M {}"));
        assert!(!ok("/* /* */ model M {}"));
        assert!(ok("//// not a doc\nmodel M {}"));
        assert!(ok("/// doc\nmodel M { /// doc\n real x; }"));
        assert!(
            !ok("model M { real x = 1 /// doc\n; }"),
            "a doc comment is not a comment"
        );
    }

    #[test]
    fn errors_are_reported_in_one_pass_and_recovery_ends() {
        let text = "model M {\n real x = 1\n real y = ;\n x = (1 + ;\n when x > 0 { y = ; }\n z = 2 ) ;\n}\n";
        let errors = parse_file(0, text).expect_err("syntax errors");
        let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "expected `;`, found `real`",
                "expected an expression, found `;`",
                "expected an expression, found `;`",
                "expected an expression, found `;`",
                "expected `;`, `otherwise`, `when` or an operator, found `)`",
            ]
        );
        // Garbage of every kind ends with at most the maximum of errors.
        let soup = "model { } ) ( ; ; when => ! reset( , . = == }".repeat(50);
        let errors = parse_file(0, &soup).expect_err("soup");
        assert!(errors.len() <= super::MAX_SYNTAX_ERRORS);
    }
}
