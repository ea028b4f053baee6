sit_macros::include_model!("tests/ui/models/unknown_name.sit");

fn main() {}
