// ticky_test.mjs: the report's Ticky tab in a real browser (headless Chromium via
// puppeteer-core), for tests/ticky_browser.sh (issue 35, item 4).
//
//   node ticky_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|summary.json|": the page's Ticky tab (first, the run having
// no census) lists every counter of --summary=json's ticky, most allocating first, with
// its entries and exact allocation; a header click sorts by that column (again: the other way); the search box
// keeps the counters whose name holds the text; a click on a counter draws its allocation
// at each point of ticky.series (a polyline of as many points), or says that only the
// largest have one. "name|report.html||" is a report that must have no Ticky tab. No
// console or page errors.
import fs from "node:fs";
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

const names = (page) =>
  page.$$eval("#tickytable tbody tr", (trs) => trs.map((tr) => tr.dataset.name));
const column = (page, i) =>
  page.$$eval("#tickytable tbody tr", (trs, i) => trs.map((tr) => tr.children[i].textContent), i);

async function runCase(spec) {
  const [name, html, summary] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  const tab = await page.$('#views button[data-view="ticky"]');
  if (!summary) {
    check(!tab, `${name}: a Ticky tab without ticky counters`);
    check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
    await page.close();
    return "no Ticky tab";
  }
  const ticky = JSON.parse(fs.readFileSync(summary, "utf8")).ticky;
  check(tab, `${name}: no Ticky tab`);
  check(
    (await tab.evaluate((b) => b.getAttribute("aria-selected"))) === "true",
    `${name}: the Ticky tab is not the first shown of a run without censuses`,
  );
  const listed = await names(page);
  const want = ticky.counters.map((c) => c.name);
  check(
    JSON.stringify(listed) === JSON.stringify(want),
    `${name}: the table lists ${JSON.stringify(listed)}, the summary ${JSON.stringify(want)}`,
  );
  const entries = (await column(page, 3)).map(Number);
  check(
    JSON.stringify(entries) === JSON.stringify(ticky.counters.map((c) => c.entries)),
    `${name}: entries ${entries}`,
  );
  const allocs = await column(page, 4);
  const exact = (b) => String(b).replace(/\B(?=(\d{3})+$)/g, ",") + " B";
  check(
    JSON.stringify(allocs) === JSON.stringify(ticky.counters.map((c) => exact(c.allocs))),
    `${name}: allocation ${allocs}`,
  );
  // sorting: by entries (most first), then the other way
  await page.click('#tickytable th[data-key="entries"]');
  let e = (await column(page, 3)).map(Number);
  check(
    e.every((v, i) => !i || e[i - 1] >= v),
    `${name}: not sorted by entries: ${e}`,
  );
  await page.click('#tickytable th[data-key="entries"]');
  e = (await column(page, 3)).map(Number);
  check(
    e.every((v, i) => !i || e[i - 1] <= v) && e[0] < e[e.length - 1],
    `${name}: not sorted by entries, fewest first: ${e}`,
  );
  // searching, then choosing the biggest series' counter
  const big = ticky.series.counters[0];
  const part = big.name.slice(0, 8);
  await page.type("#tickysearch", part);
  const found = await names(page);
  check(
    found.length &&
      found.every((n) => n.toLowerCase().includes(part.toLowerCase())) &&
      found.includes(big.name),
    `${name}: searching "${part}" lists ${JSON.stringify(found)}`,
  );
  const clickCounter = (n) =>
    page.$$eval(
      "#tickytable tbody tr",
      (trs, n) => trs.find((t) => t.dataset.name === n).click(),
      n,
    );
  await clickCounter(big.name);
  const chosen = await page.$eval("#tickychosen", (h) => h.textContent);
  check(chosen === big.name, `${name}: the chart names ${chosen}, not ${big.name}`);
  const points = await page.$eval(
    "#tickychart polyline",
    (p) => p.getAttribute("points").split(" ").length,
  );
  check(
    points === ticky.series.times_s.length,
    `${name}: ${points} points drawn, the series has ${ticky.series.times_s.length}`,
  );
  // a counter without a series (past the largest) says so
  const shown = new Set(ticky.series.counters.map((c) => c.name));
  const other = ticky.counters.find((c) => !shown.has(c.name));
  let notes = `${listed.length} counters; ${points} points for ${big.name}`;
  if (other) {
    await page.click("#tickysearch", { clickCount: 3 }); // the search emptied, as a user does
    await page.keyboard.press("Backspace");
    await clickCounter(other.name);
    check(await page.$("#tickynoseries"), `${name}: ${other.name}: no word that it has no series`);
    notes += `; ${other.name}: no series, said so`;
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return notes;
}

await runCases(browser, cases, runCase);
