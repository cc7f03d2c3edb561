// groups_test.mjs: the report's grouping control in a real browser (headless Chromium via
// puppeteer-core), against ev2hp --group-by.
//
//   node groups_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|choices|key=grouped.json,key=grouped.json...": the report
// of an input, the control's choices wanted ("table,type,..."; "-": no control at all),
// and per key the JSON export of the same input with --group-by KEY. For each key, as a
// user does it: the key is chosen in the control; the chart's legend is the --bands
// largest groups of the export (ranked by area, as bandselect.c ranks bands); hovering
// at every census of the export shows its time and, for each group drawn, the export's
// bytes for that group in that census (OTHER: the census's total less the groups shown;
// the total: the census's); the group with the smallest peak is found through the search
// box, its peak is the export's, and "draw" draws it with the export's bytes at every
// census. Choosing the first choice again gives the bands as they were. No console or
// page errors. Prints one line per case and "N passed, N failed".
import path from "node:path";
import { launch, check, runCases, openReport } from "./launch.mjs";
import { chooseGroup, checkKey } from "./groups.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* What the page lists: the band table's row count and the legend's bands. */
function rowsAndLegend(page) {
  return page.evaluate(() => ({
    rows: document.getElementById("bandtable").dataset.bands,
    legend: [...document.querySelectorAll("#legend li")].map((li) => li.dataset.band).join(),
  }));
}

async function runCase(spec) {
  const [name, html, choices, exports] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  const offered = await page.$$eval("#groupby option", (os) => os.map((o) => o.value));
  const notes = [];
  if (choices === "-") {
    check(!offered.length && !(await page.$("#grouping")), `${name}: a grouping control`);
    notes.push("no control");
  } else {
    check(offered.join(",") === choices, `${name}: the control offers ${offered}, not ${choices}`);
    const before = await rowsAndLegend(page);
    for (const pair of exports.split(",")) {
      const [key, file] = pair.split("=");
      notes.push(await checkKey(page, key, file, name, offered[0]));
    }
    // the bands as they were
    await chooseGroup(page, offered[0], offered[0]);
    const after = await rowsAndLegend(page);
    check(
      after.rows === before.rows && after.legend === before.legend,
      `${name}: ${offered[0]} again does not give the bands as they were`,
    );
    notes.push(`${offered[0]} again: the ${before.rows} rows as they were`);
  }
  check(!errors.length, `${name}: ${errors.join("; ")}`);
  await page.close();
  return notes.join("; ");
}

await runCases(browser, cases, runCase);
