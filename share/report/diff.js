/* diff.js: the Diff view of ev2hp's report with --compare: this run minus the base.
 *
 * ev2hp pairs the two runs' bands by its one matching rule (data.pairs; the page keys a
 * pair as one band). For each pair this draws a line of this run's bytes minus the
 * base's over time (each run's band interpolated linearly between its points, 0 outside
 * its run), as view_diff.c draws the SVG: warm hues for the bands whose peak grew, cool
 * ones for those whose peak shrank, a zero line, and a legend of each band's change at
 * the peak. Hovering gives both runs' values and the change at that time. Aligned by time
 * (seconds from the start, the page's zoom), or by progress (a share 0 to 100 % of each
 * run, from its first census to its last: --align progress, for runs of different
 * length), as a control above the chart chooses. The page (report.js) asks for it with
 * ev2hp.diffChart(base, now, keys) and draws it into its charts box. Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const {
    el,
    svg,
    showTooltip,
    hideTooltip,
    fmtBytes,
    fmtChange: change,
    fmtSeconds,
    niceStep,
    byteTicks,
  } = ev2hp.kit;
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

  /* The time of a run at share p (0..1) of it, from its first census to its last. */
  function timeAt(run, p) {
    const ts = run.t;
    return ts.length ? ts[0] + p * (ts[ts.length - 1] - ts[0]) : 0;
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

    /* Draws the chart into box, width W: over range [t0, t1] (seconds) aligned by time, or
     * over 0..100 % of each run when align is "progress"; setAlign(a) is the control's. */
    function draw(box, range, W, align, setAlign) {
      const progress = align === "progress";
      const M = { left: 72, right: 16, top: 14, bottom: 34 };
      const H = 420;
      const pw = W - M.left - M.right;
      const ph = H - M.top - M.bottom;
      const columns = Math.max(2, Math.floor(pw / 2));
      // x: seconds, or with progress a share 0..1 of each run
      const [t0, t1] = progress ? [0, 1] : range;
      const at = (c) => t0 + ((t1 - t0) * c) / (columns - 1);
      const tBase = (x) => (progress ? timeAt(base, x) : x);
      const tNow = (x) => (progress ? timeAt(now, x) : x);
      let lo = 0;
      let hi = 0;
      const series = lines.map((l) => {
        const v = new Float64Array(columns);
        for (let c = 0; c < columns; c++) {
          v[c] = valueAt(now, l.now, tNow(at(c))) - valueAt(base, l.base, tBase(at(c)));
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
        "data-align": progress ? "progress" : "time",
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
      // time ticks, or every 10 % of each run
      const tstep = progress ? 0.1 : niceStep(t1 - t0, 10);
      for (let t = Math.ceil(t0 / tstep) * tstep; t <= t1 + tstep * 1e-9; t += tstep) {
        const tx = M.left + ((t - t0) / (t1 - t0)) * pw;
        const label = svg("text", { x: tx, y: M.top + ph + 16, class: "xlabel" });
        label.textContent = progress ? Math.round(t * 100) + " %" : fmtSeconds(t);
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
          const b = valueAt(base, l.base, tBase(t));
          const n = valueAt(now, l.now, tNow(t));
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
        const when = progress
          ? el(
              "div",
              { class: "time", "data-share": t },
              (100 * t).toFixed(1) +
                " % of each run (base " +
                fmtSeconds(tBase(t)) +
                ", this run " +
                fmtSeconds(tNow(t)) +
                ")",
            )
          : el("div", { class: "time", "data-time": t }, fmtSeconds(t));
        showTooltip(ev, when, table);
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
      const choose = el(
        "select",
        { id: "diffalign", onchange: () => setAlign(choose.value) },
        el("option", { value: "time" }, "time"),
        el("option", { value: "progress" }, "share of each run (progress)"),
      );
      choose.value = progress ? "progress" : "time";
      wrap.append(
        el(
          "figcaption",
          {},
          "This run minus the base, band by band, aligned by " +
            (progress ? "share of each run, from its first census to its last " : "time "),
          el("label", {}, "align by ", choose),
        ),
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
