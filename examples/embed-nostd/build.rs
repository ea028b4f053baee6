//! Compiles the hoop model into `OUT_DIR/hoop.rs`.

fn main() {
    sit_build::Builder::new().file("../models/hoop.sit").run();
}
