//! `include_model!`: compiles a `.sit` file into Rust items where the macro is invoked.
//!
//! ```ignore
//! mod hoop {
//!     sit_macros::include_model!("models/hoop.sit");
//! }
//! let mut h = hoop::Hoop::new();
//! h.step(1e-4);
//! ```
//!
//! The path is relative to the invoking crate's `CARGO_MANIFEST_DIR`. The expansion is
//! the code of `sit_build::compile_file` (every model of the file and its imports)
//! plus `const _: &str = include_str!("/abs/path.sit");` for every file read, so that
//! editing a model recompiles the crate. A model with errors expands to
//! `compile_error!("path:line:col: error[E0101]: ...")` with the rendered diagnostics;
//! the macro never panics.
//!
//! `include_model!("models/hoop.sit", batch)` also expands to the batch form of every
//! model (`HoopBatch<const N: usize>`, see `sit_build::Options::batch`);
//! `include_model!("models/ball.sit", method = rk4)` integrates every model with that
//! method, overriding their `method` declarations (`sit_build::Options::method`);
//! `include_model!("models/light.sit", events)` builds every model for the event log
//! (`sit_build::Options::events`): each model's struct gets `event_table()`, for
//! `sit_runtime::events::Logged::new(Light::new(), Light::event_table())`;
//! `include_model!("models/pendulum.sit", sensitivities = "L,g")` adds the forward
//! sensitivities of the root model to those params, variables `d(x)/d(L)`
//! (`sit_build::Options::sensitivities`, `docs/sensitivities.md`);
//! `include_model!("models/heater.sit", count_table_reach)` counts each table read
//! outside its grid (`sit_build::Options::count_table_reach`), read with
//! `sit_runtime::Model::table_reach`.

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use std::path::{Path, PathBuf};

/// Compiles the `.sit` file at the given path (relative to `CARGO_MANIFEST_DIR`) into
/// Rust items: one struct per model, with `new`, `step`, `reset`, `time`, public
/// fields and `impl sit_runtime::Model` (the calling crate depends on `sit-runtime`).
/// With an argument `batch`, also the batch form of every model; with `method = rk4`
/// (or `euler`), every model integrated by that method; with `events`, every model
/// built for the event log, with its `event_table()` (see `docs/events.md`); with
/// `count_table_reach`, counting each table read outside its grid.
#[proc_macro]
pub fn include_model(input: TokenStream) -> TokenStream {
    expand(input.into()).into()
}

