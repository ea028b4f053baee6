//! The C boundary of the FMU: raw pointers from the FMI 2.0 API to safe [`Instance`] calls.
//!
//! This is the crate's only `unsafe` code (see `allow(unsafe_code)` in `lib.rs`): an FMU is
//! a C library, so its functions receive raw pointers. Every function here checks the
//! pointers it can check (null, the instance's tag, array lengths) before turning them
//! into references, catches panics (a panic must not unwind into C) and hands over to the
//! safe [`Instance`]. What cannot be checked is the FMI contract itself: a non-null
//! pointer must come from this FMU (`fmi2Instantiate`, `fmi2GetFMUstate`) and not be
//! freed, and arrays must have the length the caller says.
//!
//! The exported `extern "C"` symbols are generated in the FMU crate by
//! [`export_fmu!`](crate::export_fmu), since `#[no_mangle]` functions must be defined in
//! the cdylib itself; each is one call of the generic function of the same name here.

use crate::instance::{Fmu, Instance, Logger, Snapshot, Status};
use crate::state::State;
use sit_runtime::Model;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// `fmi2Component`.
pub type Component = *mut c_void;
/// `fmi2FMUstate`.
pub type FmuState = *mut c_void;

/// The `fmi2CallbackLogger` type (a C variadic function: the message is a format string).
pub type LoggerFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char, ...);

/// `fmi2CallbackFunctions`, as laid out by `fmi2FunctionTypes.h`.
#[repr(C)]
pub struct CallbackFunctions {
    /// `logger`.
    pub logger: Option<LoggerFn>,
    /// `allocateMemory` (not used: memory comes from Rust's allocator).
    pub allocate_memory: Option<unsafe extern "C" fn(usize, usize) -> *mut c_void>,
    /// `freeMemory` (not used).
    pub free_memory: Option<unsafe extern "C" fn(*mut c_void)>,
    /// `stepFinished` (not used: `doStep` is synchronous).
    pub step_finished: Option<unsafe extern "C" fn(*mut c_void, c_int)>,
    /// `componentEnvironment`, passed back to the logger.
    pub component_environment: *mut c_void,
}

/// `fmi2GetTypesPlatform`.
pub const TYPES_PLATFORM: &CStr = c"default";
/// `fmi2GetVersion`.
pub const VERSION: &CStr = c"2.0";

const TAG: u64 = 0x5349_545f_464d_4932; // "SIT_FMI2"
const FREED: u64 = 0;

/// What an `fmi2Component` points to: a tag, to detect some foreign or freed pointers,
/// and the instance.
struct Slot<M> {
    tag: u64,
    instance: Instance<M>,
}

/// Text for C: `%` doubled (the logger's message is a format string), NULs dropped.
fn c_text(text: &str) -> CString {
    let escaped: String = text.replace('%', "%%").replace('\0', "");
    CString::new(escaped).unwrap_or_default()
}

/// The logger calling the importer's callback.
fn logger(functions: &CallbackFunctions, name: &str) -> Logger {
    let (log, env) = (functions.logger, functions.component_environment);
    let name = c_text(name);
    Box::new(move |status: Status, category: &str, message: &str| {
        if let Some(log) = log {
            let (category, message) = (c_text(category), c_text(message));
            // SAFETY: the importer's logger, called with the environment it gave and
            // NUL-terminated strings that live until it returns; no variadic arguments,
            // since `%` in the message is escaped.
            unsafe {
                log(
                    env,
                    name.as_ptr(),
                    status as c_int,
                    category.as_ptr(),
                    message.as_ptr(),
                )
            };
        }
    })
}

/// A C string argument as `&str`, `None` for null or invalid UTF-8.
///
/// # Safety
/// `s` is null or a NUL-terminated string that outlives `'a`.
unsafe fn text<'a>(s: *const c_char) -> Option<&'a str> {
    if s.is_null() {
        return None;
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(s) }.to_str().ok()
}

