// report_test.mjs: ev2hp's HTML reports driven in a real browser (headless Chromium via
// puppeteer-core, which uses the installed browser and downloads nothing).
//
//   node report_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|census.json|flags|summary.json|x.folded": the report, and
// the JSON export of the same input (ev2hp -o x.json), the census data the values read
// from the page are checked against; --summary=json of the same input, which the growth
// column and the suspects are checked against; and, when the input has a time profile,
// its folded stacks (-o x.folded), which the flame graph's frames are checked against. flags: "compare" (two panels on shared scales; the base's bands this run lacks listed as gone), "builds" (two builds: the Diff tab, aligned by time and by progress), "progress" (--align progress: the Diff tab opens so), "hi" (info table columns),
// "many" (thousands of bands: the smallest found by the search box and drawn out of
// OTHER), "shot=PATH" (the guide's screenshot, share/examples/leak-hc-report.png); several joined by commas. For every case: no console errors or page
// errors; every view draws; hovering shows the time of a real census and each band's
// bytes equal to that census's; a legend click hides a band (gone from the chart and the
// read-out) and shift-click isolates one; a drag zooms into the dragged time range and a
// double-click goes back; the band table sorts by every column both ways and filters by
// a regular expression (a bad one is flagged, not thrown); markers carry their text; the
// growth column and the suspects are --summary's; with a time profile, the flame and
// icicle views draw, hovering a frame shows the samples the folded stacks give its path,
// clicking a frame zooms into it and double-click goes back.
// Prints one line per case and "N passed, N failed".
import fs from "node:fs";
import path from "node:path";
import { launch, check, runCases, hover, overlayBox } from "./launch.mjs";
import { findBand, drawBand, clearSearch } from "./findband.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

const stripNumber = (label) => label.replace(/^\(\d+\)/, "");

/* The census at time t (seconds, as the report writes it) in the JSON export, with its
 * bytes by label (labels that occur twice are left out: they cannot be told apart). */
function censusAt(json, t) {
  const c = json.censuses.find((c) => Math.abs(c.time_s - t) < 1e-6);
  if (!c) return null;
  const byLabel = new Map();
  const seen = new Map();
  for (const b of json.bands) {
    const l = stripNumber(b.label);
    seen.set(l, (seen.get(l) || 0) + 1);
  }
  let total = 0;
  for (const [id, bytes] of c.entries) {
    const l = stripNumber(json.bands[id].label);
    total += bytes;
    if (seen.get(l) === 1) byLabel.set(l, bytes);
  }
  return { byLabel, total };
}

/* Hover at a few places of the first panel: values must be those of a real census. */
async function checkHover(page, json, data, what) {
  let checked = 0;
  for (const f of [0.1, 0.37, 0.5, 0.83]) {
    const r = await hover(page, f);
    if (!r) continue;
    const census = censusAt(json, r.time);
    check(census, `${what}: hover at ${f}: time ${r.time} is no census of the input`);
    for (const row of r.rows) {
      if (row.band === "OTHER") continue;
      const label = stripNumber(row.band.slice(2)); // "b:" + label
      const want = census.byLabel.get(label);
      if (want === undefined && census.byLabel.size && row.bytes !== 0) {
        // a label shared by two bands, or absent from this census: absent means 0
        check(
          !json.bands.some((b) => stripNumber(b.label) === label) ||
            json.bands.filter((b) => stripNumber(b.label) === label).length > 1,
          `${what}: ${row.band} shows ${row.bytes} B at ${r.time} s, the census has none`,
        );
        continue;
      }
      if (want !== undefined)
        check(
          row.bytes === want,
          `${what}: ${row.band} at ${r.time} s: shows ${row.bytes} B, the census has ${want} B`,
        );
    }
    if (!data.run.bands_filtered)
      check(
        r.total === census.total,
        `${what}: total at ${r.time} s: shows ${r.total} B, the census has ${census.total} B`,
      );
    checked++;
  }
  return checked;
}

/* [label, raw] of every row the band table lists: OTHER and every band with bytes. */
function tableLabels(data) {
  return runLabels(data).concat(goneBands(data).map((b) => [b.label, b.raw]));
}
function runLabels(data) {
  const run = data.run;
  if (!run.table) return run.bands.map((b) => [b.label, b.raw]);
  const rows = run.table.bands.map((r) => [r[0], r[1]]);
  if (run.bands.some((b) => b.other)) rows.push(["OTHER", null]);
  return rows;
}
/* --compare: the base's bands no band of this run matches (data.gone: every one, those
 * folded into the base's OTHER too), which the table lists too, as "gone". */
function goneBands(data) {
  return (data.gone || []).map(([label, peak]) => ({ label, peak }));
}

/* --compare: every band only the base has is a row ("gone": its base peak, no peak now,
 * -100 %); sorted by change, smallest first, the gone band of the largest base peak
 * leads when no band of this run shrank by more. */
