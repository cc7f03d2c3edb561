// window_test.mjs: a window of the report and every view as a link (issue 36, items 3 and
// 4), in headless Chromium, for tests/report_window.sh.
//
//   node window_test.mjs CHROMIUM WORKDIR EV2HP CASE...
//
// A CASE is "kind|name|report.html|input|extra": kind is
//   stats  drag across the chart: the window's figures in the band table (peak, mean,
//          growth, R²) and the suspects are ev2hp's for the same window (`--from A --to B
//          --summary=json`, run here on input); "whole run" goes back to ev2hp's own; with
//          extra "A,B", the report was made with --from A --to B and must open on it;
//   flame  the same drag on a heap census's run (-hc): the flame graph is the window's
//          peak census, each stack's bytes those of `--from A --to B -o x.folded`; "what
//          grew" is the folded census at the window's last census (--at) less its first;
//   phase  the phase list (markers "X start" / "X end"): choosing one makes the window
//          the markers' times;
//   link   a view set up by hand (a tab, hidden bands, the search, a window, the sort, a
//          census for the flame graph when extra is "census") opened in a new tab from
//          the address: the same view; then the fragment changed in place (hashchange);
//          and a fragment that tries markup or nonsense opens the page as it was.
//   band   extra is a band label: report.html#band=LABEL draws that band alone and
//          finds it in the table (what --report-url's links open);
//   md     html is a Markdown summary rendered by cmark-gfm to HTML: every link into the
//          report opens it at the band its text names (and a phase's at its window);
//   phases a report made with --phases, input its --summary=json: each phase listed, chosen,
//          is its window, with the phase's censuses, peak and suspects;
//   compare a report made with --compare input: in a dragged window, the base peak and
//          change columns are of the base's censuses in the same window.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { launch, check, overlayBox, runCases } from "./launch.mjs";

const [chromium, work, ev2hp, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* A page of the report at url (a fragment too), drawn; page errors gathered. */
async function open(url) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById("report").dataset.ready === "true");
  return { page, errors };
}

/* Drags across the chart from fraction f0 to f1 of its width; the window it made. */
async function drag(page, f0, f1) {
  const box = await overlayBox(page);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * f0, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((f0 + f1) / 2), y);
  await page.mouse.move(box.x + box.width * f1, y);
  await page.mouse.up();
  const win = await page.$eval("#bandtable", (t) => t.dataset.window);
  check(win, "a drag made no window");
  return win.split(",").map(Number);
}

const cli = (...args) => execFileSync(ev2hp, ["-q", ...args], { encoding: "utf8" });
/* A band's label as the report has it: the summary names a numbered stack "(n)label". */
const label = (name) => name.replace(/^\(\d+\)/, "");
/* Equal but for rounding: the summary's JSON writes a mean to 0.1 B, a growth to 0.001 B/s. */
const near = (a, b, rel) =>
  Math.abs(a - b) <= Math.max(0.06, rel * Math.max(Math.abs(a), Math.abs(b)));

/* The band table's row of a band (found by the search box): its cells' values by key. */
async function row(page, label) {
  await page.$eval(
    "#filter",
    (i, text) => {
      i.value = text;
      i.dispatchEvent(new window.Event("input"));
    },
    label,
  );
  return page.$$eval(
    "#bandtable tbody tr[data-band]",
    (trs, text) => {
      const tr = trs.find((r) => r.dataset.band.replace(/^[bf]:/, "") === text);
      if (!tr) return null;
      const keys = [...document.querySelectorAll("#bandtable th[data-key]")].map(
        (th) => th.dataset.key,
      );
      const out = {};
      keys.forEach((k, i) => (out[k] = tr.children[i].dataset.value));
      return out;
    },
    label,
  );
}

