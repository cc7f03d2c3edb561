/* report.js: the interactive heap profile report of ev2hp (-o report.html).
 *
 * ev2hp writes the profile as JSON into the page (#ev2hp-data): per run the shown bands
 * with exact statistics, the kept censuses (each pixel column's extremes at twice the
 * chart's resolution), heap totals and markers; the exact peak; the warnings. This script
 * draws it as inline SVG and makes it interactive: switchable views (area, normalized,
 * stream, lines, heap, detail), hover read-out, legend entries that hide (click) or
 * isolate (shift-click) a band, drag to zoom and double-click to go back, marker texts,
 * and a table of every band (folded ones too), sortable by every column, searched by any
 * part of a label, from which a band folded into OTHER can be drawn. With --compare
 * (data.base): the base's run too, its bands paired with this run's (data.pairs), a Diff
 * tab (diff.js), and the table's base peak and change columns, with a "gone" row for
 * every band only the base has (data.gone).
 *
 * The chart's range, zoomed in (by a drag, a phase, --from/--to), is the window of every
 * view: the table's figures, the suspects, the legend's order and the flame graph are
 * then of it (window.js, by ev2hp's rules); "whole run" goes back. The view (tab, window,
 * grouping, search, sort, hidden bands, chosen census) is kept in the URL's fragment
 * (link.js), so every view is a link.
 *
 * Why plain JavaScript over SVG and not a charting library (uPlot was the candidate):
 * the data is already reduced to at most a few points per pixel column, so SVG paths stay
 * small and draw fast; stacking, normalizing, streamgraphs and the two-run comparison
 * need our own arithmetic anyway (uPlot stacks nothing itself); the page stays one file
 * with no third-party code to vendor, audit and keep current; and the browser tests can
 * read what is drawn from the DOM. Nothing is fetched: no fonts, no scripts.
 *
 * This is the page and its heap charts; what it draws with is kit.js (ev2hp.kit), the
 * flame graph is flame.js (ev2hp.flameGraph): both come before it in the one <script>
 * (share/report/README).
 */
