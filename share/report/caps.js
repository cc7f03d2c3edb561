/* caps.js: the strip per capability under the report's heap view, for a -threaded run
 * with the scheduler's events, as the heap view of the charts draws it
 * (src/chart/view_heap.c).
 *
 * The figures are the run's data.cap_timeline (sink/cap_summary.c, from
 * model/capstats.h's timeline): the run cut into slots of width_s seconds, and per
 * capability the time it ran Haskell threads and collected in each. In each slot the
 * running share of the slot's time (up to the run's end) rises from the strip's foot in
 * the running ink, the collecting share above it; the ground left over is idle. So a
 * strip's areas are the capability's shares of the run (data.capabilities), which its
 * tooltip states. The strips share the heap chart's margins and time range (a zoom
 * zooms them too). The page (report.js) asks for it with
 * ev2hp.capStrips(run, range, width, margins): a figure, or null when the run has no
 * strip. Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const { el, svg } = ev2hp.kit;

  const ROW_MAX = 10; // a capability's strip, as in the charts
  const ROW_MIN = 3;
  const ROWS_MAX = 120; // all strips: more capabilities get thinner ones
  const GAP = 2;
  const LEGEND = 20; // the legend's line above the strips

  function capStrips(run, range, W, M) {
    const tl = run.cap_timeline;
    if (!tl || !tl.caps.length) return null;
    const n = tl.caps.length;
    const row = Math.max(ROW_MIN, Math.min(ROW_MAX, ROWS_MAX / n - GAP));
    const H = LEGEND + n * (row + GAP) + 4;
    const pw = W - M.left - M.right;
    const [t0, t1] = range;
    const x = (t) => M.left + ((t - t0) / (t1 - t0)) * pw;
    const clampX = (v) => Math.max(M.left, Math.min(M.left + pw, v));
    const s = svg("svg", {
      viewBox: "0 0 " + W + " " + H,
      class: "chart capstrips",
      role: "img",
      "aria-label": "each capability running, collecting, idle",
    });
    // the legend: a swatch and its word each
    let lx = M.left;
    for (const [key, word] of [
      ["running", "running Haskell threads"],
      ["gc", "collecting"],
      ["idle", "idle"],
    ]) {
      s.append(svg("rect", { x: lx, y: 6, width: 9, height: 9, fill: tl.inks[key] }));
      const t = svg("text", { x: lx + 12, y: 14, class: "cap-legend" });
      t.textContent = word;
      s.append(t);
      lx += 12 + word.length * 6 + 14;
    }
    const note = svg("text", { x: lx, y: 14, class: "cap-legend hint" });
    note.textContent = "each capability, from the scheduler's and the collector's events";
    s.append(note);

    const shares = new Map((run.capabilities || []).map((c) => [c.cap, c]));
    const pct = (v) => (100 * v).toFixed(1) + " %";
    tl.caps.forEach((c, i) => {
      const foot = LEGEND + (i + 1) * (row + GAP);
      const share = shares.get(c.cap);
      const name = "cap " + c.cap;
      const tip = share
        ? `${name}: ${pct(share.running)} running, ${pct(share.gc)} collecting, ` +
          `${pct(share.idle)} idle`
        : name;
      const g = svg("g", { class: "capstrip", "data-cap": c.cap });
      const a = clampX(x(0));
      const b = clampX(x(tl.end_s));
      const ground = svg("rect", {
        class: "cap-idle",
        x: a,
        y: foot - row,
        width: Math.max(0, b - a),
        height: row,
        fill: tl.inks.idle,
      });
      ground.append(svg("title"));
      ground.firstChild.textContent = tip;
      g.append(ground);
      c.running_s.forEach((run_s, k) => {
        const s0 = k * tl.width_s;
        const s1 = Math.min(s0 + tl.width_s, tl.end_s);
        const gc_s = c.gc_s[k];
        if (!(s1 > s0) || !(run_s || gc_s)) return;
        const xa = clampX(x(s0));
        const xb = clampX(x(s1));
        if (!(xb > xa)) return;
        const hr = (row * run_s) / (s1 - s0);
        const hg = (row * gc_s) / (s1 - s0);
        if (hr > 0)
          g.append(
            svg("rect", {
              class: "cap-running",
              x: xa,
              y: foot - hr,
              width: xb - xa,
              height: hr,
              fill: tl.inks.running,
            }),
          );
        if (hg > 0)
          g.append(
            svg("rect", {
              class: "cap-gc",
              x: xa,
              y: foot - hr - hg,
              width: xb - xa,
              height: hg,
              fill: tl.inks.gc,
            }),
          );
      });
      if (row >= 7 || i === 0 || i === n - 1) {
        const label = svg("text", { x: M.left - 6, y: foot - row / 2 + 3.5, class: "ylabel" });
        label.textContent = name;
        g.append(label);
      }
      s.append(g);
    });
    return el("figure", { class: "panel", id: "capstrips" }, s);
  }

  ev2hp.capStrips = capStrips;
})((window.ev2hp = window.ev2hp || {}));
