//! The dispatch on the file kind, in one place: a `.sch` file checked as a schematic and then as the `.sit` model generated from it (spans mapped back into the drawing), and imports of `.sch` files read as their generated models.

use sit_middle::ir::Method;
use sit_middle::{Output, ReadError, Span};
use sit_schematic::{Form, as_model, is_schematic};
use std::path::Path;

/// Checks the file at `path`, `.sit` or `.sch`, every model integrated by `method` when
/// one is given.
pub(crate) fn check_path(path: &Path, method: Option<Method>) -> Result<Output, ReadError> {
    if !is_schematic(path) {
        let bytes = std::fs::read(path).map_err(|e| ReadError {
            path: path.to_path_buf(),
            reason: sit_middle::load::io_reason(&e),
        })?;
        return Ok(sit_middle::check_bytes_with(path, bytes, &read, method));
    }
    let text = sit_schematic::read_text(path)?;
    Ok(check_schematic_with(path, &text, None, method))
}

/// Reads an imported file from the file system: a `.sch` file is read as the `.sit`
/// model generated from it, so that a `.sit` file can `import "drive.sch";` and
/// instantiate the schematic's model as a submodel. A schematic with errors reads as
/// an I/O error whose reason is the rendered diagnostics.
pub(crate) fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    read_through(path, &|p: &Path| std::fs::read(p))
}

/// An imported file read by `bytes`, a `.sch` file as its generated model.
pub(crate) fn read_through(
    path: &Path,
    bytes: &sit_middle::load::ReadFn<'_>,
) -> std::io::Result<Vec<u8>> {
    let read = bytes(path)?;
    if is_schematic(path) {
        as_model(path, read)
    } else {
        Ok(read)
    }
}

/// Checks a schematic's text and the model generated from it in `form` (`sitc schematic
/// --check`).
pub fn check_schematic(path: &Path, text: &str, form: Option<Form>) -> Output {
    check_schematic_with(path, text, form, None)
}

/// [`check_schematic`], every model integrated by `method` when one is given.
pub(crate) fn check_schematic_with(
    path: &Path,
    text: &str,
    form: Option<Form>,
    method: Option<Method>,
) -> Output {
    let (a, report) = sit_schematic::analyse_source(path, text);
    let Some(a) = a else {
        return Output {
            program: None,
            diagnostics: report.diagnostics,
            sources: report.sources,
        };
    };
    let generated = a.to_sit(form);
    let sit_path = sit_schematic::generated_path(path);
    let generated_text = generated.text.clone().into_bytes();
    let mut out = sit_middle::check_bytes_with(&sit_path, generated_text, &read, method);
    // Map spans inside copied text back to the schematic.
    let sch = out.sources.add(path, text);
    let gen_file = out.sources.find(&sit_path).unwrap_or(0);
    let map = |span: Span| -> Span {
        if span.file != gen_file {
            return span;
        }
        for seg in &generated.segments {
            let len = seg.source.end - seg.source.start;
            if span.start >= seg.generated && span.end <= seg.generated + len {
                let off = span.start - seg.generated;
                return Span::new(
                    sch,
                    seg.source.start + off,
                    seg.source.start + off + (span.end - span.start),
                );
            }
        }
        span
    };
    for d in &mut out.diagnostics {
        d.span = map(d.span);
        for (s, _) in &mut d.related {
            *s = map(*s);
        }
    }
    out.diagnostics
        .extend(report.diagnostics.into_iter().map(|mut d| {
            d.span.file = sch;
            for (s, _) in &mut d.related {
                s.file = sch;
            }
            d
        }));
    out
}
