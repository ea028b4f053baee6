// The run of a model, off the page's thread: the interpreter (sit_web.wasm) in chunks
// of steps, a stop between two. The page gets the run as it goes, in small messages:
// the rows kept for the plot since the last message (at most sit-web's MAX_ROWS in all:
// past it, neighbouring rows are merged, each keeping its lowest and highest values),
// the new events and the warnings. The CSV is not sent row by row: each chunk's rows
// become a part of a Blob (the browser's storage, not the worker's memory), and the
// whole CSV is the last message's Blob, for the page to download.
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

/** A chunk of steps takes about this long (ms): a stop waits at most about this. */
const CHUNK_MS = 20;
/** The page gets the rows at most this often (ms): its work per message stays small. */
const POST_MS = 50;
/** Events per message at most. */
const EVENTS_PER_POST = 2000;
/**
 * The events the page lists (its table's rows): sent whole; the later ones only as
 * marks for the plot, their times by name (the page's memory holds numbers, not a
 * hundred thousand objects to collect).
 */
const EVENT_ROWS = 2000;

async function run(m) {
  let runner;
  try {
    runner = new Runner(m.path, m.text, JSON.stringify(m.files || {}), JSON.stringify(m.options));
  } catch (err) {
    self.postMessage({ type: 'error', error: JSON.parse(String(err)) });
    return;
  }
  const steps = runner.steps();
  const variables = JSON.parse(runner.variables());
  self.postMessage({ type: 'start', variables, steps });
  const csv = [];
  let sentRows = 0;
  let sentStride = 1;
  let sentEvents = 0;
  let sentNotes = '[]';
  // The rows kept since the last message: from the last one sent (it may have taken
  // more trace rows since), or all of them when pairs were merged.
  const rows = (transfer) => {
    const stride = runner.stride();
    const from = stride !== sentStride ? 0 : Math.max(0, sentRows - 1);
    const times = runner.times(from);
    const lo = variables.map((_, k) => runner.trace(k, false, from));
    const hi = stride > 1 ? variables.map((_, k) => runner.trace(k, true, from)) : null;
    sentRows = from + times.length;
    sentStride = stride;
    transfer.push(times.buffer, ...lo.map((a) => a.buffer), ...(hi || []).map((a) => a.buffer));
    return { from, stride, times, lo, hi };
  };
  // The events from the last one sent: `events` (whole) and `marks` (name → times).
  const events = (out, transfer) => {
    const list = JSON.parse(runner.events(sentEvents, EVENTS_PER_POST));
    const whole = Math.max(0, Math.min(list.length, EVENT_ROWS - sentEvents));
    sentEvents += list.length;
    if (whole > 0) out.events = list.slice(0, whole);
    if (whole < list.length) {
      const byName = new Map();
      for (const e of list.slice(whole)) {
        const times = byName.get(e.name);
        if (times) times.push(e.t);
        else byName.set(e.name, [e.t]);
      }
      out.marks = [...byName].map(([name, times]) => [name, Float64Array.from(times)]);
      transfer.push(...out.marks.map(([, t]) => t.buffer));
    }
    out.eventCount = sentEvents;
  };
  const news = (transfer) => {
    const out = { rows: rows(transfer) };
    if (runner.eventCount() > sentEvents) events(out, transfer);
    const notes = runner.notes();
    if (notes !== sentNotes) {
      out.notes = JSON.parse(notes);
      sentNotes = notes;
    }
    return out;
  };
  const takeCsv = () => {
    const bytes = runner.takeCsv();
    if (bytes.length) csv.push(new Blob([bytes]));
  };
  let chunk = 100;
  let stepping = 0;
  let stopped = false;
  let posted = 0;
  try {
    for (;;) {
      const t0 = performance.now();
      const done = runner.advance(chunk);
      const took = performance.now() - t0;
      stepping += took;
      chunk = Math.max(1, Math.min(chunk * 4, Math.round((chunk * CHUNK_MS) / Math.max(took, 0.5))));
      takeCsv();
      if (done) break;
      if (performance.now() - posted >= POST_MS) {
        const transfer = [];
        self.postMessage({ type: 'progress', done: runner.done(), steps, ...news(transfer) }, transfer);
        posted = performance.now();
      }
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
  // The events not sent yet, a message for each few (the page handles each in a task
  // of its own), then the result.
  while (runner.eventCount() > sentEvents) {
    const out = { type: 'events' };
    const transfer = [];
    events(out, transfer);
    self.postMessage(out, transfer);
  }
  const transfer = [];
  const result = {
    type: 'result',
    stopped,
    done: runner.done(),
    steps,
    stepping_ms: stepping,
    ...news(transfer),
    finals: runner.finals(),
    csv: new Blob(csv, { type: 'text/csv' }),
    warnings: JSON.parse(runner.warnings()),
    fault: runner.fault(),
  };
  runner.free();
  self.postMessage(result, transfer);
}
