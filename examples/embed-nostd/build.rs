//! Compiles the hoop model into `OUT_DIR/hoop.rs`.

fn main() {
    sit_codegen::Builder::new().file("../models/hoop.sit").run();
}
