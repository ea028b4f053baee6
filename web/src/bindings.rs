//! The JavaScript API (wasm-bindgen): the crate's functions with strings of JSON in and out.
//!
//! `files` arguments are JSON objects of path: text (the page's own files, beside the
//! embedded library); traces come back as `Float64Array`s.

use crate::files::Files;
use crate::run::{Options, Run};
use std::sync::Mutex;
use wasm_bindgen::prelude::wasm_bindgen;

/// The message of the last panic (a model stopped by a limit); read after the trap.
static PANIC: Mutex<String> = Mutex::new(String::new());

/// Keeps the message of each panic for [`last_panic`] (a panic in WebAssembly aborts
/// the call with a trap whose own message says nothing).
#[wasm_bindgen]
pub fn set_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        // The message alone, as `sitc run` reports a fault of the model (a typed
        // `sit_runtime::ModelFault`, recognised by its type as every host does).
        let payload = info.payload();
        let message = (payload.downcast_ref::<sit_runtime::ModelFault>())
            .map(|f| f.to_string())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| info.to_string());
        if let Ok(mut last) = PANIC.lock() {
            *last = message;
        }
    }));
}

/// The message of the last panic, or an empty string.
#[wasm_bindgen]
pub fn last_panic() -> String {
    PANIC.lock().map(|m| m.clone()).unwrap_or_default()
}

/// The files of `json`, or an empty map when it is not a valid object.
fn files(json: &str) -> Result<Files, String> {
    Files::from_json(json)
}

/// [`crate::check`] as JSON.
#[wasm_bindgen]
pub fn check(path: &str, text: &str, files_json: &str) -> Result<String, String> {
    Ok(crate::check(path, text, &files(files_json)?).to_string())
}

/// [`crate::format`] as JSON.
#[wasm_bindgen]
pub fn format(path: &str, text: &str) -> String {
    crate::format(path, text).to_string()
}

/// [`crate::info`] as JSON (`model`: empty for the root).
#[wasm_bindgen]
pub fn info(path: &str, text: &str, files_json: &str, model: &str) -> Result<String, String> {
    let model = Some(model).filter(|m| !m.is_empty());
    Ok(crate::info(path, text, &files(files_json)?, model).to_string())
}

/// [`crate::schematic`] as JSON.
#[wasm_bindgen]
pub fn schematic(path: &str, text: &str) -> String {
    crate::schematic(path, text).to_string()
}

/// [`crate::library`] as JSON.
#[wasm_bindgen]
pub fn library() -> String {
    crate::library().to_string()
}

/// The text of a library file, or `undefined`.
#[wasm_bindgen]
pub fn library_file(path: &str) -> Option<String> {
    Files::new().text(path).map(str::to_string)
}

/// A run in progress (see [`Run`]).
#[wasm_bindgen]
pub struct Runner {
    run: Run,
}

#[wasm_bindgen]
impl Runner {
    /// Starts a run of the model; `options_json` overrides the options of its `Run:`
    /// line. Error: JSON `{"diagnostics": [...]}` or `{"message": "..."}`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        path: &str,
        text: &str,
        files_json: &str,
        options_json: &str,
    ) -> Result<Runner, String> {
        let message = |m: String| crate::run::StartError::Message(m).to_json().to_string();
        let files = files(files_json).map_err(message)?;
        let options =
            Options::from_json(options_json, Options::from_run_line(text)).map_err(message)?;
        let run = Run::start(path, text, &files, &options).map_err(|e| e.to_json().to_string())?;
        Ok(Runner { run })
    }

    /// Runs up to `max` more steps; whether the run is done.
    pub fn advance(&mut self, max: f64) -> bool {
        self.run.advance(max.max(0.0) as u64)
    }

    /// The steps run so far.
    pub fn done(&self) -> f64 {
        self.run.done() as f64
    }

    /// The steps of the whole run.
    pub fn steps(&self) -> f64 {
        self.run.steps() as f64
    }

    /// The times of the trace rows.
    pub fn times(&self) -> Vec<f64> {
        self.run.times().to_vec()
    }

    /// The trace of the `k`-th variable of [`Runner::variables`].
    pub fn trace(&self, k: usize) -> Vec<f64> {
        self.run.trace(k).to_vec()
    }

    /// The traced variables as JSON.
    pub fn variables(&mut self) -> String {
        self.run.variables().to_string()
    }

    /// `sitc run`'s header and last row for this run.
    pub fn finals(&mut self) -> String {
        self.run.finals()
    }

    /// `sitc run --every EVERY`'s CSV of the steps run so far.
    pub fn csv(&self) -> String {
        self.run.csv().to_string()
    }

    /// The event log as JSON.
    pub fn events(&self) -> String {
        self.run.events().to_string()
    }

    /// The model's warnings as JSON.
    pub fn warnings(&self) -> String {
        serde_json::Value::from(self.run.warnings().to_vec()).to_string()
    }
}

/// [`crate::highlight::highlight`] as JSON.
#[wasm_bindgen]
pub fn highlight(text: &str) -> String {
    crate::highlight::highlight(text).to_string()
}