/* The window's band figures and suspects against ev2hp's summary of the same window. */
async function stats(name, html, input, opened) {
  const { page, errors } = await open("file://" + html);
  let win;
  if (opened) {
    // made with --from/--to: the page opens on that window
    win = opened.split(",").map(Number);
    const shown = await page.$eval("#bandtable", (t) => t.dataset.window);
    check(shown === opened, `${name}: the report opens on "${shown}", not --from/--to's ${opened}`);
  } else win = await drag(page, 0.3, 0.75);
  const sum = JSON.parse(
    cli(input, "--from", String(win[0]), "--to", String(win[1]), "--summary=json"),
  );
  const chip = await page.$eval("#window-chip", (s) => s.textContent);
  check(
    chip.includes(sum.censuses + " censuses"),
    `${name}: the chip says "${chip}", ev2hp ${sum.censuses} censuses`,
  );
  let checked = 0;
  for (const b of sum.bands) {
    const r = await row(page, label(b.label));
    check(r, `${name}: no row for ${b.label}`);
    const pairs = [
      ["peak", b.peak, 1e-9],
      ["mean", b.mean, 1e-6],
      ["growth", b.growth_bytes_per_s, 1e-6],
    ];
    for (const [k, want, rel] of pairs)
      check(
        near(Number(r[k]), want, rel),
        `${name}: ${b.label}: window ${win}: ${k} ${r[k]}, ev2hp ${want}`,
      );
    check(
      Math.abs(Number(r.r2) - b.growth_r2) <= 1e-4,
      `${name}: ${b.label}: R² ${r.r2}, ev2hp ${b.growth_r2}`,
    );
    checked++;
  }
  const sus = await page.$$eval("#suspects li", (lis) =>
    lis.map((li) => [li.dataset.label, Number(li.dataset.rise)]),
  );
  check(
    sus.length === sum.suspects.length,
    `${name}: ${sus.length} suspects in the window, ev2hp ${sum.suspects.length}`,
  );
  sum.suspects.forEach((s, i) =>
    check(
      sus[i][0] === label(s.label) && near(sus[i][1], s.rise_bytes_per_s, 1e-6),
      `${name}: suspect ${i}: ${sus[i]}, ev2hp ${s.label} ${s.rise_bytes_per_s}`,
    ),
  );
  // the whole run again: ev2hp's own figures
  await page.click("#wholerun");
  const whole = JSON.parse(cli(input, "--summary=json"));
  const r = await row(page, label(whole.bands[0].label));
  check(
    Number(r.peak) === whole.bands[0].peak,
    `${name}: whole run: peak ${r.peak}, ev2hp ${whole.bands[0].peak}`,
  );
  const hash = await page.evaluate(() => location.hash);
  check(!hash.includes("window="), `${name}: the whole run keeps a window: ${hash}`);
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return `window ${win}: ${checked} bands, ${sus.length} suspects as ev2hp's`;
}

/* Folded stacks as a map of path to bytes. */
const folded = (text) =>
  new Map(
    text
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.lastIndexOf(" ")), Number(l.slice(l.lastIndexOf(" ") + 1))]),
  );
/* The flame graph drawn: the frames at least 2 units wide hovered, each one's path and
 * own bytes (self) as its tooltip says them; and the graph's total. */
async function flameSelf(page) {
  const nodes = await page.$$eval(".flame .frame:not(.above)", (gs) =>
    gs
      .filter((g) => Number(g.querySelector("rect").getAttribute("width")) >= 2)
      .map((g) => g.dataset.node),
  );
  const out = [];
  for (const node of nodes) {
    const rect = await page.$(`.flame .frame[data-node="${node}"] rect`);
    await rect.evaluate((e) => e.scrollIntoView({ block: "center" }));
    const box = await rect.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = await page.$eval("#readout .frame-tip", (t) => [
      t.dataset.path,
      Number(t.dataset.self),
    ]);
    if (tip[0] && tip[1] > 0) out.push(tip);
  }
  const total = await page.$eval("#charts svg.flame", (s) => Number(s.dataset.total));
  return { stacks: out, total: total };
}

async function flame(name, html, input) {
  const { page, errors } = await open("file://" + html);
  const win = await drag(page, 0.2, 0.7);
  await page.click('#views button[data-view="flame"]');
  await page.waitForSelector("#charts svg.flame");
  const census = await page.$eval("#charts svg.flame", (s) => Number(s.dataset.census));
  const want = folded(cli(input, "--from", String(win[0]), "--to", String(win[1]), "-f", "folded"));
  const got = await flameSelf(page);
  for (const [p, v] of got.stacks)
    check(want.get(p) === v, `${name}: window ${win}: ${p}: ${v} B drawn, folded ${want.get(p)}`);
  const all = [...want.values()].reduce((a, b) => a + b, 0);
  check(got.total === all, `${name}: the graph holds ${got.total} B, the window's peak ${all}`);
  check(got.stacks.length > 2, `${name}: ${got.stacks.length} stacks hovered`);
  // what grew in the window and is still there: the last census less the first, per band
  await page.click('#flamemode button[data-mode="grew"]');
  const sum = JSON.parse(
    cli(input, "--from", String(win[0]), "--to", String(win[1]), "--summary=json"),
  );
  const data = await page.evaluate(() =>
    JSON.parse(document.getElementById("ev2hp-data").textContent),
  );
  const ts = data.run.t.filter((t) => t >= win[0] && t <= win[1]);
  check(
    ts.length === sum.censuses,
    `${name}: ${ts.length} censuses in the window, ev2hp's ${sum.censuses}`,
  );
  const at = (t) =>
    folded(
      cli(
        input,
        "--from",
        String(win[0]),
        "--to",
        String(win[1]),
        "--at",
        String(t),
        "-f",
        "folded",
      ),
    );
  const [a, z] = [at(ts[0]), at(ts[ts.length - 1])];
  const grew = new Map();
  for (const [p, v] of z) if (v > (a.get(p) || 0)) grew.set(p, v - (a.get(p) || 0));
  const drawn = await flameSelf(page);
  for (const [p, v] of drawn.stacks)
    check(grew.get(p) === v, `${name}: grew: ${p}: ${v} B drawn, folded ${grew.get(p)}`);
  const grown = [...grew.values()].reduce((x, y) => x + y, 0);
  check(drawn.total === grown, `${name}: grew: the graph holds ${drawn.total} B, folded ${grown}`);
  check(drawn.stacks.length > 0, `${name}: grew: no stack hovered`);
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return `window ${win}: peak census at ${census} s (${got.stacks.length} stacks), ${grew.size} grew`;
}