async function checkGone(page, data, summary, name) {
  const gone = goneBands(data);
  // as many as --summary=json's compare.bands has with no value now
  const want0 = summary.compare.bands.filter((b) => b.now === null && b.base !== null).length;
  check(gone.length === want0, `${name}: ${gone.length} bands gone, the summary says ${want0}`);
  const rows = await page.$eval("#bandtable", (t) => Number(t.dataset.rows));
  const want = runLabels(data).length + gone.length;
  check(
    rows === want,
    `${name}: the table lists ${rows} bands, want ${want} (${gone.length} gone)`,
  );
  if (!gone.length) return "no band gone";
  while ((await page.$eval('#bandtable th[data-key="change"]', (t) => t.className)) !== "asc")
    await page.click('#bandtable th[data-key="change"]');
  const first = await page.$eval("#bandtable tbody tr:not(.spacer)", (r) => {
    const cell = (k) => r.querySelector(`td:nth-child(${k})`);
    return {
      cls: r.className,
      peak: cell(2).textContent,
      base: Number(cell(3).dataset.value),
      change: Number(cell(4).dataset.value),
      pct: cell(5).textContent,
      pctValue: Number(cell(5).dataset.value),
    };
  });
  const largest = Math.max(...gone.map((b) => b.peak));
  const shrunk = data.run.bands.some((b) => {
    const was = (data.pairs || []).find(([n]) => n === data.run.bands.indexOf(b));
    return was && was[1] >= 0 && data.base.bands[was[1]].peak - b.peak > largest;
  });
  if (!shrunk)
    check(
      first.cls === "gone" &&
        first.peak === "none" &&
        first.base === largest &&
        first.change === -largest &&
        first.pct === "gone (-100 %)" &&
        first.pctValue === -100,
      `${name}: the largest gone band is not first by change: ${JSON.stringify(first)}`,
    );
  return `${gone.length} gone`;
}

/* A run of thousands of bands: the band with the smallest peak, folded into OTHER, found
 * through the search box by its label, and drawn ("draw"): then the chart has it, in
 * its own colour (or, when a drawn band has that, in one no drawn band has), and OTHER
 * holds one band fewer. */
async function checkFolded(page, data, name) {
  const folded = data.run.table.bands.filter((r) => r[3] < 0);
  check(folded.length > 0, `${name}: no band folded into OTHER`);
  const smallest = folded.reduce((a, r) => (r[4] < a[4] ? r : a));
  const [label, , colour] = smallest;
  const part = label.slice(0, Math.min(label.length, 40));
  const row = await findBand(page, part, label);
  check(row, `${name}: searching "${part}" does not list ${label}`);
  if (!row) return "smallest band not found";
  const otherBefore = await page.$$eval('#charts [data-band="OTHER"]', (e) => e.length);
  // its own colour, unless a band drawn already has it: then one no drawn band has
  const taken = new Set(
    [data.run, data.base || { bands: [] }].flatMap((r) =>
      r.bands.filter((b) => !b.other).map((b) => b.colour.toLowerCase()),
    ),
  );
  const { key, fills: drawnFill } = await drawBand(page, row);
  check(drawnFill.length > 0, `${name}: ${label} is not drawn after "draw"`);
  check(
    drawnFill.every((f) =>
      taken.has(colour.toLowerCase())
        ? f && !taken.has(f.toLowerCase())
        : f && f.toLowerCase() === colour.toLowerCase(),
    ),
    `${name}: ${label} drawn in ${drawnFill}, not ${colour} or a colour of its own`,
  );
  const legend = await page.$$eval(`#charts [data-band="${key}"]`, (e) => e.length);
  check(legend > drawnFill.length || otherBefore > 0, `${name}: ${label}: no legend entry`);
  await clearSearch(page);
  return `smallest of ${data.run.table.bands.length} bands found and drawn`;
}

