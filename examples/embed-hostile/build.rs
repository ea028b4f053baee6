//! Generates the hostile models of `models/` into `OUT_DIR` (one file each).

fn main() {
    sit_codegen::Builder::new()
        .file("models/keywords.sit")
        .file("models/collisions.sit")
        .file("models/docs.sit")
        .run();
}
