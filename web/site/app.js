// The page: the editor, the panes and the worker. Everything about Sit itself (checking,
// formatting, highlighting, running, schematics) is the WebAssembly module's.
import { EditorState, StateEffect, StateField, RangeSetBuilder } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, hoverTooltip, Decoration, ViewPlugin, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import init, * as sit from './pkg/sit_web.js';
import { Plot } from './plot.js';

const $ = (id) => document.getElementById(id);
const page = { path: 'models/bouncing_ball.sit', info: null, result: null, running: false, timings: {} };
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
function startEditor(text) {
  view = new EditorView({
    parent: $('editor'),
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), history(), highlightActiveLine(), bracketMatching(), indentOnInput(), lintGutter(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab,
          { key: 'Mod-Enter', run: () => { run(); return true; } },
          { key: 'Shift-Alt-f', run: () => { format(); return true; } }]),
        highlighter, hover,
        EditorView.updateListener.of((u) => { if (u.docChanged) { clearTimeout(checkTimer); checkTimer = setTimeout(check, 250); } }),
      ],
    }),
  });
}
const text = () => view.state.doc.toString();
function setText(t) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }); }
const isSchematic = () => page.path.endsWith('.sch');

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
  worker.onmessage = (e) => onWorker(e.data);
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
  $('run').disabled = true;
  $('stop').disabled = false;
  $('progress').value = 0;
  status('running…');
  worker.postMessage({ type: 'run', path: page.path, text: text(), files: {}, options: options() });
}

function stop() {
  if (!page.running) return;
  worker.postMessage({ type: 'stop' });
}

function finish() {
  page.running = false;
  $('run').disabled = false;
  $('stop').disabled = true;
}

function onWorker(m) {
  if (m.type === 'progress') {
    $('progress').value = m.steps ? m.done / m.steps : 1;
    status(`running: step ${m.done} of ${m.steps}`);
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
    finish();
    page.result = m;
    page.runs = (page.runs || 0) + 1;
    page.timings.run_ms = performance.now() - page.runStart;
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

let plot;
function showResult(m) {
  const box = $('series');
  const shown = new Set([...box.querySelectorAll('input:checked')].map((c) => c.value));
  const keep = shown.size && m.variables.some((v) => shown.has(v.name));
  box.replaceChildren();
  // At first: sitc run's columns, and the root's first few logical variables as strips.
  let strips = 0;
  const first = (v) => v.printed || (v.logical && !v.name.includes('.') && strips++ < 4);
  m.variables.forEach((v, k) => {
    const c = Object.assign(document.createElement('input'), { type: 'checkbox', value: v.name, checked: keep ? shown.has(v.name) : first(v) });
    c.onchange = () => drawPlot();
    const l = document.createElement('label');
    l.append(c, ` ${v.name}`);
    box.append(l);
  });
  drawPlot();
  $('finals').textContent = m.finals;
  const [head, row] = m.finals.trim().split('\n');
  const table = $('values');
  table.replaceChildren();
  const names = head.split(','), values = row.split(',');
  names.forEach((n, i) => { const tr = table.insertRow(); tr.insertCell().textContent = n; tr.insertCell().textContent = values[i]; });
  const url = $('csv').href;
  if (url.startsWith('blob:')) URL.revokeObjectURL(url);
  $('csv').href = URL.createObjectURL(new Blob([m.csv], { type: 'text/csv' }));
  const log = $('eventlog');
  log.innerHTML = '<tr><th>t</th><th>name</th><th>from</th><th>to</th><th>why (the rule)</th></tr>';
  for (const e of m.events.slice(0, 5000)) { const tr = log.insertRow(); for (const c of [e.t, e.name, e.from, e.to, e.rule]) tr.insertCell().textContent = c; }
}

function drawPlot() {
  const m = page.result;
  if (!m) return;
  const on = new Set([...$('series').querySelectorAll('input:checked')].map((c) => c.value));
  const series = m.variables.map((v, k) => ({ name: v.name, logical: v.logical, values: m.traces[k] })).filter((s) => on.has(s.name));
  plot.set({ times: m.times, series, events: m.events });
}

function applyRunLine(run) {
  $('dt').value = run.dt;
  $('tend').value = run.t_end;
  $('every').value = run.every;
  $('method').value = run.method || '';
}

function load(path, t, andRun) {
  page.path = path;
  page.info = null;
  $('params').replaceChildren();
  $('svg').replaceChildren();
  $('matrices').textContent = $('generated').textContent = '';
  setText(t);
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
}

function share() {
  const link = `${location.origin}${location.pathname}#model=${encodeModel(text())}`;
  history.replaceState(null, '', link);
  navigator.clipboard?.writeText(link).catch(() => {});
  status('the link to this model is in the address bar');
}

function fromHash() {
  const m = /^#model=([A-Za-z0-9_-]*)$/.exec(location.hash);
  if (!m) return false;
  let t;
  try { t = decodeModel(m[1]); } catch { status('the link does not carry a model (bad base64url or UTF-8)'); return false; }
  load(/^\s*(\/\/\/.*\n\s*)*schematic\s/.test(t) ? 'shared.sch' : 'shared.sit', t, true);
  return true;
}

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
  for (const b of document.querySelectorAll('#tabs button')) b.onclick = () => selectTab(b.dataset.tab);
  $('run').onclick = run;
  $('stop').onclick = stop;
  $('format').onclick = format;
  $('share').onclick = share;
  startEditor('');
  if (!fromHash()) { select.value = page.path; load(page.path, sit.library_file(page.path), true); }
  window.addEventListener('hashchange', fromHash);
  page.timings.first_diagnostics_ms = performance.now(); // since the page was opened
  page.ready = true;
}
main();