/* Growth and R² of each band in the table, and the suspects, against --summary=json. */
async function checkGrowth(page, data, summary, name) {
  // Bands are matched by label without their "(n)": two stacks whose names the runtime's
  // -L cut to the same text cannot be told apart that way, so such labels are left out.
  const byLabel = new Map();
  const twice = new Set();
  for (const b of summary.bands || []) {
    const label = stripNumber(b.label);
    if (byLabel.has(label)) twice.add(label);
    byLabel.set(label, b);
  }
  for (const label of twice) byLabel.delete(label);
  // the largest bands in view (only the rows in view are in the page), whatever order
  // the table was left in (the last column sorted: R², or an info table's source)
  const area = '#bandtable th[data-key="area"]';
  while ((await page.$(area)) && (await page.$eval(area, (t) => t.className)) !== "desc")
    await page.click(area);
  const cells = await page.evaluate(() => {
    const keys = [...document.querySelectorAll("#bandtable th[data-key]")].map(
      (t) => t.dataset.key,
    );
    const g = keys.indexOf("growth");
    const r = keys.indexOf("r2");
    return [...document.querySelectorAll("#bandtable tbody tr[data-band]")].map((tr) => ({
      band: tr.dataset.band,
      growth: g < 0 ? null : tr.children[g].dataset.value,
      r2: r < 0 ? null : tr.children[r].dataset.value,
      text: g < 0 ? null : tr.children[g].textContent,
    }));
  });
  let matched = 0;
  for (const c of cells) {
    if (c.band === "OTHER") continue;
    const want = byLabel.get(stripNumber(c.band.slice(2)));
    if (!want) continue;
    check(c.growth !== null && c.growth !== "", `${name}: ${c.band}: no growth in the table`);
    const g = Number(c.growth);
    // --summary=json writes %.3f and %.4f; the report %.10g
    check(
      Math.abs(g - want.growth_bytes_per_s) <= 5e-4 + 1e-9 * Math.abs(g),
      `${name}: ${c.band}: growth ${g} B/s, --summary says ${want.growth_bytes_per_s}`,
    );
    check(
      Math.abs(Number(c.r2) - want.growth_r2) <= 5e-5,
      `${name}: ${c.band}: R² ${c.r2}, --summary says ${want.growth_r2}`,
    );
    check(/\/s$/.test(c.text), `${name}: ${c.band}: growth shown as "${c.text}"`);
    // a rate that rounds to 0 B/s carries no sign, as in --summary
    check(!/^[-+]0 B\/s$/.test(c.text), `${name}: ${c.band}: growth shown as "${c.text}"`);
    matched++;
  }
  if (data.run.censuses > 1 && data.run.bands.length && summary.bands.length)
    check(matched > 0, `${name}: no band of the table is in --summary's`);
  const sus = await page.$$eval("#suspects li", (lis) =>
    lis.map((li) => ({ band: li.dataset.band, rise: Number(li.dataset.rise) })),
  );
  const want = summary.suspects || [];
  check(
    sus.length === want.length,
    `${name}: ${sus.length} suspects shown, --summary has ${want.length}`,
  );
  for (const [i, s] of sus.entries()) {
    check(
      stripNumber(s.band.slice(2)) === stripNumber(want[i].label) &&
        Math.abs(s.rise - want[i].rise_bytes_per_s) <= 5e-4 + 1e-9 * Math.abs(s.rise),
      `${name}: suspect ${i + 1} is ${s.band} at ${s.rise} B/s, --summary says ` +
        `${want[i].label} at ${want[i].rise_bytes_per_s} B/s`,
    );
  }
  return `${matched} growths, ${sus.length} suspects`;
}

/* Samples of the calling context path ("A;B;C") in folded stacks: those of every stack
 * that is the path or starts with it. */
function foldedSamples(folded, path) {
  let n = 0;
  for (const line of folded) {
    const sp = line.lastIndexOf(" ");
    const stack = line.slice(0, sp);
    if (path === "" || stack === path || stack.startsWith(path + ";"))
      n += Number(line.slice(sp + 1));
  }
  return n;
}

/* The folded path of every node of the report's flame data ("" for the root), and the
 * samples of all nodes by path: two cost centres of one name (two lambdas of a function)
 * are two frames but one path in folded stacks, which count them together. */
function flamePaths(flame) {
  const paths = [];
  const byPath = new Map();
  for (let i = 0; i < flame.nodes.length / 4; i++) {
    const parent = flame.nodes[4 * i];
    const cc = flame.nodes[4 * i + 1];
    paths.push(parent < 0 ? "" : (parent ? paths[parent] + ";" : "") + flame.ccs[cc][0]);
    byPath.set(paths[i], (byPath.get(paths[i]) || 0) + flame.nodes[4 * i + 3]);
  }
  return { paths, byPath };
}

/* The flame and icicle views: hover frames and compare their samples with the folded
 * stacks; click to zoom into a frame, double-click back. */
