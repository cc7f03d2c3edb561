// gc_test.mjs: the report's collector section in a real browser (headless Chromium via
// puppeteer-core), for tests/gc_browser.sh (issue 35).
//
//   node gc_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|gens": gens the expected rows, "gen:collections:parallel:
// worst_ms" joined by "," (each from the runtime's own -s report of the run), or "" when
// the report must have no collector section. Each row's collections, parallel ones and
// worst pause as the page shows them; the median, 90th and 99th percentile no larger than
// the worst; the facts line's productivity; no console or page errors.
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

async function runCase(spec) {
  const [name, html, gens] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  const rows = await page.$$eval("#gctable tr[data-gen]", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  const notes = [];
  if (!gens) {
    check(!(await page.$("#collector")), `${name}: a collector section without collections`);
    notes.push("no collector section");
  } else {
    const want = gens.split(",").map((g) => g.split(":"));
    check(
      rows.length === want.length,
      `${name}: ${rows.length} generation rows, not ${want.length}`,
    );
    const ms = (t) => parseFloat(t); // "21.9 ms"
    want.forEach(([gen, colls, par, worst], i) => {
      const r = rows[i];
      check(r[0] === "gen " + gen, `${name}: row ${i} is ${r[0]}`);
      check(
        r[1] === colls && r[2] === par,
        `${name}: gen ${gen}: ${r[1]} (${r[2]} parallel), -s ${colls} (${par})`,
      );
      check(
        Math.abs(ms(r[9]) - parseFloat(worst)) <= 1,
        `${name}: gen ${gen} worst ${r[9]}, -s ${worst} ms`,
      );
      check(
        ms(r[6]) <= ms(r[7]) && ms(r[7]) <= ms(r[8]) && ms(r[8]) <= ms(r[9]),
        `${name}: gen ${gen} percentiles out of order: ${r.slice(6).join(" ")}`,
      );
    });
    const facts = await page.$eval("#gcfacts", (s) => s.textContent);
    check(/productivity \d+\.\d %/.test(facts), `${name}: facts without productivity: ${facts}`);
    notes.push(`${rows.length} generations; ${facts}`);
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return notes.join("; ");
}

await runCases(browser, cases, runCase);
