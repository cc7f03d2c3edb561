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
 * strip.
 *
 * Under them, for a run with the nonmoving collector (`+RTS --nonmoving-gc`), one strip
 * of its phases (ev2hp.nonmovingStrip, the same arguments), from data.nonmoving_timeline
 * (sink/cap_summary.c, from model/capstats.h's nonmoving timeline): per slot the time
 * it synchronised (the program stopped), marked beside the program and swept, as
 * shares of the slot's height from the strip's foot, drawn as the capabilities' are.
 * Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const { el, svg } = ev2hp.kit;

  const ROW_MAX = 10; // a capability's strip, as in the charts
  const ROW_MIN = 3;
  const ROWS_MAX = 120; // all strips: more capabilities get thinner ones
  const GAP = 2;
  const LEGEND = 20; // the legend's line above the strips

  // a swatch and its word, at lx on the legend's line; the x after it
  function legendEntry(s, lx, ink, word) {
    s.append(svg("rect", { x: lx, y: 6, width: 9, height: 9, fill: ink }));
    const t = svg("text", { x: lx + 12, y: 14, class: "cap-legend" });
    t.textContent = word;
    s.append(t);
    return lx + 12 + word.length * 6 + 14;
  }

  // The two kinds of strip panel: their class, what they show (the svg's label), their
  // legend's words each with the key of its ink in the timeline's inks, and where the
  // strips come from.
  const CAP_PANEL = {
    cls: "capstrips",
    label: "each capability running, collecting, idle",
    words: [
      ["running", "running Haskell threads"],
      ["gc", "collecting"],
      ["idle", "idle"],
    ],
    note: "each capability, from the scheduler's and the collector's events",
  };
  const NM_PANEL = {
    cls: "nmstrip",
    label: "the nonmoving collector marking, synchronising, sweeping",
    words: [
      ["mark", "marking"],
      ["sync", "synchronising (program stopped)"],
      ["sweep", "sweeping"],
    ],
    note: "nonmoving GC, from the collector's events",
  };

  // A strip panel's svg (W by H) with its legend line from left, in the timeline's inks.
  function stripPanel(panel, inks, W, H, left) {
    const s = svg("svg", {
      viewBox: "0 0 " + W + " " + H,
      class: "chart " + panel.cls,
      role: "img",
      "aria-label": panel.label,
    });
    let lx = left;
    for (const [ink, word] of panel.words) lx = legendEntry(s, lx, inks[ink], word);
    const t = svg("text", { x: lx, y: 14, class: "cap-legend hint" });
    t.textContent = panel.note;
    s.append(t);
    return s;
  }

  // the x of time t (seconds) in the chart's range, and the same kept to the plot
  function timeAxis(range, W, M) {
    const pw = W - M.left - M.right;
    const [t0, t1] = range;
    const x = (t) => M.left + ((t - t0) / (t1 - t0)) * pw;
    const clampX = (v) => Math.max(M.left, Math.min(M.left + pw, v));
    return { x, clampX };
  }

  // A strip's ground, titled tip, and per slot of width_s (up to end_s) each series'
  // share of it, stacked from the foot: series are [class, seconds per slot, ink].
  function slotStrip(g, axis, foot, row, width_s, end_s, ground, tip, series) {
    const { x, clampX } = axis;
    const a = clampX(x(0));
    const b = clampX(x(end_s));
    const rect = svg("rect", {
      class: ground[0],
      x: a,
      y: foot - row,
      width: Math.max(0, b - a),
      height: row,
      fill: ground[1],
    });
    rect.append(svg("title"));
    rect.firstChild.textContent = tip;
    g.append(rect);
    series[0][1].forEach((_, k) => {
      const s0 = k * width_s;
      const s1 = Math.min(s0 + width_s, end_s);
      if (!(s1 > s0) || !series.some(([, secs]) => secs[k])) return;
      const xa = clampX(x(s0));
      const xb = clampX(x(s1));
      if (!(xb > xa)) return;
      let top = foot;
      for (const [cls, secs, ink] of series) {
        const h = (row * secs[k]) / (s1 - s0);
        if (h > 0)
          g.append(
            svg("rect", { class: cls, x: xa, y: top - h, width: xb - xa, height: h, fill: ink }),
          );
        top -= h;
      }
    });
  }

  function capStrips(run, range, W, M) {
    const tl = run.cap_timeline;
    if (!tl || !tl.caps.length) return null;
    const n = tl.caps.length;
    const row = Math.max(ROW_MIN, Math.min(ROW_MAX, ROWS_MAX / n - GAP));
    const H = LEGEND + n * (row + GAP) + 4;
    const axis = timeAxis(range, W, M);
    const s = stripPanel(CAP_PANEL, tl.inks, W, H, M.left);

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
      slotStrip(g, axis, foot, row, tl.width_s, tl.end_s, ["cap-idle", tl.inks.idle], tip, [
        ["cap-running", c.running_s, tl.inks.running],
        ["cap-gc", c.gc_s, tl.inks.gc],
      ]);
      if (row >= 7 || i === 0 || i === n - 1) {
        const label = svg("text", { x: M.left - 6, y: foot - row / 2 + 3.5, class: "ylabel" });
        label.textContent = name;
        g.append(label);
      }
      s.append(g);
    });
    return el("figure", { class: "panel", id: "capstrips" }, s);
  }

  // The nonmoving collector's strip: its legend line (its name there, as the charts
  // have it), then the strip; null for a run without its phases.
  function nonmovingStrip(run, range, W, M) {
    const nm = run.nonmoving_timeline;
    if (!nm) return null;
    const H = LEGEND + ROW_MAX + GAP + 4;
    const s = stripPanel(NM_PANEL, nm.inks, W, H, M.left);
    const secs = (v) => v.toFixed(6) + " s";
    const tip =
      `nonmoving GC: synchronising ${secs(nm.sync_total_s)}, marking ` +
      `${secs(nm.mark_total_s)} beside the program, sweeping ${secs(nm.sweep_total_s)}`;
    const g = svg("g", { class: "nmstrip" });
    slotStrip(
      g,
      timeAxis(range, W, M),
      LEGEND + ROW_MAX + GAP,
      ROW_MAX,
      nm.width_s,
      nm.end_s,
      ["nm-ground", nm.inks.ground],
      tip,
      [
        ["nm-sync", nm.sync_s, nm.inks.sync],
        ["nm-mark", nm.mark_s, nm.inks.mark],
        ["nm-sweep", nm.sweep_s, nm.inks.sweep],
      ],
    );
    s.append(g);
    return el("figure", { class: "panel", id: "nmstrip" }, s);
  }

  ev2hp.capStrips = capStrips;
  ev2hp.nonmovingStrip = nonmovingStrip;
})((window.ev2hp = window.ev2hp || {}));
