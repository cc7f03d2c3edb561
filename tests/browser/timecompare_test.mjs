// timecompare_test.mjs: the report of time profiles in a real browser (headless Chromium
// via puppeteer-core), for tests/timecompare_browser.sh (issue 39).
//
//   node timecompare_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|flame.svg|tabs|flags": the report, ev2hp's SVG flame graph
// of the same input (drawn wider than the page, so that it labels every frame the page
// labels), the tabs the page must offer, in order ("flame,icicle": no heap tab), and
// flags: "diff" (a differential flame graph: its note says what the colour measures,
// pprof -diff_base, and what full colour means; no "base peak" in the summary). For each
// case the flame tab is drawn, and every frame label is in the colour the SVG's label on
// the same fill has: the ink chart_text_on picks, which tests/test_chart.c holds to WCAG
// AA (a contrast of 4.5:1 or more) on any fill. No console or page errors.
import fs from "node:fs";
import path from "node:path";
import { launch, check, runCases, openReport } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* The SVG flame graph's labelled frames: fill -> the colour of the label on it. */
function svgInks(file) {
  const inks = new Map();
  const re =
    /<rect class="frame"[^>]* fill="(#[0-9a-f]{6})"[^>]*>(?:<title>[^<]*<\/title><\/rect>)?\s*<text class="frame-label"[^>]* fill="(#[0-9a-f]{6})"/g;
  for (const m of fs.readFileSync(file, "utf8").matchAll(re)) inks.set(m[1], m[2]);
  return inks;
}

async function runCase(spec) {
  const [name, html, flameSvg, tabs, flags] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html), 1400);
  const offered = await page.$$eval("#views button", (bs) => bs.map((b) => b.dataset.view));
  check(offered.join(",") === tabs, `${name}: tabs ${offered}, not ${tabs}`);
  await page.click('#views button[data-view="flame"]');
  const labels = await page.$$eval(".flame .frame", (gs) =>
    gs
      .filter((g) => g.querySelector("text"))
      .map((g) => ({
        text: g.querySelector("text").textContent,
        ink: g.querySelector("text").getAttribute("fill"),
        fill: g.querySelector("rect").getAttribute("fill"),
      })),
  );
  check(labels.length >= 3, `${name}: ${labels.length} frame labels`);
  const inks = svgInks(flameSvg);
  for (const l of labels) {
    check(inks.has(l.fill), `${name}: "${l.text}" on ${l.fill}, a fill the SVG labels nowhere`);
    check(
      l.ink === inks.get(l.fill),
      `${name}: "${l.text}" in ${l.ink} on ${l.fill}, in ${inks.get(l.fill)} in the SVG`,
    );
  }
  const notes = [
    `tabs ${offered}`,
    `${labels.length} labels in ${[...new Set(labels.map((l) => l.ink))].join(", ")}, as the SVG`,
  ];
  if ((flags || "").includes("diff")) {
    const note = await page.$eval("#flame-note", (p) => p.textContent);
    check(
      note.includes("pprof -diff_base") && note.includes("full red: doubled or more"),
      `${name}: the note does not say what the colour measures: ${note}`,
    );
    const summary = await page.$eval("#report", (r) => r.textContent);
    check(!summary.includes("base peak"), `${name}: a base peak without a census`);
    notes.push("the key said");
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return notes.join("; ");
}

await runCases(browser, cases, runCase);
