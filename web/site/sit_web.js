// The JavaScript side of sit_web.wasm (web/src/bindings.rs): strings in and out through
// the module's memory, with the API the page and the worker use. No generated glue.

let w = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Loads and instantiates sit_web.wasm (beside this file unless `url` says otherwise). */
export default async function init(url = new URL('sit_web.wasm', import.meta.url)) {
  if (w) return;
  const bytes = await (await fetch(url)).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  w = instance.exports;
}

/** Calls `f` with each string of `args` written into the module's memory as (pointer, length). */
function call(f, ...args) {
  const held = args.map((s) => {
    const bytes = encoder.encode(s);
    const ptr = w.sit_alloc(bytes.length);
    new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  });
  try {
    return f(...held.flat());
  } finally {
    for (const [ptr, len] of held) w.sit_free(ptr, len);
  }
}

/** The output of the last call, as bytes (a copy). */
function outBytes() {
  const ptr = w.sit_out_ptr();
  return new Uint8Array(w.memory.buffer.slice(ptr, ptr + w.sit_out_len()));
}

/** The output of the last call, as text. */
function out() {
  return decoder.decode(outBytes());
}

/** The output of the last call, as numbers. */
function outF64() {
  return new Float64Array(outBytes().buffer);
}

/** The output, or throws it as a string when `status` says the call failed. */
function result(status) {
  const text = out();
  if (status !== 0) throw text;
  return text;
}

export function set_panic_hook() {
  w.sit_set_panic_hook();
}

/** The message of the last panic, or ''. */
export function last_panic() {
  w.sit_last_panic();
  return out();
}

export function check(path, text, filesJson) {
  return result(call(w.sit_check, path, text, filesJson));
}

export function format(path, text) {
  call(w.sit_format, path, text);
  return out();
}

export function info(path, text, filesJson, model) {
  return result(call(w.sit_info, path, text, filesJson, model));
}

export function schematic(path, text) {
  call(w.sit_schematic, path, text);
  return out();
}

/** The names of the integration methods, as JSON. */
export function methods() {
  w.sit_methods();
  return out();
}

export function library() {
  w.sit_library();
  return out();
}

/** The text of a library file, or undefined. */
export function library_file(path) {
  return call(w.sit_library_file, path) === 0 ? out() : undefined;
}

export function highlight(text) {
  call(w.sit_highlight, text);
  return out();
}

/** A run in progress; the constructor throws the error's JSON as a string. */
export class Runner {
  constructor(path, text, filesJson, optionsJson) {
    const handle = call(w.sit_run_start, path, text, filesJson, optionsJson);
    if (handle === 0) throw out();
    this.handle = handle;
  }
  /** Runs up to `max` more steps; whether the run is done. */
  advance(max) {
    return w.sit_run_advance(this.handle, max) !== 0;
  }
  done() {
    return w.sit_run_done(this.handle);
  }
  steps() {
    return w.sit_run_steps(this.handle);
  }
  /** The times of the rows kept for the plot, from the `from`-th on. */
  times(from = 0) {
    w.sit_run_times(this.handle, from);
    return outF64();
  }
  /** The lowest (or with `high`, highest) values of variable `k` in the rows kept, from the `from`-th on. */
  trace(k, high = false, from = 0) {
    w.sit_run_trace(this.handle, k, high ? 1 : 0, from);
    return outF64();
  }
  /** The trace rows each row kept stands for (1 until the rows kept reach their bound). */
  stride() {
    return w.sit_run_stride(this.handle);
  }
  variables() {
    w.sit_run_variables(this.handle);
    return out();
  }
  finals() {
    w.sit_run_finals(this.handle);
    return out();
  }
  /** The CSV since the last call, as bytes (the run keeps no more of it). */
  takeCsv() {
    w.sit_run_take_csv(this.handle);
    return outBytes();
  }
  /** At most `max` events of the log from the `from`-th on, as JSON. */
  events(from = 0, max = 1e9) {
    w.sit_run_events(this.handle, from, Math.min(max, 2 ** 31 - 1));
    return out();
  }
  eventCount() {
    return w.sit_run_event_count(this.handle);
  }
  /** sitc run's warnings for the steps so far (stiffness, tables), as JSON. */
  notes() {
    w.sit_run_notes(this.handle);
    return out();
  }
  warnings() {
    w.sit_run_warnings(this.handle);
    return out();
  }
  /** Why the run stopped before its end (a value that is not finite), or ''. */
  fault() {
    w.sit_run_fault(this.handle);
    return out();
  }
  free() {
    w.sit_run_free(this.handle);
  }
}
