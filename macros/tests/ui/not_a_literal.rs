sit_macros::include_model!(hoop);

fn main() {}