/// `fmi2Instantiate`: a new instance, or null (with a log message when the logger is
/// known) for a wrong GUID, a model-exchange request, or missing callbacks.
///
/// # Safety
/// Pointers are null or valid for the FMI 2.0 API.
pub unsafe fn instantiate<M: Model + Clone + Default + 'static>(
    fmu: &'static Fmu,
    name: *const c_char,
    fmu_type: c_int,
    guid: *const c_char,
    functions: *const CallbackFunctions,
    logging_on: c_int,
) -> Component {
    // SAFETY: null or a valid struct by the FMI contract.
    let Some(functions) = (unsafe { functions.as_ref() }) else {
        return std::ptr::null_mut();
    };
    // SAFETY: null or NUL-terminated strings by the FMI contract.
    let (name, guid) = unsafe { (text(name), text(guid)) };
    let log = logger(functions, name.unwrap_or("?"));
    let refuse = |message: &str| {
        log(Status::Error, "logStatusError", message);
        std::ptr::null_mut()
    };
    if name.is_none_or(str::is_empty) {
        return refuse("fmi2Instantiate: the instance name must be a non-empty string");
    }
    if guid != Some(fmu.guid) {
        return refuse(&format!(
            "fmi2Instantiate: GUID {guid:?} does not match this FMU's {:?}",
            fmu.guid
        ));
    }
    if fmu_type != 1 {
        return refuse(&format!(
            "fmi2Instantiate: fmuType {fmu_type}: this FMU is co-simulation only (fmi2CoSimulation = 1)"
        ));
    }
    // A model's fault is logged through the callback (see `with`): the panic hook of
    // this library stays silent for it.
    sit_runtime::quiet_fault_panics();
    let slot = catch_unwind(AssertUnwindSafe(|| {
        let mut instance = Instance::<M>::new(fmu, log);
        instance.set_debug_logging(logging_on != 0, &[]);
        Slot { tag: TAG, instance }
    }));
    match slot {
        Ok(slot) => Box::into_raw(Box::new(slot)).cast(),
        Err(_) => std::ptr::null_mut(),
    }
}

/// `fmi2FreeInstance`. Null is ignored.
///
/// # Safety
/// `c` is null or a live component of this FMU; it is dangling afterwards.
pub unsafe fn free_instance<M>(c: Component) {
    let slot = c.cast::<Slot<M>>();
    // SAFETY: null or a live slot from `instantiate` by the FMI contract.
    if let Some(s) = unsafe { slot.as_mut() }
        && s.tag == TAG
    {
        s.tag = FREED;
        // SAFETY: allocated by `Box::into_raw` in `instantiate`, freed once (tag).
        drop(unsafe { Box::from_raw(slot) });
    }
}

/// Runs `f` on the instance behind `c`: `fmi2Error` for null or a pointer without the
/// tag, `fmi2Error` if the instance is in the fatal state, `fmi2Fatal` if `f` panics (a
/// fault of the model logged with its message: [`Instance::guarded`]).
///
/// # Safety
/// `c` is null or a pointer from `instantiate`.
pub unsafe fn with<M: Model + Clone + Default>(
    c: Component,
    f: impl FnOnce(&mut Instance<M>) -> Status,
) -> c_int {
    // SAFETY: null or a live slot by the FMI contract.
    let Some(slot) = (unsafe { c.cast::<Slot<M>>().as_mut() }) else {
        return Status::Error as c_int;
    };
    if slot.tag != TAG {
        return Status::Error as c_int;
    }
    let instance = &mut slot.instance;
    if instance.is_fatal() {
        return instance.error("the instance had a fatal error: only fmi2FreeInstance is allowed")
            as c_int;
    }
    instance.guarded(f) as c_int
}

/// `n` elements at `p` as a slice; `None` for null with `n > 0`.
///
/// # Safety
/// `p` is null or valid for `n` reads.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> Option<&'a [T]> {
    if n == 0 {
        Some(&[])
    } else if p.is_null() {
        None
    } else {
        // SAFETY: non-null and valid for `n` elements by the caller's contract.
        Some(unsafe { std::slice::from_raw_parts(p, n) })
    }
}

/// `n` elements at `p` as a mutable slice; `None` for null with `n > 0`.
///
/// # Safety
/// `p` is null or valid for `n` writes, and not aliased.
pub unsafe fn slice_mut<'a, T>(p: *mut T, n: usize) -> Option<&'a mut [T]> {
    if n == 0 {
        Some(&mut [])
    } else if p.is_null() {
        None
    } else {
        // SAFETY: non-null, valid and unaliased for `n` elements by the contract.
        Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
    }
}