async function checkFlame(page, data, folded, name) {
  const { paths, byPath } = flamePaths(data.flame);
  check(folded, `${name}: the report has a time profile but ev2hp wrote no folded stacks`);
  if (!data.run.censuses)
    check(
      (await page.$eval("#views button[aria-selected=true]", (b) => b.dataset.view)) === "flame",
      `${name}: a time profile without censuses should open on the flame graph`,
    );
  check(
    data.flame.samples === foldedSamples(folded, ""),
    `${name}: ${data.flame.samples} samples in the report, ${foldedSamples(folded, "")} folded`,
  );
  let hovered = 0;
  for (const view of ["icicle", "flame"]) {
    await page.click(`#views button[data-view="${view}"]`);
    const frames = await page.$$eval(".flame .frame:not(.above)", (gs) =>
      gs.map((g) => {
        const r = g.querySelector("rect");
        return { node: g.dataset.node, w: Number(r.getAttribute("width")) };
      }),
    );
    check(frames.length > 0, `${name}: the ${view} graph draws no frame`);
    // the root, the widest frames and a few narrow ones (at least a pixel wide)
    const pick = frames
      .slice()
      .sort((a, b) => b.w - a.w)
      .filter((f) => f.w >= 2);
    const chosen = pick.slice(0, 6).concat(pick.slice(-4));
    for (const f of chosen) {
      const rect = await page.$(`.flame .frame[data-node="${f.node}"] rect`);
      await rect.evaluate((e) => e.scrollIntoView({ block: "center" }));
      const box = await rect.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const tip = await page.evaluate(() => {
        const r = document.getElementById("readout");
        const t = r.querySelector(".frame-tip");
        if (r.style.display !== "block" || !t) return null;
        return {
          node: Number(t.dataset.node),
          samples: Number(t.dataset.samples),
          path: t.dataset.path,
          text: r.textContent,
        };
      });
      check(tip, `${name}: ${view}: hovering frame ${f.node} shows no tooltip`);
      check(
        tip.node === Number(f.node) && tip.path === paths[tip.node],
        `${name}: ${view}: hovering frame ${f.node} shows frame ${tip.node} (${tip.path})`,
      );
      check(
        tip.samples === data.flame.nodes[4 * tip.node + 3],
        `${name}: ${view}: frame ${tip.path} shows ${tip.samples} samples, its data says ` +
          data.flame.nodes[4 * tip.node + 3],
      );
      // the folded stacks give the samples of the path (of all frames of that path)
      const want = foldedSamples(folded, tip.path);
      const same = byPath.get(tip.path);
      check(
        same === want,
        `${name}: ${view}: frame ${tip.path || "all"} shows ${tip.samples} samples ` +
          `(${same} with the frames of the same name), the folded stacks give ${want}`,
      );
      // a time profile's tooltip counts samples; a heap census's says bytes in words
      const says = data.flame.unit === "bytes" ? "including callees" : tip.samples + " samples (";
      check(
        tip.text.includes(says),
        `${name}: ${view}: the tooltip does not say the ${data.flame.unit}: ${tip.text}`,
      );
      hovered++;
    }
  }
  // click the widest frame but the root: it spans the width; double-click goes back
  const frames = await page.$$eval(".flame .frame", (gs) =>
    gs.map((g) => [g.dataset.node, Number(g.querySelector("rect").getAttribute("width"))]),
  );
  const sub = frames.filter(([n]) => n !== "0").sort((a, b) => b[1] - a[1])[0];
  if (sub) {
    const full = frames.find(([n]) => n === "0")[1];
    await page.click(`.flame .frame[data-node="${sub[0]}"] rect`);
    const w = await page.$eval(
      `.flame .frame[data-node="${sub[0]}"] rect`,
      (r) => +r.getAttribute("width"),
    );
    check(Math.abs(w - full) < 0.01, `${name}: a clicked frame should span the width`);
    const box = await (await page.$(`.flame .frame[data-node="${sub[0]}"] rect`)).boundingBox();
    await page.mouse.click(box.x + 2, box.y + 2, { clickCount: 2 });
    const w2 = await page.$eval(
      `.flame .frame[data-node="${sub[0]}"] rect`,
      (r) => +r.getAttribute("width"),
    );
    check(Math.abs(w2 - sub[1]) < 0.01, `${name}: double-click should show all frames again`);
  }
  return `${hovered} frames checked`;
}

/* --compare of two builds (tests/evlayout.py rebuild: lazySum doubled, insertT halved,
 * every band paired): the Diff tab draws a warm line for lazySum and a cool one for
 * insertT and its read-out gives both runs' values; the band table has the base's peak
 * and the change, sortable; the area view's read-out gives the other run's value too. */
async function checkBuilds(page, data, name) {
  check(data.pairs && data.pairs.every((p) => p[0] >= 0 && p[1] >= 0), `${name}: unpaired bands`);
  await page.click('#views button[data-view="diff"]');
  const lines = await page.$$eval("#charts svg.diff path.diffline", (ps) =>
    ps.map((p) => [p.dataset.band, p.getAttribute("stroke")]),
  );
  const hue = (hex) => {
    const v = parseInt(hex.slice(1), 16);
    return (v >> 16) - (v & 255);
  };
  const lazy = lines.find(([k]) => k.includes("lazySum"));
  const ins = lines.find(([k]) => k.includes("insertT"));
  check(lazy && hue(lazy[1]) > 60, `${name}: Diff: lazySum not warm: ${lines}`);
  check(ins && hue(ins[1]) < -60, `${name}: Diff: insertT not cool: ${lines}`);
  const legend = await page.$$eval("#difflegend li", (ls) =>
    ls.map((l) => [l.dataset.band, Number(l.dataset.change)]),
  );
  check(legend[0][0].includes("lazySum") && legend[0][1] > 0, `${name}: Diff legend: ${legend}`);
  check(
    legend[legend.length - 1][0].includes("insertT") && legend[legend.length - 1][1] < 0,
    `${name}: Diff legend's last: ${legend[legend.length - 1]}`,
  );
  const svgBox = await (await page.$("#charts svg.diff")).boundingBox();
  await page.mouse.move(svgBox.x + svgBox.width * 0.85, svgBox.y + svgBox.height / 2);
  const rows = await page.$$eval("#readout tr[data-band]", (rs) =>
    rs.map((r) => [r.dataset.band, Number(r.dataset.base), Number(r.dataset.now)]),
  );
  const lz = rows.find(([k]) => k.includes("lazySum"));
  check(lz && lz[2] > lz[1], `${name}: Diff read-out: lazySum ${lz}`);
  // the band table: base peak and change, sorted by change
  const heads = await page.$$eval("#bandtable th", (ths) => ths.map((t) => t.dataset.key));
  for (const k of ["base_peak", "change", "change_pct"])
    check(heads.includes(k), `${name}: no ${k} column: ${heads}`);
  while ((await page.$eval('#bandtable th[data-key="change"]', (t) => t.className)) !== "desc")
    await page.click('#bandtable th[data-key="change"]');
  const first = await page.$eval("#bandtable tbody tr:not(.spacer)", (r) => [
    r.dataset.band,
    r.querySelector("td:nth-child(5)").textContent,
  ]);
  check(first[0].includes("lazySum") && first[1] === "+100.0 %", `${name}: top change ${first}`);
  // the area view's read-out: this run's value and the base's
  await page.click('#views button[data-view="area"]');
  const r = await hover(page, 0.9);
  const other = await page.$$eval("#readout tr[data-band]", (rs) => rs.map((x) => x.dataset.other));
  check(r && other.some((o) => o !== ""), `${name}: the read-out lacks the base's values`);
  return `diff: ${lines.length} lines`;
}

