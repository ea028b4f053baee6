// The page: the editor, the panes and the worker. Everything about Sit itself (checking,
// formatting, highlighting, running, schematics) is the WebAssembly module's.
import { EditorState, StateEffect, StateField, RangeSetBuilder, Compartment } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, hoverTooltip, Decoration, ViewPlugin, highlightActiveLine } from '@codemirror/view';
// CodeMirror's undo history, named so as not to hide the browser's `window.history`
// (the address bar: `share`).
import { defaultKeymap, history as undoHistory, historyKeymap, indentWithTab } from '@codemirror/commands';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import init, * as sit from './pkg/sit_web.js';
import { Plot } from './plot.js';

const $ = (id) => document.getElementById(id);
// `path`: the file the editor holds, as the checker and the run name it: a library file
// as it opened (`origin`), else the user's own file (`edited`): the name in the file box,
// `untitled` at first, in the folder of the file it started from (so that an edited
// library model still finds the files it imports), its kind (`.sit` or `.sch`) decided
// by its content.
// `work`: the longest the page's thread spent on one message of the worker and on one
// drawing of the plot since the run started (ms): what keeps a frame from its time.
const page = { path: 'untitled.sit', origin: null, edited: true, info: null, result: null, running: false, timings: {}, work: { message_ms: 0, draw_ms: 0 } };
window.sitPage = page; // read by the browser test

// Share links: `#model=` + the base64url (no padding) of the model's UTF-8 text.
export function encodeModel(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function decodeModel(b64) {
  const std = b64.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(std + '='.repeat((4 - (std.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

// Highlighting: the lexer's tokens, classed by the module.
const marks = {};
const mark = (cls) => (marks[cls] ||= Decoration.mark({ class: `tok-${cls}` }));
function decorations(view) {
  const b = new RangeSetBuilder();
  const len = view.state.doc.length;
  for (const [from, to, cls] of JSON.parse(sit.highlight(view.state.doc.toString()))) if (to <= len && from < to) b.add(from, to, mark(cls));
  return b.finish();
}
const highlighter = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = decorations(view); }
  update(u) { if (u.docChanged) this.decorations = decorations(u.view); }
}, { decorations: (v) => v.decorations });

// Hover on a name: its declaration in the model (kind, type, doc).
const hover = hoverTooltip((view, pos) => {
  const { from, to, text } = view.state.doc.lineAt(pos);
  let s = pos - from, e = pos - from;
  while (s > 0 && /[\w.]/.test(text[s - 1])) s--;
  while (e < text.length && /[\w.]/.test(text[e])) e++;
  const word = text.slice(s, e).split('.').pop();
  if (!word || !page.info) return null;
  const line = view.state.doc.lineAt(pos).number;
  const models = page.info.models.filter((m) => m.file === page.path);
  const model = models.filter((m) => m.line <= line).pop() || models[0];
  const d = model && model.declarations.find((x) => x.name === word);
  if (!d) return null;
  return {
    pos: from + s, end: from + e, above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.textContent = `${d.output ? 'output ' : ''}${d.kind} ${d.name}: ${d.type}${d.states ? ' {' + d.states.join(', ') + '}' : ''}\n${d.doc || ''}`.trim();
      return { dom };
    },
  };
});

let view;
let checkTimer = 0;
// On a narrow screen (a phone) long lines wrap rather than run off the editor.
const wrapping = new Compartment();
const narrow = window.matchMedia('(max-width: 760px)');
const wrap = () => (narrow.matches ? EditorView.lineWrapping : []);
/** Set while the page itself replaces the text (a file opened): not the user's edit. */
let loading = false;
function startEditor(text) {
  view = new EditorView({
    parent: $('editor'),
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), undoHistory(), highlightActiveLine(), bracketMatching(), indentOnInput(), lintGutter(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab,
          { key: 'Mod-Enter', run: () => { run(); return true; } },
          { key: 'Shift-Alt-f', run: () => { format(); return true; } }]),
        highlighter, hover, wrapping.of(wrap()),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          if (!loading) edited();
          clearTimeout(checkTimer);
          checkTimer = setTimeout(check, 250);
        }),
      ],
    }),
  });
  narrow.addEventListener('change', () => view.dispatch({ effects: wrapping.reconfigure(wrap()) }));
}
const text = () => view.state.doc.toString();
function setText(t) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }); }
const isSchematic = () => page.path.endsWith('.sch');

