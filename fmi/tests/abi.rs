//! The C functions of a built FMU called directly (no Python): a run bit-identical to the
//! interpreter, communication steps that are not multiples of the step, FMU states, and
//! every kind of bad call answered with `fmi2Error` and a log message.

// Loading a shared library and calling its C functions is unsafe by nature; this harness
// is the Rust side of what FMPy does with ctypes.
#![allow(unsafe_code)]

use libloading::{Library, Symbol};
use sit_runtime::Model;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const MODEL: &str = "examples/models/bouncing_ball.sit";
const OK: c_int = 0;
const ERROR: c_int = 3;
// BouncingBall's value references (its variable table): g0 e v_min h0 h v g der_h der_v.
const E: u32 = 1;
const H0: u32 = 3;
const H: u32 = 4;
const V: u32 = 5;
const G: u32 = 6;

/// The logger, without the variadic part (the FMU passes no variadic arguments): what
/// ctypes-based importers such as FMPy install too.
type Logger = extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);

#[repr(C)]
struct Callbacks {
    logger: Logger,
    allocate: *const c_void,
    free: *const c_void,
    step_finished: *const c_void,
    environment: *mut c_void,
}

static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

extern "C" fn logger(
    _env: *mut c_void,
    _name: *const c_char,
    status: c_int,
    _category: *const c_char,
    message: *const c_char,
) {
    // SAFETY: the FMU passes a NUL-terminated message.
    let text = unsafe { CStr::from_ptr(message) }
        .to_string_lossy()
        .into_owned();
    LOG.lock().unwrap().push(format!("{status}: {text}"));
}

fn logged(fragment: &str) -> bool {
    LOG.lock().unwrap().iter().any(|m| m.contains(fragment))
}

struct Fmu {
    lib: Library,
    guid: String,
    dt: f64,
}

/// Builds the FMU once and loads a private copy of its library.
fn fmu() -> &'static Fmu {
    static FMU: OnceLock<Fmu> = OnceLock::new();
    FMU.get_or_init(|| {
        let out = root().join("target/fmu-tests");
        std::fs::create_dir_all(&out).unwrap();
        let mut opts =
            sit_fmi::build::Options::new(root().join(MODEL), out.join("abi-bouncing_ball.fmu"));
        opts.build_dir = root().join("target/fmu-build");
        opts.sit_dir = root();
        let built = sit_fmi::build::build(&opts).unwrap_or_else(|e| panic!("{e}"));
        let copy = out.join(format!(
            "abi-{}",
            built.library.file_name().unwrap().to_string_lossy()
        ));
        std::fs::copy(&built.library, &copy).unwrap();
        // SAFETY: the library is an FMU built just now; its initialisers do nothing.
        let lib = unsafe { Library::new(&copy) }.unwrap();
        Fmu {
            lib,
            guid: built.description.guid,
            dt: built.description.dt,
        }
    })
}

impl Fmu {
    fn sym<T>(&self, name: &str) -> Symbol<'_, T> {
        // SAFETY: the caller names the symbol with its FMI 2.0 type.
        unsafe { self.lib.get(name.as_bytes()) }.unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn instantiate(&self, guid: &str, fmu_type: c_int) -> *mut c_void {
        let f: Symbol<
            unsafe extern "C" fn(
                *const c_char,
                c_int,
                *const c_char,
                *const c_char,
                *const Callbacks,
                c_int,
                c_int,
            ) -> *mut c_void,
        > = self.sym("fmi2Instantiate");
        let callbacks = Box::leak(Box::new(Callbacks {
            logger,
            allocate: std::ptr::null(),
            free: std::ptr::null(),
            step_finished: std::ptr::null(),
            environment: std::ptr::null_mut(),
        }));
        let name = CString::new("harness").unwrap();
        let guid = CString::new(guid).unwrap();
        // SAFETY: valid strings and callbacks, as FMI 2.0 says.
        unsafe {
            f(
                name.as_ptr(),
                fmu_type,
                guid.as_ptr(),
                c"".as_ptr(),
                callbacks,
                0,
                0,
            )
        }
    }