/* The Diff tab's alignment: as --align said (flag "progress") or ev2hp's rule chose, then
 * the other one through its control; each time the read-out's values are each run's band
 * at that moment of it (linear between its points), by time or at the same share of each
 * run. */
async function checkAlign(page, data, name, flags) {
  const at = (run, band, t) => {
    const ts = run.t;
    if (t < ts[0] || t > ts[ts.length - 1]) return 0;
    let i = 0;
    while (i + 1 < ts.length - 1 && ts[i + 1] <= t) i++;
    const v = run.v[band];
    return ts[i + 1] > ts[i]
      ? v[i] + ((v[i + 1] - v[i]) * (t - ts[i])) / (ts[i + 1] - ts[i])
      : v[i + 1];
  };
  const share = (run, p) => run.t[0] + p * (run.t[run.t.length - 1] - run.t[0]);
  const pairs = data.pairs.filter(([n, b]) => n >= 0 && b >= 0);
  // the page's key of each band of this run (report.js): its label, #n for a repeated one
  const seenLabel = new Map();
  const keys = data.run.bands.map((b) => {
    const k = seenLabel.get(b.label) || 0;
    seenLabel.set(b.label, k + 1);
    return b.other ? "OTHER" : "b:" + b.label + (k ? "#" + k : "");
  });
  // --align progress (flag "progress"), else ev2hp's rule (model/diffseries.h): progress
  // when one run is more than a fifth longer than the other, from first census to last
  const length = (run) => run.t[run.t.length - 1] - run.t[0];
  const [shorter, longer] = [length(data.base), length(data.run)].sort((a, b) => a - b);
  let align = flags.includes("progress") || longer > 1.2 * shorter ? "progress" : "time";
  const seen = [];
  for (let pass = 0; pass < 2; pass++) {
    await page.click('#views button[data-view="diff"]');
    const got = await page.$eval("#charts svg.diff", (s) => s.dataset.align);
    check(got === align, `${name}: the Diff tab is aligned by ${got}, want ${align}`);
    const labels = await page.$$eval("#charts svg.diff .xlabel", (ts) =>
      ts.map((t) => t.textContent),
    );
    check(
      labels.length > 2 && labels.every((l) => l.endsWith(" %") === (align === "progress")),
      `${name}: Diff x labels by ${align}: ${labels}`,
    );
    const box = await (await page.$("#charts svg.diff")).boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const r = await page.evaluate(() => {
      const w = document.querySelector("#readout .time").dataset;
      const rows = [...document.querySelectorAll("#readout tr[data-band]")];
      return {
        w: { ...w },
        rows: rows.map((x) => [x.dataset.band, +x.dataset.base, +x.dataset.now]),
      };
    });
    const p = align === "progress" ? Number(r.w.share) : Number(r.w.time);
    check(
      Number.isFinite(p),
      `${name}: Diff read-out (${align}) has no moment: ${JSON.stringify(r.w)}`,
    );
    let checked = 0;
    for (const [n, b] of pairs) {
      const row = r.rows.find(([k]) => k === keys[n]);
      if (!row) continue;
      checked++;
      const tb = align === "progress" ? share(data.base, p) : p;
      const tn = align === "progress" ? share(data.run, p) : p;
      const wb = at(data.base, b, tb);
      const wn = at(data.run, n, tn);
      check(
        Math.abs(row[1] - wb) <= 1e-6 * Math.max(1, wb) &&
          Math.abs(row[2] - wn) <= 1e-6 * Math.max(1, wn),
        `${name}: Diff read-out by ${align} at ${p}: ${row}, want base ${wb}, now ${wn}`,
      );
    }
    check(checked > 1, `${name}: Diff read-out by ${align}: ${checked} bands checked`);
    seen.push(`${align} (${checked} bands)`);
    align = align === "progress" ? "time" : "progress";
    await page.select("#diffalign", align);
  }
  return `Diff aligned by ${seen.join(", then ")}`;
}

