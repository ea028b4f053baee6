// Drives the page in headless Chromium (Debian's /usr/bin/chromium through playwright-core)
// and prints what it saw as one JSON object; cli/tests/browser.rs checks it against sitc.
// Usage: node browser.mjs BASE_URL CASES.json SCREENSHOT.png PROFILE_DIR
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [base, casesPath, screenshot, profile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const report = {};
const step = (name) => { process.stderr.write(`browser: ${name}\n`); };

const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.SIT_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 900 },
});
const page = context.pages()[0] || (await context.newPage());
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

/** Waits for the run after `count` runs to end, and returns its finals and status. */
async function runEnded(count) {
  await page.waitForFunction((n) => window.sitPage.runs >= n && !window.sitPage.running, count, { timeout: 120000 });
  return page.evaluate(() => ({
    finals: document.getElementById('finals').textContent,
    status: document.getElementById('status').textContent,
    stopped: window.sitPage.result.stopped,
    done: window.sitPage.result.done,
    steps: window.sitPage.result.steps,
    stepping_ms: window.sitPage.result.stepping_ms,
  }));
}
const runs = () => page.evaluate(() => window.sitPage.runs || 0);

async function type(text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

try {
  step('open');
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.sitPage && window.sitPage.ready, null, { timeout: 60000 });
  await runEnded(1);
  report.timings = await page.evaluate(() => window.sitPage.timings);

  step('an unknown name');
  await type(cases.unknown);
  await page.waitForSelector('#diagnostics li[data-code="E0101"]', { timeout: 10000 });
  report.unknown = await page.evaluate(() => ({
    line: Number(document.querySelector('#diagnostics li[data-code="E0101"]').dataset.line),
    text: document.querySelector('#diagnostics li[data-code="E0101"]').textContent,
    underlined: document.querySelectorAll('.cm-lintRange-error').length,
  }));

  step('fixed and run');
  const before = await runs();
  await type(cases.fixed);
  await page.waitForFunction(() => document.getElementById('diagnostics').children.length === 0, null, { timeout: 10000 });
  await page.fill('#dt', String(cases.dt));
  await page.fill('#tend', String(cases.t_end));
  await page.fill('#every', '1');
  await page.click('#run');
  report.fixed = await runEnded(before + 1);

  step('a schematic');
  await page.selectOption('#library', cases.schematic);
  await page.waitForSelector('#svg svg', { timeout: 20000 });
  report.schematic = await page.evaluate(() => ({
    svg_elements: document.querySelectorAll('#svg svg *').length,
    matrices: document.getElementById('matrices').textContent,
    generated: document.getElementById('generated').textContent,
    tab: document.querySelector('#tabs button.active').dataset.tab,
  }));

  step('a share link');
  await page.goto('about:blank');
  await page.goto(`${base}/index.html#model=${cases.share_fragment}`);
  await page.waitForFunction(() => window.sitPage && window.sitPage.ready, null, { timeout: 60000 });
  report.share = await runEnded(1);
  report.share.text = await page.evaluate(() => document.querySelector('.cm-content').innerText);
  report.share.path = await page.evaluate(() => window.sitPage.path);

  step('a long run, stopped');
  await type(cases.long);
  await page.fill('#dt', String(cases.long_dt));
  await page.fill('#tend', String(cases.long_t_end));
  await page.fill('#every', String(cases.long_every));
  const n = await runs();
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 30000 });
  const t0 = Date.now();
  await page.click('#stop');
  report.long = await runEnded(n + 1);
  report.long.stop_ms = Date.now() - t0;

  step('a fault of the model');
  await type(cases.fault);
  await page.fill('#dt', '0.25');
  await page.fill('#tend', '1');
  await page.fill('#every', '1');
  await page.click('#run');
  await page.waitForFunction(() => window.sitPage.faults === 1 && !window.sitPage.running, null, { timeout: 30000 });
  report.fault = await page.evaluate(() => document.getElementById('status').textContent);

  step('speed');
  await type(cases.speed);
  await page.fill('#dt', String(cases.speed_dt));
  await page.fill('#tend', String(cases.speed_t_end));
  await page.fill('#every', String(cases.speed_every));
  await page.uncheck('#events');
  const m = await runs();
  await page.click('#run');
  report.speed = await runEnded(m + 1);

  step('screenshot');
  await page.check('#events');
  await page.selectOption('#library', cases.screenshot_model);
  await runEnded(m + 2);
  await page.click('#tabs button[data-tab="plot"]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshot });
  report.wasm_bytes = await page.evaluate(async () => (await (await fetch('pkg/sit_web.wasm')).arrayBuffer()).byteLength);
} catch (e) {
  report.failure = String(e && e.stack ? e.stack : e);
  try { await page.screenshot({ path: screenshot }); } catch {}
} finally {
  report.errors = errors;
  await context.close();
}
console.log(JSON.stringify(report));
