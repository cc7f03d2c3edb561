// end_test.mjs: the report's account of how a cut-short run ended, in a real browser
// (headless Chromium via puppeteer-core), for tests/end_browser.sh (issue 35, item 5).
//
//   node end_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|paragraph.txt[|selector]": the page's element of selector
// (default "#endrun", the "end" item) must read as the text in paragraph.txt (the text
// summary's words), or, when paragraph.txt is "", the page must have no such element (a
// run that ended with its end-of-data marker); no console or page errors. The
// capabilities' line ("#capabilities") is checked the same way.
import fs from "node:fs";
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

async function runCase(spec) {
  const [name, html, want, selector = "#endrun"] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  const shown = await page.$eval(selector, (p) => p.textContent).catch(() => null);
  if (!want) check(shown === null, `${name}: an end paragraph for a complete run: ${shown}`);
  else {
    const text = fs.readFileSync(want, "utf8").trim();
    const [got, exp] = [JSON.stringify(shown), JSON.stringify(text)];
    check(shown === text, `${name}: the page says ${got}, not ${exp}`);
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return shown === null ? "no end paragraph" : shown.slice(0, 60) + "...";
}

await runCases(browser, cases, runCase);
