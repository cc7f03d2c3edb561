// truth_test.mjs: what the report says beside its figures is true (issue 39), in a real
// browser (headless Chromium via puppeteer-core).
//
//   node truth_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|kind|report.html|..." with kind:
//   groups|HTML|KEY|SUMMARY.json|EXPORT.json: KEY chosen in the grouping control; the
//     peak list is the peak's top groups of ev2hp --group-by KEY --summary=json (labels
//     and bytes), the suspects are its suspects (labels, rise), and every legend entry
//     and every band table row is a group of the export (--group-by KEY -o x.json);
//   spread|HTML|KEY|EXPORT.json: (KEY "-": as the bands are) OTHER's std. dev. in the band
//     table is the standard deviation over every census of the export of the census
//     total less the shown bands (or groups); EXPORT "-": the report keeps fewer points
//     than censuses, and the cell is blank, not "0 B";
//   units|HTML: the heap census's flame graph (Flame tab) leaves small calling contexts
//     out, and its note counts them in bytes, never "samples";
//   fit|HTML|INFO: at a 1400 px wide window the band table (with --compare's columns)
//     fits its box: no horizontal scroll, growth and R² inside it; the info table's type
//     and source columns there for -hi bands only (INFO "info" or "-"), and no cut -hc
//     label given as an address in a label's title;
//   base|HTML|BASE.json|FILE: a report with --compare names the base run (its program
//     with its arguments, as the base's --summary=json BASE.json gives them, and FILE)
//     in the summary, on every chart tab, in the band table and in the read-out.
// No console or page errors. Prints one line per case and "N passed, N failed".
import fs from "node:fs";
import path from "node:path";
import { launch, check, runCases, hover, openReport } from "./launch.mjs";
import { chooseGroup } from "./groups.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* The report html, drawn in a window width px wide. */
const open = (html, width) => openReport(browser, path.resolve(html), width);

const read = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
const near = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

/* The band table's rows, every one of them (the table draws only those in view): label
 * cells' titles (the whole label) and each column's data-value, by column key. */
async function tableRows(page) {
  return page.evaluate(async () => {
    const scroller = document.getElementById("bandscroll");
    const keys = [...document.querySelectorAll("#bandtable th[data-key]")].map(
      (th) => th.dataset.key,
    );
    const rows = new Map();
    for (let top = 0; ; top += scroller.clientHeight / 2) {
      scroller.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      for (const tr of document.querySelectorAll("#bandtable tbody tr[data-band]")) {
        const cells = [...tr.children];
        const row = { key: tr.dataset.band, label: cells[0].querySelector("span[title]").title };
        keys.forEach((k, i) => (row[k] = cells[i].dataset.value));
        row.text = Object.fromEntries(keys.map((k, i) => [k, cells[i].textContent]));
        rows.set(row.key, row);
      }
      if (top + scroller.clientHeight >= scroller.scrollHeight) break;
    }
    scroller.scrollTop = 0;
    return [...rows.values()];
  });
}

