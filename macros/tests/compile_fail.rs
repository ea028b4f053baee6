//! The errors of `include_model!`: model errors, a missing file and a bad argument
//! become `compile_error!` with the rendered diagnostic (expected text in `ui/*.stderr`).
//!
//! trybuild compiles each case in its own crate under `target/tests/trybuild/sit-macros`,
//! whose `CARGO_MANIFEST_DIR` is that folder, so the cases reach their `.sit` files
//! through `../../../../macros/tests/ui/models/` (the workspace's default target dir).

#[test]
fn macro_errors() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
