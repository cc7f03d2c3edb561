/* kit.js: what every part of ev2hp's report draws with, and nothing of the profile.
 *
 * Numbers as the page writes them (bytes in binary units, seconds, rates), DOM and SVG
 * element builders, binary search over a run's times, axis ticks, the one tooltip (a box
 * beside the mouse: the charts' read-out and the flame graph's frames both show theirs
 * here) and the bar above a chart. The report's scripts are concatenated into one
 * <script> at build time (Makefile.am, "report"), this one first; each is a function of
 * its own that shares only the window.ev2hp object: this file puts its helpers in
 * ev2hp.kit.
 */
(function (ev2hp) {
  "use strict";

  const SVGNS = "http://www.w3.org/2000/svg";

  // --- formatting ----------------------------------------------------------------------

  const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  /* Three significant digits in the largest binary unit that keeps the number >= 1. */
  function fmtBytes(b) {
    let u = 0;
    let v = Math.abs(b);
    while (v >= 1024 && u < UNITS.length - 1) {
      v /= 1024;
      u++;
    }
    // three figures, as the C side's format_bytes: no decimals from 100 up (toPrecision
    // would write 1000 to 1023 of a unit as "1.00e+3")
    const s =
      u === 0 ? String(Math.round(v)) : v >= 100 ? v.toFixed(0) : trimZeros(v.toPrecision(3));
    return (b < 0 ? "-" : "") + s + " " + UNITS[u];
  }
  /* "1.50" -> "1.5", "100" stays: zeros go only after a decimal point. */
  function trimZeros(text) {
    return text.includes(".") && !text.includes("e") ? text.replace(/\.?0+$/, "") : text;
  }
  function fmtSeconds(s) {
    if (s === 0) return "0 s";
    return (Math.abs(s) >= 100 ? s.toFixed(1) : trimZeros(s.toPrecision(3))) + " s";
  }
  function fmtExact(b) {
    // not toLocaleString: it costs milliseconds a call on a first use
    return String(Math.round(b)).replace(/\B(?=(\d{3})+$)/g, ",") + " B";
  }
  /* A change in bytes, signed as what is printed, as ev2hp's summary: "+52.8 MiB",
   * "-4.48 MiB"; one that rounds to "0 B" has no sign. */
  function fmtChange(b) {
    const mag = fmtBytes(Math.abs(b));
    return (mag === "0 B" ? "" : b > 0 ? "+" : "-") + mag;
  }
  function fmtRate(b) {
    return fmtChange(b) + "/s";
  }

  // --- small DOM helpers -----------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") e.className = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of children) if (c != null) e.append(c);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  /* The index of the last point at or before t (binary search), -1 if none. */
  function pointAt(ts, t) {
    let lo = 0;
    let hi = ts.length - 1;
    if (!ts.length || t < ts[0]) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ts[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  function nearestPoint(ts, t) {
    const i = pointAt(ts, t);
    if (i < 0) return ts.length ? 0 : -1;
    if (i + 1 < ts.length && ts[i + 1] - t < t - ts[i]) return i + 1;
    return i;
  }

  /* A round step (1, 2 or 5 x 10^k) cutting range into at most n steps. */
  function niceStep(range, n) {
    if (!(range > 0)) return 1;
    const raw = range / n;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const s of [1, 2, 5, 10]) if (s * mag >= raw) return s * mag;
    return 10 * mag;
  }
  /* Memory ticks on round values of a binary unit. */
  /* Labelled in one unit with the decimals the step needs ("0.2 MiB", not "205 KiB"). */
  function byteTicks(max, n) {
    let u = 0;
    while (max / Math.pow(1024, u) >= 1024 && u < UNITS.length - 1) u++;
    const unit = Math.pow(1024, u);
    const step = Math.max(niceStep(max / unit, n), u === 0 ? 1 : 0) * unit;
    const decimals = Math.max(0, -Math.floor(Math.log10(step / unit) + 1e-9));
    const ticks = [];
    for (let k = 0; k * step <= max * 1.0001; k++)
      ticks.push({ v: k * step, label: (k * step) / unit });
    for (const t of ticks) t.label = t.label.toFixed(decimals) + " " + UNITS[u];
    return ticks;
  }

  // --- the tooltip: one box beside the mouse, for the charts' read-out and the flame
  // graph's frames -------------------------------------------------------------------------

  const tooltip = el("div", { class: "readout", id: "readout", role: "status" });
  /* Shows content (DOM nodes; null ones are left out) beside the mouse, inside the window. */
  function showTooltip(ev, ...content) {
    tooltip.replaceChildren(...content.filter((c) => c != null));
    tooltip.style.display = "block";
    tooltip.style.left =
      Math.min(ev.pageX + 16, window.scrollX + window.innerWidth - tooltip.offsetWidth - 8) + "px";
    tooltip.style.top = ev.pageY + 12 + "px";
  }
  function hideTooltip() {
    tooltip.style.display = "none";
  }

  /* The bar above the charts: what they show, and the way back (back, a function: a
   * button saying backLabel) or, when there is none, how to zoom in (hint). */
  function chartBar(what, back, backLabel, hint) {
    return el(
      "div",
      { class: "chartbar" },
      el("span", { id: "range" }, what),
      back
        ? el("button", { id: "zoomout", onclick: back }, backLabel)
        : el("span", { class: "hint" }, hint),
    );
  }

  // --- band colours -----------------------------------------------------------------
  //
  // ev2hp gives the page the colours of the bands it draws first (chart/colors.c: no two
  // alike); the bands the page draws itself (the groups of the grouping control, a band
  // drawn out of OTHER) it colours by the same rule, from the palette ev2hp writes
  // (data.palette) and each band's own colour: in rank order, its own colour when no band
  // before it took it, else the free palette colour nearest its own in OKLab (the lower
  // palette index on a tie). The palette's distances from any one colour differ by 1e-6
  // or more, so the page's arithmetic picks as ev2hp's does.

  /* "#rrggbb" in OKLab (Björn Ottosson, 2020), as chart/colors.c converts it. */
  function oklab(hex) {
    const lin = (i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    };
    const r = lin(1);
    const g = lin(3);
    const b = lin(5);
    const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return [
      0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
      1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
    ];
  }

  /* The colour for a band whose own colour is own, drawn with bands in the colours of the
   * set taken: own when free, else the free palette colour nearest it; own again when
   * the palette has none free (colours repeat past its size), or own is not of it. */
  function freeColour(palette, own, taken) {
    if (!taken.has(own) || !palette.includes(own)) return own;
    const from = oklab(own);
    let best = own;
    let bestD = Infinity;
    for (const c of palette) {
      if (taken.has(c)) continue;
      const to = oklab(c);
      const d = (to[0] - from[0]) ** 2 + (to[1] - from[1]) ** 2 + (to[2] - from[2]) ** 2;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  /* The colours of bands drawn together ([{colour: own, area, peak, label}]), in their
   * order: chart_band_colors' rule (rank: area, then peak, larger first, then label). */
  function bandColours(palette, bands) {
    const order = bands.map((b, i) => i);
    order.sort((i, j) => {
      const a = bands[i];
      const b = bands[j];
      if (a.area !== b.area) return b.area - a.area;
      if (a.peak !== b.peak) return b.peak - a.peak;
      if (a.label !== b.label) return a.label < b.label ? -1 : 1;
      return i - j;
    });
    const taken = new Set();
    const out = new Array(bands.length);
    for (const i of order) {
      out[i] =
        taken.size < palette.length ? freeColour(palette, bands[i].colour, taken) : bands[i].colour;
      taken.add(out[i]);
    }
    return out;
  }

  // --- statistics ------------------------------------------------------------------------

  /* The least-squares line through the first n of values v at times t (bandstats.c's
   * fit): its slope, R^2, and the values' standard deviation (over the n points, as
   * bandstats.c's over censuses). */
  function lineFit(t, v, n) {
    let mt = 0;
    let mv = 0;
    for (let i = 0; i < n; i++) {
      mt += t[i] / n;
      mv += v[i] / n;
    }
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let i = 0; i < n; i++) {
      sxx += (t[i] - mt) * (t[i] - mt);
      syy += (v[i] - mv) * (v[i] - mv);
      sxy += (t[i] - mt) * (v[i] - mv);
    }
    return {
      slope: n >= 2 && sxx > 0 ? sxy / sxx : 0,
      r2: sxx > 0 && syy > 0 ? Math.min(1, (sxy * sxy) / (sxx * syy)) : 0,
      stddev: n ? Math.sqrt(syy / n) : 0,
    };
  }

  // --- the report's packed numbers --------------------------------------------------------

  const DIGIT = new Int8Array(128).fill(-1);
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    .split("")
    .forEach((c, i) => (DIGIT[c.charCodeAt(0)] = i));
  /* The byte counts of a string ev2hp packed them into (sink_html.c, write_packed_counts):
   * base-32 digits, least significant first, in the base64 alphabet, a digit of 32 or
   * more saying another follows; a number is a value's difference from the last value
   * other than zero (zigzag: even up, odd down), in units (the band table's "unit": 8
   * when every count is whole words); '-' is a zero, '.' before a number a run of that
   * many zeros. Multiplied, not shifted: a count may pass the 32 bits JavaScript's
   * shifts keep. */
  function unpackCounts(text, unit = 1) {
    const out = [];
    let v = 0;
    let scale = 1;
    let run = false;
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 45) {
        out.push(0); // '-'
        continue;
      }
      if (c === 46) {
        run = true; // '.'
        continue;
      }
      const d = DIGIT[c];
      v += (d & 31) * scale;
      if (d >= 32) {
        scale *= 32;
        continue;
      }
      if (run) for (let k = 0; k < v; k++) out.push(0);
      else {
        last += v % 2 ? -(v + 1) / 2 : v / 2;
        out.push(last * unit);
      }
      [v, scale, run] = [0, 1, false];
    }
    return out;
  }

  /* The band table as ev2hp writes it (sink_html.c, write_table) made whole, in place:
   * a stack's label from its frames' indices (their texts joined by '/'), the runtime's
   * label given as a length from the label's first bytes and "...", the folded bands'
   * packed values and each band's bytes at the peak as numbers. Every reader of the
   * table's rows (the page, the tests) goes through this. */
  function unpackTable(table) {
    const frames = table.frames || [];
    for (const r of table.bands) {
      if (Array.isArray(r[0])) r[0] = r[0].map((f) => frames[f]).join("/");
      if (typeof r[1] === "number") r[1] = r[0].slice(0, r[1]) + "...";
      if (typeof r[10] === "string") r[10] = unpackCounts(r[10], table.unit || 1);
    }
    const keys = table.group_by;
    if (keys && typeof keys.peak === "string") keys.peak = unpackCounts(keys.peak);
    return table;
  }

  ev2hp.kit = {
    lineFit,
    unpackCounts,
    unpackTable,
    fmtBytes,
    trimZeros,
    fmtSeconds,
    fmtExact,
    fmtChange,
    fmtRate,
    el,
    svg,
    pointAt,
    nearestPoint,
    niceStep,
    byteTicks,
    tooltip,
    showTooltip,
    hideTooltip,
    chartBar,
    freeColour,
    bandColours,
  };
})((window.ev2hp = window.ev2hp || {}));
