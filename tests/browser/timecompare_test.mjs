// timecompare_test.mjs: the report of time profiles in a real browser (headless Chromium
// via puppeteer-core), for tests/timecompare_browser.sh (issue 39).
//
//   node timecompare_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|tabs|flags": the tabs the page must offer, in order
// ("flame,icicle": no heap tab), and flags: "diff" (a differential flame graph: its note
// says what the colour measures, pprof -diff_base, and what full colour means; no "base
// peak" in the summary). For each case the flame tab is drawn, and every frame label's
// WCAG contrast on its frame's fill is at least 4.5:1. No console or page errors.
import path from "node:path";
import { launch, check, runCases, openReport } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

function luminance(hex) {
  const v = parseInt(hex.slice(1), 16);
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(v >> 16) + 0.7152 * lin((v >> 8) & 255) + 0.0722 * lin(v & 255);
}
function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
/* "#222" as "#222222" */
const hex6 = (c) => (c.length === 4 ? "#" + [...c.slice(1)].map((d) => d + d).join("") : c);

async function runCase(spec) {
  const [name, html, tabs, flags] = spec.split("|");
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
  let least = 21;
  for (const l of labels) {
    const k = contrast(hex6(l.ink), hex6(l.fill));
    check(k >= 4.5, `${name}: "${l.text}" in ${l.ink} on ${l.fill}: contrast ${k.toFixed(2)}`);
    least = Math.min(least, k);
  }
  const notes = [`tabs ${offered}`, `${labels.length} labels, least contrast ${least.toFixed(2)}`];
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
