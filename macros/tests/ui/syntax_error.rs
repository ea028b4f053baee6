sit_macros::include_model!("../../../../macros/tests/ui/models/syntax.sit");

fn main() {}