async function phase(name, html) {
  const { page, errors } = await open("file://" + html);
  const options = await page.$$eval("#phases option", (os) =>
    os.filter((o) => o.value).map((o) => [o.value, o.textContent]),
  );
  check(options.length > 1, `${name}: ${options.length} phases listed`);
  const data = await page.evaluate(() =>
    JSON.parse(document.getElementById("ev2hp-data").textContent),
  );
  const [value, text] = options[1];
  const pname = text.slice(0, text.lastIndexOf(" ("));
  const start = data.run.markers.find((m) => m.text === pname + " start").t;
  const end = data.run.markers.find((m) => m.text === pname + " end").t;
  await page.select("#phases", value);
  const win = await page.$eval("#bandtable", (t) => t.dataset.window);
  check(
    win === start + "," + end,
    `${name}: phase ${pname}: window ${win}, markers ${start} to ${end}`,
  );
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return `${options.length} phases; "${pname}" is ${win}`;
}

/* What a person sees of a view: to compare two tabs. */
function viewOf(page) {
  return page.evaluate(() => ({
    tab: document.querySelector("#views button[aria-selected=true]").dataset.view,
    hidden: [...document.querySelectorAll("#legend li.hidden")].map((li) => li.dataset.band),
    legend: [...document.querySelectorAll("#legend li")].map((li) => li.dataset.band),
    search: document.getElementById("filter").value,
    window: document.getElementById("bandtable").dataset.window,
    chip: document.getElementById("window-chip").textContent,
    sort: [...document.querySelectorAll("#bandtable th[data-key]")]
      .filter((th) => th.className)
      .map((th) => th.dataset.key + " " + th.className)
      .join(),
    rows: [...document.querySelectorAll("#bandtable tbody tr[data-band]")].map(
      (tr) => tr.dataset.band + " " + tr.children[1].dataset.value,
    ),
    census: (document.querySelector("#charts svg.flame") || { dataset: {} }).dataset.census,
    flameTotal: (document.querySelector("#charts svg.flame") || { dataset: {} }).dataset.total,
    focus: (document.querySelector("#charts svg.flame") || { dataset: {} }).dataset.focus,
  }));
}

