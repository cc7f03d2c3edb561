/* link.js: the report's view as the URL's fragment, so that every view is a link.
 *
 * report.js keeps what a person has set up (the tab, the window, the grouping, the band
 * table's search and order, the hidden or isolated bands, the census chosen for the flame
 * graph and what the flame graph shows of a window) in its state; this file writes that
 * state into the fragment (`#view=flame&window=1.5,2.25&hide=b%3ATHUNK`, the form encoding
 * of URLSearchParams; `draw=LABEL`: a band drawn out of OTHER) and reads it back. `ev2hp --summary=markdown --report-url URL`
 * writes the same form (src/sink/reportlink.c): `band=LABEL` (the band a link names,
 * drawn alone and found in the table) and `window=FROM,TO` (seconds).
 *
 * The fragment is whatever a person or a page put in a link: it is parsed defensively
 * (every value checked against what it may be, unknown names ignored, bounded lengths)
 * and only ever compared with the page's own names or shown as text, never as markup.
 * ev2hp.link = {read, write}.
 */
(function (ev2hp) {
  "use strict";

  const MAX_TEXT = 4096; // characters of one text value (a label, the search)
  const MAX_LIST = 10000; // hidden bands listed
  const NAME = /^[a-z][a-z0-9_]{0,31}$/; // a view, a sort column, a flame mode

  /* A finite number written plainly ("2.5", "1e-3"), else null. */
  function number(text) {
    if (typeof text !== "string" || !/^-?[0-9.]+(e[-+]?[0-9]+)?$/i.test(text)) return null;
    const x = Number(text);
    return Number.isFinite(x) ? x : null;
  }
  const textOf = (v) => (v != null && v.length <= MAX_TEXT ? v : null);

  /* The state a fragment asks for: only the fields it gives, each valid in form (whether
   * the page has such a view, band or column is report.js's to check). */
  function read(hash) {
    const out = {};
    let params;
    try {
      params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
    } catch {
      return out;
    }
    const view = params.get("view");
    if (view && NAME.test(view)) out.view = view;
    const win = (params.get("window") || "").split(",");
    if (win.length === 2) {
      const [a, b] = win.map(number);
      if (a !== null && b !== null && b > a) out.window = [a, b];
    }
    const group = textOf(params.get("group"));
    if (group !== null) out.group = group;
    const q = textOf(params.get("q"));
    if (q !== null) out.filterText = q;
    const sort = params.get("sort");
    if (sort && NAME.test(sort.replace(/^-/, "")))
      out.sort = { key: sort.replace(/^-/, ""), desc: sort.startsWith("-") };
    /* a repeated key's texts, the first MAX_LIST, those too long left out */
    const listOf = (key) =>
      params
        .getAll(key)
        .slice(0, MAX_LIST)
        .map(textOf)
        .filter((k) => k !== null);
    const hide = listOf("hide");
    if (hide.length) out.hide = hide;
    const only = textOf(params.get("only"));
    if (only !== null) out.only = only;
    const draw = listOf("draw");
    if (draw.length) out.draw = draw;
    const band = textOf(params.get("band"));
    if (band !== null) out.band = band;
    const census = number(params.get("census"));
    if (census !== null) out.census = census;
    const focus = params.get("focus");
    if (focus && /^[0-9]{1,9}$/.test(focus)) out.focus = Number(focus);
    const flame = params.get("flame");
    if (flame === "peak" || flame === "grew") out.flame = flame;
    return out;
  }

  /* The fragment of a state (the fields report.js gives; defaults left out), "#..." or
   * "" when everything is as the page opens. */
  function write(s) {
    const p = new URLSearchParams();
    if (s.view) p.set("view", s.view);
    if (s.window) p.set("window", s.window.map((x) => String(x)).join(","));
    if (s.group) p.set("group", s.group);
    if (s.filterText) p.set("q", s.filterText);
    if (s.sort) p.set("sort", (s.sort.desc ? "-" : "") + s.sort.key);
    for (const label of s.draw || []) p.append("draw", label);
    if (s.only != null) p.set("only", s.only);
    else for (const k of s.hide || []) p.append("hide", k);
    if (s.census != null) p.set("census", String(s.census));
    if (s.flame) p.set("flame", s.flame);
    if (s.focus) p.set("focus", String(s.focus));
    const text = p.toString();
    return text ? "#" + text : "";
  }

  ev2hp.link = { read: read, write: write };
})(window.ev2hp);
