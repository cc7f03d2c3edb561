// autogroup_test.mjs: a report grouped by default (issue 39; tests/autogroup_browser.sh)
// as a reader sees it in headless Chromium: its subtitle says what it was grouped by and
// the flag that undoes it, its legend lists the groups (the names given) and OTHER as
// groups, and a report of the bands as they are (--group-by table) says none of it.
//
//   node autogroup_test.mjs CHROMIUM WORKDIR CASE...
//
// CASE is NAME|HTML|KEY|UNDO|LABEL,LABEL... (KEY "-": not grouped; no labels checked).
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

await runCases(browser, cases, async (spec) => {
  const [name, html, key, undo, labels] = spec.split("|");
  const { page, errors } = await openReport(browser, html);
  const sub = await page.$eval("#summary .subtitle", (e) => e.textContent);
  const legend = await page.$$eval("#legend li", (lis) => lis.map((li) => li.textContent));
  await page.close();
  check(errors.length === 0, `${name}: page errors: ${errors.join("; ")}`);
  if (key === "-") {
    check(!sub.includes("grouped by"), `${name}: the subtitle says grouped: ${sub}`);
    check(
      !legend.some((l) => l.startsWith("OTHER (") && l.endsWith("groups)")),
      `${name}: OTHER holds groups: ${legend}`,
    );
    return "not grouped";
  }
  for (const want of [`grouped by ${key}:`, `--group-by ${undo} shows every`])
    check(sub.includes(want), `${name}: the subtitle lacks "${want}": ${sub}`);
  for (const label of labels.split(","))
    check(legend.includes(label), `${name}: no legend entry ${label}: ${legend.join(" | ")}`);
  const other = legend.find((l) => l.startsWith("OTHER ("));
  check(!other || other.endsWith(" groups)"), `${name}: OTHER's note: ${other}`);
  return `${legend.length} legend entries; ${other || "no OTHER"}`;
});
