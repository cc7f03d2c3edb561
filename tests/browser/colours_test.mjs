// colours_test.mjs: no two bands the report draws share a colour, in a real browser
// (headless Chromium via puppeteer-core), and each is drawn in the colour ev2hp's chart
// of the same input gives it.
//
//   node colours_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|key=chart.svg,key=chart.svg...": the report of an input and
// the SVG charts of the same input with the same --bands, per grouping key ("" for the
// bands as they are, then each --group-by KEY, chosen in the page's grouping control).
// For each key, as a user sees it: the legend's swatches and the chart's band paths are
// in colours of the palette ev2hp writes into the page (data.palette), no two alike (any
// two of the palette are told apart: at least its least distance in OKLab, which
// tests/chartcheck.py and test_chart.c check), and each legend entry's colour is the SVG
// legend's for the same label. Then, with the bands as they are, a folded band whose own
// colour a drawn band has (from the band table's data) is found through the search box
// and drawn: in a colour of its own.
// Prints one line per case and "N passed, N failed".
import fs from "node:fs";
import path from "node:path";
import { launch, check, runCases, openReport } from "./launch.mjs";
import { chooseGroup } from "./groups.mjs";
import { findBand, drawBand, clearSearch } from "./findband.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* [[what, colour]...]: fails on two of them alike, or one not of palette. */
function unshared(list, palette, what) {
  for (let i = 0; i < list.length; i++) {
    const [a, ca] = list[i];
    check(palette.includes(ca), `${what}: ${a} is ${ca}, not a colour of the palette`);
    for (let j = i + 1; j < list.length; j++) {
      const [b, cb] = list[j];
      check(ca !== cb, `${what}: ${a} and ${b} share ${ca}`);
    }
  }
}

/* The palette ev2hp wrote into the page (data.palette). */
function palette(page) {
  return page.evaluate(() => JSON.parse(document.getElementById("ev2hp-data").textContent).palette);
}

/* The SVG chart's legend: label -> fill. */
function svgLegend(file) {
  const out = new Map();
  const re = /<rect class="legend"[^>]* fill="(#[0-9a-f]{6})"[^>]*><title>([^<]*)<\/title>/g;
  const unescape = (s) =>
    s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
  for (const m of fs.readFileSync(file, "utf8").matchAll(re)) out.set(unescape(m[2]), m[1]);
  return out;
}

/* What the page draws: the legend's entries [key, label, colour] (OTHER aside) and the
 * chart's band paths [key, colour]. */
function drawn(page) {
  return page.evaluate(() => {
    const hex = (css) => {
      const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(css);
      return m
        ? "#" +
            m
              .slice(1, 4)
              .map((x) => Number(x).toString(16).padStart(2, "0"))
              .join("")
        : css;
    };
    const legend = [...document.querySelectorAll("#legend li")]
      .filter((li) => li.dataset.band !== "OTHER")
      .map((li) => [
        li.dataset.band,
        li.textContent,
        hex(li.querySelector(".swatch").style.background),
      ]);
    const paths = [...document.querySelectorAll("#charts path[data-band]")]
      .filter((p) => p.dataset.band !== "OTHER" && p.getAttribute("fill"))
      .map((p) => [p.dataset.band, p.getAttribute("fill")]);
    return { legend, paths };
  });
}

/* Checks what the page draws now against the SVG chart: returns what it saw. */
async function checkDrawn(page, svgFile, what) {
  const { legend, paths } = await drawn(page);
  const colours = await palette(page);
  unshared(
    legend.map(([key, , colour]) => [key, colour]),
    colours,
    `${what}: the legend`,
  );
  const byKey = new Map();
  for (const [key, fill] of paths) {
    check(!byKey.has(key) || byKey.get(key) === fill, `${what}: ${key} drawn in two colours`);
    byKey.set(key, fill);
  }
  unshared([...byKey], colours, `${what}: the chart's bands`);
  const svg = svgLegend(svgFile);
  let matched = 0;
  for (const [, label, colour] of legend) {
    if (!svg.has(label)) continue;
    check(
      svg.get(label) === colour,
      `${what}: ${label} is ${colour} in the page, ${svg.get(label)} in the SVG chart`,
    );
    matched++;
  }
  check(
    matched >= Math.min(legend.length, svg.size) - 1,
    `${what}: only ${matched} of ${legend.length} legend entries found in the SVG chart's`,
  );
  return `${legend.length} bands in ${new Set(legend.map((l) => l[2])).size} colours (${matched} as the SVG)`;
}

/* A folded band whose own colour a drawn band has: drawn, in a colour of its own. */
async function drawTaken(page, what) {
  const pick = await page.evaluate(() => {
    const d = JSON.parse(document.getElementById("ev2hp-data").textContent);
    if (!d.run.table) return null;
    window.ev2hp.kit.unpackTable(d.run.table);
    const taken = new Set(d.run.bands.filter((b) => !b.other).map((b) => b.colour));
    const row = d.run.table.bands.find((r) => r[3] < 0 && taken.has(r[2]) && !r[1]);
    return row ? { label: row[0], own: row[2] } : null;
  });
  if (!pick) return "no folded band of a taken colour";
  const row = await findBand(page, pick.label, pick.label);
  check(row, `${what}: ${pick.label} not found through the search box`);
  const { key, fills } = await drawBand(page, row);
  check(fills.length, `${what}: ${pick.label} not drawn`);
  await clearSearch(page);
  const { legend } = await drawn(page);
  unshared(
    legend.map(([k, , colour]) => [k, colour]),
    await palette(page),
    `${what}: the legend with ${pick.label} drawn`,
  );
  const mine = legend.find((l) => l[0] === key);
  check(mine && mine[2] === fills[0], `${what}: ${pick.label}'s legend entry is not its colour`);
  return `${pick.label} (own ${pick.own}, taken) drawn in ${fills[0]}`;
}

async function runCase(spec) {
  const [name, html, charts] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html), 1400);
  const offered = await page.$$eval("#groupby option", (os) => os.map((o) => o.value));
  const notes = [];
  for (const pair of charts.split(",")) {
    const [key, file] = pair.split("=");
    if (key) await chooseGroup(page, key, offered[0]);
    notes.push(`${key || "bands"}: ${await checkDrawn(page, file, `${name}: ${key || "bands"}`)}`);
  }
  if (offered.length) await chooseGroup(page, offered[0], offered[0]);
  notes.push(await drawTaken(page, name));
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return notes.join("; ");
}

await runCases(browser, cases, runCase);
