//! The WebAssembly exports: the crate's functions over linear memory, strings of JSON in and out.
//!
//! No glue generator: `web/site/sit_web.js` (about a hundred lines) calls these `extern "C"`
//! functions. A string argument is a pointer and a length into memory the page reserved
//! with [`sit_alloc`] (and gives back with [`sit_free`]); a function's text or numbers go
//! to one output buffer read through [`sit_out_ptr`] and [`sit_out_len`] until the next
//! call. A function that can fail returns 0 (done) or 1 (failed: the output holds the
//! error). `files` arguments are JSON objects of path: text (the page's own files, beside
//! the embedded library); traces are little-endian `f64`s.

use crate::files::Files;
use crate::run::{Options, Run};
use std::cell::RefCell;

thread_local! {
    /// The output of the last call.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The runs in progress, by handle − 1 (`None` once freed).
    static RUNNERS: RefCell<Vec<Option<Run>>> = const { RefCell::new(Vec::new()) };
    /// The message of the last panic (a model stopped by a limit); read after the trap.
    static PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Replaces the output with `bytes`.
fn put(bytes: impl Into<Vec<u8>>) {
    OUT.with(|o| *o.borrow_mut() = bytes.into());
}

/// Puts the text of `r` (its value or its error) and returns 0 or 1.
fn status(r: Result<String, String>) -> u32 {
    match r {
        Ok(text) => {
            put(text);
            0
        }
        Err(text) => {
            put(text);
            1
        }
    }
}

/// Puts `values` as little-endian `f64`s.
fn put_f64s(values: &[f64]) {
    put(values
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect::<Vec<u8>>());
}

/// The text at `ptr .. ptr + len` (invalid UTF-8 replaced).
///
/// # Safety
/// `ptr .. ptr + len` is memory from [`sit_alloc`] that the caller has not freed (or
/// `len` is 0).
unsafe fn text<'a>(ptr: *const u8, len: usize) -> std::borrow::Cow<'a, str> {
    if len == 0 {
        return "".into();
    }
    // SAFETY: the caller's contract.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` bytes for the page to write an argument into (give them back with [`sit_free`]).
#[unsafe(no_mangle)]
pub extern "C" fn sit_alloc(len: usize) -> *mut u8 {
    let mut bytes = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len.max(1)));
    bytes.as_mut_ptr()
}

/// Gives back memory from [`sit_alloc`].
///
/// # Safety
/// `ptr` came from `sit_alloc(len)` and is given back once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's contract: the allocation of `sit_alloc(len)`.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Where the output of the last call starts.
#[unsafe(no_mangle)]
pub extern "C" fn sit_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// The length of the output of the last call, in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn sit_out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// Keeps the message of each panic for [`sit_last_panic`] (a panic in WebAssembly aborts
/// the call with a trap whose own message says nothing).
#[unsafe(no_mangle)]
pub extern "C" fn sit_set_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        // The message alone, as `sitc run` reports a fault of the model (a typed
        // `sit_runtime::ModelFault`, recognised by its type as every host does).
        let payload = info.payload();
        let message = (payload.downcast_ref::<sit_runtime::ModelFault>())
            .map(|f| f.to_string())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| info.to_string());
        // A panic inside a borrow of PANIC cannot happen (nothing panics while it is
        // held), so the borrow succeeds.
        PANIC.with(|p| *p.borrow_mut() = message);
    }));
}

/// Output: the message of the last panic, or nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sit_last_panic() {
    put(PANIC.with(|p| p.borrow().clone()));
}

/// The files of `json`.
fn files(json: &str) -> Result<Files, String> {
    Files::from_json(json)
}

/// Output: [`crate::check`] as JSON; 1 when `files` is not a JSON object of strings.
///
/// # Safety
/// Each `(ptr, len)` pair is an argument written into memory from [`sit_alloc`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_check(
    path: *const u8,
    path_len: usize,
    src: *const u8,
    src_len: usize,
    files_json: *const u8,
    files_len: usize,
) -> u32 {
    // SAFETY: the caller's contract.
    let (path, src, files_json) = unsafe {
        (
            text(path, path_len),
            text(src, src_len),
            text(files_json, files_len),
        )
    };
    status(files(&files_json).map(|f| crate::check(&path, &src, &f).to_string()))
}