async function groupsCase(name, html, key, summaryFile, exportFile) {
  const { page, errors } = await open(html, 1280);
  const none = await page.$eval("#groupby option", (o) => o.value);
  await chooseGroup(page, key, none);
  const summary = read(summaryFile);
  const groups = new Set(read(exportFile).bands.map((b) => b.label));
  // the peak list: the summary's top groups, in order
  const peak = await page.$$eval("#summary .peakbands li", (lis) =>
    lis.map((li) => [li.dataset.label, Number(li.dataset.bytes)]),
  );
  const want = summary.peak.top.slice(0, peak.length).map((b) => [b.label, b.bytes]);
  check(peak.length > 0, `${name}: no peak list`);
  check(
    JSON.stringify(peak) === JSON.stringify(want),
    `${name}: the peak list by ${key} is ${JSON.stringify(peak)}, --group-by ${key} says ${JSON.stringify(want)}`,
  );
  // the suspects: --group-by's, by label and rise
  const sus = await page.$$eval("#suspects li", (lis) =>
    lis.map((li) => [li.lastChild.textContent, Number(li.dataset.rise)]),
  );
  const wantSus = (summary.suspects || []).map((s) => [s.label, s.rise_bytes_per_s]);
  check(
    sus.length === wantSus.length &&
      sus.every(
        ([l, r], i) => l === wantSus[i][0] && Math.abs(r - wantSus[i][1]) <= 1e-3 * Math.abs(r),
      ),
    `${name}: the suspects by ${key} are ${JSON.stringify(sus)}, --group-by ${key} says ${JSON.stringify(wantSus)}`,
  );
  // the legend and the table: groups, not bands
  const legend = await page.$$eval("#legend li:not([data-band='OTHER'])", (lis) =>
    lis.map((li) => li.textContent),
  );
  const stray = legend.filter((l) => !groups.has(l));
  check(legend.length && !stray.length, `${name}: legend entries not groups by ${key}: ${stray}`);
  const rows = (await tableRows(page)).filter((r) => r.key !== "OTHER");
  const strayRows = rows.filter((r) => !groups.has(r.label)).map((r) => r.label);
  check(
    rows.length === groups.size && !strayRows.length,
    `${name}: ${rows.length} table rows for ${groups.size} groups; not groups: ${strayRows.slice(0, 5)}`,
  );
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return `peak list of ${peak.length}, ${sus.length} suspects, ${legend.length} legend entries and ${rows.length} rows: groups by ${key}`;
}

async function spreadCase(name, html, key, exportFile) {
  const { page, errors } = await open(html, 1280);
  if (key !== "-") {
    const none = await page.$eval("#groupby option", (o) => o.value);
    await chooseGroup(page, key, none);
  }
  const rows = await tableRows(page);
  const other = rows.find((r) => r.key === "OTHER");
  check(other, `${name}: no OTHER row`);
  let note;
  if (exportFile === "-") {
    check(
      other.stddev === "" && other.text.stddev === "",
      `${name}: OTHER's std. dev. reads "${other.text.stddev}" where the report has not every census`,
    );
    note = "OTHER's std. dev. blank (not every census kept)";
  } else {
    // OTHER at each census: the census total less the shown bands (the legend's)
    const ex = read(exportFile);
    const shown = new Set(
      await page.$$eval("#legend li:not([data-band='OTHER'])", (lis) =>
        lis.map((li) => li.textContent),
      ),
    );
    const id = new Map(ex.bands.map((b) => [b.id, b.label]));
    const v = ex.censuses.map((c) =>
      c.entries.reduce((s, [b, bytes]) => s + (shown.has(id.get(b)) ? 0 : bytes), 0),
    );
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    const sd = Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
    check(sd > 0, `${name}: OTHER does not vary`);
    check(
      near(Number(other.stddev), sd),
      `${name}: OTHER's std. dev. is ${other.stddev} ("${other.text.stddev}"), over the export's censuses ${sd}`,
    );
    note = `OTHER's std. dev. ${other.text.stddev} = the export's over ${v.length} censuses`;
  }
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return note;
}

async function unitsCase(name, html) {
  const { page, errors } = await open(html, 1280);
  const data = await page.evaluate(() =>
    JSON.parse(document.getElementById("ev2hp-data").textContent),
  );
  check(data.flame && data.flame.unit === "bytes", `${name}: no heap census flame graph`);
  check(data.flame.dropped_nodes > 0, `${name}: no calling context left out`);
  await page.click('#views [data-view="flame"]');
  const note = await page.$eval("#flame-note", (e) => e.textContent);
  const bar = await page.$eval("#charts", (e) => e.textContent);
  check(!/sample/.test(note), `${name}: the heap flame graph's note counts samples: "${note}"`);
  check(/\(\d[\d.]* [KMGT]?i?B\)/.test(note), `${name}: the note says no bytes: "${note}"`);
  check(!/sample/.test(bar), `${name}: the heap flame graph's view says samples`);
  // bytes in three figures as the C side's format_bytes, never in exponent form
  const sizes = await page.evaluate(() =>
    [500, 1023, 1024, 1536, 100 * 1024, 1000 * 1024, 1023.7 * 1024, 1024 * 1024].map(
      window.ev2hp.kit.fmtBytes,
    ),
  );
  const want = ["500 B", "1023 B", "1 KiB", "1.5 KiB", "100 KiB", "1000 KiB", "1024 KiB", "1 MiB"];
  check(sizes.join() === want.join(), `${name}: bytes read ${sizes.join(", ")}`);
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return note.slice(note.indexOf(" · ") + 3);
}