fn null_error<M: Model + Clone + Default>(i: &Instance<M>, call: &str) -> Status {
    i.error(&format!(
        "{call}: a null pointer where an array or result was expected"
    ))
}

/// `fmi2SetDebugLogging`.
///
/// # Safety
/// FMI contract (see the module documentation).
pub unsafe fn set_debug_logging<M: Model + Clone + Default>(
    c: Component,
    on: c_int,
    n: usize,
    categories: *const *const c_char,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            let Some(ptrs) = slice(categories, n) else {
                return null_error(i, "fmi2SetDebugLogging");
            };
            let mut names = Vec::with_capacity(n);
            for &p in ptrs {
                match text(p) {
                    Some(t) => names.push(t),
                    None => return null_error(i, "fmi2SetDebugLogging"),
                }
            }
            i.set_debug_logging(on != 0, &names)
        })
    }
}

/// `fmi2GetReal`, `fmi2GetBoolean`, `fmi2GetInteger`, `fmi2GetString`.
///
/// # Safety
/// FMI contract.
pub unsafe fn get<M: Model + Clone + Default, T>(
    c: Component,
    call: &str,
    vr: *const u32,
    n: usize,
    out: *mut T,
    f: impl FnOnce(&Instance<M>, &[u32], &mut [T]) -> Status,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| match (slice(vr, n), slice_mut(out, n)) {
            (Some(vr), Some(out)) => f(i, vr, out),
            _ => null_error(i, call),
        })
    }
}

/// `fmi2GetDirectionalDerivative`.
///
/// # Safety
/// FMI contract.
pub unsafe fn get_directional_derivative<M: Model + Clone + Default>(
    c: Component,
    unknown: *const u32,
    n_unknown: usize,
    known: *const u32,
    n_known: usize,
    seed: *const f64,
    out: *mut f64,
) -> c_int {
    const CALL: &str = "fmi2GetDirectionalDerivative";
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            match (
                slice(unknown, n_unknown),
                slice(known, n_known),
                slice(seed, n_known),
                slice_mut(out, n_unknown),
            ) {
                (Some(u), Some(k), Some(s), Some(o)) => i.get_directional_derivative(u, k, s, o),
                _ => null_error(i, CALL),
            }
        })
    }
}

/// `fmi2SetReal`, `fmi2SetBoolean`, `fmi2SetInteger`, `fmi2SetString`.
///
/// # Safety
/// FMI contract.
pub unsafe fn set<M: Model + Clone + Default, T>(
    c: Component,
    call: &str,
    vr: *const u32,
    n: usize,
    values: *const T,
    f: impl FnOnce(&mut Instance<M>, &[u32], &[T]) -> Status,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| match (slice(vr, n), slice(values, n)) {
            (Some(vr), Some(values)) => f(i, vr, values),
            _ => null_error(i, call),
        })
    }
}

/// A status getter writing one value (`fmi2GetRealStatus`, `fmi2GetBooleanStatus`, ...).
///
/// # Safety
/// FMI contract.
pub unsafe fn status<M: Model + Clone + Default, T>(
    c: Component,
    call: &str,
    kind: c_int,
    out: *mut T,
    f: impl FnOnce(&Instance<M>, c_int, &mut T) -> Status,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| match out.as_mut() {
            Some(out) => f(i, kind, out),
            None => null_error(i, call),
        })
    }
}

/// `fmi2GetFMUstate`: a new state, or the one `*state` points to overwritten.
///
/// # Safety
/// FMI contract; a non-null `*state` comes from this function.
pub unsafe fn get_fmu_state<M: Model + Clone + Default>(
    c: Component,
    state: *mut FmuState,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            let Some(state) = state.as_mut() else {
                return null_error(i, "fmi2GetFMUstate");
            };
            match state.cast::<Snapshot<M>>().as_mut() {
                Some(existing) => i.get_state_into(existing),
                None => match i.get_state() {
                    Ok(s) => {
                        *state = Box::into_raw(Box::new(s)).cast();
                        Status::Ok
                    }
                    Err(s) => s,
                },
            }
        })
    }
}