    /// An instance in step mode (t = 0).
    fn initialized(&self) -> Instance<'_> {
        let c = self.instantiate(&self.guid, 1);
        assert!(!c.is_null());
        let i = Instance { fmu: self, c };
        let setup: Symbol<unsafe extern "C" fn(*mut c_void, c_int, f64, f64, c_int, f64) -> c_int> =
            self.sym("fmi2SetupExperiment");
        // SAFETY: a live instance.
        assert_eq!(unsafe { setup(c, 0, 0.0, 0.0, 0, 0.0) }, OK);
        assert_eq!(i.call("fmi2EnterInitializationMode"), OK);
        assert_eq!(i.call("fmi2ExitInitializationMode"), OK);
        i
    }
}

struct Instance<'a> {
    fmu: &'a Fmu,
    c: *mut c_void,
}

impl Instance<'_> {
    fn call(&self, name: &str) -> c_int {
        let f: Symbol<unsafe extern "C" fn(*mut c_void) -> c_int> = self.fmu.sym(name);
        // SAFETY: a live instance.
        unsafe { f(self.c) }
    }

    fn step(&self, t: f64, h: f64) -> c_int {
        let f: Symbol<unsafe extern "C" fn(*mut c_void, f64, f64, c_int) -> c_int> =
            self.fmu.sym("fmi2DoStep");
        // SAFETY: a live instance.
        unsafe { f(self.c, t, h, 1) }
    }

    fn get_real(&self, vr: &[u32]) -> Result<Vec<f64>, c_int> {
        let f: Symbol<unsafe extern "C" fn(*mut c_void, *const u32, usize, *mut f64) -> c_int> =
            self.fmu.sym("fmi2GetReal");
        let mut out = vec![f64::NAN; vr.len()];
        // SAFETY: arrays of the length passed.
        match unsafe { f(self.c, vr.as_ptr(), vr.len(), out.as_mut_ptr()) } {
            OK => Ok(out),
            status => Err(status),
        }
    }

    fn set_real(&self, vr: &[u32], values: &[f64]) -> c_int {
        let f: Symbol<unsafe extern "C" fn(*mut c_void, *const u32, usize, *const f64) -> c_int> =
            self.fmu.sym("fmi2SetReal");
        // SAFETY: arrays of the length passed.
        unsafe { f(self.c, vr.as_ptr(), vr.len(), values.as_ptr()) }
    }

    fn state(&self, name: &str, state: *mut *mut c_void) -> c_int {
        let f: Symbol<unsafe extern "C" fn(*mut c_void, *mut *mut c_void) -> c_int> =
            self.fmu.sym(name);
        // SAFETY: a live instance and a pointer to a state slot.
        unsafe { f(self.c, state) }
    }
}

impl Drop for Instance<'_> {
    fn drop(&mut self) {
        let f: Symbol<unsafe extern "C" fn(*mut c_void)> = self.fmu.sym("fmi2FreeInstance");
        // SAFETY: a live instance, freed once.
        unsafe { f(self.c) }
    }
}

/// The interpreter's `h`, `v` after `steps` steps of `dt`.
fn interpreted(steps: u64, dt: f64) -> [f64; 2] {
    let mut m = sit_host::load_file(root().join(MODEL), None)
        .unwrap()
        .instance;
    for _ in 0..steps {
        m.step(dt);
    }
    [m.get("h").unwrap(), m.get("v").unwrap()]
}

