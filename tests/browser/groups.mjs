// groups.mjs: the report's grouping control checked against ev2hp --group-by, as a user
// drives it: shared by the static report's test (groups_test.mjs) and the live page's
// (live_test.mjs), which offer the same control over the same data.
import fs from "node:fs";
import { check, hover } from "./launch.mjs";

/* The export's groups: per label its bytes per census, its peak and its area (trapezoids
 * between consecutive censuses, as ev2hp's statistics), and the census totals. */
function groupsOf(json) {
  const n = json.censuses.length;
  const t = json.censuses.map((c) => c.time_s);
  const groups = new Map();
  for (const b of json.bands) groups.set(b.id, { label: b.label, v: new Array(n).fill(0) });
  const totals = new Array(n).fill(0);
  json.censuses.forEach((c, i) => {
    for (const [id, bytes] of c.entries) {
      groups.get(id).v[i] = bytes;
      totals[i] += bytes;
    }
  });
  const byLabel = new Map();
  for (const g of groups.values()) {
    g.peak = Math.max(0, ...g.v);
    g.area = 0;
    for (let i = 0; i + 1 < n; i++) g.area += ((t[i + 1] - t[i]) * (g.v[i] + g.v[i + 1])) / 2;
    byLabel.set(g.label, g);
  }
  return { t, totals, byLabel };
}

/* Chooses value in the control; the page is drawn again grouped by it ("" for none). */
export async function chooseGroup(page, value, none) {
  await page.select("#groupby", value);
  await page.waitForFunction(
    (v) => document.getElementById("report").dataset.groupBy === v,
    { timeout: 20000 },
    value === none ? "" : value,
  );
}

/* The read-out at time t (seconds) on the chart (report.js keeps its time range in
 * #report's data-range). */
async function hoverAt(page, t) {
  const range = (await page.$eval("#report", (r) => r.dataset.range)).split(",").map(Number);
  return hover(page, Math.min(0.9995, Math.max(0, (t - range[0]) / (range[1] - range[0]))));
}

/* Hovers at each of times (the page's points: censuses of the export): each drawn group's
 * bytes are the export's. With only, just that group is checked (OTHER and the total
 * not). Returns the censuses seen. */
async function checkCensuses(page, ex, times, what, only) {
  const seen = new Set();
  for (const t of times) {
    const r = await hoverAt(page, t);
    check(r, `${what}: no read-out at ${t} s`);
    const i = ex.t.findIndex((x) => Math.abs(x - r.time) < 1e-6);
    check(i >= 0, `${what}: the read-out's time ${r.time} s is no census of --group-by's`);
    if (seen.has(i)) continue;
    seen.add(i);
    let shown = 0;
    for (const row of r.rows) {
      if (row.band === "OTHER") continue;
      const label = row.band.slice(2);
      const g = ex.byLabel.get(label);
      check(g, `${what}: the chart draws ${label}, which --group-by has not`);
      shown += row.bytes;
      if (only && label !== only) continue;
      check(
        row.bytes === g.v[i],
        `${what}: ${label} at ${r.time} s: the page shows ${row.bytes} B, --group-by ${g.v[i]} B`,
      );
    }
    if (only) {
      check(
        r.rows.some((row) => row.band === "b:" + only),
        `${what}: ${only} not in the read-out`,
      );
      continue;
    }
    const other = r.rows.find((row) => row.band === "OTHER");
    check(
      !other || other.bytes === ex.totals[i] - shown,
      `${what}: OTHER at ${r.time} s: ${other && other.bytes} B, not the rest ${ex.totals[i] - shown} B`,
    );
    check(
      r.total === ex.totals[i],
      `${what}: total at ${r.time} s: ${r.total} B, --group-by's census ${ex.totals[i]} B`,
    );
  }
  return seen.size;
}

/* Chooses key in the control of the report open in page and checks the page's groups
 * against exportPath, the JSON export of the same input with --group-by key (see
 * groups_test.mjs): the legend, the bytes at every census, the smallest group found and
 * drawn. none is the control's first choice (table, stack). Returns what it saw. */