/** Whether `t` is a schematic: its first word, after comments, is `schematic`. */
const looksSchematic = (t) => /^(\s*\/\/.*(\n|$))*\s*schematic\b/.test(t);

/** The user's own file for text `t`: the file box's name, its kind by `t`'s content. */
function ownPath(t) {
  const name = $('file').value.trim().replace(/\.(sit|sch)$/i, '') || 'untitled';
  return `${name}.${looksSchematic(t) ? 'sch' : 'sit'}`;
}

/** The user changed the text: from now on it is their own file, not the library's. */
function edited() {
  if (page.edited) return;
  page.edited = true;
  const folder = page.origin && page.origin.includes('/') ? page.origin.slice(0, page.origin.lastIndexOf('/') + 1) : '';
  $('file').value = `${folder}untitled`;
}

/** The path to check and run the text as: see `page`. */
function currentPath() {
  if (page.edited) {
    page.path = ownPath(text());
    if ($('file').value.trim() !== page.path) $('file').value = page.path;
  }
  return page.path;
}

function status(msg) { $('status').textContent = msg; }

function showDiagnostics(list) {
  const cm = [];
  const ul = $('diagnostics');
  ul.replaceChildren();
  for (const d of list) {
    const loc = d.location;
    const li = document.createElement('li');
    li.className = d.severity;
    li.dataset.code = d.code;
    li.dataset.line = loc.line;
    li.textContent = `${loc.file}:${loc.line}:${loc.column}: ${d.severity}[${d.code}]: ${d.message}${d.help ? `\n  help: ${d.help}` : ''}`;
    if (d.from !== null) {
      li.onclick = () => view.dispatch({ selection: { anchor: d.from }, scrollIntoView: true });
      cm.push({ from: d.from, to: Math.max(d.to, d.from), severity: d.severity === 'error' ? 'error' : 'warning', source: d.code,
        message: `${d.message}${d.label ? ` (${d.label})` : ''}${d.help ? `\nhelp: ${d.help}` : ''}` });
    }
    ul.append(li);
  }
  view.dispatch(setDiagnostics(view.state, cm));
}

function check() {
  const t0 = performance.now();
  const was = page.path;
  currentPath();
  if (was !== page.path && was.endsWith('.sch') && !isSchematic()) {
    $('svg').replaceChildren();
    $('matrices').textContent = $('generated').textContent = '';
  }
  const out = JSON.parse(sit.info(page.path, text(), '{}', ''));
  page.timings.check_ms = performance.now() - t0;
  showDiagnostics(out.diagnostics);
  page.checked = out;
  if (out.ok) {
    page.info = out.info;
    showParams(out.variables);
    showInfo(out);
  }
  if (isSchematic()) showSchematic();
  status(out.ok ? (out.diagnostics.length ? `${out.diagnostics.length} warning(s)` : 'no errors') : `${out.diagnostics.filter((d) => d.severity === 'error').length} error(s)`);
  return out;
}

function showParams(vars) {
  const box = $('params');
  const old = Object.fromEntries([...box.querySelectorAll('input[type=range]')].map((r) => [r.dataset.name, r]));
  box.replaceChildren();
  for (const v of vars.filter((v) => v.kind === 'param' && v.settable && Number.isFinite(v.value))) {
    const label = document.createElement('label');
    const range = document.createElement('input');
    const num = document.createElement('input');
    const span = Math.abs(v.value) || 1;
    range.type = 'range';
    range.min = v.value >= 0 ? 0 : 2 * v.value;
    range.max = v.value > 0 ? 2 * v.value : v.value < 0 ? 0 : span;
    range.step = 'any';
    range.value = v.value;
    range.dataset.name = v.name;
    range.dataset.default = v.value;
    num.size = 8;
    num.value = v.value;
    if (old[v.name] && old[v.name].dataset.default === String(v.value)) { range.value = old[v.name].value; num.value = old[v.name].dataset.set || v.value; range.dataset.set = old[v.name].dataset.set || ''; }
    range.oninput = () => { num.value = +(+range.value).toPrecision(6); range.dataset.set = num.value; };
    range.onchange = () => run();
    num.onchange = () => { range.value = num.value; range.dataset.set = num.value; run(); };
    label.append(Object.assign(document.createElement('span'), { textContent: v.name }), range, num);
    box.append(label);
  }
}

