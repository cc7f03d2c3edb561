// report_render.mjs (make bench): how long headless Chromium takes to show an ev2hp
// report (issue 14: the report of the dense bench eventlog must render in under 1 s).
//
//   node report_render.mjs CHROMIUM REPORT.html [RUNS]
//
// Loads the report RUNS times (default 5), each in a fresh page of one browser, and
// prints the median and the largest, in milliseconds since navigation started, of:
// "script" (report.js has drawn the summary, the main view and the band table) and
// "painted" (the frame with them has been rendered: a task after the next animation
// frame, so style, layout and paint are in). The parse of the page and its JSON data is
// inside both. Those are wall times: on a busy machine they include waiting for a
// processor. So RUNS more loads are traced, and "main-thread CPU" is the median CPU time
// of the page's main thread from navigation to that frame (every task it ran: parsing,
// the script, style, layout, paint), which depends little on the machine's load.
// (Chromium's first-contentful-paint entry is left out: headless Chromium records it for
// few loads, and late.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch } from "./launch.mjs";

const [chromium, html, runsArg] = process.argv.slice(2);
const runs = Number(runsArg) || 5;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ev2hp-render-"));
const traceFile = path.join(profile, "trace.json");
const browser = await launch(chromium, profile);

async function load(traced) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.bringToFront();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  if (traced)
    await page.tracing.start({ path: traceFile, categories: ["toplevel", "devtools.timeline"] });
  await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
  await page.waitForSelector("#report[data-painted-ms]", { timeout: 60000 });
  const t = await page.evaluate(() => {
    const r = document.getElementById("report").dataset;
    return { script: +r.readyMs, painted: +r.paintedMs };
  });
  if (traced) await page.tracing.stop();
  await page.close();
  if (errors.length) throw new Error(errors.join("; "));
  if (!traced) return t;
  // the page's main thread is the one that parsed it; its top-level tasks' CPU time
  const events = JSON.parse(fs.readFileSync(traceFile, "utf8")).traceEvents;
  const parse = events.find((e) => e.name === "ParseHTML");
  let cpu = 0;
  for (const e of events)
    if (parse && e.pid === parse.pid && e.tid === parse.tid && e.ph === "X" && e.tdur)
      if (e.name === "ThreadControllerImpl::RunTask") cpu += e.tdur / 1000;
  return { cpu: cpu };
}

const samples = { script: [], painted: [], cpu: [] };
try {
  for (let i = 0; i < runs; i++) {
    const t = await load(false);
    samples.script.push(t.script);
    samples.painted.push(t.painted);
  }
  for (let i = 0; i < runs; i++) samples.cpu.push((await load(true)).cpu);
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
const line = ["script", "painted"]
  .map(
    (k) => `${k} ${median(samples[k]).toFixed(0)} ms (max ${Math.max(...samples[k]).toFixed(0)})`,
  )
  .join(", ");
const cpu = samples.cpu.every((c) => c > 0)
  ? `; main-thread CPU ${median(samples.cpu).toFixed(0)} ms`
  : "";
console.log(`${(fs.statSync(html).size / 1e6).toFixed(2)} MB, ${line}${cpu}`);