/// Output: [`crate::format`] as JSON.
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_format(
    path: *const u8,
    path_len: usize,
    src: *const u8,
    src_len: usize,
) {
    // SAFETY: the caller's contract.
    let (path, src) = unsafe { (text(path, path_len), text(src, src_len)) };
    put(crate::format(&path, &src).to_string());
}

/// Output: [`crate::info()`] as JSON (`model`: empty for the root); 1 as [`sit_check`].
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // four strings, each a pointer and a length
pub unsafe extern "C" fn sit_info(
    path: *const u8,
    path_len: usize,
    src: *const u8,
    src_len: usize,
    files_json: *const u8,
    files_len: usize,
    model: *const u8,
    model_len: usize,
) -> u32 {
    // SAFETY: the caller's contract.
    let (path, src, files_json, model) = unsafe {
        (
            text(path, path_len),
            text(src, src_len),
            text(files_json, files_len),
            text(model, model_len),
        )
    };
    let model = Some(&*model).filter(|m| !m.is_empty());
    status(files(&files_json).map(|f| crate::info(&path, &src, &f, model).to_string()))
}

/// Output: [`crate::schematic`] as JSON.
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_schematic(
    path: *const u8,
    path_len: usize,
    src: *const u8,
    src_len: usize,
) {
    // SAFETY: the caller's contract.
    let (path, src) = unsafe { (text(path, path_len), text(src, src_len)) };
    put(crate::schematic(&path, &src).to_string());
}

/// Output: the names of the integration methods, as JSON ([`crate::methods`]).
#[unsafe(no_mangle)]
pub extern "C" fn sit_methods() {
    put(crate::methods().to_string());
}

/// Output: [`crate::library`] as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn sit_library() {
    put(crate::library().to_string());
}

/// Output: the text of a library file; 1 (and no output) when there is none.
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_library_file(path: *const u8, path_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    let path = unsafe { text(path, path_len) };
    status(
        Files::new()
            .text(&path)
            .map(str::to_string)
            .ok_or_else(String::new),
    )
}

/// Output: [`crate::highlight::highlight`] as JSON.
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sit_highlight(src: *const u8, src_len: usize) {
    // SAFETY: the caller's contract.
    let src = unsafe { text(src, src_len) };
    put(crate::highlight::highlight(&src).to_string());
}

/// Starts a run of the model (see [`Run`]); `options` (JSON) overrides the options of
/// its `Run:` line. Returns the run's handle (≥ 1), or 0 with the error in the output:
/// JSON `{"diagnostics": [...]}` or `{"message": "..."}`.
///
/// # Safety
/// As [`sit_check`].
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // four strings, each a pointer and a length
pub unsafe extern "C" fn sit_run_start(
    path: *const u8,
    path_len: usize,
    src: *const u8,
    src_len: usize,
    files_json: *const u8,
    files_len: usize,
    options_json: *const u8,
    options_len: usize,
) -> u32 {
    // SAFETY: the caller's contract.
    let (path, src, files_json, options_json) = unsafe {
        (
            text(path, path_len),
            text(src, src_len),
            text(files_json, files_len),
            text(options_json, options_len),
        )
    };
    let message = |m: String| crate::run::StartError::Message(m).to_json().to_string();
    let started = files(&files_json).map_err(message).and_then(|files| {
        let options =
            Options::from_json(&options_json, Options::from_run_line(&src)).map_err(message)?;
        Run::start(&path, &src, &files, &options).map_err(|e| e.to_json().to_string())
    });
    match started {
        Ok(run) => RUNNERS.with(|r| {
            let mut runners = r.borrow_mut();
            runners.push(Some(run));
            runners.len() as u32
        }),
        Err(e) => {
            put(e);
            0
        }
    }
}