/// `fmi2SetFMUstate`.
///
/// # Safety
/// FMI contract; `state` is null or from [`get_fmu_state`] and not freed.
pub unsafe fn set_fmu_state<M: Model + Clone + Default>(c: Component, state: FmuState) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| match state.cast::<Snapshot<M>>().as_ref() {
            Some(s) => i.set_state(s),
            None => null_error(i, "fmi2SetFMUstate"),
        })
    }
}

/// `fmi2FreeFMUstate`: frees `*state` and sets it to null (null `*state` is fine).
///
/// # Safety
/// FMI contract; a non-null `*state` is from [`get_fmu_state`] and freed only here.
pub unsafe fn free_fmu_state<M: Model + Clone + Default>(
    c: Component,
    state: *mut FmuState,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            let Some(state) = state.as_mut() else {
                return null_error(i, "fmi2FreeFMUstate");
            };
            if !state.is_null() {
                // SAFETY: allocated by `Box::into_raw` in `get_fmu_state`.
                drop(Box::from_raw(state.cast::<Snapshot<M>>()));
                *state = std::ptr::null_mut();
            }
            Status::Ok
        })
    }
}

/// `fmi2SerializedFMUstateSize`.
///
/// # Safety
/// FMI contract; `state` is null or from [`get_fmu_state`] or [`deserialize`].
pub unsafe fn serialized_size<M: Model + Clone + Default + State>(
    c: Component,
    state: FmuState,
    size: *mut usize,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            match (state.cast::<Snapshot<M>>().as_ref(), size.as_mut()) {
                (Some(state), Some(size)) => {
                    *size = i.serialize(state).len();
                    Status::Ok
                }
                _ => null_error(i, "fmi2SerializedFMUstateSize"),
            }
        })
    }
}

/// `fmi2SerializeFMUstate`: the bytes into `bytes[..size]`, which must be large enough.
///
/// # Safety
/// FMI contract; `bytes` is valid for `size` writes.
pub unsafe fn serialize<M: Model + Clone + Default + State>(
    c: Component,
    state: FmuState,
    bytes: *mut u8,
    size: usize,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            match (state.cast::<Snapshot<M>>().as_ref(), slice_mut(bytes, size)) {
                (Some(state), Some(buffer)) => {
                    let data = i.serialize(state);
                    match buffer.get_mut(..data.len()) {
                    Some(head) => {
                        head.copy_from_slice(&data);
                        Status::Ok
                    }
                    None => i.error(&format!(
                        "fmi2SerializeFMUstate: the buffer has {size} bytes, the state needs {}",
                        data.len()
                    )),
                }
                }
                _ => null_error(i, "fmi2SerializeFMUstate"),
            }
        })
    }
}

/// `fmi2DeSerializeFMUstate`: a new state from `bytes[..size]` into `*state` (an existing
/// state there is overwritten).
///
/// # Safety
/// FMI contract; `bytes` is valid for `size` reads; a non-null `*state` is from this FMU.
pub unsafe fn deserialize<M: Model + Clone + Default + State>(
    c: Component,
    bytes: *const u8,
    size: usize,
    state: *mut FmuState,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            let (Some(bytes), Some(state)) = (slice(bytes, size), state.as_mut()) else {
                return null_error(i, "fmi2DeSerializeFMUstate");
            };
            let snapshot = match i.deserialize(bytes) {
                Ok(s) => s,
                Err(status) => return status,
            };
            match state.cast::<Snapshot<M>>().as_mut() {
                Some(existing) => *existing = snapshot,
                None => *state = Box::into_raw(Box::new(snapshot)).cast(),
            }
            Status::Ok
        })
    }
}

/// A function of the API that the model description declares unsupported (directional
/// derivatives, input and output derivatives): `fmi2Error` with the
/// capability that says so.
///
/// # Safety
/// FMI contract.
pub unsafe fn unsupported<M: Model + Clone + Default>(
    c: Component,
    call: &str,
    capability: &str,
) -> c_int {
    // SAFETY: FMI contract.
    unsafe {
        with::<M>(c, |i| {
            i.error(&format!("{call} is not supported ({capability})"))
        })
    }
}