function showInfo(out) {
  const box = $('info');
  box.replaceChildren();
  for (const m of out.info.models) {
    const h = document.createElement('h3');
    h.textContent = `${m.name}${m.name === out.info.root ? ' (root)' : ''} — ${m.file}:${m.line}`;
    const p = document.createElement('p');
    p.textContent = m.doc;
    const table = document.createElement('table');
    table.innerHTML = '<tr><th>name</th><th>kind</th><th>type</th><th>output</th><th>line</th><th>doc</th></tr>';
    for (const d of m.declarations) {
      const tr = table.insertRow();
      for (const c of [d.name, d.kind, d.type, d.output ? 'yes' : '', d.line, d.doc]) tr.insertCell().textContent = c;
    }
    box.append(h, p, table);
  }
}

function showSchematic() {
  const out = JSON.parse(sit.schematic(page.path, text()));
  if (!out.ok) return;
  $('svg').innerHTML = out.svg;
  $('matrices').textContent = out.matrices;
  $('generated').textContent = out.sit;
}

function format() {
  const out = JSON.parse(sit.format(page.path, text()));
  if (out.ok) { if (out.text !== text()) setText(out.text); } else showDiagnostics(out.diagnostics);
}

// The run, in a worker.
let worker;
function newWorker() {
  worker = new Worker('worker.js', { type: 'module' });
  worker.onmessage = (e) => {
    const t0 = performance.now();
    onWorker(e.data);
    page.work.message_ms = Math.max(page.work.message_ms, performance.now() - t0);
  };
}

function options() {
  const set = {};
  for (const r of $('params').querySelectorAll('input[type=range]')) if (r.dataset.set) set[r.dataset.name] = +r.dataset.set;
  const n = (id) => (($(id).value.trim() === '') ? null : Number($(id).value));
  return { dt: n('dt'), t_end: n('tend'), every: n('every'), method: $('method').value || null, events: $('events').checked, set };
}

function run() {
  if (page.running) stop();
  clearTimeout(checkTimer); // checked here: a later check would overwrite the run's status
  const out = check();
  if (!out.ok) { status('fix the errors to run'); return; }
  page.running = true;
  page.runStart = performance.now();
  page.stopAt = null;
  page.work = { message_ms: 0, draw_ms: 0 };
  $('run').disabled = true;
  $('stop').disabled = false;
  $('progress').value = 0;
  $('notes').replaceChildren();
  status('running…');
  worker.postMessage({ type: 'run', path: page.path, text: text(), files: {}, options: options() });
}

function stop() {
  if (!page.running) return;
  page.stopAt = performance.now();
  worker.postMessage({ type: 'stop' });
}

function finish() {
  page.running = false;
  $('run').disabled = false;
  $('stop').disabled = true;
}

function onWorker(m) {
  if (m.type === 'start') {
    startData(m.variables);
  } else if (m.type === 'progress') {
    $('progress').value = m.steps ? m.done / m.steps : 1;
    status(`running: step ${m.done} of ${m.steps}`);
    more(m);
  } else if (m.type === 'events') {
    more(m);
  } else if (m.type === 'error' || m.type === 'fault') {
    finish();
    if (m.error.diagnostics) showDiagnostics(m.error.diagnostics);
    status(m.error.message || 'the model has errors');
    if (m.type === 'fault') {
      page.faults = (page.faults || 0) + 1;
      worker.terminate();
      newWorker();
    }
  } else if (m.type === 'result') {
    more(m);
    finish();
    const d = page.data;
    page.result = { stopped: m.stopped, done: m.done, steps: m.steps, stepping_ms: m.stepping_ms, fault: m.fault, rows: d.n, stride: d.stride, events: d.eventCount, work: page.work };
    page.runs = (page.runs || 0) + 1;
    page.timings.run_ms = performance.now() - page.runStart;
    if (page.stopAt !== null) page.timings.stop_ms = performance.now() - page.stopAt;
    if (page.timings.first_plot_ms === undefined) page.timings.first_plot_ms = performance.now();
    showResult(m);
    if (m.fault) {
      // The first NaN or infinity stopped the run: the steps before it are shown.
      status(`error: ${m.fault} (the ${m.done} steps before it are shown)`);
    } else {
      status(`${m.stopped ? 'stopped' : 'done'}: ${m.done} of ${m.steps} steps in ${(m.stepping_ms / 1000).toFixed(2)} s`);
    }
  }
}

// The run's data as it comes: the rows kept for the plot (each a time and, for every
// variable, its lowest and highest values: see worker.js), and the events.
function startData(variables) {
  page.data = { variables, n: 0, stride: 1, times: new Float64Array(1024), lo: variables.map(() => new Float64Array(1024)), hi: variables.map(() => new Float64Array(1024)), events: [], eventCount: 0, eventTimes: new Map() };
  showSeries(variables);
  plot.set(plotData());
  eventsShown = -1;
}

