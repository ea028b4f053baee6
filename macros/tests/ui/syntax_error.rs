sit_macros::include_model!("tests/ui/models/syntax.sit");

fn main() {}
