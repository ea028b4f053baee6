//! `include_model!("….sch")`: the clutch drawn as a schematic, compiled by the macro,
//! against the interpreter loading the same drawing, bit for bit.

use embed_macro::clutch::ClutchDrive;
use sit_runtime::Model;

#[test]
fn the_macro_compiles_a_schematic() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../schematics/clutch.sch");
    let mut interp = sit_host::load_file(path, None)
        .map(|l| l.instance)
        .expect("the drawing checks");
    let mut compiled = ClutchDrive::new();
    assert_eq!(compiled.var_count(), interp.var_count());
    for _ in 0..20_000 {
        compiled.step(1e-4);
        interp.step(1e-4);
    }
    for i in 0..compiled.var_count() {
        let (a, b) = (compiled.get_at(i).unwrap(), interp.get_at(i).unwrap());
        assert_eq!(a.to_bits(), b.to_bits(), "variable #{i}");
    }
}
