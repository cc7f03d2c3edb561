// report_render.mjs (make bench): how long headless Chromium takes to show an ev2hp report (issue 14:
// the report of the dense bench eventlog must render in under 1 s).
//
//   node report_render.mjs CHROMIUM REPORT.html [RUNS]
//
// Loads the report RUNS times (default 5), each in a fresh page of one browser, and
// prints the median and the largest, in milliseconds since navigation started, of:
// "script" (report.js has drawn the summary, the main view and the band table) and
// "painted" (the frame with them has been rendered: a task after the next animation
// frame, so style, layout and paint are in). The parse of the page and its JSON data is
// inside both. (Chromium's first-contentful-paint entry is left out: headless Chromium
// records it for few loads, and late.)
import puppeteer from "puppeteer-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [chromium, html, runsArg] = process.argv.slice(2);
const runs = Number(runsArg) || 5;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ev2hp-render-"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: profile,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const samples = { script: [], painted: [] };
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.bringToFront();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
    await page.waitForSelector("#report[data-painted-ms]", { timeout: 60000 });
    const t = await page.evaluate(() => {
      const r = document.getElementById("report").dataset;
      return { script: +r.readyMs, painted: +r.paintedMs };
    });
    if (errors.length) throw new Error(errors.join("; "));
    for (const k in samples) samples[k].push(t[k]);
    await page.close();
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
const line = Object.entries(samples)
  .map(([k, v]) => `${k} ${median(v).toFixed(0)} ms (max ${Math.max(...v).toFixed(0)})`)
  .join(", ");
console.log(`${(fs.statSync(html).size / 1e6).toFixed(2)} MB, ${line}`);