/** Adds the rows, events and warnings of a message of the worker; the plot follows at the next frame. */
function more(m) {
  const d = page.data;
  if (m.rows) {
    const r = m.rows;
    const n = r.from + r.times.length;
    if (n > d.times.length) {
      const size = Math.max(n, 2 * d.times.length);
      const grow = (a) => { const b = new Float64Array(size); b.set(a.subarray(0, d.n)); return b; };
      d.times = grow(d.times);
      d.lo = d.lo.map(grow);
      d.hi = d.hi.map(grow);
    }
    d.times.set(r.times, r.from);
    r.lo.forEach((a, k) => { d.lo[k].set(a, r.from); d.hi[k].set(r.hi ? r.hi[k] : a, r.from); });
    d.n = n;
    d.stride = r.stride;
  }
  // The first events whole (the table's rows), the later ones their times by name.
  const mark = (name, t) => {
    const times = d.eventTimes.get(name);
    if (times) times.push(t);
    else d.eventTimes.set(name, [t]);
  };
  if (m.events) for (const e of m.events) { d.events.push(e); mark(e.name, e.t); }
  if (m.marks) for (const [name, times] of m.marks) for (const t of times) mark(name, t);
  if (m.eventCount !== undefined) d.eventCount = m.eventCount;
  if (m.notes) showNotes(m.notes);
  drawSoon();
}

function showNotes(notes) {
  const ul = $('notes');
  ul.replaceChildren();
  for (const n of notes) ul.append(Object.assign(document.createElement('li'), { className: 'warning', textContent: n }));
}

/** The plot is drawn at most once a frame, however often the worker writes. */
let drawPending = false;
function drawSoon() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    const t0 = performance.now();
    drawPlot();
    page.work.draw_ms = Math.max(page.work.draw_ms, performance.now() - t0);
  });
}

let plot;
function showSeries(variables) {
  const box = $('series');
  const shown = new Set([...box.querySelectorAll('input:checked')].map((c) => c.value));
  const keep = shown.size && variables.some((v) => shown.has(v.name));
  box.replaceChildren();
  // At first: sitc run's columns, and the root's first few logical variables as strips.
  let strips = 0;
  const first = (v) => v.printed || (v.logical && !v.name.includes('.') && strips++ < 4);
  for (const v of variables) {
    const c = Object.assign(document.createElement('input'), { type: 'checkbox', value: v.name, checked: keep ? shown.has(v.name) : first(v) });
    c.onchange = () => drawPlot();
    const l = document.createElement('label');
    l.append(c, ` ${v.name}`);
    box.append(l);
  }
}

function showResult(m) {
  $('finals').textContent = m.finals;
  const [head, row] = m.finals.trim().split('\n');
  const table = $('values');
  table.replaceChildren();
  const names = head.split(','), values = (row || '').split(',');
  names.forEach((n, i) => { const tr = table.insertRow(); tr.insertCell().textContent = n; tr.insertCell().textContent = values[i] ?? ''; });
  const url = $('csv').href;
  if (url.startsWith('blob:')) URL.revokeObjectURL(url);
  $('csv').href = URL.createObjectURL(m.csv);
  $('csv').download = `${page.path.replace(/^.*\//, '').replace(/\.(sit|sch)$/, '')}.csv`;
  showEvents();
}

// The event log's table, with `sitc run --events`'s columns: its first rows (the
// worker sends no more of them whole: worker.js), built a few at a frame, and only while
// its tab is shown (a table of thousands of rows takes the page's thread long to lay out).
let eventsShown = -1;
function showEvents() {
  if (!$('tab-events').classList.contains('active') || !page.data || eventsShown === page.data.eventCount) return;
  const log = $('eventlog');
  const events = page.data.events;
  const count = page.data.eventCount;
  eventsShown = count;
  log.replaceChildren();
  const head = log.createTHead().insertRow();
  for (const h of ['t', 'name', 'from', 'to', 'rule']) head.append(Object.assign(document.createElement('th'), { textContent: h }));
  const body = log.createTBody();
  const upTo = events.length;
  let i = 0;
  const slice = () => {
    if (log.tBodies[0] !== body) return; // a newer table
    for (const end = Math.min(upTo, i + 200); i < end; i++) {
      const e = events[i];
      const tr = body.insertRow();
      for (const c of [e.time, e.name, e.from, e.to, e.rule]) tr.insertCell().textContent = c;
    }
    if (i < upTo) requestAnimationFrame(slice);
    else if (count > upTo) body.insertRow().insertCell().textContent = `… and ${count - upTo} more (sitc run --events writes them all)`;
  };
  slice();
}

