//! The unit check's errors: how a conflict, a bad unit or a unit where none belongs is reported.

use super::show::{conversion, fmt_num, show_unit};
use super::solve::{Conflict, Origin, same_dimension};
use super::{Unit, UnitError};
use crate::Span;
use crate::ast::{DeclKind, UnitText};
use crate::diag::Diagnostic;

/// What every E0480 notes: the unit language in one line.
const UNIT_LANGUAGE: &str = "a unit is a product of names with integer powers: `m/s^2`, `kg*m^2`, `N*m`, `1/s`; the names are the SI units (`m kg s A K mol cd`), the derived ones (`N J W Pa Hz C V Ohm F H S Wb T L`), with a prefix (`G M k h da d c m u n p`), and `g min h rad deg degC % 1`";

/// E0485: a unit declared on a flag, pred, situation or event.
pub(super) fn unit_on_logic(u: &UnitText, kind: DeclKind, name: &str) -> Diagnostic {
    Diagnostic::error(
        "E0485",
        u.span,
        format!(
            "a unit on the {} `{name}`, which is not a real value",
            kind.describe()
        ),
    )
    .with_label("a logical value has no unit")
    .with_help("remove the brackets, or declare a `real`")
}

/// E0480: the unit text `u` of `whose` (e.g. "`v`", "the argument `T` of table `heat`") does not parse; `e` says where and why.
pub(super) fn not_a_unit(u: &UnitText, e: UnitError, whose: &str) -> Diagnostic {
    let at = u.source_offset(e.at).min(u.span.end);
    let end = (at + 1).min(u.span.end).max(at);
    Diagnostic::error(
        "E0480",
        Span::new(u.span.file, at, end),
        if u.text.trim().is_empty() {
            format!("the unit of {whose} is empty")
        } else {
            format!("the unit `{}` of {whose} is not a unit", u.text.trim())
        },
    )
    .with_label(e.message)
    .with_note(UNIT_LANGUAGE)
}

/// E0483: `what` has the unit `shown` where a plain number is needed; `origin` says
/// where that unit came from.
pub(super) fn not_plain(at: Span, what: &str, shown: &str, origin: Option<&Origin>) -> Diagnostic {
    let mut d = Diagnostic::error(
        "E0483",
        at,
        format!("{what} has the unit `{shown}`; it must be a plain number"),
    )
    .with_label(format!("`{shown}`"));
    if let Some(o) = origin
        && !within(o.span, at)
    {
        d = d.with_related(o.span, o.label.clone());
    }
    d.with_help(
        "divide it by a param of its unit (a scale, a reference value) to make it a plain number",
    )
}

/// E0481 (two dimensions) or E0482 (one dimension at two scales, with the factor, or a
/// Celsius temperature against a kelvin one) for `what` at `at`; the units shown as
/// `written` in the model where they were. `declared` are the declarations of the
/// variables read at `at` that declare a unit, each shown as a related label (once,
/// after where the two units came from).
pub(super) fn conflict(
    c: Conflict,
    at: Span,
    what: &str,
    written: &[(Unit, String)],
    declared: Vec<Origin>,
) -> Diagnostic {
    let show = |u: &Unit| show_unit(u, written);
    let (f, e) = (show(&c.found), show(&c.expected));
    let mut d = if same_dimension(&c.found, &c.expected) && c.found.offset == c.expected.offset {
        let factor = c.found.scale / c.expected.scale;
        let per = conversion(&c.expected, &c.found).unwrap_or_else(|| {
            let paren = |s: &str| {
                if s.contains(['*', '/']) {
                    format!("({s})")
                } else {
                    s.to_string()
                }
            };
            format!("{}/{}", paren(&e), paren(&f))
        });
        Diagnostic::error(
            "E0482",
            at,
            format!("{what}: `{f}` against `{e}`, the same dimension at another scale"),
        )
        .with_label(format!("`{f}`, where `{e}` is needed"))
        .with_help(format!(
            "1 {f} = {} {e}; units are never converted silently: multiply by a param declared `[{per}]` with the value {}",
            fmt_num(factor),
            fmt_num(factor)
        ))
    } else if same_dimension(&c.found, &c.expected) {
        Diagnostic::error(
            "E0482",
            at,
            format!("{what}: `{f}` against `{e}`, a Celsius temperature against a kelvin one"),
        )
        .with_label(format!("`{f}`, where `{e}` is needed"))
        .with_help(
            "0 degC is 273.15 K, and units are never converted silently: declare both temperatures in the same unit",
        )
    } else {
        Diagnostic::error("E0481", at, format!("{what}: `{f}` against `{e}`"))
            .with_label(format!("`{f}`, where `{e}` is needed"))
    };
    let origins = [c.expected_origin, c.found_origin].into_iter().flatten();
    for o in origins.chain(declared) {
        if !within(o.span, at) && !d.related.iter().any(|(s, _)| *s == o.span) {
            d = d.with_related(o.span, o.label);
        }
    }
    d
}

/// Whether `inner` lies within `outer`.
fn within(inner: Span, outer: Span) -> bool {
    inner.file == outer.file && inner.start >= outer.start && inner.end <= outer.end
}
