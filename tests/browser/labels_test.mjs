// labels_test.mjs: labels with line breaks in the report, in a real browser (headless
// Chromium via puppeteer-core), for tests/serve_labels.sh.
//
//   node labels_test.mjs CHROMIUM WORKDIR URL HTML...
//
// URL is the live page of ev2hp --serve and each HTML a report file (-o x.html), of runs
// whose labels hold a line feed, a carriage return and U+2028 (tests/hostile_labels.c).
// Each must draw its report with every band's label in it (as text), with no console
// error, page error or failed request; the live page must also redraw from /report.json
// without "could not update", say that the stream ended, and then offer no control of
// the program (no "census now", no start or stop: nothing is there to receive them).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch, check, liveErrors } from "./launch.mjs";

const [chromium, work, url, ...files] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));
const fragments = ["line", "feed", "carriage", "return", "para", "separator", "plain"];

async function open(address) {
  const page = await browser.newPage();
  const errors = liveErrors(page);
  await page.goto(address, { waitUntil: "load" });
  await page.waitForSelector("#report[data-ready=true]", { timeout: 30000 });
  return { page, errors };
}

async function labelsShown(page, where) {
  const text = await page.evaluate(() => document.getElementById("report").textContent);
  for (const f of fragments) check(text.includes(f), `${where}: "${f}" is not on the page`);
}

let status = 0;
try {
  for (const html of files) {
    const file = await open(pathToFileURL(html).href);
    await labelsShown(file.page, html);
    check(file.errors.length === 0, html + ": " + file.errors.join("; "));
  }

  const live = await open(url);
  await live.page.waitForFunction(
    () =>
      document.getElementById("live").dataset.ended === "true" &&
      Number(document.getElementById("live").dataset.redraws) > 0,
    { timeout: 30000 },
  );
  // the last redraw (the end's) has come back
  await live.page
    .waitForFunction(() => !document.getElementById("live-said").textContent, { timeout: 5000 })
    .catch(() => {});
  const said = await live.page.evaluate(() => document.getElementById("live-said").textContent);
  check(!/could not update/.test(said), "the live page: " + said);
  await labelsShown(live.page, "the live page");
  const offered = await live.page.evaluate(() =>
    [...document.querySelectorAll("#live button")]
      .filter((b) => !b.hidden && !b.disabled)
      .map((b) => b.textContent),
  );
  check(offered.length === 0, "the live page offers after the end: " + offered.join(", "));
  check(live.errors.length === 0, "the live page: " + live.errors.join("; "));
} catch (e) {
  console.error(e.message);
  status = 1;
} finally {
  await browser.close();
}
process.exit(status);