function plotData() {
  const d = page.data;
  const on = new Set([...$('series').querySelectorAll('input:checked')].map((c) => c.value));
  const series = [];
  d.variables.forEach((v, k) => { if (on.has(v.name)) series.push({ name: v.name, logical: v.logical, lo: d.lo[k].subarray(0, d.n), hi: d.hi[k].subarray(0, d.n) }); });
  return { times: d.times.subarray(0, d.n), series, eventTimes: d.eventTimes };
}

function drawPlot() {
  if (!page.data) return;
  plot.update(plotData());
}

function applyRunLine(run) {
  $('dt').value = run.dt;
  $('tend').value = run.t_end;
  $('every').value = run.every;
  $('method').value = run.method || '';
}

/** Opens `t` as the library file `path`, or with `path` null as the user's own file. */
function load(path, t, andRun) {
  page.origin = path;
  page.edited = path === null;
  $('file').value = path || 'untitled';
  page.path = path || ownPath(t);
  page.info = null;
  $('params').replaceChildren();
  $('svg').replaceChildren();
  $('matrices').textContent = $('generated').textContent = '';
  loading = true;
  try { setText(t); } finally { loading = false; }
  clearTimeout(checkTimer);
  const out = check();
  applyRunLine(out.run);
  if (isSchematic()) selectTab('schematic');
  if (andRun) run();
}

function selectTab(name) {
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.id === `tab-${name}`);
  if (name === 'plot') plot.draw();
  if (name === 'events') showEvents();
}

async function share() {
  const link = `${location.origin}${location.pathname}#model=${encodeModel(text())}`;
  window.history.replaceState(null, '', link);
  page.shared = link;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    // No clipboard (an insecure page, a refusal): the address bar has it.
  }
  status(copied ? 'the link to this model is in the address bar and on the clipboard' : 'the link to this model is in the address bar');
}

/**
 * Opens the model of a share link (`#model=`): 'none' when the address is no share
 * link, 'bad' when it carries no model (the editor left as it was, and a message
 * says so), 'loaded'.
 */
function fromHash() {
  const m = /^#model=(.*)$/s.exec(location.hash);
  if (!m) return 'none';
  let t = null;
  if (/^[A-Za-z0-9_-]+$/.test(m[1])) {
    try { t = decodeModel(m[1]); } catch { t = null; }
  }
  if (t === null || !t.trim()) {
    status('this link carries no model: what follows #model= is not the base64url of a text (UTF-8); the editor is left as it was');
    page.badLinks = (page.badLinks || 0) + 1;
    return 'bad';
  }
  load(null, t, true);
  return 'loaded';
}

/** The model the page opens with. */
const DEFAULT = 'models/bouncing_ball.sit';

async function main() {
  const t0 = performance.now();
  await init();
  sit.set_panic_hook();
  page.timings.wasm_ms = performance.now() - t0;
  plot = new Plot($('plot'));
  newWorker();
  const lib = JSON.parse(sit.library());
  const select = $('library');
  select.append(new Option('— choose a model —', ''));
  for (const e of lib) select.append(new Option(`${e.path}${e.doc ? ' — ' + e.doc.slice(0, 60) : ''}`, e.path));
  select.onchange = () => { if (select.value) load(select.value, sit.library_file(select.value), !select.value.endsWith('.sch')); };
  const method = $('method');
  for (const name of JSON.parse(sit.methods())) method.append(new Option(name, name));
  // A name given in the file box: the text is the user's own file, under that name.
  $('file').onchange = () => { page.edited = true; check(); };
  for (const b of document.querySelectorAll('#tabs button')) b.onclick = () => selectTab(b.dataset.tab);
  $('run').onclick = run;
  $('stop').onclick = stop;
  $('format').onclick = format;
  $('share').onclick = share;
  startEditor('');
  $('file').value = 'untitled';
  if (fromHash() === 'none') { select.value = DEFAULT; load(DEFAULT, sit.library_file(DEFAULT), true); }
  window.addEventListener('hashchange', fromHash);
  page.timings.first_diagnostics_ms = performance.now(); // since the page was opened
  page.ready = true;
}
main();
