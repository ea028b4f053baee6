//! `include_model!` of a model with a lookup table read from a CSV file: the car of
//! `examples/models/vehicle.sit` compiled by the macro equals the interpreter loading
//! the same file, bit for bit, and the map is among the files the macro tracks.

use embed_macro::vehicle::Vehicle;
use sit_runtime::Model;

#[test]
fn the_macro_compiles_a_table_from_a_csv_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/vehicle.sit");
    let mut interp = sit_host::load_file(path, None)
        .map(|l| l.instance)
        .expect("the model checks");
    let mut compiled = Vehicle::new();
    assert_eq!(compiled.var_count(), interp.var_count());
    for k in 0..6000 {
        // The pedal sweeps beyond both ends of the map (clamped there).
        let pedal = -0.2 + 1.4 * (k as f64 / 6000.0);
        compiled.set("pedal", pedal).unwrap();
        interp.set("pedal", pedal).unwrap();
        compiled.step(0.01);
        interp.step(0.01);
        for i in 0..compiled.var_count() {
            let (a, b) = (compiled.get_at(i).unwrap(), interp.get_at(i).unwrap());
            assert_eq!(a.to_bits(), b.to_bits(), "variable #{i}, step {k}");
        }
    }
    assert!(compiled.get("v").unwrap() > 10.0);
}

#[test]
fn the_csv_file_is_tracked_like_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/vehicle.sit");
    let out = sit_middle::check_file(path).expect("readable");
    let files = out.files();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[1].ends_with("engine_torque.csv"), "{files:?}");
}
