/* diff.js: the Diff view of ev2hp's report with --compare: this run minus the base.
 *
 * ev2hp pairs the two runs' bands by its one matching rule (data.pairs; the page keys a
 * pair as one band). For each pair this draws a line of this run's bytes minus the
 * base's (each run's band interpolated linearly between its points), as view_diff.c
 * draws the SVG: warm hues for the bands whose peak grew, cool ones for those whose peak
 * shrank, a zero line, and a legend of each band's change at the peak. Hovering gives
 * both runs' values and the change at that moment. Aligned by time (seconds from the
 * start, the page's zoom) or by progress (a share 0 to 100 % of each run, from its first
 * census to its last), as a control above the chart chooses; ev2hp chooses the first
 * (data.options.align: --align, or by model/diffseries.h's rule, progress when the runs'
 * lengths differ by more than a fifth). As there, a run that has ended is never read as
 * 0: by time the lines stop where the shorter run's censuses do, and the caption says
 * where; progress needs two censuses apart in each run and is offered only then. The
 * page (report.js) asks for it with ev2hp.diffChart(base, now, keys) and draws it into
 * its charts box. Needs kit.js.
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

  // diffseries.h's DIFF_LENGTH_RATIO: runs further apart in length align by progress
  const LENGTH_RATIO = 1.2;

  /* A band of a run (or null: a band the run does not have, 0) at time t, which lies
   * within the run's points (the lines never go past a run's end): linear between them. */
  function valueAt(run, band, t) {
    if (!band || !run.t.length) return 0;
    const ts = run.t;
    t = Math.min(Math.max(t, ts[0]), ts[ts.length - 1]); // a share's rounding, no further
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

  const first = (run) => run.t[0];
  const last = (run) => run.t[run.t.length - 1];
  // a run with a length to share out: two points apart in time
  const hasLength = (run) => run.t.length >= 2 && last(run) > first(run);

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

    const canProgress = hasLength(base) && hasLength(now);
    // by time, the moments both runs have censuses at (empty: from > to)
    const both =
      base.t.length && now.t.length
        ? [Math.max(first(base), first(now)), Math.min(last(base), last(now))]
        : [1, 0];

    /* The caption's words on the alignment: what the lines span and why. */
    function alignNote(progress, t0, t1) {
      const lengths = [base, now].map((r) => (r.t.length ? last(r) - first(r) : 0));
      const apart = Math.max(...lengths) > LENGTH_RATIO * Math.min(...lengths);
      const seconds = "the base " + fmtSeconds(lengths[0]) + ", this run " + fmtSeconds(lengths[1]);
      if (progress)
        return (
          "0 to 100 % of each run, from its first census to its last (lengths: " +
          seconds +
          (apart ? "; more than a fifth apart)" : ")")
        );
      if (!canProgress)
        return (
          (base.t.length < 2 ? "the base" : "this run") +
          " has " +
          (Math.min(base.t.length, now.t.length) ? "one census" : "no census") +
          ": no length to share out, so by time only" +
          (t0 > t1 ? "; the runs have no moment in common" : "")
        );
      if (t0 > t1) return "the runs' censuses have no moment in common in this time range";
      const ends =
        last(base) === last(now)
          ? ""
          : (last(now) > last(base) ? "; this run" : "; the base") +
            " goes on to " +
            fmtSeconds(Math.max(last(base), last(now))) +
            ", not compared";
      return (
        "where both runs have censuses: " +
        fmtSeconds(t0) +
        " – " +
        fmtSeconds(t1) +
        ends +
        (apart
          ? " (the runs' lengths differ by more than a fifth: progress compares them whole)"
          : "")
      );
    }

    /* Draws the chart into box, width W: by time over range [t0, t1] (seconds) where both
     * runs have censuses, or over 0..100 % of each run when align is "progress" (and each
     * run has a length); setAlign(a) is the control's. */
    function draw(box, range, W, align, setAlign) {
      const progress = align === "progress" && canProgress;
      const M = { left: 72, right: 16, top: 14, bottom: 34 };
      const H = 420;
      const pw = W - M.left - M.right;
      const ph = H - M.top - M.bottom;
      // x: seconds, or with progress a share 0..1 of each run
      const [t0, t1] = progress
        ? [0, 1]
        : [Math.max(range[0], both[0]), Math.min(range[1], both[1])];
      const span = t0 <= t1;
      // one column at a single moment in common, none without one
      const columns = !span ? 0 : t1 > t0 ? Math.max(2, Math.floor(pw / 2)) : 1;
      const at = (c) => (columns > 1 ? t0 + ((t1 - t0) * c) / (columns - 1) : t0);
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
      const x = (c) => M.left + (columns > 1 ? (pw * c) / (columns - 1) : pw / 2);
      // the axis: the span, widened around a single moment so that it has a scale
      const [a0, a1] = !span ? [0, 1] : t1 > t0 ? [t0, t1] : [t0 - 0.5, t1 + 0.5];
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
      const tstep = progress ? 0.1 : niceStep(a1 - a0, 10);
      for (let t = Math.ceil(a0 / tstep) * tstep; t <= a1 + tstep * 1e-9; t += tstep) {
        const tx = M.left + ((t - a0) / (a1 - a0)) * pw;
        const label = svg("text", { x: tx, y: M.top + ph + 16, class: "xlabel" });
        label.textContent = progress ? Math.round(t * 100) + " %" : fmtSeconds(t);
        s.append(label);
      }
      lines.forEach((l, k) => {
        if (series[k].every((v) => v === 0)) return; // unchanged: on the zero line
        let d = "";
        for (let c = 0; c < columns; c++)
          d += (c ? "L" : "M") + x(c).toFixed(1) + " " + y(series[k][c]).toFixed(1);
        if (columns === 1) d += "h6m-12 0h6"; // a single moment: a short mark
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
        if (!span || px < M.left || px > W - M.right) return hideTooltip();
        const t = Math.min(Math.max(a0 + ((px - M.left) / pw) * (a1 - a0), t0), t1);
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
        el(
          "option",
          canProgress ? { value: "progress" } : { value: "progress", disabled: "" },
          "share of each run (progress)",
        ),
      );
      choose.value = progress ? "progress" : "time";
      if (!span)
        s.append(
          Object.assign(
            svg("text", {
              x: M.left + pw / 2,
              y: M.top + ph / 2,
              class: "note",
              "text-anchor": "middle",
            }),
            { textContent: "no moment in common: nothing to compare" },
          ),
        );
      wrap.append(
        el(
          "figcaption",
          {},
          "This run minus the base, band by band; ",
          el("label", {}, "aligned by ", choose),
          el("span", { class: "hint", id: "diffspan" }, " " + alignNote(progress, t0, t1)),
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