#[test]
fn every_function_fmpy_binds_is_exported() {
    let fmu = fmu();
    for name in [
        "fmi2GetTypesPlatform",
        "fmi2GetVersion",
        "fmi2SetDebugLogging",
        "fmi2Instantiate",
        "fmi2FreeInstance",
        "fmi2SetupExperiment",
        "fmi2EnterInitializationMode",
        "fmi2ExitInitializationMode",
        "fmi2Terminate",
        "fmi2Reset",
        "fmi2GetReal",
        "fmi2GetInteger",
        "fmi2GetBoolean",
        "fmi2GetString",
        "fmi2SetReal",
        "fmi2SetInteger",
        "fmi2SetBoolean",
        "fmi2SetString",
        "fmi2GetFMUstate",
        "fmi2SetFMUstate",
        "fmi2FreeFMUstate",
        "fmi2SerializedFMUstateSize",
        "fmi2SerializeFMUstate",
        "fmi2DeSerializeFMUstate",
        "fmi2GetDirectionalDerivative",
        "fmi2SetRealInputDerivatives",
        "fmi2GetRealOutputDerivatives",
        "fmi2DoStep",
        "fmi2CancelStep",
        "fmi2GetStatus",
        "fmi2GetRealStatus",
        "fmi2GetIntegerStatus",
        "fmi2GetBooleanStatus",
        "fmi2GetStringStatus",
    ] {
        let _: Symbol<unsafe extern "C" fn()> = fmu.sym(name);
    }
    let version: Symbol<extern "C" fn() -> *const c_char> = fmu.sym("fmi2GetVersion");
    let platform: Symbol<extern "C" fn() -> *const c_char> = fmu.sym("fmi2GetTypesPlatform");
    // SAFETY: static NUL-terminated strings.
    unsafe {
        assert_eq!(CStr::from_ptr(version()).to_str(), Ok("2.0"));
        assert_eq!(CStr::from_ptr(platform()).to_str(), Ok("default"));
    }
}

#[test]
fn a_run_is_bit_identical_to_the_interpreter() {
    let fmu = fmu();
    assert_eq!(fmu.dt, 0.001);
    let i = fmu.initialized();
    let mut t = 0.0;
    for k in 1..=300u64 {
        assert_eq!(i.step(t, 0.01), OK);
        t += 0.01;
        if k % 50 == 0 {
            assert_eq!(
                i.get_real(&[H, V]).unwrap(),
                interpreted(10 * k, 0.001),
                "row {k}"
            );
        }
    }
}

#[test]
fn a_communication_step_not_a_multiple_of_dt_stops_at_the_last_step_before_it() {
    let fmu = fmu();
    let i = fmu.initialized();
    // 0.0025 = 2.5 steps: 2 steps, then to 0.005 = 5 steps in all.
    assert_eq!(i.step(0.0, 0.0025), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(2, 0.001));
    assert_eq!(i.step(0.0025, 0.0025), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(5, 0.001));
    // A zero step does nothing.
    assert_eq!(i.step(0.005, 0.0), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(5, 0.001));
}

#[test]
fn start_values_are_applied_at_initialization() {
    let fmu = fmu();
    let c = fmu.instantiate(&fmu.guid, 1);
    let i = Instance { fmu, c };
    assert_eq!(i.set_real(&[H0, V], &[2.5, 1.0]), OK);
    assert_eq!(i.call("fmi2EnterInitializationMode"), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), vec![2.5, 1.0]);
    assert_eq!(i.call("fmi2ExitInitializationMode"), OK);
    // fmi2Reset: back to the defaults.
    assert_eq!(i.call("fmi2Reset"), OK);
    assert_eq!(i.call("fmi2EnterInitializationMode"), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), vec![1.0, 0.0]);
}

