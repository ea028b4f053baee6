//! Files in memory: the library's models (`examples/`, embedded) and the page's own files.

use sit_middle::load::lexical;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Embeds the library files, each under its path below `examples/`.
macro_rules! library {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../../examples/", $path)))),*]
    };
}

/// The library: every model and schematic of `examples/models` and
/// `examples/schematics`, with the files they import or read (the components of
/// `examples/lib`), by path below `examples/`.
pub const LIBRARY: &[(&str, &str)] = library![
    "models/bouncing_ball.sit",
    "models/cart_limiters.sit",
    "models/cart_pendulum.sit",
    "models/conveyor.sit",
    "models/dahlquist.sit",
    "models/heat_rod.sit",
    "models/heat_rod_array.sit",
    "models/hires.sit",
    "models/hoop.sit",
    "models/hoop_drag.sit",
    "models/hoop_spin.sit",
    "models/pendulum.sit",
    "models/pendulum_elastic.sit",
    "models/rlc.sit",
    "models/rlc_equations.sit",
    "models/rlc_parts.sit",
    "models/dc_motor.sit",
    "models/diode_resistor.sit",
    "models/geared_inertias.sit",
    "models/heat_path.sit",
    "models/drive_axle_parts.sit",
    "models/robertson.sit",
    "models/stair.sit",
    "models/thermostat.sit",
    "models/traffic.sit",
    "models/traffic_light.sit",
    "models/van_der_pol.sit",
    "models/van_der_pol_scaled.sit",
    "models/vehicle.sit",
    "models/engine_torque.csv",
    "models/complex/coordinator.sit",
    "models/complex/positioning.sit",
    "models/complex/roll.sit",
    "models/complex/controller.sit",
    "models/painleve/rod.sit",
    "models/painleve/rod_compliant.sit",
    "models/painleve/rod_compliant_rodas4.sit",
    "models/painleve/fast_motion.sit",
    "models/painleve/fast_motion_relay.sit",
    "schematics/clutch.sch",
    "schematics/drive_axle.sch",
    "schematics/drive_axle_convoluted.sch",
    "schematics/drivetrain.sch",
    "schematics/axle_cruise.sit",
    "lib/electrical.sit",
    "lib/rotational.sit",
    "lib/translational.sit",
    "lib/thermal.sit",
];

/// A map from paths to texts: the library, then the files the page adds (which win).
#[derive(Debug, Clone, Default)]
pub struct Files {
    own: BTreeMap<PathBuf, String>,
}

impl Files {
    /// The library alone.
    pub fn new() -> Files {
        Files::default()
    }

    /// The library and the files of a JSON object `{"path": "text", ...}` (an empty
    /// string or `null` is no file). Error: the text is not such an object.
    pub fn from_json(json: &str) -> Result<Files, String> {
        let mut files = Files::new();
        if json.trim().is_empty() || json.trim() == "null" {
            return Ok(files);
        }
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("files: not JSON: {e}"))?;
        let object = value
            .as_object()
            .ok_or("files: expected an object of path: text")?;
        for (path, text) in object {
            let text = text
                .as_str()
                .ok_or_else(|| format!("files: the text of `{path}` is not a string"))?;
            files.add(path, text);
        }
        Ok(files)
    }

    /// Adds (or replaces) the file at `path`.
    pub fn add(&mut self, path: &str, text: &str) {
        self.own.insert(lexical(Path::new(path)), text.to_string());
    }

    /// The text of the file at `path` (`a/../b.sit` is `b.sit`), or `None`.
    pub fn text(&self, path: &str) -> Option<&str> {
        let path = lexical(Path::new(path));
        if let Some(text) = self.own.get(&path) {
            return Some(text);
        }
        LIBRARY
            .iter()
            .find(|(p, _)| Path::new(p) == path)
            .map(|(_, text)| *text)
    }

    /// Reads a file for the checker: its bytes, or `NotFound`.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let name = path.to_string_lossy();
        self.text(&name)
            .map(|t| t.as_bytes().to_vec())
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_every_example() {
        // Every `.sit`, `.sch` and `.csv` below examples/models, examples/schematics
        // and examples/lib.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut found = Vec::new();
        let mut dirs = vec![
            root.join("models"),
            root.join("schematics"),
            root.join("lib"),
        ];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "sit" || e == "sch" || e == "csv")
                {
                    let rel = path.strip_prefix(&root).unwrap();
                    found.push(rel.to_string_lossy().into_owned());
                }
            }
        }
        found.sort();
        let mut listed: Vec<String> = LIBRARY.iter().map(|(p, _)| p.to_string()).collect();
        listed.sort();
        assert_eq!(listed, found);
    }

    #[test]
    fn paths_are_normalised_and_own_files_win() {
        let mut files = Files::from_json(r#"{"models/hoop.sit": "model X {}"}"#).unwrap();
        assert_eq!(files.text("models/x/../hoop.sit"), Some("model X {}"));
        assert!(
            files
                .text("./schematics/clutch.sch")
                .unwrap()
                .contains("ClutchDrive")
        );
        assert!(files.read(Path::new("nowhere.sit")).is_err());
        files.add("a/b.sit", "model B {}");
        assert_eq!(files.text("a/./b.sit"), Some("model B {}"));
        assert!(Files::from_json("[1]").is_err());
        assert!(Files::from_json(r#"{"a": 1}"#).is_err());
    }
}
