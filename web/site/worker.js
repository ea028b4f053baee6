// The run of a model, off the page's thread: the interpreter (sit_web.wasm) in chunks
// of steps, with progress after each chunk and a stop between two.
import init, { Runner, set_panic_hook, last_panic } from './pkg/sit_web.js';

const ready = init().then(() => set_panic_hook());
let stopping = false;

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === 'stop') {
    stopping = true;
    return;
  }
  if (m.type === 'run') {
    await ready;
    stopping = false;
    run(m);
  }
};

/** A chunk of steps takes about this long (ms) before the next progress report. */
const CHUNK_MS = 30;

async function run(m) {
  let runner;
  try {
    runner = new Runner(m.path, m.text, JSON.stringify(m.files || {}), JSON.stringify(m.options));
  } catch (err) {
    self.postMessage({ type: 'error', error: JSON.parse(String(err)) });
    return;
  }
  const steps = runner.steps();
  let chunk = 100;
  let stepping = 0;
  let stopped = false;
  try {
    for (;;) {
      const t0 = performance.now();
      const done = runner.advance(chunk);
      const took = performance.now() - t0;
      stepping += took;
      chunk = Math.max(1, Math.min(chunk * 4, Math.round((chunk * CHUNK_MS) / Math.max(took, 0.5))));
      self.postMessage({ type: 'progress', done: runner.done(), steps });
      if (done) break;
      // Let a `stop` message in.
      await new Promise((r) => setTimeout(r, 0));
      if (stopping) {
        stopped = true;
        break;
      }
    }
  } catch (err) {
    // A panic in WebAssembly is a trap: this instance is spent (the page starts another).
    const why = last_panic() || String(err);
    self.postMessage({ type: 'fault', error: { message: `the model stopped: ${why}` } });
    return;
  }
  const variables = JSON.parse(runner.variables());
  const traces = variables.map((_, k) => runner.trace(k));
  const times = runner.times();
  const result = {
    type: 'result',
    stopped,
    done: runner.done(),
    steps,
    stepping_ms: stepping,
    variables,
    times,
    traces,
    finals: runner.finals(),
    csv: runner.csv(),
    events: JSON.parse(runner.events()),
    warnings: JSON.parse(runner.warnings()),
    fault: runner.fault(),
  };
  runner.free();
  self.postMessage(result, [times.buffer, ...traces.map((t) => t.buffer)]);
}
