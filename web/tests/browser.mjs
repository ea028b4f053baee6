// Drives the page in headless Chromium (Debian's /usr/bin/chromium through playwright-core)
// and prints what it saw as one JSON object; cli/tests/browser.rs checks it against sitc.
// Usage: node browser.mjs BASE_URL CASES.json SCREENSHOT.png PROFILE_DIR
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [base, casesPath, screenshot, profile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const report = {};
const started = Date.now();
const step = (name) => { process.stderr.write(`browser: ${((Date.now() - started) / 1000).toFixed(1)} s: ${name}\n`); };

const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.SIT_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 900 },
});
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
const errors = [];
/** Collects the page's errors (an exception, a console error) into `errors`. */
function watch(p) {
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return p;
}
const page = watch(context.pages()[0] || (await context.newPage()));

/** Waits for the run after `count` runs of page `p` to end, and returns its finals and status. */
async function runEnded(count, p = page) {
  await p.waitForFunction((n) => window.sitPage.runs >= n && !window.sitPage.running, count, { timeout: 120000 });
  return p.evaluate(() => ({
    finals: document.getElementById('finals').textContent,
    status: document.getElementById('status').textContent,
    ...window.sitPage.result,
  }));
}
const runs = () => page.evaluate(() => window.sitPage.runs || 0);
const editorText = (p = page) => p.evaluate(() => document.querySelector('.cm-content').innerText);
async function opened(p, url) {
  await p.goto(url);
  await p.waitForFunction(() => window.sitPage && window.sitPage.ready, null, { timeout: 60000 });
}