async function fitCase(name, html, info) {
  const { page, errors } = await open(html, 1400);
  const m = await page.evaluate(() => {
    const s = document.getElementById("bandscroll");
    s.scrollIntoView();
    const box = s.getBoundingClientRect();
    const edge = (k) => {
      const th = document.querySelector(`#bandtable th[data-key="${k}"]`);
      return th ? th.getBoundingClientRect().right : null;
    };
    return {
      scroll: s.scrollWidth,
      client: s.clientWidth,
      right: box.right,
      growth: edge("growth"),
      r2: edge("r2"),
      base: !!document.querySelector('#bandtable th[data-key="base_peak"]'),
      type: !!document.querySelector('#bandtable th[data-key="type"]'),
      titles: [...document.querySelectorAll("#bandtable td:first-child span[title]")].map(
        (e) => e.title,
      ),
    };
  });
  // an info table's type and source columns only for -hi bands; a -hc stack the runtime
  // cut is not called an address in a label's title
  check(m.type === (info === "info"), `${name}: type and source columns: ${m.type}, want ${info}`);
  const addressed = m.titles.filter((t) => /^[^0].*\.\.\.: /.test(t));
  check(!addressed.length, `${name}: a cut label given as an address: ${addressed[0]}`);
  check(m.base, `${name}: no --compare columns`);
  check(
    m.scroll <= m.client,
    `${name}: the band table is ${m.scroll} px wide in a box of ${m.client} px at 1400 px`,
  );
  check(
    m.growth !== null && m.r2 !== null && m.growth <= m.right && m.r2 <= m.right,
    `${name}: growth (${m.growth}) or R² (${m.r2}) past the box's right edge ${m.right}`,
  );
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return `${m.scroll} of ${m.client} px, R² at ${Math.round(m.r2)} <= ${Math.round(m.right)}`;
}

async function baseCase(name, html, baseSummary, file) {
  const { page, errors } = await open(html, 1280);
  const program = read(baseSummary).program;
  check(program, `${name}: the base's summary names no program`);
  const names = (text) => text.includes(program) && text.includes(file);
  const summary = await page.$eval("#summary", (e) => e.textContent);
  check(names(summary), `${name}: the summary does not name the base (${program}, ${file})`);
  const views = await page.$$eval("#views [data-view]", (bs) => bs.map((b) => b.dataset.view));
  const flameBase = await page.evaluate(() => {
    const d = JSON.parse(document.getElementById("ev2hp-data").textContent);
    return !!(d.flame && d.flame.base);
  });
  const charted = [];
  for (const v of views) {
    // the flame views give the base's figures when they are differential
    if ((v === "flame" || v === "icicle") && !flameBase) continue;
    await page.click(`#views [data-view="${v}"]`);
    const text = await page.$eval("#charts", (e) => e.textContent);
    check(names(text), `${name}: the ${v} tab does not name the base (${program}, ${file})`);
    charted.push(v);
  }
  await page.click('#views [data-view="area"]');
  const table = await page.$eval("#bands", (e) => e.textContent);
  check(names(table), `${name}: the band table does not name the base`);
  const r = await hover(page, 0.5);
  check(r, `${name}: no read-out`);
  const tip = await page.$eval("#readout", (e) => e.textContent);
  check(names(tip), `${name}: the read-out shows base bytes without naming the base: "${tip}"`);
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return `the base named in the summary, the table, the read-out and ${charted.join(", ")}`;
}

async function runCase(spec) {
  const [name, kind, ...args] = spec.split("|");
  if (kind === "groups") return groupsCase(name, ...args);
  if (kind === "spread") return spreadCase(name, ...args);
  if (kind === "units") return unitsCase(name, ...args);
  if (kind === "fit") return fitCase(name, ...args);
  if (kind === "base") return baseCase(name, ...args);
  throw new Error(`${name}: unknown kind ${kind}`);
}

await runCases(browser, cases, runCase);
