// report_find.mjs (make bench): one band found among many in a report, timed (issue 31:
// every band of a run of 100,000 is findable through the band table's search box).
//
//   node report_find.mjs CHROMIUM REPORT.html LABEL
//
// Loads the report in headless Chromium, types LABEL (a band's label, chosen by the
// caller from something other than the report: bench.sh takes the band with the smallest
// peak from --summary=json) into the search box key by key, checks that the band is
// listed, clicks its "draw" button and checks that the chart then draws it in the colour
// the report gives it. Prints the report's size and the wall times (milliseconds): to the
// report drawn (from navigation), to the band listed (from the first key), to it drawn
// (from the click). Exits 1, saying what failed, when the band is not found or not drawn.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch, check } from "./launch.mjs";
import { findBand, drawBand } from "./findband.mjs";

const [chromium, html, label] = process.argv.slice(2);
check(chromium && html && label, "usage: node report_find.mjs CHROMIUM REPORT.html LABEL");
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ev2hp-find-"));
const browser = await launch(chromium, profile);
let line;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const t0 = Date.now();
  await page.goto("file://" + path.resolve(html), { waitUntil: "load", timeout: 600000 });
  await page.waitForSelector("#report[data-ready]", { timeout: 600000 });
  const ready = Date.now() - t0;
  // the band's row in the report's table: its label there (a stack's without the "(n)"
  // --summary=json gives it) and colour, to type and to check the drawing by
  const [shown, colour] = await page.evaluate((l) => {
    const data = JSON.parse(document.getElementById("ev2hp-data").textContent);
    const bare = l.replace(/^\(\d+\)/, "");
    const rows = window.ev2hp.kit.unpackTable(data.run.table).bands;
    const r = rows.find((b) => b[0] === l) || rows.find((b) => b[0] === bare);
    return r ? [r[0], r[2]] : [null, null];
  }, label);
  check(shown, `the report's band table has no band labelled ${label}`);
  const t1 = Date.now();
  const row = await findBand(page, shown, shown);
  const listed = Date.now() - t1;
  check(row, `typing "${shown}" into the search box does not list that band`);
  const t2 = Date.now();
  const drawn = await drawBand(page, row);
  const drawnMs = Date.now() - t2;
  check(drawn.fills.length > 0, `${shown} is not drawn after its "draw" button`);
  check(
    drawn.fills.every((f) => f && f.toLowerCase() === colour.toLowerCase()),
    `${shown} drawn in ${drawn.fills}, not ${colour}`,
  );
  check(!errors.length, errors.join("; "));
  line =
    `${(fs.statSync(html).size / 1e6).toFixed(1)} MB report: drawn ${ready} ms after ` +
    `navigation; "${shown}" typed (${shown.length} keys) and listed in ${listed} ms, ` +
    `drawn ${drawnMs} ms after its click`;
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(line);