// window.ev2hpReport draws the page again from #ev2hp-data (live.js, under ev2hp --serve)
// (opts, from the grouping control: {groupBy: the key chosen, carry: the state to keep})
(window.ev2hpReport = function (ev2hp, opts) {
  "use strict";

  const { fmtBytes, trimZeros, fmtSeconds, fmtExact, fmtChange, fmtRate } = ev2hp.kit;
  const { el, svg, tooltip, showTooltip, hideTooltip, chartBar } = ev2hp.kit;
  const { pointAt, nearestPoint, niceStep, byteTicks } = ev2hp.kit;

  const W = 1100; // chart width in SVG user units (the SVG scales to the page)
  const M = { left: 72, right: 16, top: 14, bottom: 34 }; // plot margins
  const VIEWS = [
    ["area", "Area"],
    ["normalized", "Normalized"],
    ["stream", "Stream"],
    ["lines", "Lines"],
    ["heap", "Heap"],
    ["detail", "Detail"],
  ];
  // the time profile's views, when the input has one (-p -l)
  const FLAME_VIEWS = [
    ["flame", "Flame"],
    ["icicle", "Icicle"],
  ];
  const TOTALS = [
    ["heap_size", "heap size"],
    ["heap_live", "live bytes"],
    ["blocks_size", "blocks size"],
  ];

  const given = JSON.parse(document.getElementById("ev2hp-data").textContent);
  // the band table's labels and counts, packed by ev2hp (a dense run keeps thousands of
  // bands): as text and numbers
  if (given.run && given.run.table) ev2hp.kit.unpackTable(given.run.table);
  // the grouping control (group.js): the keys of this run, and the one chosen (on this
  // page, or carried across a live page's redraw); data is the run of groups then
  const groupChoices = ev2hp.grouping.choices(given);
  // the view a link asks for (link.js): when the page opens, and when the fragment changes
  // (not when the live page redraws, or another grouping is chosen: the state carries)
  const live = window.ev2hpLive || null;
  const fromLink = (opts && opts.fromLink) || (!(opts && opts.carry) && !(live && live.carrying()));
  const link = fromLink ? ev2hp.link.read(location.hash) : {};
  const groupBy =
    opts && "groupBy" in opts
      ? opts.groupBy
      : fromLink
        ? groupChoices && groupChoices.includes(link.group) && link.group !== groupChoices[0]
          ? link.group
          : null
        : live
          ? live.groupBy()
          : null;
  const data = ev2hp.grouping.regroup(given, groupBy);
  const grouped = data.run.grouped || null;
  // what the run's rows are: groups when the page or ev2hp (grouped_by) grouped them
  const unit = grouped || data.run.grouped_by ? "groups" : "bands";
  const runs = data.base ? [data.base, data.run] : [data.run];
  // OTHER's spread is not its bands' (ev2hp writes none): known only when the run's
  // points are all its censuses, then from its values there; else left blank
  for (const run of runs) {
    const o = run.bands.find((b) => b.other);
    if (o && o.stddev == null && run.t.length && run.t.length === run.censuses)
      o.stddev = ev2hp.kit.lineFit(run.t, run.v[run.bands.indexOf(o)], run.t.length).stddev;
  }
  // --compare: the diff view (diff.js) and, for the bands, which base band is which
  // (data.pairs: [this run's index, the base's], ev2hp's one matching rule)
  const COMPARE_VIEWS = data.base ? [["diff", "Diff"]] : [];
  /* A run as the page names it beside its figures: the program with its arguments, and
   * the file it was read from ("leak 1 +RTS -hc (leak-hc.eventlog)"). */
  const runWho = (run) =>
    run.program && run.program !== run.name ? run.program + " (" + run.name + ")" : run.name || "";
  const partner = new Map(); // base band index -> this run's band index
  if (data.pairs) for (const [n, b] of data.pairs) if (n >= 0 && b >= 0) partner.set(b, n);
  // a heap total whose times are another's says so ("t_of") instead of repeating them
  for (const run of runs)
    for (const kind in run.totals)
      if (run.totals[kind].t_of) run.totals[kind].t = run.totals[run.totals[kind].t_of].t;
  const root = document.getElementById("report");

  /* The collector as the runtime's +RTS -s reports it (ev2hp's --summary=json gc): a table
   * of each generation's collections and pauses, their distribution, and the run's
   * allocation, residency and productivity. */
  function collectorSection(gc) {
    const ms = (s) => trimZeros((s * 1000).toFixed(s < 0.01 ? 3 : 1)) + " ms";
    const head = [
      "generation",
      "collections",
      "parallel",
      "copied",
      "elapsed",
      "average",
      "median",
      "90th %",
      "99th %",
      "worst",
    ];
    const table = el(
      "table",
      { class: "bandtable", id: "gctable" },
      el("tr", {}, ...head.map((h) => el("th", {}, h))),
    );
    for (const g of gc.generations)
      table.append(
        el(
          "tr",
          { "data-gen": g.gen },
          el("td", {}, "gen " + g.gen),
          ...[
            String(g.collections),
            String(g.parallel),
            fmtBytes(g.copied_bytes),
            fmtSeconds(g.elapsed_s),
            ms(g.avg_pause_s),
            ms(g.pause_p50_s),
            ms(g.pause_p90_s),
            ms(g.pause_p99_s),
            ms(g.max_pause_s),
          ].map((t) => el("td", { class: "num" }, t)),
        ),
      );
    const facts = [];
    if (gc.allocated_bytes !== null) facts.push(fmtBytes(gc.allocated_bytes) + " allocated");
    if (gc.max_residency_bytes !== null)
      facts.push(fmtBytes(gc.max_residency_bytes) + " maximum residency");
    // INIT and EXIT as -s gives them, when the runtime's tasks mark the program's span
    const span = gc.init_s !== null && gc.init_s !== undefined;
    facts.push(
      (span ? "INIT " + fmtSeconds(gc.init_s) + ", " : "") +
        "MUT " +
        fmtSeconds(gc.mut_s) +
        ", GC " +
        fmtSeconds(gc.gc_s) +
        (span ? ", EXIT " + fmtSeconds(gc.exit_s) : "") +
        " elapsed: productivity " +
        (100 * gc.productivity).toFixed(1) +
        " %",
    );
    if (gc.work_balance !== null)
      facts.push("parallel work balance " + (100 * gc.work_balance).toFixed(2) + " %");
    // --nonmoving-gc: the collector's cycles beside the program, as the text summary
    const nm = gc.nonmoving;
    if (nm)
      facts.push(
        `nonmoving collector: ${nm.cycles} concurrent cycles ${fmtSeconds(nm.concurrent_s)}, ` +
          `${nm.syncs} syncs stopping the program ${fmtSeconds(nm.sync_s)} ` +
          `(the longest ${ms(nm.max_sync_s)}), ${nm.marks} marks, ${nm.sweeps} sweeps` +
          (nm.heap
            ? `; its heap at the last census (+RTS -ln): ${fmtBytes(nm.heap.live_bytes)} live ` +
              `in ${nm.heap.active_segments + nm.heap.filled_segments} segments`
            : ""),
      );
    return el(
      "div",
      { id: "collector" },
      el("span", { id: "gcfacts" }, facts.join("; ")),
      table,
      el(
        "span",
        { class: "hint" },
        "pauses as +RTS -s counts them; the median and percentiles from a histogram within 1.6 %",
      ),
    );
  }

  /* An info table's address, as a -hi run's label is written ("0x4a5b10"); a -hc run's
   * raw label is the runtime's cut stack, which is no info table. */
  const isAddress = (raw) => /^0x[0-9a-f]+$/i.test(raw || "");
  /* "name :: type at source" as ev2hp describes a -hi info table, or null. */
  function infoTable(band) {
    if (!isAddress(band.raw)) return null;
    const m = /^(.*?)(?: :: (.*?))?(?: at (.*))?$/s.exec(band.label); // s: a name may hold line breaks
    return { address: band.raw, name: m[1], type: m[2] || "", source: m[3] || "" };
  }

  // --- colours: each band's as every chart draws it (ev2hp's chart/colors.c: its own, a
  // function of the label, unless a larger band shown with it has it), given with the
  // band; a band the page draws itself is coloured by the same rule (kit.js) -----------

  // --- bands shared by the runs: one key (label), one colour, one legend entry ----------

  const bandKeys = [];
  const bandInfo = new Map(); // key -> {key, label, other, colour, info}
  // this run first: a base band paired with one of its bands takes that band's key
  for (const run of runs.slice().reverse()) {
    const seen = new Map(); // two stacks cut to the same text stay two bands
    run.bands.forEach((b, i) => {
      const n = seen.get(b.label) || 0;
      seen.set(b.label, n + 1);
      // a label may be "OTHER"; the same label in both runs is one band
      let key = b.other ? "OTHER" : "b:" + b.label + (n ? "#" + n : "");
      const pair = run === data.base ? partner.get(i) : undefined;
      if (pair !== undefined) key = data.run.bands[pair].key; // the band of this run it is
      b.key = key;
      b.index = i;
      if (!bandInfo.has(key)) addBand(b);
    });
  }
  /* A band (keyed) of the charts, in bandKeys and bandInfo. */
  function addBand(b) {
    bandKeys.push(b.key);
    bandInfo.set(b.key, {
      key: b.key,
      label: b.label,
      other: !!b.other,
      colour: b.colour,
      info: infoTable(b),
    });
  }

  // --- state -----------------------------------------------------------------------------

  // the time axis spans the censuses and the markers of every run
  const times = (r) =>
    (r.t.length ? [r.t[0], r.t[r.t.length - 1]] : [r.first_s, r.last_s]).concat(
      r.markers.map((m) => m.t),
    );
  const first = Math.min(...runs.map((r) => Math.min(...times(r))));
  const last = Math.max(...runs.map((r) => Math.max(...times(r))));
  const whole = [first, last > first ? last : first + 1]; // the whole run's range
  const peakFlame = data.flame ? ev2hp.flameGraph(data.flame) : null;
  let flame = peakFlame; // the flame views' graph: the peak's census, or one chosen on a chart
  // a time profile without a census in either run: no heap view has anything to draw
  const heapless = flame && runs.every((r) => !r.censuses);
  const views = (heapless ? [] : VIEWS.concat(COMPARE_VIEWS)).concat(flame ? FLAME_VIEWS : []);
  // a -ticky run's counters (ticky.js); first when the run has no census to draw
  const ticky = data.run.ticky && data.run.ticky.counters.length ? data.run.ticky : null;
  if (ticky) views.push(["ticky", "Ticky"]);
  const diff = data.base
    ? ev2hp.diffChart(data.base, data.run, bandKeys, (k) => bandInfo.get(k).label)
    : null;
  const state = {
    view: views.some((v) => v[0] === data.options.view)
      ? data.options.view
      : ticky && runs.every((r) => !r.censuses)
        ? "ticky"
        : views[0][0],
    focus: 0, // the flame graph's frame spanning the width (0: all)
    hidden: new Set(),
    range: whole, // the chart's range: the window of every view when not the whole run
    zooms: [], // ranges to go back to, the latest last
    census: null, // the census chosen on a chart for the flame graph (its time), or null
    flameMode: "peak", // a window's flame graph: at its peak census, or what grew ("grew")
    sort: { key: "area", desc: true },
    filterText: "", // the band table's search box (any part of a label, case aside)
    align: data.options.align === "progress" ? "progress" : "time", // the Diff tab's (--align)
    groupBy: grouped ? grouped.key : null,
  };
  // the live page (live.js) carries the user's view, zoom and hidden bands across redraws
  if (live) live.restore(state, fromLink);
  // another grouping chosen: the view, zoom, table order and search stay (not the hidden
  // bands: the bands are others)
  if (opts && opts.carry) {
    const c = opts.carry;
    if (views.some((v) => v[0] === c.view)) state.view = c.view;
    Object.assign(state, { range: c.range, zooms: c.zooms, sort: c.sort, hidden: new Set() });
    state.filterText = c.filterText;
  }

  // --- series of a view: for each visible band, lower and upper values per point -------

  function visibleBands(run) {
    return run.bands.filter((b) => !state.hidden.has(b.key));
  }

  /* The total of the visible bands at every point of the run, computed once per set of
   * hidden bands (the domain and the reduction to pixel columns both need it, on every
   * draw: a dense profile has hundreds of thousands of values). Kept by this page, not
   * in the data: a page of groups (group.js) or a live redraw starts with none. */
  const totalsCache = new WeakMap(); // run -> {key: the hidden bands, sums}
  function visibleTotals(run) {
    const key = [...state.hidden].join("\u0000");
    const cached = totalsCache.get(run);
    if (cached && cached.key === key) return cached.sums;
    const sums = new Float64Array(run.t.length);
    for (const band of visibleBands(run)) {
      const v = run.v[band.index];
      for (let i = 0; i < sums.length; i++) sums[i] += v[i];
    }
    totalsCache.set(run, { key: key, sums: sums });
    return sums;
  }

  /* Points of the run within the range, with one neighbour each side to reach the edges. */
  function pointRange(run) {
    const t = run.t;
    let a = pointAt(t, state.range[0]);
    let b = pointAt(t, state.range[1]);
    a = Math.max(0, a);
    b = Math.min(t.length - 1, b + 1);
    return [a, b];
  }

  /* The points of [a, b] to draw: all of them when they are fewer than two per column of
   * the plot; else per column the ones with the largest and the smallest total of the
   * visible bands, in time order (as ev2hp keeps censuses: extremes stay, every point
   * drawn is a census that happened). A dense profile zoomed out draws ~2000 points. */
  function drawnPoints(run, a, b, x, columns) {
    const idx = [];
    if (b - a + 1 <= 2 * columns) {
      for (let i = a; i <= b; i++) idx.push(i);
      return idx;
    }
    const sums = visibleTotals(run);
    let col = null;
    let hi = -1;
    let lo = -1;
    let hiV = 0;
    let loV = 0;
    const flush = () => {
      if (hi < 0) return;
      if (hi === lo) idx.push(hi);
      else idx.push(Math.min(hi, lo), Math.max(hi, lo));
    };
    for (let i = a; i <= b; i++) {
      const total = sums[i];
      const c = Math.floor(x(run.t[i]));
      if (c !== col || i === a || i === b) {
        flush();
        col = i === a || i === b ? NaN : c; // the first and last points stand alone
        hi = lo = i;
        hiV = loV = total;
        continue;
      }
      if (total > hiV) [hi, hiV] = [i, total];
      if (total < loV) [lo, loV] = [i, total];
    }
    flush();
    return idx;
  }

  /* Stacked layers [{band, lo[], hi[]}] of the visible bands for area, normalized, stream,
   * at the points idx. */
  function layers(run, view, idx) {
    const bands = visibleBands(run);
    const n = idx.length;
    const base = new Float64Array(n);
    if (view === "stream") {
      for (let i = 0; i < n; i++) {
        let total = 0;
        for (const band of bands) total += run.v[band.index][idx[i]];
        base[i] = -total / 2;
      }
    }
    const totals = new Float64Array(n);
    if (view === "normalized") {
      for (let i = 0; i < n; i++) for (const band of bands) totals[i] += run.v[band.index][idx[i]];
    }
    const out = [];
    const cum = Float64Array.from(base);
    for (const band of bands) {
      const lo = Float64Array.from(cum);
      for (let i = 0; i < n; i++) {
        let v = run.v[band.index][idx[i]];
        if (view === "normalized") v = totals[i] > 0 ? (100 * v) / totals[i] : 0;
        cum[i] += v;
      }
      out.push({ band: band, lo: lo, hi: Float64Array.from(cum) });
    }
    return out;
  }

  /* The value domain [min, max] a view needs over the range, over every run (shared). */
  function domain(view) {
    if (view === "normalized") return [0, 100];
    let lo = 0;
    let hi = 0;
    for (const run of runs) {
      const [a, b] = pointRange(run);
      if (view === "heap") {
        for (const [kind] of TOTALS) for (const v of run.totals[kind].b) hi = Math.max(hi, v);
        for (let i = a; i <= b; i++) hi = Math.max(hi, censusTotal(run, i));
        continue;
      }
      if (view === "lines") {
        for (const band of visibleBands(run)) {
          const v = run.v[band.index];
          for (let i = a; i <= b; i++) if (v[i] > hi) hi = v[i];
        }
        continue;
      }
      const sums = visibleTotals(run);
      for (let i = a; i <= b; i++) {
        const total = sums[i];
        if (view === "stream") {
          hi = Math.max(hi, total / 2);
          lo = Math.min(lo, -total / 2);
        } else if (view !== "lines") hi = Math.max(hi, total);
      }
    }
    if (data.options.y_max && view !== "stream") hi = data.options.y_max;
    if (hi <= lo) hi = lo + 1;
    return [lo, hi];
  }

  function censusTotal(run, i) {
    let total = 0;
    for (const band of run.bands) total += run.v[band.index][i];
    return total;
  }

  // --- one chart panel ---------------------------------------------------------------------

  function panel(run, title, height, dom) {
    const H = height;
    const pw = W - M.left - M.right;
    const ph = H - M.top - M.bottom;
    const [t0, t1] = state.range;
    const x = (t) => M.left + ((t - t0) / (t1 - t0)) * pw;
    const y = (v) => M.top + ph - ((v - dom[0]) / (dom[1] - dom[0])) * ph;
    const yc = (v) => Math.max(M.top - 2, Math.min(M.top + ph + 2, y(v)));
    const s = svg("svg", {
      viewBox: "0 0 " + W + " " + H,
      class: "chart",
      role: "img",
      "aria-label": title,
    });
    const clip = "clip" + Math.random().toString(36).slice(2);
    const defs = svg("defs");
    const cp = svg("clipPath", { id: clip });
    cp.append(svg("rect", { x: M.left, y: M.top - 1, width: pw, height: ph + 2 }));
    defs.append(cp);
    s.append(defs);

    // axes and grid
    const grid = svg("g", { class: "grid" });
    const ticks =
      state.view === "normalized"
        ? [0, 20, 40, 60, 80, 100].map((v) => ({ v: v, label: v + " %" }))
        : state.view === "stream"
          ? byteTicks(dom[1], 3)
              .slice(1)
              .flatMap((t) => [t, { v: -t.v, label: t.label }])
              .concat([{ v: 0, label: "0 B" }])
          : byteTicks(dom[1], 6);
    for (const { v, label: text } of ticks) {
      if (v < dom[0] || v > dom[1]) continue;
      grid.append(svg("line", { x1: M.left, x2: M.left + pw, y1: y(v), y2: y(v) }));
      const label = svg("text", { x: M.left - 6, y: y(v) + 4, class: "ylabel" });
      label.textContent = text;
      grid.append(label);
    }
    const tstep = niceStep(t1 - t0, 10);
    for (let t = Math.ceil(t0 / tstep) * tstep; t <= t1 + 1e-9; t += tstep) {
      grid.append(svg("line", { x1: x(t), x2: x(t), y1: M.top, y2: M.top + ph, class: "v" }));
      const label = svg("text", { x: x(t), y: M.top + ph + 16, class: "xlabel" });
      label.textContent = +t.toPrecision(6) + " s";
      grid.append(label);
    }
    s.append(grid);

    const plot = svg("g", { "clip-path": "url(#" + clip + ")", class: "plot" });
    const [a, b] = pointRange(run);
    const idx = run.t.length ? drawnPoints(run, a, b, x, pw) : [];
    const xs = idx.map((i) => x(run.t[i]).toFixed(1));
    if (state.view === "lines" || state.view === "heap") {
      const lines =
        state.view === "lines"
          ? visibleBands(run).map((band) => ({
              key: band.key,
              colour: bandInfo.get(band.key).colour,
              t: run.t,
              v: run.v[band.index],
            }))
          : heapLines(run);
      for (const line of lines) {
        let d = "";
        if (line.t === run.t)
          for (let k = 0; k < idx.length; k++)
            d += (k ? "L" : "M") + xs[k] + "," + yc(line.v[idx[k]]).toFixed(1);
        else
          for (let i = 0; i < line.t.length; i++)
            d += (i ? "L" : "M") + x(line.t[i]).toFixed(1) + "," + yc(line.v[i]).toFixed(1);
        if (!d) continue;
        const p = svg("path", { d: d, class: "line", stroke: line.colour, "data-band": line.key });
        if (line.dash) p.setAttribute("stroke-dasharray", line.dash);
        plot.append(p);
      }
    } else {
      // a layer's lower edge is the upper edge of the one below: each edge's points are
      // formatted once (a dense profile has tens of thousands per chart)
      const layered = layers(run, state.view, idx);
      const edge = (ys) => xs.map((xv, i) => xv + "," + yc(ys[i]).toFixed(1));
      let below = layered.length ? edge(layered[0].lo) : [];
      for (const layer of layered) {
        const upper = edge(layer.hi);
        if (!xs.length) continue;
        let back = "";
        for (let i = below.length - 1; i >= 0; i--) back += "L" + below[i];
        const d = "M" + upper.join("L") + back;
        below = upper;
        plot.append(
          svg("path", {
            d: d + "Z",
            class: "area",
            fill: bandInfo.get(layer.band.key).colour,
            "data-band": layer.band.key,
          }),
        );
      }
    }
    s.append(plot);

    // markers: a thin line each, the text in a tooltip and, where it fits, on top
    if (data.options.markers) {
      const mg = svg("g", { class: "markers" });
      let lastX = -1e9;
      for (const m of run.markers) {
        if (m.t < t0 || m.t > t1) continue;
        const g = svg("g", { class: "marker" });
        const tip = svg("title");
        tip.textContent =
          m.text +
          " (" +
          fmtSeconds(m.t) +
          (m.merged ? ", " + m.merged + " more near it" : "") +
          ")";
        g.append(tip);
        g.append(svg("line", { x1: x(m.t), x2: x(m.t), y1: M.top, y2: M.top + ph }));
        g.append(svg("line", { x1: x(m.t), x2: x(m.t), y1: M.top, y2: M.top + ph, class: "hit" }));
        if (x(m.t) - lastX > 90) {
          const label = svg("text", { x: x(m.t) + 3, y: M.top + 10 });
          label.textContent = m.text.length > 24 ? m.text.slice(0, 23) + "…" : m.text;
          g.append(label);
          lastX = x(m.t);
        }
        mg.append(g);
      }
      s.append(mg);
    }

    // interaction: hover line and read-out, drag to zoom, double-click back
    const cursor = svg("line", {
      class: "cursor",
      y1: M.top,
      y2: M.top + ph,
      visibility: "hidden",
    });
    const sel = svg("rect", { class: "selection", y: M.top, height: ph, visibility: "hidden" });
    const overlay = svg("rect", {
      class: "overlay",
      x: M.left,
      y: M.top,
      width: pw,
      height: ph,
    });
    s.append(cursor, sel, overlay);
    const toUser = (ev) => {
      const r = s.getBoundingClientRect();
      return ((ev.clientX - r.left) / r.width) * W;
    };
    const toTime = (ux) => t0 + ((ux - M.left) / pw) * (t1 - t0);
    let dragFrom = null;
    overlay.addEventListener("mousedown", (ev) => {
      dragFrom = toUser(ev);
      ev.preventDefault();
    });
    overlay.addEventListener("mousemove", (ev) => {
      const ux = toUser(ev);
      if (dragFrom !== null) {
        sel.setAttribute("x", Math.min(ux, dragFrom));
        sel.setAttribute("width", Math.abs(ux - dragFrom));
        sel.setAttribute("visibility", "visible");
      }
      if (!run.t.length) return;
      const i = Math.max(a, Math.min(b, nearestPoint(run.t, toTime(ux))));
      cursor.setAttribute("x1", x(run.t[i]));
      cursor.setAttribute("x2", x(run.t[i]));
      cursor.setAttribute("visibility", "visible");
      showReadout(run, i, ev);
    });
    overlay.addEventListener("mouseleave", () => {
      cursor.setAttribute("visibility", "hidden");
      hideTooltip();
    });
    let clickTimer = null;
    overlay.addEventListener("mouseup", (ev) => {
      if (dragFrom === null) return;
      const ux = toUser(ev);
      const [lo, hi] = [Math.min(ux, dragFrom), Math.max(ux, dragFrom)];
      dragFrom = null;
      sel.setAttribute("visibility", "hidden");
      if (hi - lo < 4) {
        // a click, not a drag: with a heap census's flame graph, that census's (unless a
        // second click makes it a double-click)
        if (data.census_stacks && run === data.run && run.t.length) {
          const i = Math.max(a, Math.min(b, nearestPoint(run.t, toTime(ux))));
          clearTimeout(clickTimer);
          clickTimer = setTimeout(() => chooseCensus(i), 300);
        }
        return;
      }
      zoomTo(micros(toTime(Math.max(lo, M.left))), micros(toTime(Math.min(hi, M.left + pw))));
    });
    overlay.addEventListener("dblclick", () => {
      clearTimeout(clickTimer);
      zoomBack();
    });

    const wrap = el("figure", { class: "panel" });
    wrap.append(el("figcaption", {}, title), s);
    return wrap;
  }

  function heapLines(run) {
    const lines = [];
    const dashes = ["6 3", "2 3", "8 2 2 2"];
    TOTALS.forEach(([kind], k) => {
      const tot = run.totals[kind];
      if (tot.t.length)
        lines.push({
          key: kind,
          colour: ["#444", "#1f77b4", "#d62728"][k],
          t: tot.t,
          v: tot.b,
          dash: dashes[k],
        });
    });
    const sum = run.t.map((_, i) => censusTotal(run, i));
    lines.push({ key: "census", colour: "#2ca02c", t: run.t, v: sum });
    return lines;
  }

  /* The read-out of point i of a run: its time, and each shown band's bytes (the heap
   * view: the runtime's totals nearest to it and the census total). */
  function showReadout(run, i, ev) {
    const table = el("table");
    let total = 0;
    const rows = [];
    if (state.view === "heap") {
      for (const [kind, name] of TOTALS) {
        const tot = run.totals[kind];
        const j = nearestPoint(tot.t, run.t[i]);
        if (j >= 0) rows.push([kind, name + " at " + fmtSeconds(tot.t[j]), tot.b[j], null]);
      }
      rows.push(["census", "census total", censusTotal(run, i), null]);
    } else {
      for (const band of visibleBands(run)) {
        const v = run.v[band.index][i];
        total += v;
        rows.push([band.key, band.label, v, bandInfo.get(band.key).colour]);
      }
      rows.reverse(); // top of the stack first, as drawn
    }
    // --compare: the same band in the other run at the census nearest this time
    const other =
      data.base && state.view !== "heap" ? (run === data.base ? data.run : data.base) : null;
    const j = other ? nearestPoint(other.t, run.t[i]) : -1;
    const otherValue = (key) => {
      const b = other.bands.find((x) => x.key === key);
      return b && j >= 0 ? other.v[b.index][j] : null;
    };
    for (const [key, label, v, c] of rows) {
      const w = other ? otherValue(key) : null;
      table.append(
        el(
          "tr",
          { "data-band": key, "data-bytes": v, "data-other": w == null ? "" : w },
          el("td", {}, c ? el("span", { class: "swatch", style: "background:" + c }) : null),
          el("td", { class: "label" }, label),
          el("td", { class: "num" }, fmtBytes(v)),
          other
            ? el(
                "td",
                { class: "num other" },
                (run === data.base ? "this run " : "base ") + (w == null ? "none" : fmtBytes(w)),
              )
            : null,
        ),
      );
    }
    if (state.view !== "heap")
      table.append(
        el(
          "tr",
          { class: "total", "data-bytes": total },
          el("td"),
          el("td", {}, "total shown"),
          el("td", { class: "num" }, fmtBytes(total)),
        ),
      );
    showTooltip(
      ev,
      el("div", { class: "time", "data-time": run.t[i] }, fmtSeconds(run.t[i])),
      other ? el("div", { class: "hint base-run" }, "base: " + runWho(data.base)) : null,
      table,
    );
  }

  // --- a census chosen on a chart as a flame graph ------------------------------------------

  /* The flame graph data (as data.flame) of bytes(band) for each band of this run: on its
   * stack (data.census_stacks), OTHER and bands drawn out of it as frames of their own; so
   * the frames sum to what bytes gives (a census: point i's bytes). */
  function censusFlame(bytes, what, census) {
    const cs = data.census_stacks;
    const run = data.run;
    const frames = cs.frames.slice();
    const nodes = [[-1, -1, 0, 0]]; // parent, frame, self, total; parents first
    const child = new Map();
    const add = (path, v) => {
      let node = 0;
      nodes[0][3] += v;
      for (const f of path) {
        const k = node + "/" + f;
        let c = child.get(k);
        if (c === undefined) {
          c = nodes.length;
          child.set(k, c);
          nodes.push([node, f, 0, 0]);
        }
        nodes[c][3] += v;
        node = c;
      }
      nodes[node][2] += v;
    };
    for (const b of run.bands) {
      const v = bytes(b);
      if (!v) continue;
      const stack = !b.unfolded && b.index < cs.bands.length ? cs.bands[b.index] : -1;
      if (stack >= 0) add(cs.stacks[stack], v);
      else {
        frames.push([b.other ? "OTHER" : b.label, "", "", b.colour || "#c4c4c4"]);
        add([frames.length - 1], v);
      }
    }
    return {
      ccs: frames,
      nodes: nodes.flat(),
      unit: "bytes",
      samples: nodes[0][3],
      what: what,
      census_s: census,
      dropped_nodes: 0,
      dropped_samples: 0,
      outside_window: 0,
    };
  }
  function chooseCensus(i) {
    state.census = data.run.t[i];
    selectView(state.view === "icicle" ? "icicle" : "flame");
  }
  /* The flame graph the flame views show: the census chosen on a chart; else in a window
   * (with a heap census's stacks) the window's peak census, or what grew in it and is
   * still there (each band's bytes at the window's last census less those at its first,
   * where more); else ev2hp's (the peak's census, or the time profile). Made again only
   * when what it shows changes (the frame in focus then goes back to the root). */
  let flameKey = "peak";
  function refreshFlame() {
    const run = data.run;
    const cs = data.census_stacks && run.t.length ? data.census_stacks : null;
    const fig = cs && state.census == null ? windowFigures() : null;
    let key = "peak";
    let make = () => peakFlame;
    if (cs && state.census != null) {
      const i = nearestPoint(run.t, state.census);
      key = "census " + i;
      const what = "the heap census at " + fmtSeconds(run.t[i]) + " (chosen on the chart)";
      make = () => ev2hp.flameGraph(censusFlame((b) => run.v[b.index][i], what, run.t[i]));
    } else if (fig && fig.points && state.flameMode === "grew") {
      const [a, z] = [fig.first, fig.last];
      key = "grew " + a + " " + z;
      const what =
        "what grew from " +
        fmtSeconds(run.t[a]) +
        " to " +
        fmtSeconds(run.t[z]) +
        " and is still there";
      make = () =>
        ev2hp.flameGraph(
          censusFlame((b) => Math.max(0, run.v[b.index][z] - run.v[b.index][a]), what, null),
        );
    } else if (fig && fig.points) {
      const i = fig.peakIndex;
      key = "census " + i;
      const what = "the heap census at " + fmtSeconds(run.t[i]) + ", the window's peak";
      make = () => ev2hp.flameGraph(censusFlame((b) => run.v[b.index][i], what, run.t[i]));
    }
    if (key !== flameKey) {
      flameKey = key;
      flame = make();
      state.focus = 0;
    }
    // a link's frame in focus, when the graph has it
    if (pendingFocus !== null && pendingFocus < flame.tree.nodes.length) state.focus = pendingFocus;
    pendingFocus = null;
  }
  let pendingFocus = null;

  // --- zoom ------------------------------------------------------------------------------

  // The chart's range is the window of every view (window.js): the band table's figures,
  // the suspects, the legend's order and the flame graph are of it, until the whole run
  // is chosen again.

  function zoomTo(a, b) {
    if (!(b > a)) return;
    state.zooms.push(state.range);
    state.range = [a, b];
    state.census = null;
    windowChanged();
  }
  function zoomBack() {
    if (!state.zooms.length) return;
    state.range = state.zooms.pop();
    state.census = null;
    windowChanged();
  }
  function wholeRun() {
    state.range = whole;
    state.zooms = [];
    state.census = null;
    windowChanged();
  }
  function windowChanged() {
    drawCharts();
    drawTable();
    fillSuspects();
  }
  /* A time dragged to on a chart, to the microsecond (what a link then says). */
  const micros = (t) => Math.round(t * 1e6) / 1e6;

  /* The window of the views: the chart's range when it is not the whole run, else null. */
  function currentWindow() {
    return state.range[0] > whole[0] || state.range[1] < whole[1] ? state.range : null;
  }

  /* This run's figures over the window (window.js), or null for the whole run (ev2hp's,
   * in the data): per band key (the shown bands, OTHER too) and per folded band's record
   * of the table; the window's points (first, last, how many), its largest census total
   * and where, the area of all, the suspects. Made once per window. */
  let figuresMemo = null;
  function windowFigures() {
    const win = currentWindow();
    const run = data.run;
    if (!win || !run.t.length) return null;
    const memoKey = win.join(",") + " " + run.v.length;
    if (figuresMemo && figuresMemo.memoKey === memoKey) return figuresMemo;
    const W = ev2hp.windowStats;
    const f = {
      memoKey: memoKey,
      points: 0,
      first: -1,
      last: -1,
      peakTotal: 0,
      peakIndex: -1,
      totalArea: 0,
      byKey: new Map(),
      byRecord: new Map(),
      suspects: [],
    };
    figuresMemo = f;
    const at = W.indices(run.t, win[0], win[1]);
    if (!at) return f;
    const [a, b] = at;
    Object.assign(f, { points: b - a + 1, first: a, last: b, peakIndex: a });
    for (let i = a; i <= b; i++) {
      const total = censusTotal(run, i);
      if (total > f.peakTotal) [f.peakTotal, f.peakIndex] = [total, i];
    }
    const candidates = [];
    for (const band of run.bands) {
      const st = W.stats(run.t, run.v[band.index], a, b);
      f.byKey.set(band.key, st);
      f.totalArea += st.area;
      if (!band.other) candidates.push([band.key, band.label, st]);
    }
    const tt = run.table ? W.indices(tableT, win[0], win[1]) : null;
    if (tt)
      for (const r of run.table.bands) {
        if (r[3] >= 0 || !r[10] || r.drawn) continue;
        const st = W.stats(tableT, r[10], tt[0], tt[1]);
        f.byRecord.set(r, st);
        candidates.push(["f:" + r[0], r[0], st]);
      }
    // the suspects as ev2hp lists them (profile_suspects): by the rise's slope, ten
    f.suspects = candidates
      .filter((c) => W.isSuspect(c[2], f.peakTotal))
      .sort((p, q) => q[2].rise - p[2].rise)
      .slice(0, 10);
    return f;
  }

  // --- legend ----------------------------------------------------------------------------

  /* The legend's entries, top first: the bands as stacked, the top of the stack first; in a
   * window, by the window's area (the largest last, at the bottom, as ev2hp orders bands
   * by area), OTHER where it was. */
  function legendOrder() {
    const fig = windowFigures();
    if (!fig || !fig.points) return bandKeys.slice().reverse();
    const area = (k) => (fig.byKey.has(k) ? fig.byKey.get(k).area : -1);
    const ranked = bandKeys.filter((k) => k !== "OTHER").sort((p, q) => area(q) - area(p));
    const at = bandKeys.indexOf("OTHER");
    if (at >= 0) ranked.splice(Math.min(at, ranked.length), 0, "OTHER");
    return ranked.reverse();
  }
  function legend() {
    const ul = el("ul", { class: "legend", id: "legend" });
    for (const key of legendOrder()) {
      const info = bandInfo.get(key);
      const li = el(
        "li",
        {
          "data-band": key,
          class: state.hidden.has(key) ? "hidden" : "",
          title: "click: hide or show; shift-click: show only this band (again: all)",
          onclick: (ev) => {
            if (ev.shiftKey) isolate(key);
            else toggle(key);
          },
        },
        el("span", { class: "swatch", style: "background:" + info.colour }),
        info.other ? "OTHER (" + otherNote() + ")" : info.label,
      );
      ul.append(li);
    }
    return ul;
  }
  /* What an OTHER band holds, "12 bands" (or groups): o's, by default this run's. */
  function otherNote(o = data.run.bands.find((b) => b.other)) {
    return o ? o.folded + " " + unit : "";
  }
  function toggle(key) {
    if (state.hidden.has(key)) state.hidden.delete(key);
    else state.hidden.add(key);
    drawCharts();
  }
  function isolate(key) {
    const alone = !state.hidden.has(key) && state.hidden.size === bandKeys.length - 1;
    state.hidden.clear();
    if (!alone) for (const k of bandKeys) if (k !== key) state.hidden.add(k);
    drawCharts();
  }

  // --- charts area ---------------------------------------------------------------------------

  const chartsBox = el("section", { id: "charts" });
  function drawCharts() {
    const t = performance.now();
    chartsBox.textContent = "";
    hideTooltip();
    drawWindowBar();
    if (state.view === "flame" || state.view === "icicle") {
      refreshFlame();
      flameModeBar();
      flame.draw(chartsBox, state.view === "icicle", state.focus, W, (node) => {
        state.focus = node;
        drawCharts();
      });
      // a differential graph (--compare, both runs with stacks) gives the base's figures
      if (flame === peakFlame && data.flame.base)
        chartsBox.append(el("p", { class: "hint base-run" }, "base: " + runWho(data.base)));
      root.dataset.drawMs = (performance.now() - t).toFixed(1);
      saveLink();
      return;
    }
    if (state.view === "ticky") {
      ev2hp.tickyView(chartsBox, ticky, W);
      root.dataset.drawMs = (performance.now() - t).toFixed(1);
      saveLink();
      return;
    }
    if (state.view === "detail") {
      chartsBox.append(detail());
    } else if (state.view === "diff") {
      diff.draw(chartsBox, state.range, W, state.align, (a) => {
        state.align = a;
        drawCharts();
      });
      chartsBox.append(el("p", { class: "hint base-run" }, "base: " + runWho(data.base)));
    } else {
      const dom = domain(state.view);
      const height = runs.length > 1 ? 300 : 420;
      runs.forEach((run, k) => {
        const name =
          runs.length === 1
            ? run.name || ""
            : k === 0
              ? "base: " + runWho(run)
              : "this run: " + run.name;
        const title = name + (state.view === "heap" ? " (heap totals and the census total)" : "");
        chartsBox.append(panel(run, title, height, dom));
        // a -threaded run: a strip per capability under its heap chart (caps.js)
        const strips = state.view === "heap" && ev2hp.capStrips(run, state.range, W, M);
        if (strips) chartsBox.append(strips);
        // and the nonmoving collector's phases (caps.js), for a run with it
        const nm = state.view === "heap" && ev2hp.nonmovingStrip(run, state.range, W, M);
        if (nm) chartsBox.append(nm);
      });
    }
    chartsBox.prepend(
      chartBar(
        state.view === "diff" && state.align === "progress"
          ? "0 – 100 % of each run"
          : "time " + fmtSeconds(state.range[0]) + " – " + fmtSeconds(state.range[1]),
        state.zooms.length ? zoomBack : null,
        "zoom out (double-click)",
        "drag across a chart to zoom in; double-click to go back",
      ),
    );
    if (!["heap", "detail", "diff"].includes(state.view)) chartsBox.append(legend());
    root.dataset.drawMs = (performance.now() - t).toFixed(1);
    root.dataset.range = state.range.join(",");
    saveLink();
  }

  /* Above a flame graph of a window (a heap census's stacks): at the window's peak census,
   * or what grew in it and is still there; a time profile's graph is of the whole run. */
  function flameModeBar() {
    const win = currentWindow();
    if (!win) return;
    if (!data.census_stacks) {
      chartsBox.append(
        el("p", { class: "hint", id: "flamemode" }, "the time profile is of the whole run"),
      );
      return;
    }
    if (state.census != null) return;
    const box = el("div", { class: "flamemode", id: "flamemode", role: "group" });
    for (const [mode, title] of [
      ["peak", "at the window's peak census"],
      ["grew", "what grew in it and is still there"],
    ])
      box.append(
        el(
          "button",
          {
            "data-mode": mode,
            "aria-pressed": String(state.flameMode === mode),
            onclick: () => {
              state.flameMode = mode;
              drawCharts();
            },
          },
          title,
        ),
      );
    chartsBox.append(box);
  }

  // --- the window: the whole run or a stretch of it, chosen on a chart or as a phase -------

  /* The phases of the run, [name, from, to] each: --phases' (data.phases), else the
   * stretches between the run's markers (data.run.markers): each pair "X start" and
   * "X end" is phase X (as --phases REGEX pairs them); with no such pair, each marker
   * starts a stretch the next one ends (the last, the run). */
  function phases() {
    if (data.phases) return data.phases.map((p) => [p.name, p.start_s, p.end_s]);
    const ms = data.run.markers;
    const out = [];
    const open = new Map();
    for (const m of ms) {
      const start = /^(.*\S)\s+start$/s.exec(m.text);
      const end = /^(.*\S)\s+end$/s.exec(m.text);
      if (start) open.set(start[1], m.t);
      else if (end && open.has(end[1])) {
        out.push([end[1], open.get(end[1]), m.t]);
        open.delete(end[1]);
      }
    }
    if (out.length) return out;
    ms.forEach((m, i) => {
      const to = i + 1 < ms.length ? ms[i + 1].t : whole[1];
      if (to > m.t) out.push([m.text, m.t, to]);
    });
    return out;
  }

  const windowBox = el("div", { id: "window", class: "windowbar" });
  function drawWindowBar() {
    windowBox.textContent = "";
    if (heapless) return; // a time profile alone: no census to take a window of
    const win = currentWindow();
    const fig = windowFigures();
    const run = data.run;
    // (a live page of --from/--to: the server keeps that window alone)
    let what = data.run.window_only
      ? "the window of --from/--to (all this page holds)"
      : "whole run";
    if (win) {
      what = "window " + fmtSeconds(win[0]) + " – " + fmtSeconds(win[1]) + ": ";
      what += !fig || !fig.points ? "no census in it" : fig.points + " censuses";
      if (fig && fig.points) {
        what += ", peak " + fmtBytes(fig.peakTotal) + " at " + fmtSeconds(run.t[fig.peakIndex]);
        if (run.t.length !== run.censuses)
          what +=
            " (of the " + run.t.length + " censuses the report keeps, of " + run.censuses + ")";
      }
    }
    windowBox.append(
      el(
        "span",
        {
          id: "window-chip",
          class: win ? "chip on" : "chip",
          "data-peak": fig && fig.points ? fig.peakTotal : "",
          "data-censuses": fig ? fig.points : "",
        },
        what,
      ),
      el(
        "button",
        Object.assign(
          { id: "wholerun", title: "the whole run again", onclick: wholeRun },
          win ? {} : { disabled: "" },
        ),
        "whole run",
      ),
    );
    const list = phases();
    if (list.length) {
      const select = el("select", { id: "phases", "aria-label": "a phase as the window" });
      select.append(el("option", { value: "" }, "phase…"));
      list.forEach(([name, a, b], k) =>
        select.append(
          el(
            "option",
            { value: String(k) },
            name + " (" + fmtSeconds(a) + " – " + fmtSeconds(b) + ")",
          ),
        ),
      );
      select.addEventListener("change", () => {
        const p = list[Number(select.value)];
        if (p) zoomTo(p[1], p[2]);
      });
      windowBox.append(select);
    }
    if (!win)
      windowBox.append(el("span", { class: "hint" }, "drag across a chart to choose a window"));
  }

  // --- detail: one row per band, sparkline on a shared time axis ----------------------------

  function sparkline(run, band, w, h, shared) {
    const s = svg("svg", { viewBox: "0 0 " + w + " " + h, class: "spark", width: w, height: h });
    const vs = run.v[band.index];
    const ts = run.t;
    if (!ts.length) return s;
    const [t0, t1] = shared ? state.range : [ts[0], ts[ts.length - 1]];
    const span = t1 > t0 ? t1 - t0 : 1;
    let max = 0;
    for (const v of vs) max = Math.max(max, v);
    if (!max) max = 1;
    // one column per pixel: its largest value (the extremes are what a sparkline must show)
    const col = new Float64Array(w).fill(-1);
    for (let i = 0; i < ts.length; i++) {
      const c = Math.floor(((ts[i] - t0) / span) * (w - 1));
      if (c >= 0 && c < w) col[c] = Math.max(col[c], vs[i]);
    }
    let d = "";
    for (let c = 0; c < w; c++) {
      if (col[c] < 0) continue;
      d += (d ? "L" : "M") + c + "," + (h - 1 - (col[c] / max) * (h - 2)).toFixed(1);
    }
    const colour = (bandInfo.get(band.key) || band).colour;
    s.append(svg("path", { d: d, stroke: colour, fill: "none" }));
    return s;
  }

  function detail() {
    const box = el("div", { class: "detail" });
    for (const run of runs) {
      if (runs.length > 1)
        box.append(el("h3", {}, run === data.base ? "base: " + runWho(run) : "this run"));
      for (const band of run.bands) {
        box.append(
          el(
            "div",
            { class: "detail-row", "data-band": band.key },
            el(
              "div",
              { class: "label" },
              band.other ? "OTHER (" + otherNote(band) + ")" : band.label,
            ),
            sparkline(run, band, 480, 36, true),
            el("div", { class: "num" }, "peak " + fmtBytes(band.peak)),
            el("div", { class: "num" }, "mean " + fmtBytes(band.mean)),
            el(
              "div",
              { class: "num" },
              band.growth_bytes_per_s != null ? "growth " + fmtRate(band.growth_bytes_per_s) : "",
            ),
          ),
        );
      }
    }
    return box;
  }

  // --- band table ------------------------------------------------------------------------
  //
  // Every band of the run, shown or folded into OTHER (data.run.table; tens of thousands
  // for -hi): rows are drawn only where the table is scrolled to (ROW_H each, a spacer row
  // above and below standing for the others), so the page holds a few dozen rows whatever
  // the number of bands. The search box keeps the bands any part of whose label (or
  // info-table address) holds what is typed, case aside. A folded band's "draw" takes it
  // out of OTHER and draws it, from its values at the kept censuses (table.t; all of them
  // unless the run has too many folded bands, then an even subset, interpolated between).

  const ROW_H = 28; // px, every row (labels are cut to one line; their title holds them whole)
  const ROWS_SHOWN = 16; // rows in view
  const tableT = data.run.table ? data.run.table.t : [];
  /* The table's rows: the shown bands (OTHER too) as the charts have them, then the folded
   * ones as records of the same fields. */
  function tableRows() {
    return runRows().concat(goneRows());
  }
  /* --compare: the bands only the base has (data.gone: every one, folded into the base's
   * OTHER too), each a row of its own: the base's peak, none now (peak null), a change of
   * -100 %; the base's colour and sparkline when its chart shows the band. */
  function goneRows() {
    if (!data.gone) return [];
    const shown = new Map();
    for (const [n, b] of data.pairs) if (n < 0 && b >= 0) shown.set(data.base.bands[b].label, b);
    return data.gone.map(([label, peak]) => {
      const was = shown.has(label) ? data.base.bands[shown.get(label)] : null;
      shown.delete(label); // a label the base repeats is two bands
      return was
        ? {
            key: was.key,
            label: label,
            raw: was.raw,
            colour: was.colour,
            gone: was,
            basePeak: peak,
          }
        : { key: "g:" + label, label: label, colour: "#bbbbbb", gone: {}, basePeak: peak };
    });
  }
  /* The rows of this run, with a window's figures (window.js) in a window. */
  function runRows() {
    const fig = windowFigures();
    const rows = wholeRows();
    if (!fig) return rows;
    return rows.map((row) => {
      const st = row.record ? fig.byRecord.get(row.record) : fig.byKey.get(row.key);
      return Object.assign({}, row, {
        whole: row,
        peak: st ? st.peak : 0,
        mean: st ? st.mean : 0,
        stddev: st ? st.stddev : 0,
        area: st ? st.area : 0,
        growth_bytes_per_s: st ? st.growth : 0,
        growth_r2: row.other || !st ? null : st.r2,
      });
    });
  }
  function wholeRows() {
    const run = data.run;
    if (!run.table) return run.bands.slice();
    const rows = [];
    const other = run.bands.find((b) => b.other);
    if (other) rows.push(other);
    // a folded band's key is numbered after those of the shown bands of its label (as
    // they are keyed above), drawn or not: so drawn ("b:" for "f:") it is still its own
    const seen = new Map();
    for (const b of run.bands) if (!b.unfolded) seen.set(b.label, (seen.get(b.label) || 0) + 1);
    for (const r of run.table.bands) {
      const [label, raw, colour, shown, peak, mean, stddev, area, growth, r2, series] = r;
      if (shown >= 0) {
        rows.push(run.bands[shown]);
        continue;
      }
      const n = seen.get(label) || 0;
      seen.set(label, n + 1);
      if (r.drawn) {
        rows.push(r.drawn);
        continue;
      }
      rows.push({
        key: "f:" + label + (n ? "#" + n : ""),
        label: label,
        raw: raw || undefined,
        colour: colour,
        peak: peak,
        mean: mean,
        stddev: stddev,
        area: area,
        growth_bytes_per_s: growth,
        growth_r2: r2,
        series: series,
        record: r,
      });
    }
    return rows;
  }

  /* A folded band's values at the run's points (run.t), from its values at table.t. */
  function unfoldedValues(series) {
    const out = new Array(data.run.t.length);
    let j = 0;
    data.run.t.forEach((t, i) => {
      while (j + 1 < tableT.length && tableT[j + 1] <= t) j++;
      if (t <= tableT[0]) out[i] = series[0];
      else if (j + 1 >= tableT.length) out[i] = series[tableT.length - 1];
      else {
        const f = (t - tableT[j]) / (tableT[j + 1] - tableT[j]);
        out[i] = Math.round(series[j] + (series[j + 1] - series[j]) * f);
      }
    });
    return out;
  }

  /* Draws a folded band: out of OTHER (its values taken from OTHER's, never below 0) and
   * into the run's bands, before OTHER, with its own colour and legend entry. */
  function drawFolded(row) {
    unfold(row.whole || row);
    drawCharts();
    drawTable();
    fillSuspects();
  }
  function unfold(row) {
    const run = data.run;
    const other = run.bands.find((b) => b.other);
    const values = unfoldedValues(row.series);
    // the row's fields, as a band of the charts (not a folded row: no series, no record)
    // its own colour unless a band drawn already (of either run) has it: then the free
    // one nearest (kit.js)
    const taken = new Set([...bandInfo.values()].filter((b) => !b.other).map((b) => b.colour));
    const band = Object.assign({}, row, {
      key: "b:" + row.key.slice(2),
      index: run.v.length,
      unfolded: true,
      colour: ev2hp.kit.freeColour(data.palette || [], row.colour, taken),
    });
    delete band.series;
    delete band.record;
    run.v.push(values);
    if (other) {
      const ov = run.v[other.index];
      for (let i = 0; i < ov.length; i++) ov[i] = Math.max(0, ov[i] - values[i]);
      other.folded -= 1;
      other.area -= row.area;
      other.mean -= row.mean;
    }
    run.bands.splice(other ? run.bands.indexOf(other) : run.bands.length, 0, band);
    addBand(band);
    row.record.drawn = band;
    totalsCache.delete(run);
    figuresMemo = null;
  }

  const hasGrowth = data.run.bands.some((b) => b.growth_bytes_per_s != null);
  // (from the table's records: not every row of a run of thousands built for it)
  const hasInfo =
    data.run.bands.some((b) => isAddress(b.raw)) ||
    (data.run.table && data.run.table.bands.some((r) => isAddress(r[1]))) ||
    goneRows().some((b) => isAddress(b.raw));
  // --compare: each band's peak in the base (its partner's), and the change
  const baseByKey = data.base ? new Map(data.base.bands.map((b) => [b.key, b])) : null;
  /* A row's peak in the base: ev2hp's; in a window, the base band's largest value at the
   * base's points in the same window (undefined, unknown, where the base's chart lacks the
   * band, folded into its OTHER, or has no census in the window). */
  const basePeak = (b) => {
    const win = currentWindow();
    if (win) {
      const band = baseByKey.get(b.gone ? b.gone.key : b.key);
      if (!band) return b.gone ? undefined : null;
      const at = ev2hp.windowStats.indices(data.base.t, win[0], win[1]);
      if (!at) return undefined;
      return ev2hp.windowStats.stats(data.base.t, data.base.v[band.index], at[0], at[1]).peak;
    }
    if (b.gone) return b.basePeak;
    const p = baseByKey ? baseByKey.get(b.key) : null;
    return p ? p.peak : null;
  };
  const change = (b) => {
    const p = basePeak(b);
    return p === undefined ? undefined : (b.peak || 0) - (p || 0);
  };
  const changePct = (b) => {
    const p = basePeak(b);
    return p === undefined ? undefined : p ? (100 * ((b.peak || 0) - p)) / p : null;
  };
  const COMPARE_COLUMNS = data.base
    ? [
        ["base_peak", "base peak", basePeak],
        ["change", "change", change],
        ["change_pct", "change %", changePct],
      ]
    : [];
  const COLUMNS = [
    ["label", grouped ? "group" : "band", (b) => b.label],
    ["peak", "peak", (b) => b.peak],
  ]
    .concat(COMPARE_COLUMNS)
    .concat([
      ["mean", "mean", (b) => b.mean],
      ["stddev", "std. dev.", (b) => b.stddev],
      ["area", "area (byte·s)", (b) => b.area],
      [
        "share",
        "share",
        (b) => (b.gone ? null : totalArea() > 0 ? (100 * b.area) / totalArea() : 0),
      ],
    ])
    .concat(
      hasGrowth
        ? [
            ["growth", "growth", (b) => b.growth_bytes_per_s],
            ["r2", "R²", (b) => b.growth_r2],
          ]
        : [],
    )
    .concat(
      hasInfo
        ? [
            ["type", "type", (b) => (infoTable(b) || {}).type || ""],
            ["source", "source", (b) => (infoTable(b) || {}).source || ""],
          ]
        : [],
    );

  /* The area of every band, of the window or of the run. */
  function totalArea() {
    const fig = windowFigures();
    return fig ? fig.totalArea : data.run.total_area;
  }

  // an order carried from another page (another grouping, a live redraw) by a column this
  // one has not (an info table's type, when the rows are groups): the default
  if (!COLUMNS.some((c) => c[0] === state.sort.key)) state.sort = { key: "area", desc: true };

  /* A row's sparkline: a shown band's from the chart's points, a folded one's from its own. */
  function rowSparkline(b) {
    // a gone band: the base's line, when the base's chart has it
    if (b.gone) return b.gone.key ? sparkline(data.base, b.gone, 120, 22, false) : "";
    if (!b.series) return sparkline(data.run, b, 120, 22, false);
    return sparkline(
      { t: tableT, v: [b.series] },
      { key: b.key, index: 0, colour: b.colour },
      120,
      22,
      false,
    );
  }

  function rowElement(b) {
    const info = infoTable(b);
    const tr = el("tr", { "data-band": b.key, class: b.series ? "folded" : b.gone ? "gone" : "" });
    for (const [key, , get] of COLUMNS) {
      const v = get(b);
      let text;
      if (key === "label") {
        // a folded band's colour is its own; a band gone from the base's chart too, grey
        const swatch = b.series ? b.colour : (bandInfo.get(b.key) || b).colour;
        text = el(
          "span",
          { title: info ? info.address + ": " + b.label : b.label },
          el("span", { class: "swatch", style: "background:" + swatch }),
          b.other ? "OTHER (" + otherNote(b) + ")" : info ? info.name : b.label,
        );
        if (b.series)
          text = el(
            "span",
            {},
            el(
              "button",
              {
                class: "draw",
                title: "take it out of OTHER and draw it",
                onclick: () => drawFolded(b),
              },
              "draw",
            ),
            text,
          );
      } else if (b.gone && key === "peak") text = "none";
      else if (b.gone && v == null)
        text = ""; // a value only this run's bands have
      else if (v === undefined)
        text = ""; // the base's figure in a window, unknown (basePeak)
      else if (key === "base_peak") text = v == null ? "none" : fmtBytes(v);
      else if (key === "change") text = fmtChange(v);
      else if (key === "change_pct")
        text =
          v == null ? "new" : b.gone ? "gone (-100 %)" : (v >= 0 ? "+" : "") + v.toFixed(1) + " %";
      else if (key === "share") text = v.toFixed(1) + " %";
      else if (key === "growth") text = v == null ? "" : fmtRate(v);
      else if (key === "r2") text = v == null ? "" : v.toFixed(2);
      else if (key === "area") text = fmtBytes(v).replace(/B$/, "B·s");
      else if (key === "type" || key === "source") text = v;
      else text = v == null ? "" : fmtBytes(v); // (OTHER's spread, when not known)
      tr.append(
        el(
          "td",
          {
            class: typeof v === "number" ? "num" : "",
            "data-value": v == null ? "" : v,
            title: ["peak", "mean", "stddev"].includes(key) && v != null ? fmtExact(v) : "",
          },
          text,
        ),
      );
    }
    tr.append(el("td", {}, rowSparkline(b)));
    return tr;
  }

  const tableBox = el("section", { id: "bands" });
  function drawTable() {
    tableBox.textContent = "";
    if (!data.run.bands.length && !data.run.censuses) {
      // a time profile alone, or an eventlog without heap profiling: no table to sort
      tableBox.append(el("h2", {}, "Bands"), el("p", { class: "hint" }, "no heap census"));
      return;
    }
    const all = tableRows();
    const input = el("input", {
      id: "filter",
      type: "search",
      placeholder: "find " + unit + ": any part of a label",
      spellcheck: "false",
    });
    input.value = state.filterText;
    const status = el("span", { id: "filter-status", class: "hint" });
    input.addEventListener("input", () => {
      state.filterText = input.value;
      fillRows();
    });
    tableBox.append(
      el("h2", {}, grouped ? "Groups by " + grouped.key : "Bands"),
      data.base
        ? el(
            "p",
            { class: "hint base-run" },
            "base peak and change: against " +
              runWho(data.base) +
              (currentWindow() ? ", its peak in the same window (at its chart's censuses)" : ""),
          )
        : null,
      el("div", { class: "filterbar" }, input, status),
    );
    const table = el("table", { class: "bandtable", id: "bandtable" });
    const head = el("tr");
    for (const [key, name] of COLUMNS) {
      const th = el(
        "th",
        {
          "data-key": key,
          class: state.sort.key === key ? (state.sort.desc ? "desc" : "asc") : "",
          onclick: () => {
            state.sort = {
              key: key,
              desc: state.sort.key === key ? !state.sort.desc : key !== "label",
            };
            drawTable();
          },
        },
        name,
      );
      head.append(th);
    }
    head.append(el("th", {}, "over time"));
    const tbody = el("tbody");
    table.append(el("thead", {}, head), tbody);
    const scroller = el(
      "div",
      { id: "bandscroll", style: "max-height:" + ROW_H * (ROWS_SHOWN + 1.5) + "px" },
      table,
    );
    tableBox.append(scroller);
    let rows = [];
    /* The rows in view, and spacers of the height of those above and below. */
    function renderRows() {
      const from = Math.max(0, Math.floor(scroller.scrollTop / ROW_H) - 4);
      const to = Math.min(rows.length, from + ROWS_SHOWN + 8);
      tbody.textContent = "";
      const spacer = (n) => el("tr", { class: "spacer", style: "height:" + n * ROW_H + "px" });
      if (from > 0) tbody.append(spacer(from));
      for (let i = from; i < to; i++) tbody.append(rowElement(rows[i]));
      if (to < rows.length) tbody.append(spacer(rows.length - to));
    }
    let pending = false;
    scroller.addEventListener("scroll", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        renderRows();
      });
    });
    function fillRows() {
      const col = COLUMNS.find((c) => c[0] === state.sort.key);
      const f = state.filterText.toLowerCase();
      rows = all.filter(
        (b) =>
          !f || b.label.toLowerCase().includes(f) || (b.raw && b.raw.toLowerCase().includes(f)),
      );
      rows.sort((p, q) => {
        const a = col[2](p);
        const b = col[2](q);
        const c =
          typeof a === "string"
            ? a.localeCompare(b)
            : (a == null ? -Infinity : a) - (b == null ? -Infinity : b);
        return state.sort.desc ? -c : c;
      });
      table.dataset.rows = rows.length;
      table.dataset.bands = all.length;
      scroller.scrollTop = 0;
      renderRows();
      status.textContent = rows.length + " of " + all.length + " " + unit;
      const win = currentWindow();
      table.dataset.window = win ? win.join(",") : "";
      saveLink();
    }
    fillRows();
  }

  // --- title block and summary -------------------------------------------------------------

  /* The suspects, as --summary lists them (the bands that rose steadily to their peak):
   * ev2hp's for the whole run, the window's (window.js) in a window. */
  const suspectsBox = el("div", { id: "suspectsbox" });
  function fillSuspects() {
    suspectsBox.textContent = "";
    const run = data.run;
    if (!run.suspects) return;
    const fig = windowFigures();
    const list = fig
      ? fig.suspects.map(([key, label, st]) => [key, label, st.rise, st.riseR2, st.peakTime])
      : run.suspects.map((s) => {
          const band = run.bands[s.band];
          return [band.key, band.label, s.rise_bytes_per_s, s.rise_r2, s.peak_time_s];
        });
    suspectsBox.dataset.window = fig ? currentWindow().join(",") : "";
    if (!list.length) {
      suspectsBox.append(el("span", { id: "suspects" }, fig ? "none in the window" : "none"));
      return;
    }
    const ol = el("ol", { id: "suspects" });
    for (const [key, label, rise, r2, at] of list)
      ol.append(
        el(
          "li",
          { "data-band": key, "data-label": label, "data-rise": rise },
          el("span", { class: "num" }, fmtRate(rise)),
          " R² " + r2.toFixed(2) + " to its peak at " + fmtSeconds(at) + " ",
          label,
        ),
      );
    suspectsBox.append(
      el(
        "span",
        { class: "hint" },
        "rose steadily to their peak (R² ≥ 0.8 over 4 or more censuses, by at least 10 % of the " +
          (fig ? "window's peak), in the window:" : "peak):"),
      ),
      ol,
    );
  }

  function summary() {
    const run = data.run;
    const box = el("header", { id: "summary" });
    box.append(el("h1", {}, run.title || run.name || "heap profile"));
    const sub = [
      run.name,
      run.rts,
      run.breakdown,
      run.interval_s > 0 && "sampled every " + fmtSeconds(run.interval_s),
      run.grouped_by && run.grouped_by.note,
    ];
    box.append(el("p", { class: "subtitle" }, sub.filter(Boolean).join(" · ")));
    const dl = el("dl");
    const item = (k, ...v) => dl.append(el("dt", {}, k), el("dd", {}, ...v));
    const pk = data.peak;
    if (pk.bytes) {
      const list = el("ol", { class: "peakbands" });
      for (const [label, bytes] of pk.bands.slice(0, 5))
        list.append(
          el(
            "li",
            { "data-bytes": bytes, "data-label": label },
            el("span", { class: "num" }, fmtBytes(bytes)),
            " " + label,
          ),
        );
      item(
        "peak",
        el("strong", { id: "peak" }, fmtBytes(pk.bytes)),
        " at " + fmtSeconds(pk.time_s),
        run.window ? " (in the window of --from/--to)" : "",
        list,
      );
    } else {
      item("peak", "no census");
    }
    if (data.base) item("base", el("span", { id: "base-run" }, runWho(data.base)));
    if (data.base_peak && !heapless)
      item(
        "base peak",
        fmtBytes(data.base_peak.bytes) +
          " at " +
          fmtSeconds(data.base_peak.time_s) +
          " (" +
          (pk.bytes >= data.base_peak.bytes ? "+" : "") +
          fmtBytes(pk.bytes - data.base_peak.bytes) +
          " now)",
      );
    item("duration", fmtSeconds(run.duration_s));
    item(
      "censuses",
      run.censuses +
        (run.censuses ? " from " + fmtSeconds(run.first_s) + " to " + fmtSeconds(run.last_s) : ""),
    );
    item(
      "bands",
      (grouped ? grouped.of + " bands in " : "") +
        run.bands_seen +
        (grouped ? " groups by " + grouped.key : " with bytes") +
        (run.bands_filtered ? ", " + run.bands_filtered + " dropped by --include/--exclude" : "") +
        "; " +
        run.bands.length +
        " shown" +
        (otherNote() ? ", OTHER holds " + otherNote() : ""),
    );
    item("markers", String(run.markers.length));
    if (run.suspects) item("suspects", suspectsBox);
    if (run.gc) item("collector", collectorSection(run.gc));
    // a run cut short: what led up to its end, as the text summary says it
    if (run.end && run.end.paragraph) item("end", el("p", { id: "endrun" }, run.end.paragraph));
    // each capability's shares of the run, as the text summary's line says them
    if (run.capabilities) {
      const pct = (x) => (100 * x).toFixed(1) + " %";
      const line = run.capabilities.map(
        (c) =>
          `cap ${c.cap}: ${pct(c.running)} running, ${pct(c.gc)} collecting, ${pct(c.idle)} idle`,
      );
      item("capabilities", el("span", { id: "capabilities" }, line.join("; ")));
    }
    if (flame) {
      const f = data.flame;
      const secs =
        f.interval_s > 0
          ? " @ " +
            trimZeros((f.interval_s * 1000).toPrecision(3)) +
            " ms = " +
            fmtSeconds((f.samples * f.interval_s) / Math.max(1, f.capabilities)) +
            " on " +
            f.capabilities +
            (f.capabilities === 1 ? " capability" : " capabilities")
          : "";
      if (f.unit === "bytes") item("flame graph", el("span", { id: "flamecensus" }, f.what));
      else
        item(
          "time profile",
          el(
            "span",
            { id: "timeprofile", "data-samples": f.samples },
            f.samples + " samples" + secs,
          ),
          f.system ? " (with the runtime's own cost centres)" : "",
        );
    }
    if (data.warnings.length) {
      const list = el("ul", { id: "damage" });
      for (const w of data.warnings) list.append(el("li", {}, w));
      item("damage", list);
    } else item("damage", el("span", { id: "damage" }, "none"));
    // what the run lacks or how to see more of it: no damage, said apart
    if (data.notes && data.notes.length) {
      const list = el("ul", { id: "notes" });
      for (const w of data.notes) list.append(el("li", {}, w));
      item("notes", list);
    }
    box.append(dl);
    return box;
  }

  // --- the page ----------------------------------------------------------------------------

  // --- the view as a link (link.js) ------------------------------------------------------

  /* The state a link asks for, where this page has it: a view it offers, bands it has, a
   * column of its table. band=LABEL (ev2hp --report-url's links): that band drawn alone
   * (out of OTHER first, when folded there) and looked up in the table. */
  function applyLink(l) {
    if (l.view && views.some((v) => v[0] === l.view)) state.view = l.view;
    if (l.window) {
      state.range = l.window;
      state.zooms = [whole];
    }
    if (l.filterText != null) state.filterText = l.filterText;
    if (l.sort && COLUMNS.some((c) => c[0] === l.sort.key)) state.sort = l.sort;
    // the bands drawn out of OTHER, before the bands hidden (they may be among them)
    for (const label of l.draw || []) {
      const row = wholeRows().find((r) => r.record && !r.record.drawn && r.label === label);
      if (row) unfold(row);
    }
    // (kept whether the page has the band or not yet: a live page's comes with its censuses)
    if (l.hide) state.hidden = new Set(l.hide);
    let only = l.only != null && bandInfo.has(l.only) ? l.only : null;
    if (l.band != null) {
      const row = wholeRows().find((r) => r.label === l.band && !r.other);
      if (row && row.record && !row.record.drawn) unfold(row);
      if (row) only = row.record ? row.record.drawn.key : row.key;
      if (l.filterText == null) state.filterText = l.band;
    }
    if (only !== null) state.hidden = new Set(bandKeys.filter((k) => k !== only));
    if (l.census != null && data.census_stacks) state.census = l.census;
    if (l.focus) pendingFocus = l.focus; // once the flame graph it is a frame of is made
    if (l.flame) state.flameMode = l.flame;
  }
  /* The fragment of the state, written in place (replaceState: the back button does not
   * step through every change); the page's own writes are told from a person's. */
  function saveLink() {
    const shown = bandKeys.filter((k) => !state.hidden.has(k));
    const alone = bandKeys.length > 1 && shown.length === 1;
    const sorted = state.sort.key !== "area" || !state.sort.desc;
    const hash = ev2hp.link.write({
      view: state.view !== defaultView ? state.view : null,
      window: currentWindow(),
      group: state.groupBy,
      filterText: state.filterText,
      sort: sorted ? state.sort : null,
      draw: data.run.bands.filter((b) => b.unfolded).map((b) => b.label),
      only: alone ? shown[0] : null,
      hide: alone ? [] : [...state.hidden],
      census: state.census,
      flame: state.flameMode !== "peak" ? state.flameMode : null,
      focus: ["flame", "icicle"].includes(state.view) ? state.focus : 0,
    });
    window.ev2hpLinkWritten = hash;
    if (hash === location.hash) return;
    try {
      history.replaceState(history.state, "", hash || location.pathname + location.search);
    } catch {
      // a page history cannot be written in (some file:// settings): the link stays as it was
    }
  }
  const defaultView = state.view;
  // --from/--to: the page opens on that window (data.run.window), the whole run in it too
  const cliWindow = data.run.window;
  if (fromLink && cliWindow && !link.window) {
    state.range = [cliWindow.from_s, cliWindow.to_s == null ? whole[1] : cliWindow.to_s];
    state.zooms = [whole];
  }
  if (fromLink) applyLink(link);
  // a link opened on this page (the fragment changed by hand, or a link followed): the
  // page drawn again as it asks; once, whichever redraw made the listener
  if (!window.ev2hpLinkListening) {
    window.ev2hpLinkListening = true;
    window.addEventListener("hashchange", () => {
      if (location.hash === (window.ev2hpLinkWritten || "")) return;
      hideTooltip();
      root.textContent = "";
      window.ev2hpReport(ev2hp, { fromLink: true });
    });
  }

  const tabs = el("nav", { class: "views", id: "views", role: "tablist" });
  for (const [name, title] of views) {
    tabs.append(
      el(
        "button",
        {
          "data-view": name,
          role: "tab",
          "aria-selected": String(name === state.view),
          onclick: () => {
            // the flame tabs from another view: the peak's census again (the window's)
            const flames = ["flame", "icicle"];
            if (flames.includes(name) && !flames.includes(state.view)) state.census = null;
            selectView(name);
          },
        },
        title,
      ),
    );
  }

  function selectView(name) {
    state.view = name;
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.view === name));
    drawCharts();
  }

  // --- the grouping control ------------------------------------------------------------------

  /* "group by" and the keys of the run (--group-by's names), when it has any: choosing one
   * draws the page again from the same data, regrouped (group.js); what the groups are
   * computed at is said beside it when that is fewer points than the run has. */
  function groupControl() {
    const select = el("select", { id: "groupby" });
    for (const name of groupChoices)
      select.append(
        el("option", { value: name }, name === groupChoices[0] ? name + " (none)" : name),
      );
    select.value = state.groupBy || groupChoices[0];
    select.addEventListener("change", () => {
      hideTooltip();
      root.textContent = "";
      const key = select.value === groupChoices[0] ? null : select.value;
      window.ev2hpReport(ev2hp, { groupBy: key, carry: state });
    });
    const box = el(
      "div",
      { id: "grouping", class: "grouping" },
      el("label", { for: "groupby" }, "group by "),
      select,
    );
    const notes = [];
    if (grouped && grouped.points < given.run.t.length)
      notes.push(
        "groups are drawn at " +
          grouped.points +
          " of the " +
          given.run.t.length +
          " censuses the report keeps: where every band has values",
      );
    if (grouped && grouped.points < data.run.censuses)
      notes.push(
        "peak, std. dev., R² and rise (suspects) of a group of several bands are computed at the " +
          grouped.points +
          " censuses it is drawn at, of the run's " +
          data.run.censuses +
          " (area, mean and growth are exact over all)",
      );
    if (notes.length) box.append(el("span", { id: "group-note", class: "hint" }, notes.join("; ")));
    return box;
  }

  root.append(summary());
  if (groupChoices) root.append(groupControl());
  root.append(tabs, windowBox, chartsBox, tableBox);
  document.body.append(tooltip);
  drawCharts();
  drawTable();
  fillSuspects();
  root.dataset.readyMs = performance.now().toFixed(0); // since navigation started
  root.dataset.ready = "true";
  root.dataset.groupBy = state.groupBy || "";
  // when the page with its chart has been painted (a task after the next frame's
  // rendering): what tests/bench/report_render.mjs measures
  requestAnimationFrame(() =>
    window.setTimeout(() => (root.dataset.paintedMs = performance.now().toFixed(0))),
  );
})(window.ev2hp);
