/* diff.js: the Diff view of ev2hp's report with --compare: this run minus the base.
 *
 * ev2hp pairs the two runs' bands by its one matching rule (data.pairs; the page keys a
 * pair as one band). For each pair this draws a line of this run's bytes minus the
 * base's over time (each run's band interpolated linearly between its points, 0 outside
 * its run), as view_diff.c draws the SVG: warm hues for the bands whose peak grew, cool
 * ones for those whose peak shrank, a zero line, and a legend of each band's change at
 * the peak. Hovering gives both runs' values and the change at that time. The page
 * (report.js) asks for it with ev2hp.diffChart(base, now, keys) and draws it into its
 * charts box. Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const { el, svg, showTooltip, hideTooltip, fmtBytes, fmtSeconds, niceStep, byteTicks } =
    ev2hp.kit;
  // view_diff.c's palettes
  const WARM = ["#d7191c", "#f46d43", "#a50f15", "#fd8d3c", "#e7298a", "#cc4c02"];
  const COOL = ["#2c7bb6", "#1a9850", "#5e3c99", "#01665e", "#4575b4", "#74add1"];
  const NEUTRAL = "#888888";

  /* A band of a run (or null) at time t: linear between its points, 0 outside the run. */
  function valueAt(run, band, t) {
    if (!band || !run.t.length) return 0;
    const ts = run.t;
    if (t < ts[0] || t > ts[ts.length - 1]) return 0;
    let lo = 0;
    let hi = ts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ts[mid] <= t) lo = mid;
      else hi = mid;
    }
    const v = run.v[band.index];
    return ts[hi] > ts[lo] ? v[lo] + ((v[hi] - v[lo]) * (t - ts[lo])) / (ts[hi] - ts[lo]) : v[hi];
  }

  /* "+52.8 MiB", "-4.48 MiB", "0 B". */
  function change(d) {
    return (d > 0 ? "+" : d < 0 ? "-" : "") + fmtBytes(Math.abs(d));
  }

  /* The lines of base and now: one per key either run has (OTHER left out), their change
   * at the peak, largest growth first, and their colours. */
  ev2hp.diffChart = function (base, now, keys, labelOf) {
    const byKey = (run) => new Map(run.bands.filter((b) => !b.other).map((b) => [b.key, b]));
    const inBase = byKey(base);
    const inNow = byKey(now);
    const lines = keys
      .filter((k) => inBase.has(k) || inNow.has(k))
      .map((k) => {
        const b = inBase.get(k) || null;
        const n = inNow.get(k) || null;
        return { key: k, base: b, now: n, change: (n ? n.peak : 0) - (b ? b.peak : 0) };
      });
    lines.sort((p, q) => q.change - p.change);
    let warm = 0;
    let cool = 0;
    for (const l of lines)
      l.colour =
        l.change > 0
          ? WARM[warm++ % WARM.length]
          : l.change < 0
            ? COOL[cool++ % COOL.length]
            : NEUTRAL;

    /* Draws the chart into box over range [t0, t1], width W. */
    function draw(box, range, W) {
      const M = { left: 72, right: 16, top: 14, bottom: 34 };
      const H = 420;
      const pw = W - M.left - M.right;
      const ph = H - M.top - M.bottom;
      const columns = Math.max(2, Math.floor(pw / 2));
      const [t0, t1] = range;
      const at = (c) => t0 + ((t1 - t0) * c) / (columns - 1);
      let lo = 0;
      let hi = 0;
      const series = lines.map((l) => {
        const v = new Float64Array(columns);
        for (let c = 0; c < columns; c++) {
          v[c] = valueAt(now, l.now, at(c)) - valueAt(base, l.base, at(c));
          lo = Math.min(lo, v[c]);
          hi = Math.max(hi, v[c]);
        }
        return v;
      });
      if (hi <= lo) hi = lo + 1;
      const y = (v) => M.top + ph - ((v - lo) / (hi - lo)) * ph;
      const x = (c) => M.left + (pw * c) / (columns - 1);
      const s = svg("svg", {
        viewBox: "0 0 " + W + " " + H,
        class: "chart diff",
        role: "img",
        "aria-label": "this run minus the base, band by band",
      });
      // y ticks (signed bytes, a round binary step) and the zero line
      const grid = svg("g", { class: "grid" });
      s.append(grid);
      const ticks = byteTicks(Math.max(-lo, hi), 3);
      const step = ticks.length > 1 ? ticks[1].v : hi - lo;
      for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
        grid.append(svg("line", { x1: M.left, x2: W - M.right, y1: y(v), y2: y(v) }));
        const t = svg("text", { x: M.left - 6, y: y(v) + 4, class: "ylabel" });
        t.textContent = Math.abs(v) < step * 1e-6 ? "0" : change(v);
        s.append(t);
      }
      s.append(
        svg("line", {
          x1: M.left,
          x2: W - M.right,
          y1: y(0),
          y2: y(0),
          class: "zero",
          stroke: "#555",
        }),
      );
      // time ticks
      const tstep = niceStep(t1 - t0, 10);
      for (let t = Math.ceil(t0 / tstep) * tstep; t <= t1 + tstep * 1e-9; t += tstep) {
        const tx = M.left + ((t - t0) / (t1 - t0)) * pw;
        const label = svg("text", { x: tx, y: M.top + ph + 16, class: "xlabel" });
        label.textContent = fmtSeconds(t);
        s.append(label);
      }
      lines.forEach((l, k) => {
        if (series[k].every((v) => v === 0)) return; // unchanged: on the zero line
        let d = "";
        for (let c = 0; c < columns; c++)
          d += (c ? "L" : "M") + x(c).toFixed(1) + " " + y(series[k][c]).toFixed(1);
        s.append(
          svg("path", {
            d: d,
            class: "diffline",
            "data-band": l.key,
            fill: "none",
            stroke: l.colour,
            "stroke-width": 1.6,
          }),
        );
      });
      // the read-out: both runs' values and the change at the time under the pointer
      s.addEventListener("mousemove", (ev) => {
        const r = s.getBoundingClientRect();
        const px = ((ev.clientX - r.left) / r.width) * W;
        if (px < M.left || px > W - M.right) return hideTooltip();
        const t = t0 + ((px - M.left) / pw) * (t1 - t0);
        const table = el(
          "table",
          {},
          el(
            "tr",
            {},
            el("th"),
            el("th", {}, "band"),
            el("th", {}, "base"),
            el("th", {}, "this run"),
            el("th", {}, "change"),
          ),
        );
        for (const l of lines) {
          const b = valueAt(base, l.base, t);
          const n = valueAt(now, l.now, t);
          table.append(
            el(
              "tr",
              { "data-band": l.key, "data-base": b, "data-now": n },
              el("td", {}, el("span", { class: "swatch", style: "background:" + l.colour })),
              el("td", { class: "label" }, labelOf(l.key)),
              el("td", { class: "num" }, l.base ? fmtBytes(b) : "none"),
              el("td", { class: "num" }, l.now ? fmtBytes(n) : "none"),
              el("td", { class: "num" }, change(n - b)),
            ),
          );
        }
        showTooltip(ev, el("div", { class: "time", "data-time": t }, fmtSeconds(t)), table);
      });
      s.addEventListener("mouseleave", hideTooltip);
      const legend = el("ul", { class: "legend", id: "difflegend" });
      for (const l of lines)
        legend.append(
          el(
            "li",
            { "data-band": l.key, "data-change": l.change },
            el("span", { class: "swatch", style: "background:" + l.colour }),
            el("b", {}, change(l.change)),
            " " + labelOf(l.key),
          ),
        );
      const wrap = el("figure", { class: "panel" });
      wrap.append(
        el("figcaption", {}, "This run minus the base, band by band, aligned by time"),
        s,
        el(
          "p",
          { class: "hint" },
          "each band's change at the peak (its peak in this run minus its peak in the base):",
        ),
        legend,
      );
      box.append(wrap);
    }

    return { lines: lines, draw: draw };
  };
})((window.ev2hp = window.ev2hp || {}));
