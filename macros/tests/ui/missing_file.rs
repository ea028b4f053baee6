sit_macros::include_model!("tests/ui/models/no_such_file.sit");

fn main() {}
