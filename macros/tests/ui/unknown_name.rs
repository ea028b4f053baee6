sit_macros::include_model!("../../../../macros/tests/ui/models/unknown_name.sit");

fn main() {}