/// `f` of the run `handle`; `None` for a handle that is not a run in progress.
fn with_run<T>(handle: u32, f: impl FnOnce(&mut Run) -> T) -> Option<T> {
    RUNNERS.with(|r| {
        let mut runners = r.borrow_mut();
        let run = runners
            .get_mut((handle as usize).checked_sub(1)?)?
            .as_mut()?;
        Some(f(run))
    })
}

/// Runs up to `max` more steps of run `handle`: 1 when the run is done (or no run).
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_advance(handle: u32, max: f64) -> u32 {
    with_run(handle, |run| run.advance(max.max(0.0) as u64)).unwrap_or(true) as u32
}

/// The steps run so far.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_done(handle: u32) -> f64 {
    with_run(handle, |run| run.done() as f64).unwrap_or(0.0)
}

/// The steps of the whole run.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_steps(handle: u32) -> f64 {
    with_run(handle, |run| run.steps() as f64).unwrap_or(0.0)
}

/// Output: the times of the rows kept for the plot, from the `from`-th on (`f64`s).
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_times(handle: u32, from: usize) {
    put_f64s(&with_run(handle, |run| tail(run.times(), from)).unwrap_or_default());
}

/// Output: the lowest values of the `k`-th variable of [`sit_run_variables`] in the rows
/// kept, from the `from`-th on (`f64`s); with `high` (1), its highest values.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_trace(handle: u32, k: usize, high: u32, from: usize) {
    let values = with_run(handle, |run| {
        tail(
            if high != 0 {
                run.trace_high(k)
            } else {
                run.trace(k)
            },
            from,
        )
    });
    put_f64s(&values.unwrap_or_default());
}

/// The values of `all` from the `from`-th on.
fn tail(all: &[f64], from: usize) -> Vec<f64> {
    all.get(from..).unwrap_or_default().to_vec()
}

/// The trace rows each row kept for the plot stands for (see [`Run::stride`]).
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_stride(handle: u32) -> f64 {
    with_run(handle, |run| run.stride() as f64).unwrap_or(1.0)
}

/// Output: the traced variables as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_variables(handle: u32) {
    put(with_run(handle, |run| run.variables().to_string()).unwrap_or_default());
}

/// Output: `sitc run`'s header and last row for this run.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_finals(handle: u32) {
    put(with_run(handle, |run| run.finals()).unwrap_or_default());
}

/// Output: `sitc run --every EVERY`'s CSV from where the last call took it (see
/// [`Run::take_csv`]).
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_take_csv(handle: u32) {
    put(with_run(handle, |run| run.take_csv()).unwrap_or_default());
}

/// Output: at most `max` events of the log from the `from`-th on, as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_events(handle: u32, from: usize, max: usize) {
    put(with_run(handle, |run| run.events_since(from, max).to_string()).unwrap_or_default());
}

/// The events kept in the log so far.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_event_count(handle: u32) -> usize {
    with_run(handle, |run| run.event_count()).unwrap_or(0)
}

/// Output: `sitc run`'s warnings for the steps run so far (tables read past their
/// grids, models found stiff), as a JSON array of strings.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_notes(handle: u32) {
    put(with_run(handle, |run| {
        serde_json::Value::from(run.notes()).to_string()
    })
    .unwrap_or_default());
}

/// Output: why the run stopped before its end (the rule that made the first value that
/// is not finite, in `sitc run`'s words), or nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_fault(handle: u32) {
    put(with_run(handle, |run| run.fault().unwrap_or_default().to_string()).unwrap_or_default());
}

/// Output: the model's warnings as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_warnings(handle: u32) {
    put(with_run(handle, |run| {
        serde_json::Value::from(run.warnings().to_vec()).to_string()
    })
    .unwrap_or_default());
}

/// Ends run `handle` and frees what it holds.
#[unsafe(no_mangle)]
pub extern "C" fn sit_run_free(handle: u32) {
    RUNNERS.with(|r| {
        if let Some(slot) = (r.borrow_mut()).get_mut((handle as usize).wrapping_sub(1)) {
            *slot = None;
        }
    });
}

#[cfg(test)]
mod tests {
    //! The exports called as the page calls them, natively.
    use super::*;