/* A heap census's flame graph (-hc, -hi): clicking a chart at a time shows the flame
 * graph of the census there, its root the sum of that census's bands (the data's); the
 * Flame tab from the chart shows the peak's census again. */
async function checkCensusFlame(page, data, name) {
  await page.click('#views button[data-view="area"]');
  const box = await overlayBox(page);
  await page.mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.waitForSelector("#charts svg.flame", { timeout: 5000 });
  const got = await page.$eval("#charts svg.flame", (s) => [
    Number(s.dataset.total),
    Number(s.dataset.census),
  ]);
  const run = data.run;
  const i = run.t.indexOf(got[1]);
  check(i >= 0, `${name}: the chosen census ${got[1]} is not one of the run's points`);
  const want = run.v.reduce((sum, v) => sum + v[i], 0);
  check(got[0] === want, `${name}: census at ${got[1]}: flame ${got[0]}, bands ${want}`);
  check(got[1] !== data.flame.census_s, `${name}: the chosen census is the peak's`);
  await page.click('#views button[data-view="area"]');
  await page.click('#views button[data-view="flame"]');
  const peak = await page.$eval("#charts svg.flame", (s) => Number(s.dataset.total));
  check(peak === data.flame.samples, `${name}: the Flame tab does not show the peak again`);
  return `census flame at ${got[1]} s`;
}