async function linkCase(name, html, withCensus) {
  const { page, errors } = await open("file://" + html);
  const entries = await page.evaluate(() => window.history.length);
  await drag(page, 0.25, 0.8);
  // a band drawn out of OTHER, when the run folds one there (MUT_VAR_CLEAN, in markers40)
  const search = (text) =>
    page.$eval(
      "#filter",
      (i, t) => {
        i.value = t;
        i.dispatchEvent(new window.Event("input"));
      },
      text,
    );
  await search("MUT_VAR_CLEAN");
  const draw = await page.$("#bandtable button.draw");
  if (draw) await draw.click();
  await search("");
  await page.click('#views button[data-view="lines"]');
  const legend = await page.$$eval("#legend li", (lis) => lis.map((li) => li.dataset.band));
  await page.click(`#legend li[data-band="${legend[0]}"]`);
  await page.click(`#legend li[data-band="${legend[2]}"]`);
  await page.click('#bandtable th[data-key="peak"]');
  await page.click('#bandtable th[data-key="peak"]'); // ascending
  await page.type("#filter", "a");
  if (withCensus) {
    await page.click('#views button[data-view="area"]');
    const box = await overlayBox(page);
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.waitForSelector("#charts svg.flame");
    // a frame clicked: in focus, spanning the width
    const frames = await page.$$eval(".flame .frame:not(.above)", (gs) =>
      gs
        .map((g) => [g.dataset.node, Number(g.querySelector("rect").getAttribute("width"))])
        .filter(([n, w]) => n !== "0" && w >= 4),
    );
    check(frames.length, `${name}: no frame to click`);
    await page.click(`.flame .frame[data-node="${frames[0][0]}"] rect`);
    await page.waitForFunction(
      (n) => document.querySelector("#charts svg.flame").dataset.focus === n,
      {},
      frames[0][0],
    );
  }
  const want = await viewOf(page);
  const url = await page.evaluate(() => location.href);
  check(url.includes("#"), `${name}: the address holds no view: ${url}`);
  const history = await page.evaluate(() => window.history.length);
  check(history === entries, `${name}: ${history - entries} history entries added (replaceState)`);
  // a new tab from the address
  const other = await open(url);
  const got = await viewOf(other.page);
  for (const k of Object.keys(want))
    check(
      JSON.stringify(got[k]) === JSON.stringify(want[k]),
      `${name}: ${k}: ${JSON.stringify(got[k])} in the new tab, ${JSON.stringify(want[k])}`,
    );
  // the fragment changed in place: the page follows it
  const frag = "#view=stream&window=" + want.window.replace(",", "%2C") + "&q=zz";
  await other.page.evaluate((f) => (location.hash = f), frag);
  await other.page.waitForFunction(
    () => document.querySelector("#views button[aria-selected=true]").dataset.view === "stream",
  );
  const after = await viewOf(other.page);
  check(
    after.search === "zz" && after.hidden.length === 0,
    `${name}: hashchange: ${JSON.stringify(after)}`,
  );
  // fragments that try markup or nonsense: the page opens as it would without them
  for (const bad of [
    "#view=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&q=%3Cb%3Ex%3C%2Fb%3E",
    "#window=nan,1&sort=%3Cx&hide=zz&census=1e999",
    "#%E0%A4%A",
  ]) {
    const b = await open("file://" + html + bad);
    const v = await viewOf(b.page);
    check(!(await b.page.$("#report img, #report b")), `${name}: markup from ${bad} in the page`);
    check(v.window === "" && v.hidden.length === 0, `${name}: ${bad}: ${JSON.stringify(v)}`);
    check(!b.errors.length, `${name}: ${bad}: page errors: ${b.errors.join("; ")}`);
    await b.page.close();
  }
  check(
    !errors.length && !other.errors.length,
    `${name}: page errors: ${errors.concat(other.errors)}`,
  );
  await page.close();
  await other.page.close();
  return `${url.slice(url.indexOf("#"))} opens the same view`;
}

/* report.html#band=LABEL: the band alone on the chart, found in the table. */
async function bandCase(name, url, label) {
  const { page, errors } = await open(url);
  const v = await viewOf(page);
  const shown = await page.$$eval("#legend li:not(.hidden)", (lis) =>
    lis.map((li) => li.dataset.band),
  );
  check(
    shown.length === 1 && shown[0].replace(/^b:/, "") === label,
    `${name}: ${url}: the chart shows ${shown}, not ${label} alone`,
  );
  check(
    v.rows.some((r) => r.startsWith("b:" + label + " ")),
    `${name}: the table does not show ${label}: ${v.rows}`,
  );
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return `${label} alone`;
}

/* Every link of a Markdown summary (rendered by cmark-gfm) opens the report at what it
 * names: a band's link (its text the band's name in the summary) that band alone, a
 * phase's link (--phases) its window, a band's link in a phase's row both. */
