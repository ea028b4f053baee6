//! FMI 2.0 co-simulation export of Sit models: the FMI layer over `sit_runtime::Model`.
//!
//! An FMU built by `sitc fmu` is a small cdylib crate: the model's generated Rust code and
//! one line,
//!
//! ```text
//! sit_fmi::export_fmu!(model::BouncingBall, sit_fmi::Fmu { guid: "…", dt: 0.001, access: &[…], … });
//! ```
//!
//! which defines every `fmi2…` function of the co-simulation API as a call of the
//! generic function of the same name in [`abi`] (the only `unsafe` code), which checks the
//! pointers and calls the safe state machine [`Instance`]. `doStep` advances the model
//! in internal steps of exactly `dt`, so an FMU is bit-identical to `sitc run` at the
//! same step. See `docs/fmi.md`.
//!
//! With the `build` feature, [`build`] writes `modelDescription.xml`, generates and builds
//! that crate with cargo and zips the `.fmu` (what `sitc fmu` calls).

#[allow(unsafe_code)] // The C ABI of FMI 2.0: raw pointers from the importer. See `abi`.
pub mod abi;
pub mod instance;
pub mod state;

#[cfg(feature = "build")]
pub mod build;
#[cfg(feature = "build")]
pub mod describe;
#[cfg(feature = "build")]
pub mod unit;

#[cfg(test)]
mod guarded_tests;
#[cfg(test)]
mod non_finite_tests;

pub use instance::{Access, Fmu, Instance, Snapshot, Status};
pub use state::State;

