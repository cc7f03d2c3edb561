/* ticky.js: the Ticky view of ev2hp's report, for a program built with -ticky and run
 * with +RTS -lT.
 *
 * The figures are the summary's (data.ticky: sink/ticky_summary.c, each counter's samples
 * summed); this only shows them. A table of every counter (name, arity and argument
 * kinds, entries, bytes allocated by it and of it, its share of the run's allocation,
 * its info table), sortable by any column (click its header; again to reverse) and
 * searchable (any part of a name or info table, case aside); clicking a counter draws its
 * allocation and entries over the run, point by point as data.ticky.series has them (the
 * largest counters only: for another the chart says so). Names come from the eventlog
 * and are set as text, never as markup. The page (report.js) asks for it with
 * ev2hp.tickyView(box, ticky, width). Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const { el, svg, fmtBytes, fmtExact, fmtSeconds } = ev2hp.kit;

  const COLUMNS = [
    ["name", "counter", (c) => c.name],
    ["arity", "arity", (c) => c.arity],
    ["kinds", "kinds", (c) => c.kinds],
    ["entries", "entries", (c) => c.entries],
    ["allocs", "allocates", (c) => c.allocs],
    ["allocd", "allocated", (c) => c.allocd],
    ["alloc_share", "share", (c) => (c.alloc_share == null ? -1 : c.alloc_share)],
    ["info_table", "info table", (c) => c.info_table || c.info],
  ];

  const NUMERIC = new Set(["arity", "entries", "allocs", "allocd", "alloc_share"]);

  function cell(key, c) {
    if (key === "allocs" || key === "allocd") return fmtExact(c[key]); // exact, as -r prints
    if (key === "alloc_share")
      return c.alloc_share == null ? "?" : (100 * c.alloc_share).toFixed(1) + " %";
    if (key === "info_table") return c.info_table || c.info;
    return String(c[key]);
  }

  /* The chosen counter's allocation over the run (bytes at each point), its entries in
   * the tooltip-free caption: a line on a plain axis. */
  function drawSeries(box, ticky, counter, width) {
    box.textContent = "";
    const s = ticky.series;
    const line = s && s.counters.find((c) => c.name === counter.name);
    box.append(el("h3", { id: "tickychosen" }, counter.name));
    if (!line || !s.times_s.length) {
      box.append(
        el(
          "p",
          { class: "hint", id: "tickynoseries" },
          "over time only for the " + (s ? s.counters.length : 0) + " most allocating counters",
        ),
      );
      return;
    }
    const H = 160,
      L = 70,
      R = 10,
      T = 10,
      B = 24;
    const w = Math.max(width, 300);
    const ts = s.times_s,
      vs = line.allocs;
    const maxV = Math.max(1, ...vs),
      maxT = ts[ts.length - 1] || 1;
    const x = (t) => L + ((w - L - R) * t) / maxT;
    const y = (v) => T + (H - T - B) * (1 - v / maxV);
    const chart = svg("svg", { id: "tickychart", width: w, height: H, viewBox: `0 0 ${w} ${H}` });
    chart.append(svg("line", { x1: L, y1: y(0), x2: w - R, y2: y(0), class: "axis" }));
    const points = ts.map((t, i) => `${x(t).toFixed(1)},${y(vs[i]).toFixed(1)}`).join(" ");
    chart.append(
      svg("polyline", { points, fill: "none", stroke: "currentColor", class: "tickyline" }),
    );
    const label = (tx, ty, text, anchor) => {
      const e = svg("text", { x: tx, y: ty, "text-anchor": anchor, class: "axis" });
      e.textContent = text;
      chart.append(e);
    };
    label(L - 4, y(maxV) + 4, fmtBytes(maxV), "end");
    label(L - 4, y(0), "0", "end");
    label(x(maxT), H - 6, fmtSeconds(maxT), "end");
    box.append(chart);
    const entries = line.entries.reduce((a, b) => a + b, 0);
    box.append(
      el(
        "p",
        { class: "hint", id: "tickycaption" },
        `bytes allocated at each of ${ts.length} points (${s.samples_per_point} sample` +
          `${s.samples_per_point === 1 ? "" : "s"} a point); ${entries} entries in all`,
      ),
    );
  }

  function tickyView(box, ticky, width) {
    const state = { sort: "allocs", desc: true, filter: "", chosen: ticky.counters[0] };
    const facts = el(
      "p",
      { id: "tickyfacts" },
      `${ticky.counters.length} counters, ${ticky.samples} samples` +
        (ticky.covered == null
          ? ""
          : `; they allocated ${(100 * ticky.covered).toFixed(1)} % of the run's allocation`),
    );
    const search = el("input", {
      type: "search",
      id: "tickysearch",
      placeholder: "find a counter",
    });
    const table = el("table", { id: "tickytable", class: "bandtable" });
    const chartBox = el("div", { id: "tickyseries" });
    function draw() {
      const get = COLUMNS.find((c) => c[0] === state.sort)[2];
      const f = state.filter.toLowerCase();
      const rows = ticky.counters
        .filter(
          (c) =>
            !f ||
            c.name.toLowerCase().includes(f) ||
            (c.info_table || "").toLowerCase().includes(f),
        )
        .sort((a, b) => {
          const p = get(a),
            q = get(b);
          const o = typeof p === "string" ? p.localeCompare(q) : p - q;
          return state.desc ? -o : o;
        });
      table.textContent = "";
      const head = el("tr");
      for (const [key, title] of COLUMNS)
        head.append(
          el(
            "th",
            {
              "data-key": key,
              "aria-sort": key === state.sort ? (state.desc ? "descending" : "ascending") : "none",
              onclick: () => {
                state.desc = key === state.sort ? !state.desc : key !== "name" && key !== "kinds";
                state.sort = key;
                draw();
              },
            },
            title,
          ),
        );
      table.append(el("thead", {}, head));
      const body = el("tbody");
      for (const c of rows) {
        const tr = el("tr", {
          "data-name": c.name,
          class: c === state.chosen ? "chosen" : "",
          onclick: () => {
            state.chosen = c;
            draw();
          },
        });
        for (const [key] of COLUMNS)
          tr.append(el("td", NUMERIC.has(key) ? { class: "num" } : {}, cell(key, c)));
        body.append(tr);
      }
      table.append(body);
      if (state.chosen) drawSeries(chartBox, ticky, state.chosen, width);
    }
    search.addEventListener("input", () => {
      state.filter = search.value;
      draw();
    });
    box.append(el("section", { id: "ticky" }, facts, chartBox, search, table));
    draw();
  }

  ev2hp.tickyView = tickyView;
})((window.ev2hp = window.ev2hp || {}));