/// The expansion, or a `compile_error!` spanned at the argument.
fn expand(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let Ok(Args {
        lit,
        batch,
        method,
        events,
        count_table_reach,
        sensitivities,
    }) = syn::parse2::<Args>(input)
    else {
        return error(
            Span::call_site(),
            "include_model! takes a string literal, the path of a .sit file relative to the crate's Cargo.toml, and optionally `batch`, `method = rk4`, `events`, `count_table_reach` and `sensitivities = \"k,c\"`, as in `include_model!(\"models/hoop.sit\")` or `include_model!(\"models/hoop.sit\", batch)`",
        );
    };
    let span = lit.span();
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return error(
            span,
            "CARGO_MANIFEST_DIR is not set: include_model! must be compiled by cargo",
        );
    };
    let root = PathBuf::from(root);
    let path = root.join(lit.value());
    let opts = sit_build::Options {
        batch,
        method,
        events,
        count_table_reach,
        front_end: sit_build::FrontEnd::Macro,
        sensitivities,
        ..Default::default()
    };
    match sit_build::compile_file_with(&path, &opts) {
        Ok(generated) => {
            let code: proc_macro2::TokenStream = match generated.code.parse() {
                Ok(c) => c,
                Err(e) => {
                    return error(
                        span,
                        &format!("internal error of sit-codegen, please report it: {e}"),
                    );
                }
            };
            let tracked = generated.files.iter().map(|f| {
                let abs = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
                let abs = abs.display().to_string();
                quote!(
                    const _: &str = include_str!(#abs);
                )
            });
            quote!(#code #(#tracked)*)
        }
        Err(e) => {
            // Keep the files tracked, so that fixing the model recompiles the crate.
            let files = e.files();
            let tracked = files.into_iter().filter(|f| f.exists()).map(|f| {
                let abs = std::fs::canonicalize(&f).unwrap_or(f);
                let abs = abs.display().to_string();
                quote!(
                    const _: &str = include_str!(#abs);
                )
            });
            let message = message(e, &root);
            let err = error(span, message.trim_end());
            quote!(#err #(#tracked)*)
        }
    }
}

/// The arguments: the path, then optionally `, batch`, `, method = NAME`, for
/// `dopri5` `, rtol = NUMBER` and `, atol = NUMBER`, `, events` and
/// `, count_table_reach` and `, sensitivities = "k,c"`, in any order.
struct Args {
    lit: syn::LitStr,
    batch: bool,
    method: Option<sit_middle::ir::Method>,
    events: bool,
    count_table_reach: bool,
    sensitivities: Vec<String>,
}

impl syn::parse::Parse for Args {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Args> {
        let lit = input.parse()?;
        let (mut batch, mut method, mut events) = (false, None, false);
        let mut count_table_reach = false;
        let mut sensitivities = Vec::new();
        let mut tol: [Option<(f64, proc_macro2::Span)>; 2] = [None, None];
        while input.parse::<Option<syn::Token![,]>>()?.is_some() && !input.is_empty() {
            let word: syn::Ident = input.parse()?;
            if word == "batch" {
                batch = true;
            } else if word == "events" {
                events = true;
            } else if word == "count_table_reach" {
                count_table_reach = true;
            } else if word == "sensitivities" {
                input.parse::<syn::Token![=]>()?;
                let names: syn::LitStr = input.parse()?;
                sensitivities = names
                    .value()
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect();
            } else if word == "method" {
                input.parse::<syn::Token![=]>()?;
                let name: syn::Ident = input.parse()?;
                let names = sit_middle::ir::Method::ALL.map(|m| m.name()).join("`, `");
                method = Some(
                    sit_middle::ir::Method::from_name(&name.to_string()).ok_or_else(|| {
                        syn::Error::new(name.span(), format!("expected one of `{names}`"))
                    })?,
                );
            } else if word == "rtol" || word == "atol" {
                input.parse::<syn::Token![=]>()?;
                let lit: syn::LitFloat = input.parse()?;
                let v: f64 = lit.base10_parse()?;
                if !(v.is_finite() && v > 0.0) {
                    return Err(syn::Error::new(lit.span(), "a tolerance must be > 0"));
                }
                tol[usize::from(word == "atol")] = Some((v, word.span()));
            } else {
                return Err(syn::Error::new(
                    word.span(),
                    "expected `batch`, `method = NAME`, `rtol = NUMBER`, `atol = NUMBER`, `events`, `count_table_reach` or `sensitivities = \"NAMES\"`",
                ));
            }
        }
        if !input.is_empty() {
            return Err(input.error("unexpected tokens"));
        }
        if let Some((_, span)) = tol.iter().flatten().next() {
            match method {
                Some(m) if m.tolerance().is_some() => {
                    method = Some(m.with_tolerance(tol[0].map(|t| t.0), tol[1].map(|t| t.0)));
                }
                _ => {
                    return Err(syn::Error::new(
                        *span,
                        "`rtol` and `atol` are tolerances of an adaptive method: add `method = dopri5`",
                    ));
                }
            }
        }
        Ok(Args {
            lit,
            batch,
            method,
            events,
            count_table_reach,
            sensitivities,
        })
    }
}

/// The message of an error, with the paths of the crate's files relative to the crate
/// (`root`), as the user wrote them in the macro's argument.
fn message(e: sit_build::Error, root: &Path) -> String {
    use sit_build::Error::Compile;
    use sit_driver::Error::{Model, Read};
    match e {
        Compile(Model(report)) => report.relative_to(root).render(),
        Compile(Read(read)) => sit_middle::ReadError {
            path: read
                .path
                .strip_prefix(root)
                .map_or_else(|_| read.path.clone(), Path::to_path_buf),
            ..read
        }
        .to_string(),
        other => other.to_string(),
    }
}

/// `compile_error!(message)` at `span`.
fn error(span: Span, message: &str) -> proc_macro2::TokenStream {
    syn::Error::new(span, message).to_compile_error()
}