async function mdCase(name, rendered) {
  const page = await browser.newPage();
  await page.goto("file://" + path.resolve(rendered));
  const links = await page.$$eval("a[href]", (as) =>
    as.map((a) => [a.href, a.textContent]).filter(([h]) => /#(band|window)=/.test(h)),
  );
  await page.close();
  check(links.length > 1, `${name}: ${links.length} links into the report in the summary`);
  let windows = 0;
  for (const [href, text] of links) {
    const params = new URLSearchParams(href.slice(href.indexOf("#") + 1));
    const label = params.get("band");
    if (label) {
      check(text.endsWith(label), `${name}: a link's text "${text}" is not its band ${label}`);
      await bandCase(name, href, label);
    }
    if (params.get("window")) {
      const { page: p, errors } = await open(href);
      const win = await p.$eval("#bandtable", (t) => t.dataset.window);
      check(win === params.get("window"), `${name}: ${text}: opens on ${win}, not ${params}`);
      check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
      await p.close();
      windows++;
    }
  }
  return `${links.length} links open their bands (${windows} in their phase's window)`;
}

/* A report made with --phases: the list offers ev2hp's phases; each chosen is the window
 * of the views, its censuses, peak and suspects those of --summary=json's phases. */
async function phasesCase(name, html, summaryPath) {
  const sum = JSON.parse(fs.readFileSync(summaryPath, "utf8"));
  const { page, errors } = await open("file://" + html);
  const options = await page.$$eval("#phases option", (os) =>
    os.filter((o) => o.value).map((o) => [o.value, o.textContent]),
  );
  check(
    options.length === sum.phases.length,
    `${name}: ${options.length} phases listed, ev2hp ${sum.phases.length}`,
  );
  for (const [k, ph] of sum.phases.entries()) {
    check(options[k][1].startsWith(ph.name + " ("), `${name}: phase ${k}: ${options[k][1]}`);
    await page.select("#phases", options[k][0]);
    const chip = await page.$eval("#window-chip", (c) => [c.dataset.censuses, c.dataset.peak]);
    const win = await page.$eval("#bandtable", (t) => t.dataset.window);
    check(win === ph.start_s + "," + ph.end_s, `${name}: ${ph.name}: window ${win}`);
    check(
      Number(chip[0]) === ph.censuses && (ph.censuses === 0 || Number(chip[1]) === ph.peak_bytes),
      `${name}: ${ph.name}: ${chip[0]} censuses, peak ${chip[1]}; ev2hp ${ph.censuses}, ${ph.peak_bytes}`,
    );
    const sus = await page.$$eval("#suspects li", (lis) => lis.map((li) => li.dataset.label));
    check(
      JSON.stringify(sus) === JSON.stringify(ph.suspects),
      `${name}: ${ph.name}: suspects ${sus}, ev2hp ${ph.suspects}`,
    );
    await page.click("#wholerun");
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return sum.phases
    .map((p) => `${p.name} (${p.censuses} censuses, ${p.suspects.length} suspects)`)
    .join(", ");
}

/* --compare: in a window, a band's base peak is the base's in the same window (its
 * --from/--to --summary=json, the base's chart holding every census of it), the change
 * against it. */
async function compareCase(name, html, base) {
  const { page, errors } = await open("file://" + html);
  // early in the runs: the base's bands peak later, at its end
  const win = await drag(page, 0.03, 0.15);
  const sum = JSON.parse(
    cli(base, "--from", String(win[0]), "--to", String(win[1]), "--summary=json"),
  );
  const whole = new Map(
    JSON.parse(cli(base, "--summary=json")).bands.map((b) => [b.label, b.peak]),
  );
  let checked = 0;
  let differ = 0;
  for (const b of sum.bands) {
    const r = await row(page, label(b.label));
    if (!r || r.base_peak === "") continue; // not this run's, or folded in the base's OTHER
    check(
      Number(r.base_peak) === b.peak,
      `${name}: ${b.label}: base peak ${r.base_peak} in the window, the base's ${b.peak}`,
    );
    check(
      Number(r.change) === Number(r.peak) - b.peak,
      `${name}: ${b.label}: change ${r.change}, ${r.peak} - ${b.peak}`,
    );
    checked++;
    if (whole.get(b.label) !== b.peak) differ++;
  }
  check(checked > 2, `${name}: ${checked} bands' base peaks checked`);
  check(differ > 0, `${name}: no band peaks otherwise in the window than in the base's run`);
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return `window ${win}: ${checked} bands' base peaks are the base's in the window (${differ} not its run's)`;
}

async function runCase(spec) {
  const [kind, name, html, input, extra] = spec.split("|");
  if (kind === "stats") return stats(name, path.resolve(html), input, extra);
  if (kind === "flame") return flame(name, path.resolve(html), input);
  if (kind === "phase") return phase(name, path.resolve(html));
  if (kind === "link") return linkCase(name, path.resolve(html), extra === "census");
  if (kind === "band")
    return bandCase(
      name,
      "file://" + path.resolve(html) + "#band=" + encodeURIComponent(extra),
      extra,
    );
  if (kind === "md") return mdCase(name, html);
  if (kind === "phases") return phasesCase(name, path.resolve(html), input);
  if (kind === "compare") return compareCase(name, path.resolve(html), input);
  throw new Error("unknown case " + kind);
}

await runCases(browser, cases, runCase);