/// Defines the `extern "C"` functions of the FMI 2.0 co-simulation API for the model type
/// `$model` (a `sit_runtime::Model + Clone + Default + sit_fmi::State`) and the [`Fmu`] description
/// `$fmu`, in the cdylib crate of an FMU (`#[no_mangle]` functions must be defined in
/// the library that exports them). Each function is one call into [`abi`].
#[macro_export]
macro_rules! export_fmu {
    ($model:ty, $fmu:expr) => {
        static FMU: $crate::Fmu = $fmu;
        type FmuModel = $model;

        mod fmi2_exports {
            #![allow(non_snake_case, clippy::missing_safety_doc)]
            use super::{FMU, FmuModel as M};
            use ::std::ffi::{c_char, c_int};
            use $crate::abi::{self, CallbackFunctions, Component, FmuState};
            use $crate::instance::Instance;

            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetTypesPlatform() -> *const c_char {
                abi::TYPES_PLATFORM.as_ptr()
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn fmi2GetVersion() -> *const c_char {
                abi::VERSION.as_ptr()
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetDebugLogging(
                c: Component,
                on: c_int,
                n: usize,
                categories: *const *const c_char,
            ) -> c_int {
                unsafe { abi::set_debug_logging::<M>(c, on, n, categories) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Instantiate(
                name: *const c_char,
                fmu_type: c_int,
                guid: *const c_char,
                _resources: *const c_char,
                functions: *const CallbackFunctions,
                _visible: c_int,
                logging_on: c_int,
            ) -> Component {
                unsafe { abi::instantiate::<M>(&FMU, name, fmu_type, guid, functions, logging_on) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2FreeInstance(c: Component) {
                unsafe { abi::free_instance::<M>(c) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetupExperiment(
                c: Component,
                _tolerance_defined: c_int,
                _tolerance: f64,
                start: f64,
                _stop_defined: c_int,
                _stop: f64,
            ) -> c_int {
                unsafe { abi::with::<M>(c, |i| i.setup_experiment(start)) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2EnterInitializationMode(c: Component) -> c_int {
                unsafe { abi::with::<M>(c, Instance::enter_initialization_mode) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2ExitInitializationMode(c: Component) -> c_int {
                unsafe { abi::with::<M>(c, Instance::exit_initialization_mode) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Terminate(c: Component) -> c_int {
                unsafe { abi::with::<M>(c, Instance::terminate) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2Reset(c: Component) -> c_int {
                unsafe { abi::with::<M>(c, Instance::reset) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetReal(
                c: Component,
                vr: *const u32,
                n: usize,
                out: *mut f64,
            ) -> c_int {
                unsafe { abi::get::<M, f64>(c, "fmi2GetReal", vr, n, out, Instance::get_real) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetBoolean(
                c: Component,
                vr: *const u32,
                n: usize,
                out: *mut c_int,
            ) -> c_int {
                unsafe {
                    abi::get::<M, c_int>(c, "fmi2GetBoolean", vr, n, out, Instance::get_boolean)
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetInteger(
                c: Component,
                vr: *const u32,
                n: usize,
                out: *mut c_int,
            ) -> c_int {
                unsafe {
                    abi::get::<M, c_int>(c, "fmi2GetInteger", vr, n, out, |i, vr, _| {
                        i.no_variables_of("fmi2GetInteger", vr)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetString(
                c: Component,
                vr: *const u32,
                n: usize,
                out: *mut *const c_char,
            ) -> c_int {
                unsafe {
                    abi::get::<M, *const c_char>(c, "fmi2GetString", vr, n, out, |i, vr, _| {
                        i.no_variables_of("fmi2GetString", vr)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetReal(
                c: Component,
                vr: *const u32,
                n: usize,
                values: *const f64,
            ) -> c_int {
                unsafe { abi::set::<M, f64>(c, "fmi2SetReal", vr, n, values, Instance::set_real) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetBoolean(
                c: Component,
                vr: *const u32,
                n: usize,
                values: *const c_int,
            ) -> c_int {
                unsafe {
                    abi::set::<M, c_int>(c, "fmi2SetBoolean", vr, n, values, Instance::set_boolean)
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetInteger(
                c: Component,
                vr: *const u32,
                n: usize,
                values: *const c_int,
            ) -> c_int {
                unsafe {
                    abi::set::<M, c_int>(c, "fmi2SetInteger", vr, n, values, |i, vr, _| {
                        i.no_variables_of("fmi2SetInteger", vr)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetString(
                c: Component,
                vr: *const u32,
                n: usize,
                values: *const *const c_char,
            ) -> c_int {
                unsafe {
                    abi::set::<M, *const c_char>(c, "fmi2SetString", vr, n, values, |i, vr, _| {
                        i.no_variables_of("fmi2SetString", vr)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetFMUstate(c: Component, state: *mut FmuState) -> c_int {
                unsafe { abi::get_fmu_state::<M>(c, state) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetFMUstate(c: Component, state: FmuState) -> c_int {
                unsafe { abi::set_fmu_state::<M>(c, state) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2FreeFMUstate(c: Component, state: *mut FmuState) -> c_int {
                unsafe { abi::free_fmu_state::<M>(c, state) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SerializedFMUstateSize(
                c: Component,
                state: FmuState,
                size: *mut usize,
            ) -> c_int {
                unsafe { abi::serialized_size::<M>(c, state, size) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SerializeFMUstate(
                c: Component,
                state: FmuState,
                bytes: *mut u8,
                size: usize,
            ) -> c_int {
                unsafe { abi::serialize::<M>(c, state, bytes, size) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2DeSerializeFMUstate(
                c: Component,
                bytes: *const u8,
                size: usize,
                state: *mut FmuState,
            ) -> c_int {
                unsafe { abi::deserialize::<M>(c, bytes, size, state) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetDirectionalDerivative(
                c: Component,
                unknown: *const u32,
                n_unknown: usize,
                known: *const u32,
                n_known: usize,
                dv_known: *const f64,
                dv_unknown: *mut f64,
            ) -> c_int {
                unsafe {
                    abi::get_directional_derivative::<M>(
                        c, unknown, n_unknown, known, n_known, dv_known, dv_unknown,
                    )
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2SetRealInputDerivatives(
                c: Component,
                _vr: *const u32,
                _n: usize,
                _order: *const c_int,
                _values: *const f64,
            ) -> c_int {
                unsafe {
                    abi::unsupported::<M>(
                        c,
                        "fmi2SetRealInputDerivatives",
                        "canInterpolateInputs=\"false\"",
                    )
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetRealOutputDerivatives(
                c: Component,
                _vr: *const u32,
                _n: usize,
                _order: *const c_int,
                _values: *mut f64,
            ) -> c_int {
                unsafe {
                    abi::unsupported::<M>(
                        c,
                        "fmi2GetRealOutputDerivatives",
                        "maxOutputDerivativeOrder=\"0\"",
                    )
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2DoStep(
                c: Component,
                t: f64,
                h: f64,
                _no_set_fmu_state_prior: c_int,
            ) -> c_int {
                unsafe { abi::with::<M>(c, |i| i.do_step(t, h)) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2CancelStep(c: Component) -> c_int {
                unsafe { abi::with::<M>(c, |i| i.cancel_step()) }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetStatus(
                c: Component,
                kind: c_int,
                out: *mut c_int,
            ) -> c_int {
                unsafe {
                    abi::status::<M, c_int>(c, "fmi2GetStatus", kind, out, |i, k, _| {
                        i.no_status("fmi2GetStatus", k)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetRealStatus(
                c: Component,
                kind: c_int,
                out: *mut f64,
            ) -> c_int {
                unsafe {
                    abi::status::<M, f64>(c, "fmi2GetRealStatus", kind, out, Instance::real_status)
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetIntegerStatus(
                c: Component,
                kind: c_int,
                out: *mut c_int,
            ) -> c_int {
                unsafe {
                    abi::status::<M, c_int>(c, "fmi2GetIntegerStatus", kind, out, |i, k, _| {
                        i.no_status("fmi2GetIntegerStatus", k)
                    })
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetBooleanStatus(
                c: Component,
                kind: c_int,
                out: *mut c_int,
            ) -> c_int {
                unsafe {
                    abi::status::<M, c_int>(
                        c,
                        "fmi2GetBooleanStatus",
                        kind,
                        out,
                        Instance::boolean_status,
                    )
                }
            }

            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn fmi2GetStringStatus(
                c: Component,
                kind: c_int,
                out: *mut *const c_char,
            ) -> c_int {
                unsafe {
                    abi::status::<M, *const c_char>(
                        c,
                        "fmi2GetStringStatus",
                        kind,
                        out,
                        |i, k, _| i.no_status("fmi2GetStringStatus", k),
                    )
                }
            }
        }
    };
}