async function type(text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Sets dt, t-end and every. */
async function options(dt, tEnd, every) {
  await page.fill('#dt', String(dt));
  await page.fill('#tend', String(tEnd));
  await page.fill('#every', String(every));
}

/** The text of the CSV the page offers to download. */
const csvText = () => page.evaluate(async () => (await fetch(document.getElementById('csv').href)).text());

// The gaps between the page's frames (requestAnimationFrame's timestamps, ms) while
// `during` runs: the page's main thread is free when they stay near 16.7 ms.
async function frameGaps(during) {
  await page.evaluate(() => {
    const f = (window.__frames = { gaps: [], last: 0, on: true });
    const loop = (t) => {
      if (f.last) f.gaps.push(t - f.last);
      f.last = t;
      if (f.on) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  const out = await during();
  // A few frames after the end, for the work that the last message brings.
  await page.waitForTimeout(250);
  const { gaps, work } = await page.evaluate(() => {
    window.__frames.on = false;
    return { gaps: window.__frames.gaps, work: window.sitPage.work };
  });
  const sorted = [...gaps].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
  return { out, frames: { count: gaps.length, max: at(1), p99: at(0.99), p95: at(0.95), p90: at(0.9), median: at(0.5), ...work } };
}

try {
  step('open');
  await opened(page, `${base}/index.html`);
  await runEnded(1);
  report.timings = await page.evaluate(() => window.sitPage.timings);
  report.methods = await page.evaluate(() => [...document.querySelectorAll('#method option')].map((o) => o.value).filter((v) => v));

  step('an unknown name, typed over the library model');
  await type(cases.unknown);
  await page.waitForSelector('#diagnostics li[data-code="E0101"]', { timeout: 10000 });
  report.unknown = await page.evaluate(() => ({
    line: Number(document.querySelector('#diagnostics li[data-code="E0101"]').dataset.line),
    text: document.querySelector('#diagnostics li[data-code="E0101"]').textContent,
    underlined: document.querySelectorAll('.cm-lintRange-error').length,
    file: document.getElementById('file').value,
  }));

  step('a missing semicolon');
  await type(cases.missing_semicolon);
  await page.waitForSelector(`#diagnostics li.error[data-line="${cases.missing_semicolon_line}"]`, { timeout: 10000 });
  report.semicolon = await page.evaluate(() => ({
    text: document.querySelector('#diagnostics li.error').textContent,
    underlines: [...document.querySelectorAll('.cm-lintRange-error')].map((e) => ({ text: e.textContent, width: e.getBoundingClientRect().width })),
  }));

  step('a name given to the file');
  await page.fill('#file', cases.own_name);
  await page.dispatchEvent('#file', 'change');
  await page.waitForFunction((name) => (document.querySelector('#diagnostics li.error') || {}).textContent?.startsWith(`${name}.sit:`), cases.own_name, { timeout: 10000 });
  report.own_name = await page.evaluate(() => ({ text: document.querySelector('#diagnostics li.error').textContent, file: document.getElementById('file').value, path: window.sitPage.path }));

  step('fixed and run');
  const before = await runs();
  await type(cases.fixed);
  await page.waitForFunction(() => document.getElementById('diagnostics').children.length === 0, null, { timeout: 10000 });
  await options(cases.dt, cases.t_end, 1);
  await page.click('#run');
  report.fixed = await runEnded(before + 1);

  step('share');
  // A model whose text is not ASCII, run with the options of its Run line.
  await type(cases.shared);
  await options(cases.shared_dt, cases.shared_t_end, 1);
  const s0 = await runs();
  await page.click('#run');
  report.share_button_run = await runEnded(s0 + 1);
  await page.click('#share');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('address bar'), null, { timeout: 10000 });
  const link = page.url();
  report.share_button = {
    address: link,
    status: await page.textContent('#status'),
    clipboard: await page.evaluate(() => navigator.clipboard.readText()),
    text: await editorText(),
  };
  const other = watch(await context.newPage());
  await opened(other, link);
  const shared = await runEnded(1, other);
  report.share_button.opened = { finals: shared.finals, text: await editorText(other), path: await other.evaluate(() => window.sitPage.path) };
  await other.close();

  step('a schematic, then a model typed over it');
  await page.selectOption('#library', cases.schematic);
  await page.waitForSelector('#svg svg', { timeout: 20000 });
  report.schematic = await page.evaluate(() => ({
    svg_elements: document.querySelectorAll('#svg svg *').length,
    matrices: document.getElementById('matrices').textContent,
    generated: document.getElementById('generated').textContent,
    tab: document.querySelector('#tabs button.active').dataset.tab,
  }));
  await type(cases.light);
  await options(cases.light_dt, cases.light_t_end, cases.light_every);
  const n0 = await runs();
  await page.click('#run');
  const light = await runEnded(n0 + 1);
  await page.click('#tabs button[data-tab="events"]');
  await page.waitForFunction(() => document.querySelectorAll('#eventlog tbody tr').length > 0, null, { timeout: 10000 });
  report.typed_after_schematic = {
    ...light,
    path: await page.evaluate(() => window.sitPage.path),
    csv: await csvText(),
    events: await page.evaluate(() => [...document.querySelectorAll('#eventlog tr')].slice(0, 40).map((tr) => [...tr.cells].map((c) => c.textContent).join(','))),
  };
  await page.click('#tabs button[data-tab="plot"]');

  step('the Values tab against the CSV');
  const n1 = await runs();
  await page.selectOption('#library', cases.values_model);
  await runEnded(n1 + 1);
  await options(cases.values_dt, cases.values_t_end, cases.values_every);
  await page.click('#run');
  report.values = { ...(await runEnded(n1 + 2)), csv: await csvText() };

  step('a stiff model under an explicit method');
  const n2 = await runs();
  await page.selectOption('#library', cases.stiff_model);
  await runEnded(n2 + 1);
  await page.selectOption('#method', cases.stiff_method);
  await page.click('#run');
  report.stiff = { ...(await runEnded(n2 + 2)), notes: await page.evaluate(() => [...document.querySelectorAll('#notes li')].map((l) => l.textContent)) };
  await page.selectOption('#method', '');

  step('a long run, stopped');
  await type(cases.long);
  await options(cases.long_dt, cases.long_t_end, cases.long_every);
  const n = await runs();
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 30000 });
  const t0 = Date.now();
  await page.click('#stop');
  report.long = await runEnded(n + 1);
  report.long.stop_ms = Date.now() - t0;

  step('every step of a long run, stopped');
  await options(cases.every_dt, cases.every_t_end, 1);
  const e0 = await runs();
  const every = await frameGaps(async () => {
    await page.click('#run');
    await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 30000 });
    await page.waitForTimeout(cases.every_run_ms);
    const t = Date.now();
    await page.click('#stop');
    const out = await runEnded(e0 + 1);
    return { ...out, stop_click_ms: Date.now() - t, page_stop_ms: await page.evaluate(() => window.sitPage.timings.stop_ms) };
  });
  // The CSV to download: every row, counted in the page.
  every.out.csv = await page.evaluate(async () => {
    const blob = await (await fetch(document.getElementById('csv').href)).blob();
    const reader = blob.stream().getReader();
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    return { bytes: blob.size, lines, head: await blob.slice(0, 200).text(), tail: await blob.slice(Math.max(0, blob.size - 300)).text() };
  });
  report.every = { ...every.out, frames: every.frames };

  step('a fault of the model');
  await type(cases.fault);
  await options(0.25, 1, 1);
  await page.click('#run');
  await page.waitForFunction(() => window.sitPage.faults === 1 && !window.sitPage.running, null, { timeout: 30000 });
  report.fault = await page.evaluate(() => document.getElementById('status').textContent);

  step('speed');
  await type(cases.speed);
  await options(cases.speed_dt, cases.speed_t_end, cases.speed_every);
  await page.uncheck('#events');
  const m = await runs();
  const speed = await frameGaps(async () => {
    await page.click('#run');
    return runEnded(m + 1);
  });
  report.speed = { ...speed.out, frames: speed.frames };

  step('screenshot');
  await page.check('#events');
  await page.selectOption('#library', cases.screenshot_model);
  await runEnded(m + 2);
  await page.click('#tabs button[data-tab="plot"]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshot });
  report.wasm_bytes = await page.evaluate(async () => (await (await fetch('pkg/sit_web.wasm')).arrayBuffer()).byteLength);

  step('a phone');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  report.phone = await page.evaluate(() => ({
    width: window.innerWidth,
    document_width: document.documentElement.scrollWidth,
    body_width: document.body.scrollWidth,
    editor_width: document.querySelector('.cm-editor').getBoundingClientRect().width,
  }));
  // Every control: scrolled to, inside the screen's width, and the one a tap there meets.
  const controls = await page.evaluate(() => {
    const all = [...document.querySelectorAll('header button, header input, header select, #tabs button, #params input, #series input')];
    all.forEach((e, i) => { e.dataset.phone = i; });
    return all.map((e) => e.dataset.phone);
  });
  report.phone.controls = controls.length;
  report.phone.unreachable = [];
  for (const k of controls) {
    const el = page.locator(`[data-phone="${k}"]`);
    await el.scrollIntoViewIfNeeded();
    const seen = await el.evaluate((e) => {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const ok = r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight
        && hit !== null && (hit === e || e.contains(hit) || hit.contains(e));
      return ok ? null : `${e.tagName.toLowerCase()}#${e.id || e.value || e.textContent}: ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}, hit ${hit && hit.tagName}`;
    });
    if (seen) report.phone.unreachable.push(seen);
  }
  await page.click('#tabs button[data-tab="values"]');
  report.phone.tab = await page.evaluate(() => document.querySelector('#tabs button.active').dataset.tab);
  await page.click('#tabs button[data-tab="plot"]');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshot.replace(/\.png$/, '-phone.png'), fullPage: true });

  step('links that carry no model');
  report.bad_links = [];
  for (const fragment of cases.bad_fragments) {
    const p = watch(await context.newPage());
    await opened(p, `${base}/index.html#model=${fragment}`);
    await p.waitForTimeout(300);
    report.bad_links.push({
      fragment,
      status: await p.textContent('#status'),
      text: await editorText(p),
      runs: await p.evaluate(() => window.sitPage.runs || 0),
    });
    await p.close();
  }
  // A bad link while a model is open: the model stays.
  const kept = await editorText();
  await page.evaluate((f) => { location.hash = `#model=${f}`; }, cases.bad_fragments[1]);
  await page.waitForFunction(() => window.sitPage.badLinks >= 1, null, { timeout: 10000 });
  report.bad_link_kept = { same: (await editorText()) === kept, status: await page.textContent('#status') };
} catch (e) {
  report.failure = String(e && e.stack ? e.stack : e);
  try { await page.screenshot({ path: screenshot }); } catch {}
} finally {
  report.errors = errors;
  report.page_s = (Date.now() - started) / 1000;
  await context.close();
}
console.log(JSON.stringify(report));
