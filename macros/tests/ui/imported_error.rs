sit_macros::include_model!("../../../../macros/tests/ui/models/imports_broken.sit");

fn main() {}
