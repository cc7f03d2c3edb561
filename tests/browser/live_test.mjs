// live_test.mjs: the live page of ev2hp --serve in a real browser (headless Chromium via
// puppeteer-core, which uses the installed browser and downloads nothing).
//
//   node live_test.mjs CHROMIUM WORKDIR URL EVENTLOG FIFO KEY [KEY=EXPORT...]
//
// URL is ev2hp --serve reading FIFO. This script writes EVENTLOG into FIFO itself, as a
// running program would: a first part (the header and a few censuses), then, once the
// page is open, the rest in pieces over about ten seconds, so the page sees the run grow
// however long the browser took to start. The page is opened once and never reloaded (a
// mark left on window must survive): the censuses it draws must grow without a reload;
// the user's choices made meanwhile (grouped by KEY, another view, a hidden group) must
// hold across the updates; no control of the program is offered (a FIFO is no socket),
// and the server refuses one sent anyway (409); at the end the page must say that the stream ended and draw every
// census the server counted. Then each KEY=EXPORT is chosen in the control and the page's
// groups checked against EXPORT, the JSON export of EVENTLOG with --group-by KEY, as the
// static report's are (groups.mjs). No console errors, page errors or failed requests.
import path from "node:path";
import { launch, check, awaitServed, feedFifo, liveErrors } from "./launch.mjs";
import { checkKey } from "./groups.mjs";

const [chromium, work, url, eventlog, fifo, key, ...exports] = process.argv.slice(2);
/* A first part now; writeRest, the rest in 100 pieces over about ten seconds. */
const writeRest = feedFifo(eventlog, fifo, 100);
/* Until the server has read the header (the page answers 503 before). */
await awaitServed(url, 60000);
const browser = await launch(chromium, path.join(work, "profile"));

/* The censuses the page draws now: its data element, as report.js read it. */
const drawnCensuses = (page) =>
  page.evaluate(() => JSON.parse(document.getElementById("ev2hp-data").textContent).run.censuses);

let status = 0;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 }); // as groups.mjs's checks expect
  // the browser logs the answer to "census now" (409 from a FIFO) as a failed load
  const errors = liveErrors(page, /status of 409/);
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#report[data-ready=true]");
  await page.evaluate(() => (window.liveTestMark = 1));
  const first = await drawnCensuses(page);
  const writing = writeRest();

  // the user's choices: grouped by key (one of --group-by's, which the page offers for the
  // run's kind of bands), the lines view, a group hidden
  await page.waitForFunction(
    (k) =>
      document.querySelectorAll("#legend li").length > 1 &&
      document.querySelector(`#groupby option[value="${k}"]`),
    { timeout: 60000 },
    key,
  );
  await page.select("#groupby", key);
  await page.waitForFunction(
    (k) => document.getElementById("report").dataset.groupBy === k,
    {},
    key,
  );
  // (in the page, at once: a redraw may replace the elements between two steps)
  await page.evaluate(() => document.querySelector('#views button[data-view="lines"]').click());
  const hidden = await page.evaluate(() => {
    const li = document.querySelector("#legend li");
    li.click();
    return li.dataset.band;
  });

  // more censuses drawn, without a reload, the choices kept
  await page.waitForFunction(
    (n) => {
      const d = JSON.parse(document.getElementById("ev2hp-data").textContent);
      return d.run.censuses > n && document.querySelector("#report[data-ready=true]");
    },
    { timeout: 60000 },
    first + 1,
  );
  const later = await drawnCensuses(page);
  check(await page.evaluate(() => window.liveTestMark === 1), "the page was reloaded");
  const view = await page.$eval("#views button[aria-selected=true]", (b) => b.dataset.view);
  check(view === "lines", `the view went back to ${view}`);
  const cls = await page.evaluate(
    (k) => document.querySelector(`#legend li[data-band="${CSS.escape(k)}"]`)?.className,
    hidden,
  );
  check(cls === "hidden", `the hidden band came back (${cls})`);
  const groupBy = () =>
    page.evaluate(() => [
      document.getElementById("report").dataset.groupBy,
      document.getElementById("groupby").value,
    ]);
  check(
    (await groupBy()).join() === `${key},${key}`,
    `the grouping went back to ${await groupBy()}`,
  );

  // no control for a FIFO: no button offered, and "census now" sent anyway is refused
  const offered = await page.$$eval("#live button", (bs) =>
    bs.filter((b) => !b.hidden && b.offsetParent !== null).map((b) => b.id),
  );
  check(offered.length === 0, `controls offered for a FIFO: ${offered}`);
  const said = await page.evaluate(() =>
    fetch("control/census", { method: "POST", headers: { "X-Requested-By": "ev2hp" } }).then(
      async (r) => r.status + ": " + (await r.text()).trim(),
    ),
  );
  check(/^409: the input is not a socket/.test(said), `census now: ${said}`);
  await writing;

  // the end: said, and every census drawn
  await page.waitForSelector("#live[data-ended=true]", { timeout: 120000 });
  const counted = await page.$eval("#live", (e) => Number(e.dataset.censuses));
  await page.waitForFunction(
    (n) => JSON.parse(document.getElementById("ev2hp-data").textContent).run.censuses === n,
    { timeout: 30000 },
    counted,
  );
  const text = await page.$eval("#live-status", (e) => e.textContent);
  check(/stream ended/.test(text), `the end is not said: ${text}`);
  check(await page.evaluate(() => window.liveTestMark === 1), "the page was reloaded");
  const lines = await page.$eval("#views button[aria-selected=true]", (b) => b.dataset.view);
  check(lines === "lines", `at the end the view is ${lines}`);
  check(
    (await groupBy()).join() === `${key},${key}`,
    `at the end the grouping is ${await groupBy()}`,
  );
  const redraws = await page.$eval("#live", (e) => e.dataset.redraws);

  // the final page's groups, key by key, against --group-by's exports (the hidden group
  // shown again first: the read-out lists the groups drawn)
  await page.evaluate(() => document.querySelector("#legend li.hidden")?.click());
  const none = await page.$eval("#groupby option", (o) => o.value);
  const grouped = [];
  for (const pair of exports) {
    const [k, file] = pair.split("=");
    grouped.push(await checkKey(page, k, file, "live", none));
  }
  check(errors.length === 0, errors.join("; "));
  console.log(
    `ok: censuses drawn ${first} -> ${later} -> ${counted} in ${redraws} redraws, no reload` +
      (grouped.length ? `; at the end ${grouped.join("; ")}` : ""),
  );
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  status = 1;
}
await browser.close();
process.exit(status);