#[test]
fn an_fmu_state_restores_the_run() {
    let fmu = fmu();
    let i = fmu.initialized();
    for k in 0..40 {
        assert_eq!(i.step(k as f64 * 0.01, 0.01), OK);
    }
    let mut state: *mut c_void = std::ptr::null_mut();
    assert_eq!(i.state("fmi2GetFMUstate", &mut state), OK);
    assert!(!state.is_null());
    let run = |i: &Instance| -> Vec<Vec<f64>> {
        (40..80)
            .map(|k| {
                assert_eq!(i.step(k as f64 * 0.01, 0.01), OK);
                i.get_real(&[H, V]).unwrap()
            })
            .collect()
    };
    let first = run(&i);
    let set: Symbol<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int> =
        fmu.sym("fmi2SetFMUstate");
    // SAFETY: a state from this instance.
    assert_eq!(unsafe { set(i.c, state) }, OK);
    assert_eq!(run(&i), first);
    assert_eq!(first.last().unwrap(), &interpreted(800, 0.001).to_vec());
    assert_eq!(i.state("fmi2FreeFMUstate", &mut state), OK);
    assert!(state.is_null());
}

#[test]
fn bad_calls_return_errors_and_the_instance_survives() {
    let fmu = fmu();
    // Instantiation refused: wrong GUID, model exchange.
    assert!(fmu.instantiate("{wrong}", 1).is_null());
    assert!(logged("does not match this FMU's"));
    assert!(fmu.instantiate(&fmu.guid, 0).is_null());
    assert!(logged("co-simulation only"));
    // A null component.
    let null = Instance {
        fmu,
        c: std::ptr::null_mut(),
    };
    assert_eq!(null.call("fmi2EnterInitializationMode"), ERROR);
    std::mem::forget(null);

    let i = fmu.initialized();
    assert_eq!(i.step(0.0, 0.01), OK);
    assert_eq!(i.get_real(&[42]), Err(ERROR));
    assert!(logged("unknown value reference 42"));
    assert_eq!(i.set_real(&[H0], &[3.0]), ERROR);
    assert!(logged("`h0` (value reference 3) is a fixed parameter"));
    assert_eq!(i.set_real(&[G], &[0.0]), ERROR);
    assert_eq!(i.set_real(&[E], &[0.5]), OK);
    assert_eq!(i.step(5.0, 0.01), ERROR);
    assert!(logged("is not the current time"));
    assert_eq!(i.step(0.01, -1.0), ERROR);
    assert_eq!(i.call("fmi2ExitInitializationMode"), ERROR);
    assert_eq!(i.call("fmi2CancelStep"), ERROR);
    // Null arrays with a non-zero length.
    let get: Symbol<unsafe extern "C" fn(*mut c_void, *const u32, usize, *mut f64) -> c_int> =
        fmu.sym("fmi2GetReal");
    // SAFETY: null arrays are what is being tested; the FMU must not read them.
    assert_eq!(
        unsafe { get(i.c, std::ptr::null(), 2, std::ptr::null_mut()) },
        ERROR
    );
    assert!(logged("a null pointer"));
    // Unsupported functions say which capability is false.
    let derivative: Symbol<
        unsafe extern "C" fn(
            *mut c_void,
            *const u32,
            usize,
            *const u32,
            usize,
            *const f64,
            *mut f64,
        ) -> c_int,
    > = fmu.sym("fmi2GetDirectionalDerivative");
    // SAFETY: a live instance; the FMU refuses before reading the arrays.
    let status = unsafe {
        derivative(
            i.c,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(status, ERROR);
    assert!(logged("providesDirectionalDerivative"));
    // Still running: the same as the interpreter with e = 0.5 from the second step on
    // (e is only read at a bounce, long after these steps).
    assert_eq!(i.step(0.01, 0.01), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(20, 0.001));
    assert_eq!(i.call("fmi2Terminate"), OK);
    assert_eq!(i.step(0.02, 0.01), ERROR);
    assert!(logged(
        "fmi2DoStep is not allowed when the instance is terminated"
    ));
}

#[test]
fn debug_logging_reports_the_internal_steps() {
    let fmu = fmu();
    let i = fmu.initialized();
    let debug: Symbol<
        unsafe extern "C" fn(*mut c_void, c_int, usize, *const *const c_char) -> c_int,
    > = fmu.sym("fmi2SetDebugLogging");
    let bad = [c"logNothing".as_ptr()];
    // SAFETY: a live instance and an array of one C string.
    assert_eq!(unsafe { debug(i.c, 1, 1, bad.as_ptr()) }, ERROR);
    assert!(logged("unknown log category `logNothing`"));
    let good = [c"logCalls".as_ptr()];
    // SAFETY: as above.
    assert_eq!(unsafe { debug(i.c, 1, 1, good.as_ptr()) }, OK);
    assert_eq!(i.step(0.0, 0.0025), OK);
    assert!(logged("fmi2DoStep: t = 0, h = 0.0025: 2 steps of 0.001"));
}

#[test]
fn a_serialized_state_is_read_back_and_damaged_bytes_are_refused() {
    let fmu = fmu();
    let i = fmu.initialized();
    for k in 0..30 {
        assert_eq!(i.step(k as f64 * 0.01, 0.01), OK);
    }
    let mut state: *mut c_void = std::ptr::null_mut();
    assert_eq!(i.state("fmi2GetFMUstate", &mut state), OK);
    let size_of: Symbol<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut usize) -> c_int> =
        fmu.sym("fmi2SerializedFMUstateSize");
    let serialize: Symbol<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut u8, usize) -> c_int> =
        fmu.sym("fmi2SerializeFMUstate");
    let deserialize: Symbol<
        unsafe extern "C" fn(*mut c_void, *const u8, usize, *mut *mut c_void) -> c_int,
    > = fmu.sym("fmi2DeSerializeFMUstate");
    let mut size = 0usize;
    // SAFETY: a live instance and state, buffers of the sizes passed.
    let bytes = unsafe {
        assert_eq!(size_of(i.c, state, &mut size), OK);
        let mut bytes = vec![0u8; size];
        assert_eq!(serialize(i.c, state, bytes.as_mut_ptr(), size - 1), ERROR);
        assert!(logged("the state needs"));
        assert_eq!(serialize(i.c, state, bytes.as_mut_ptr(), size), OK);
        bytes
    };
    assert_eq!(i.state("fmi2FreeFMUstate", &mut state), OK);
    // Damaged copies: truncated, another magic, another GUID (bytes 16.. after the magic
    // and the GUID's length), trailing bytes.
    let mut other_guid = bytes.clone();
    other_guid[17] ^= 1;
    let mut trailing = bytes.clone();
    trailing.push(0);
    for (damaged, message) in [
        (bytes[..bytes.len() - 1].to_vec(), "ends too early"),
        (
            [b"NOTASIT!", &bytes[8..]].concat(),
            "not a serialized state",
        ),
        (other_guid, "another FMU"),
        (trailing, "bytes after its end"),
    ] {
        let mut out: *mut c_void = std::ptr::null_mut();
        // SAFETY: a live instance and a buffer of the size passed.
        let status = unsafe { deserialize(i.c, damaged.as_ptr(), damaged.len(), &mut out) };
        assert_eq!(status, ERROR, "{message}");
        assert!(out.is_null());
        assert!(logged(message), "{message}");
    }
    // The good bytes: the run continues from step 300 as the interpreter's does.
    let mut back: *mut c_void = std::ptr::null_mut();
    for k in 30..60 {
        assert_eq!(i.step(k as f64 * 0.01, 0.01), OK);
    }
    // SAFETY: as above.
    assert_eq!(
        unsafe { deserialize(i.c, bytes.as_ptr(), bytes.len(), &mut back) },
        OK
    );
    let set: Symbol<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int> =
        fmu.sym("fmi2SetFMUstate");
    // SAFETY: a state of this FMU.
    assert_eq!(unsafe { set(i.c, back) }, OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(300, 0.001));
    assert_eq!(i.step(0.3, 0.01), OK);
    assert_eq!(i.get_real(&[H, V]).unwrap(), interpreted(310, 0.001));
    assert_eq!(i.state("fmi2FreeFMUstate", &mut back), OK);
}
