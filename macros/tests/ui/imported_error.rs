sit_macros::include_model!("tests/ui/models/imports_broken.sit");

fn main() {}
