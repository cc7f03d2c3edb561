// trend_test.mjs: the page of `ev2hp --trend ... -o x.html` in a real browser (headless
// Chromium via puppeteer-core), for tests/trend_browser.sh.
//
//   node trend_test.mjs CHROMIUM WORKDIR PAGE COMMITS FAILED
//
// The page loads without a page or console error; its chart is drawn (the inline SVG has
// a size, and COMMITS points per series, each inside it); its table has COMMITS rows in
// the chart's order, FAILED of them marked failed; the first row's subject is shown as
// text, never as markup.
import path from "node:path";
import { launch, check, runCases } from "./launch.mjs";

const [chromium, work, html, commits, failed] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

async function runCase() {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
  const got = await page.evaluate(() => {
    const svg = document.querySelector("figure svg");
    const box = svg.getBoundingClientRect();
    const series = {};
    for (const r of svg.querySelectorAll("rect.trend-point")) {
      const name = r.querySelector("title").textContent.split("\n")[0];
      const b = r.getBoundingClientRect();
      const inside =
        b.width > 0 &&
        b.left >= box.left &&
        b.right <= box.right &&
        b.top >= box.top &&
        b.bottom <= box.bottom;
      (series[name] ||= []).push(inside);
    }
    const rows = [...document.querySelectorAll("#commits tbody tr")];
    const axis = [...svg.querySelectorAll("text.commit")].map((t) => t.lastChild.textContent);
    return {
      width: box.width,
      height: box.height,
      series,
      rows: rows.map((r) => r.cells[1].textContent),
      failed: rows.filter((r) => r.classList.contains("failed")).length,
      subject: rows[0].cells[3].textContent,
      markup: rows[0].cells[3].children.length,
      axis,
    };
  });
  check(got.width > 600 && got.height > 300, `the chart is ${got.width} x ${got.height}`);
  const names = Object.keys(got.series);
  check(names.length >= 3, `series: ${names}`);
  for (const [name, pts] of Object.entries(got.series)) {
    check(pts.length === Number(commits), `${name}: ${pts.length} points`);
    check(
      pts.every((p) => p),
      `${name}: a point outside the chart`,
    );
  }
  check(got.rows.length === Number(commits), `${got.rows.length} rows`);
  check(
    JSON.stringify(got.rows) === JSON.stringify(got.axis),
    `the table's commits ${got.rows} are not the chart's ${got.axis}`,
  );
  check(got.failed === Number(failed), `${got.failed} rows marked failed`);
  check(got.markup === 0 && got.subject.includes("<commit>"), `the subject: ${got.subject}`);
  check(!errors.length, `page errors: ${errors.join("; ")}`);
  await page.close();
  return `${names.length} series of ${commits} points, ${got.failed} failed`;
}

await runCases(browser, ["trend page"], runCase);