export async function checkKey(page, key, exportPath, name, none) {
  const what = `${name}: ${key}`;
  const ex = groupsOf(JSON.parse(fs.readFileSync(exportPath, "utf8")));
  // the table sorted by a column the groups may not have (-hi: an info table's type)
  if (await page.$('#bandtable th[data-key="type"]'))
    await page.click('#bandtable th[data-key="type"]');
  await chooseGroup(page, key, none);
  // the points every band has values at: the kept censuses, or fewer (table.t) when the
  // folded bands have values at fewer; then the page must say so
  const {
    select,
    kept,
    table,
    points: times,
  } = await page.$eval("#report", () => {
    const d = JSON.parse(document.getElementById("ev2hp-data").textContent);
    const folded = d.run.table.bands.some((r) => r[3] < 0);
    const points = folded ? d.run.table.t : d.run.t;
    return { select: d.options.select, kept: d.run.t.length, table: points.length, points };
  });
  const note = await page.$eval("#grouping", (g) => {
    const n = g.querySelector("#group-note");
    return n ? n.textContent : null;
  });
  if (table < kept)
    check(
      note && note.includes(`drawn at ${table} of the ${kept} censuses`),
      `${what}: groups drawn at ${table} of ${kept} kept censuses, the page says ${note}`,
    );
  else check(!note || !note.includes("drawn at"), `${what}: the page says ${note}`);
  // the legend: the largest groups by area (ties aside), and OTHER when some are left
  const legend = await page.$$eval("#legend li", (lis) => lis.map((li) => li.dataset.band));
  const shown = legend.filter((b) => b !== "OTHER").map((b) => b.slice(2));
  const ranked = [...ex.byLabel.values()]
    .filter((g) => g.peak > 0)
    .sort((a, b) => b.area - a.area || b.peak - a.peak);
  const want = ranked.slice(0, select.bands || ranked.length).map((g) => g.label);
  check(
    JSON.stringify([...shown].sort()) === JSON.stringify([...want].sort()),
    `${what}: the chart shows ${shown.length} groups [${shown.slice(0, 4)}...], ` +
      `not the ${want.length} largest of --group-by [${want.slice(0, 4)}...]`,
  );
  check(
    legend.includes("OTHER") === ranked.length > want.length,
    `${what}: OTHER ${legend.includes("OTHER") ? "drawn" : "missing"}`,
  );
  const rowsCount = await page.$eval("#bandtable", (t) => Number(t.dataset.bands));
  check(
    rowsCount === ranked.length + (ranked.length > want.length ? 1 : 0),
    `${what}: the table lists ${rowsCount} rows for ${ranked.length} groups`,
  );
  const points = await checkCensuses(page, ex, times, what, null);
  check(
    points === Math.min(table, ex.t.length),
    `${what}: the chart draws ${points} censuses, not ${Math.min(table, ex.t.length)}`,
  );
  // the smallest group, through the search box: its peak, then drawn out of OTHER
  const small = ranked.filter((g) => !shown.includes(g.label)).pop();
  let found = "";
  if (small) {
    await page.click("#filter", { clickCount: 3 });
    await page.type("#filter", small.label);
    const sel = `#bandtable tbody tr[data-band=${JSON.stringify("f:" + small.label)}]`;
    await page.waitForSelector(sel, { timeout: 5000 });
    const peak = await page.$eval(sel, (tr) => {
      const head = [...document.querySelectorAll("#bandtable th")].map((th) => th.dataset.key);
      return Number(tr.children[head.indexOf("peak")].dataset.value);
    });
    check(
      note ? peak <= small.peak : peak === small.peak,
      `${what}: ${small.label}: peak ${peak} B in the table, --group-by's ${small.peak} B`,
    );
    await page.click(sel + " button.draw");
    await checkCensuses(page, ex, times, what + " (drawn " + small.label + ")", small.label);
    await page.click("#filter", { clickCount: 3 });
    await page.keyboard.press("Backspace");
    found = `, ${small.label} found and drawn`;
  }
  return `${key}: ${shown.length} of ${ranked.length} groups at ${points} censuses${found}`;
}