async function runCase(spec) {
  const [name, html, jsonPath, flags = "", summaryPath = "", foldedPath = ""] = spec.split("|");
  const json = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
  const summary = summaryPath ? JSON.parse(fs.readFileSync(summaryPath, "utf8")) : null;
  const folded =
    foldedPath && fs.existsSync(foldedPath)
      ? fs.readFileSync(foldedPath, "utf8").split("\n").filter(Boolean)
      : null;
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push("console: " + m.text());
  });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) errors.push("fetched " + r.url());
  });
  const t0 = Date.now();
  await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
  await page.waitForSelector("#report[data-ready]", { timeout: 20000 });
  const loadMs = Date.now() - t0;
  // as the page reads it: the band table's packed labels and counts made whole
  const data = await page.evaluate(() => {
    const d = JSON.parse(document.getElementById("ev2hp-data").textContent);
    if (d.run.table) window.ev2hp.kit.unpackTable(d.run.table);
    return d;
  });
  const nb = data.run.bands.length;
  const notes = [`${nb} bands`, `${data.run.t.length} points`, `loaded in ${loadMs} ms`];

  // summary
  const peakText = await page.$eval("#summary", (e) => e.textContent);
  check(/peak/.test(peakText) && /damage/.test(peakText), `${name}: no summary`);
  // the subtitle names the input file, never the directories it was read from
  const subtitle = await page.$eval("#summary .subtitle", (e) => e.textContent);
  check(!subtitle.includes("/"), `${name}: the subtitle shows a path: ${subtitle}`);
  check(data.run.name && !data.run.name.includes("/"), `${name}: run.name ${data.run.name}`);

  if (data.flame) notes.push(await checkFlame(page, data, folded, name));
  else check(!folded, `${name}: ev2hp wrote folded stacks but the report has no time profile`);
  if (data.census_stacks && data.run.t.length > 2)
    notes.push(await checkCensusFlame(page, data, name));

  // a time profile without a census in either run offers no heap view (issue 39): the
  // rest of the checks are of the heap views and the band table
  const offered = await page.$$eval("#views button", (bs) => bs.map((b) => b.dataset.view));
  const heapless = !!data.flame && !data.run.censuses && !(data.base && data.base.censuses);
  check(offered.includes("area") === !heapless, `${name}: tabs ${offered}`);
  if (heapless) {
    check(!errors.length, `${name}: ${errors.join("; ")}`);
    await page.close();
    return notes.concat(`tabs ${offered}`).join(", ");
  }

  // every view draws
  for (const view of ["area", "normalized", "stream", "lines", "heap", "detail"]) {
    await page.click(`#views button[data-view="${view}"]`);
    const drawn = await page.evaluate(
      () =>
        document.querySelectorAll("#charts path.area, #charts path.line, #charts .detail-row")
          .length,
    );
    if (nb && data.run.t.length) check(drawn > 0, `${name}: view ${view} draws nothing`);
  }
  await page.click('#views button[data-view="area"]');

  // memory ticks: round values growing upwards, the top one not far below the largest total
  const ticks = await page.$$eval("#charts .panel:last-of-type .ylabel", (ts) =>
    ts.map((t) => [Number(t.getAttribute("y")), t.textContent]),
  );
  const unit = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };
  const bytes = ticks
    .sort((p, q) => q[0] - p[0])
    .map(([, text]) => {
      const m = /^([\d.]+) (B|KiB|MiB|GiB|TiB)$/.exec(text);
      check(m, `${name}: tick label "${text}"`);
      return Number(m[1]) * unit[m[2]];
    });
  for (let i = 1; i < bytes.length; i++)
    check(bytes[i] > bytes[i - 1], `${name}: memory ticks out of order: ${ticks.map((t) => t[1])}`);
  if (data.peak.bytes && !data.options.y_max && !data.base)
    check(
      bytes[bytes.length - 1] * 2.5 >= data.peak.bytes,
      `${name}: the top tick ${bytes[bytes.length - 1]} is far below the peak ${data.peak.bytes}`,
    );

  if (nb && data.run.t.length > 1) {
    // hover read-out against the census data
    const hovered = await checkHover(page, json, data, name);
    check(hovered > 0, `${name}: hovering shows nothing`);
    notes.push(`${hovered} hovers checked`);

    // hide the band on top of the stack, then isolate the bottom one (drawn in each panel
    // that has it: with --compare, a band both runs have is one band)
    const areas = await page.$$eval("#charts path.area", (ps) => ps.length);
    const top = await page.$eval("#legend li", (li) => li.dataset.band);
    await page.click("#legend li");
    const hidden = await page.evaluate(
      (k) => ({
        cls: document.querySelector(`#legend li[data-band="${CSS.escape(k)}"]`).className,
        drawn: [...document.querySelectorAll("#charts path.area")].some(
          (p) => p.dataset.band === k,
        ),
        areas: document.querySelectorAll("#charts path.area").length,
      }),
      top,
    );
    check(hidden.cls === "hidden" && !hidden.drawn, `${name}: a hidden band is still drawn`);
    const r = await hover(page, 0.5);
    check(
      r && !r.rows.some((row) => row.band === top),
      `${name}: a hidden band is in the read-out`,
    );
    await page.click(`#legend li[data-band="${top.replace(/["\\]/g, "\\$&")}"]`);
    const bottom = await page.$eval("#legend li:last-child", (li) => li.dataset.band);
    await page.keyboard.down("Shift");
    await page.click("#legend li:last-child");
    await page.keyboard.up("Shift");
    const iso2 = await page.$$eval("#charts path.area", (ps) => ps.map((p) => p.dataset.band));
    check(
      iso2.length >= 1 && iso2.length <= (data.base ? 2 : 1) && iso2.every((k) => k === bottom),
      `${name}: shift-click should isolate ${bottom}, shows ${iso2.length} bands`,
    );
    await page.keyboard.down("Shift");
    await page.click("#legend li:last-child");
    await page.keyboard.up("Shift");
    const all = await page.$$eval("#charts path.area", (ps) => ps.length);
    check(all === areas, `${name}: shift-click again should show all bands`);

    // drag to zoom into [30 %, 60 %] of the time axis, double-click back
    const before = await page.$eval("#report", (e) => e.dataset.range);
    const [a0, a1] = before.split(",").map(Number);
    const box = await overlayBox(page);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    const after = (await page.$eval("#report", (e) => e.dataset.range)).split(",").map(Number);
    const want = [a0 + 0.3 * (a1 - a0), a0 + 0.6 * (a1 - a0)];
    const tol = (a1 - a0) * 0.01;
    check(
      Math.abs(after[0] - want[0]) < tol && Math.abs(after[1] - want[1]) < tol,
      `${name}: zoom: range ${after} after dragging over ${want}`,
    );
    // the read-out is of the census nearest the pointer (to a pixel)
    const zh = await hover(page, 0.5);
    const at = (after[0] + after[1]) / 2;
    const px = (after[1] - after[0]) / box.width;
    check(
      zh && json.censuses.every((c) => Math.abs(c.time_s - at) >= Math.abs(zh.time - at) - px),
      `${name}: zoomed hover at ${at} s shows ${zh && zh.time} s, not the nearest census`,
    );
    await checkHover(page, json, data, name + " (zoomed)");
    const b2 = await overlayBox(page);
    await page.mouse.click(b2.x + b2.width / 2, b2.y + b2.height / 2, { clickCount: 2 });
    const back = await page.$eval("#report", (e) => e.dataset.range);
    check(back === before, `${name}: double-click should go back to ${before}, is ${back}`);
    notes.push("zoom ok");
  }

  // band table: sort by every column, both ways
  const heads = await page.$$eval("#bandtable th[data-key]", (ths) =>
    ths.map((t) => t.dataset.key),
  );
  for (const [k, key] of heads.entries()) {
    for (let pass = 0; pass < 2; pass++) {
      await page.click(`#bandtable th[data-key="${key}"]`);
      const res = await page.evaluate((k) => {
        const th = document.querySelectorAll("#bandtable th[data-key]")[k];
        const vals = [...document.querySelectorAll("#bandtable tbody tr[data-band]")].map(
          (tr) => tr.children[k].dataset.value,
        );
        return { dir: th.className, vals };
      }, k);
      // numbers, where a blank is a value the band has not (OTHER's R²): sorted lowest
      const num =
        res.vals.some((v) => v !== "") && res.vals.every((v) => v === "" || !isNaN(Number(v)));
      const vals = num ? res.vals.map((v) => (v === "" ? -Infinity : Number(v))) : res.vals;
      for (let i = 1; i < vals.length; i++) {
        const c = num
          ? vals[i - 1] === vals[i]
            ? 0
            : vals[i - 1] - vals[i]
          : vals[i - 1].localeCompare(vals[i]);
        check(
          res.dir === "desc" ? c >= 0 : c <= 0,
          `${name}: table sorted by ${key} (${res.dir}) is out of order at row ${i}`,
        );
      }
    }
  }
  if (data.run.censuses > 1 && nb)
    check(heads.includes("growth") && heads.includes("r2"), `${name}: no growth column`);
  if (summary && summary.bands) notes.push(await checkGrowth(page, data, summary, name));

  // search: a label's first word, matched as text in any part of every band's label
  // (the table holds every band, folded ones too: data.run.table); rows are drawn only
  // where the table is scrolled to, so the count is the table's data-rows
  if (nb) {
    const all = tableLabels(data);
    const label = data.run.bands[0].label;
    const word =
      label
        .replace(/[^A-Za-z0-9_.]+/g, " ")
        .trim()
        .split(" ")[0] || "";
    await page.type("#filter", word);
    const rows = await page.$eval("#bandtable", (t) => Number(t.dataset.rows));
    const w = word.toLowerCase();
    const want = all.filter(
      ([l, raw]) => l.toLowerCase().includes(w) || (raw && raw.toLowerCase().includes(w)),
    ).length;
    check(rows === want, `${name}: search "${word}" finds ${rows} bands, want ${want}`);
    await page.click("#filter", { clickCount: 3 });
    await page.keyboard.press("Backspace");
    const rows2 = await page.$eval("#bandtable", (t) => Number(t.dataset.rows));
    check(
      rows2 === all.length,
      `${name}: an empty search should list all ${all.length} bands, lists ${rows2}`,
    );
    const drawn = await page.$$eval("#bandtable tbody tr[data-band]", (trs) => trs.length);
    check(drawn <= 40, `${name}: ${drawn} table rows in the page, not only those in view`);
  }
  if (flags.includes("many")) notes.push(await checkFolded(page, data, name));

  // markers carry their text
  if (data.options.markers && data.run.markers.length) {
    const texts = await page.$$eval("#charts .marker title", (ts) => ts.map((t) => t.textContent));
    check(
      texts.some((t) => t.startsWith(data.run.markers[0].text)),
      `${name}: the first marker's text is not shown`,
    );
    notes.push(`${texts.length} markers`);
  }

  if (flags.includes("hi")) {
    check(
      heads.includes("type") && heads.includes("source"),
      `${name}: -hi: no type/source columns`,
    );
    // the largest bands first (only the rows in view are in the page)
    while ((await page.$eval('#bandtable th[data-key="peak"]', (t) => t.className)) !== "desc")
      await page.click('#bandtable th[data-key="peak"]');
    const info = await page.$$eval("#bandtable tbody tr td:first-child span[title]", (s) =>
      s.map((e) => e.title),
    );
    check(
      info.some((t) => /^0x[0-9a-f]+: /.test(t)),
      `${name}: -hi: no info table address`,
    );
  }
  if (flags.includes("compare")) {
    const panels = await page.$$eval("#charts .panel", (ps) => ps.length);
    check(panels === 2, `${name}: --compare: ${panels} panels`);
    const ticks = await page.$$eval("#charts .panel", (ps) =>
      ps.map((p) => [...p.querySelectorAll(".ylabel")].map((t) => t.textContent).join(";")),
    );
    check(ticks[0] === ticks[1], `${name}: --compare: the panels' scales differ`);
    const xt = await page.$$eval("#charts .panel", (ps) =>
      ps.map((p) => [...p.querySelectorAll(".xlabel")].map((t) => t.textContent).join(";")),
    );
    check(xt[0] === xt[1], `${name}: --compare: the panels' time scales differ`);
    notes.push(await checkGone(page, data, summary, name));
  }
  if (flags.includes("builds")) notes.push(await checkBuilds(page, data, name));
  if (flags.includes("builds")) notes.push(await checkAlign(page, data, name, flags));
  const shot = /shot=([^,]+)/.exec(flags);
  if (shot) {
    // the read-out of the bundled example at 2.9 s, in a picture tall enough to hold it
    // below the summary: the page at its top (hover() scrolls the chart to the middle,
    // and a screenshot from the top would scroll back, away from the pointer), the
    // pointer near the chart's top so that the read-out of every band fits below it
    await page.setViewport({ width: 1280, height: 1000 });
    await page.click('#views button[data-view="area"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    const overlays = await page.$$("#charts .overlay");
    const box = await overlays[overlays.length - 1].boundingBox();
    await page.mouse.move(box.x + box.width * 0.62, box.y + box.height * 0.1);
    check(
      await page.$eval("#readout", (r) => r.style.display === "block"),
      `${name}: shot: no read-out where the pointer is`,
    );
    await page.screenshot({
      path: shot[1],
      clip: { x: 0, y: 0, width: 1280, height: 1000 },
      captureBeyondViewport: false,
    });
  }
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return notes.join(", ");
}

await runCases(browser, cases, runCase);
