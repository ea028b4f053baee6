//! Generates the hostile models of `models/` into `OUT_DIR` (one file each), with their
//! batch forms, so that those meet the hostile names too.

fn main() {
    sit_build::Builder::new()
        .file("models/keywords.sit")
        .file("models/collisions.sit")
        .file("models/docs.sit")
        .file("models/modes.sit")
        .batch(true)
        .run();
}
