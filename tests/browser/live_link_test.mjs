// live_link_test.mjs: the live page of ev2hp --serve keeps its view in the address and
// opens on one given there (issue 36, item 4), and a window recomputes it (item 3), for
// tests/serve_link.sh.
//
//   node live_link_test.mjs CHROMIUM WORKDIR URL EVENTLOG FIFO SUMMARY.JSON
//
// URL is ev2hp --serve reading FIFO; this script writes EVENTLOG into it (a part, then
// the rest over about five seconds once the page is open). The page is opened with a
// fragment (the lines view, a window, a search, a hidden band): it must open so and keep
// it across the redraws as censuses come (the address unchanged); at the end of the
// stream the window's figures are SUMMARY.JSON's (ev2hp --from/--to --summary=json of
// EVENTLOG for the same window): its censuses and each band's peak.
import fs from "node:fs";
import path from "node:path";
import { launch, check, awaitServed, feedFifo } from "./launch.mjs";

const [chromium, work, url, eventlog, fifo, summaryPath] = process.argv.slice(2);
const summary = JSON.parse(fs.readFileSync(summaryPath, "utf8"));
const writeRest = feedFifo(eventlog, fifo, 50);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await awaitServed(url, 60000);
const browser = await launch(chromium, path.join(work, "profile"));
const win = summary.window.from_s + "," + summary.window.to_s;
const fragment = "#view=lines&window=" + encodeURIComponent(win) + "&q=THUNK&hide=b%3ATHUNK";

/* What the page shows of the fragment's state. */
const shown = (page) =>
  page.evaluate(() => ({
    tab: (document.querySelector("#views button[aria-selected=true]") || { dataset: {} }).dataset
      .view,
    window: (document.getElementById("bandtable") || { dataset: {} }).dataset.window,
    search: document.getElementById("filter").value,
    hidden: [...document.querySelectorAll("#legend li.hidden")].map((li) => li.dataset.band),
    hash: location.hash,
  }));
function same(s, when) {
  check(s.tab === "lines", `${when}: the tab is ${s.tab}`);
  check(s.window === win, `${when}: the window is "${s.window}", not ${win}`);
  check(s.search === "THUNK", `${when}: the search is "${s.search}"`);
  check(s.hidden.join() === "b:THUNK", `${when}: hidden ${s.hidden}`);
}

let status = 0;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  await page.goto(url + fragment, { waitUntil: "load" });
  await page.waitForSelector("#report[data-ready=true]");
  const writing = writeRest();
  // the page is drawn again as censuses come: with the first ones, the table
  await page.waitForSelector("#bandtable", { timeout: 60000 });
  same(await shown(page), "opened");
  const first = await shown(page);
  await page.waitForFunction(() => document.getElementById("live").dataset.ended === "true", {
    timeout: 120000,
  });
  await writing;
  // the last redraw after the end
  await sleep(1500);
  const redraws = await page.$eval("#live", (b) => Number(b.dataset.redraws));
  check(redraws > 1, `${redraws} redraws`);
  const last = await shown(page);
  same(last, `after ${redraws} redraws`);
  check(last.hash === first.hash, `the address changed: ${first.hash} -> ${last.hash}`);
  const censuses = await page.$eval("#window-chip", (c) => Number(c.dataset.censuses));
  check(
    censuses === summary.censuses,
    `the window holds ${censuses} censuses, ev2hp --from/--to ${summary.censuses}`,
  );
  // each band's peak in the window (the search box finds them)
  for (const b of summary.bands.slice(0, 5)) {
    await page.$eval(
      "#filter",
      (i, t) => {
        i.value = t;
        i.dispatchEvent(new window.Event("input"));
      },
      b.label,
    );
    const peak = await page.$$eval(
      "#bandtable tbody tr[data-band]",
      (trs, t) => {
        const tr = trs.find((r) => r.dataset.band.replace(/^[bf]:/, "") === t);
        return tr ? Number(tr.querySelector("td[data-value]:nth-child(2)").dataset.value) : null;
      },
      b.label,
    );
    check(peak === b.peak, `${b.label}: peak ${peak} in the window, ev2hp ${b.peak}`);
  }
  check(!errors.length, errors.join("; "));
  console.log(`ok: ${fragment} kept over ${redraws} redraws; the window's figures are ev2hp's`);
} catch (e) {
  console.log("FAIL: " + e.message);
  status = 1;
}
await browser.close();
process.exit(status);
