// A small canvas plotter: one panel per real variable, logical variables as strips,
// the events as marks, zoom by dragging across the time axis. Each row of the data
// stands for one trace row or several (a long run's rows are merged in pairs past a
// bound, see worker.js): its lowest and highest values are drawn, so a merged row
// hides no peak.

/** Round steps for an axis from `lo` to `hi`: about `n` ticks. */
function ticks(lo, hi, n) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

const label = (v) => (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : String(+v.toPrecision(6)));
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4d7c0f'];

export class Plot {
  constructor(canvas) {
    this.canvas = canvas;
    this.data = null;
    this.range = null;
    this.drag = null;
    canvas.addEventListener('mousedown', (e) => { this.drag = { x0: this.xOf(e), x1: this.xOf(e) }; });
    canvas.addEventListener('mousemove', (e) => { if (this.drag) { this.drag.x1 = this.xOf(e); this.draw(); } });
    canvas.addEventListener('mouseup', () => {
      const d = this.drag;
      this.drag = null;
      if (d && Math.abs(d.x1 - d.x0) > 4 && this.frame) {
        const t = (x) => this.frame.t0 + ((x - this.frame.left) / this.frame.width) * (this.frame.t1 - this.frame.t0);
        this.range = [t(Math.min(d.x0, d.x1)), t(Math.max(d.x0, d.x1))];
      }
      this.draw();
    });
    canvas.addEventListener('dblclick', () => { this.range = null; this.draw(); });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  xOf(e) {
    const r = this.canvas.getBoundingClientRect();
    return e.clientX - r.left;
  }

  /**
   * `data`: {times, series: [{name, lo, hi, logical}], eventTimes: Map(name → [t])},
   * `lo` and `hi` the lowest and highest values of each row, the events' times in
   * order. A new run: the zoom is reset.
   */
  set(data) {
    this.data = data;
    this.range = null;
    this.draw();
  }

  /** The same run with more rows: the zoom is kept. */
  update(data) {
    this.data = data;
    this.draw();
  }

  draw() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (!w || !h) return;
    // A new size of the canvas's pixels only when it changed (each is a new bitmap).
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    g.font = '11px system-ui, sans-serif';
    const d = this.data;
    if (!d || !d.times.length) return;
    const times = d.times;
    const [t0, t1] = this.range || [times[0], times[times.length - 1] > times[0] ? times[times.length - 1] : times[0] + 1];
    const reals = d.series.filter((s) => !s.logical);
    const flags = d.series.filter((s) => s.logical);
    const left = 64, right = 10, top = 8, bottom = 22, strip = 14;
    const width = w - left - right;
    this.frame = { left, width, t0, t1 };
    const stripsH = flags.length * (strip + 2);
    const panelsH = Math.max(0, h - top - bottom - stripsH - (flags.length ? 6 : 0));
    const panelH = reals.length ? panelsH / reals.length : 0;
    const x = (t) => left + ((t - t0) / (t1 - t0)) * width;
    // The rows in the visible range.
    let i0 = 0, i1 = times.length - 1;
    while (i0 < times.length - 1 && times[i0 + 1] < t0) i0++;
    while (i1 > 0 && times[i1 - 1] > t1) i1--;
    reals.forEach((s, k) => {
      const y0 = top + k * panelH, ph = panelH - 8;
      let lo = Infinity, hi = -Infinity;
      for (let i = i0; i <= i1; i++) {
        const a = s.lo[i], b = s.hi[i];
        if (Number.isFinite(a) && a < lo) lo = a;
        if (Number.isFinite(b) && b > hi) hi = b;
      }
      if (!Number.isFinite(lo)) { lo = -1; hi = 1; }
      if (hi === lo) { hi += Math.abs(hi) * 0.1 || 1; lo -= Math.abs(lo) * 0.1 || 1; }
      const y = (v) => y0 + ph - ((v - lo) / (hi - lo)) * ph;
      g.strokeStyle = '#e5e7eb';
      g.fillStyle = '#555';
      g.textAlign = 'right';
      for (const v of ticks(lo, hi, Math.max(2, Math.floor(ph / 40)))) {
        g.beginPath(); g.moveTo(left, y(v)); g.lineTo(left + width, y(v)); g.stroke();
        g.fillText(label(v), left - 4, y(v) + 4);
      }
      g.strokeStyle = '#999';
      g.strokeRect(left, y0, width, ph);
      g.save();
      g.beginPath(); g.rect(left, y0, width, ph); g.clip();
      g.strokeStyle = COLORS[k % COLORS.length];
      g.lineWidth = 1.25;
      g.beginPath();
      // At most two points a pixel column: its lowest and its highest.
      let col = -1, cmin = 0, cmax = 0, started = false;
      const flush = () => { if (col >= 0) { const a = y(cmin), b = y(cmax); if (!started) { g.moveTo(col, a); started = true; } else g.lineTo(col, a); g.lineTo(col, b); } };
      for (let i = i0; i <= i1; i++) {
        const a = s.lo[i], b = s.hi[i];
        if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
        const px = Math.round(x(times[i]));
        if (px !== col) { flush(); col = px; cmin = a; cmax = b; } else { if (a < cmin) cmin = a; if (b > cmax) cmax = b; }
      }
      flush();
      g.stroke();
      g.restore();
      g.fillStyle = COLORS[k % COLORS.length];
      g.textAlign = 'left';
      g.fillText(s.name, left + 4, y0 + 12);
    });
    flags.forEach((s, k) => {
      const y0 = top + panelsH + 6 + k * (strip + 2);
      g.fillStyle = '#f3f4f6';
      g.fillRect(left, y0, width, strip);
      g.fillStyle = '#60a5fa';
      // One rectangle for each stretch of rows in which the flag is on.
      let on = -1;
      const fill = (i) => { const a = Math.max(left, x(times[on])), b = Math.min(left + width, x(times[i])); if (b > a) g.fillRect(a, y0, Math.max(1, b - a), strip); };
      for (let i = i0; i < i1; i++) {
        const lit = s.hi[i] !== 0 || s.lo[i] !== 0;
        if (lit && on < 0) on = i;
        else if (!lit && on >= 0) { fill(i); on = -1; }
      }
      if (on >= 0) fill(i1);
      // The events of the flag, one mark a pixel column (they come in time order).
      g.fillStyle = '#b91c1c';
      let col = NaN;
      for (const t of (d.eventTimes && d.eventTimes.get(s.name)) || []) {
        if (t < t0 || t > t1) continue;
        const px = Math.round(x(t));
        if (px !== col) { g.fillRect(px - 0.5, y0, 1, strip); col = px; }
      }
      g.fillStyle = '#333';
      g.textAlign = 'right';
      g.fillText(s.name, left - 4, y0 + 11);
    });
    g.fillStyle = '#555';
    g.textAlign = 'center';
    for (const t of ticks(t0, t1, Math.max(2, Math.floor(width / 90)))) g.fillText(label(t), x(t), h - 6);
    if (this.drag) {
      g.fillStyle = 'rgba(37, 99, 235, 0.15)';
      g.fillRect(Math.min(this.drag.x0, this.drag.x1), top, Math.abs(this.drag.x1 - this.drag.x0), h - top - bottom);
    }
  }
}
