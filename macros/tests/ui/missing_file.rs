sit_macros::include_model!("../../../../macros/tests/ui/models/no_such_file.sit");

fn main() {}