    /// Writes `s` into memory from [`sit_alloc`] (the page's `TextEncoder` step).
    fn arg(s: &str) -> (*mut u8, usize) {
        let p = sit_alloc(s.len());
        // SAFETY: `p` has room for `s.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len()) };
        (p, s.len())
    }

    /// The output as text.
    fn out() -> String {
        // SAFETY: the output buffer is live until the next call.
        let bytes = unsafe { std::slice::from_raw_parts(sit_out_ptr(), sit_out_len()) };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    /// The output as `f64`s.
    fn out_f64s() -> Vec<f64> {
        let bytes = out_bytes();
        bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    fn out_bytes() -> Vec<u8> {
        // SAFETY: as in `out`.
        unsafe { std::slice::from_raw_parts(sit_out_ptr(), sit_out_len()) }.to_vec()
    }

    #[test]
    fn check_through_the_exports() {
        let (p, pl) = arg("ball.sit");
        let (s, sl) = arg("model Ball { output real h = 1; h = integral(-g); }");
        let (f, fl) = arg("{}");
        assert_eq!(unsafe { sit_check(p, pl, s, sl, f, fl) }, 0);
        let v: serde_json::Value = serde_json::from_str(&out()).unwrap();
        assert_eq!(v["diagnostics"][0]["code"], "E0101");
        let (bad, bl) = arg("[1]");
        assert_eq!(unsafe { sit_check(p, pl, s, sl, bad, bl) }, 1);
        assert!(!out().is_empty());
        unsafe {
            for (ptr, len) in [(p, pl), (s, sl), (f, fl), (bad, bl)] {
                sit_free(ptr, len);
            }
        }
    }

    #[test]
    fn a_run_through_the_exports() {
        let src = "model Fall { output real h = 10; h = integral(-1); }\n";
        let (p, pl) = arg("fall.sit");
        let (s, sl) = arg(src);
        let (f, fl) = arg("{}");
        let (o, ol) = arg(r#"{"dt": 0.5, "t_end": 2}"#);
        let handle = unsafe { sit_run_start(p, pl, s, sl, f, fl, o, ol) };
        assert!(handle >= 1, "{}", out());
        while sit_run_advance(handle, 1.0) == 0 {}
        assert_eq!(sit_run_done(handle), sit_run_steps(handle));
        sit_run_times(handle, 0);
        let times = out_f64s();
        assert_eq!(times.first(), Some(&0.0));
        sit_run_variables(handle);
        let vars: serde_json::Value = serde_json::from_str(&out()).unwrap();
        let k = (vars.as_array().unwrap().iter())
            .position(|v| v["name"] == "h")
            .unwrap();
        sit_run_trace(handle, k, 0, 0);
        let h = out_f64s();
        sit_run_trace(handle, k, 1, 0);
        assert_eq!(
            out_f64s(),
            h,
            "one trace row a kept row: lowest and highest the same"
        );
        sit_run_trace(handle, k, 0, 2);
        assert_eq!(out_f64s(), h[2..], "from the third on");
        sit_run_trace(handle, k, 0, 99);
        assert!(out_f64s().is_empty());
        assert_eq!(sit_run_stride(handle), 1.0);
        sit_run_take_csv(handle);
        assert_eq!(out(), "t,h\n0,10\n0.5,9.5\n1,9\n1.5,8.5\n2,8\n");
        sit_run_take_csv(handle);
        assert_eq!(out(), "", "taken");
        sit_run_finals(handle);
        assert_eq!(out(), "t,h\n2,8\n");
        assert_eq!(h.len(), times.len());
        // h = 10 − t, exactly (steps of 0.5).
        for (t, h) in times.iter().zip(&h) {
            assert_eq!(*h, 10.0 - t);
        }
        sit_run_free(handle);
        assert_eq!(sit_run_advance(handle, 1.0), 1);
        // An error: the output holds its JSON.
        let (bad, bl) = arg("model M { h = 1; }");
        assert_eq!(unsafe { sit_run_start(p, pl, bad, bl, f, fl, o, ol) }, 0);
        assert!(out().contains("diagnostics"), "{}", out());
    }
}
