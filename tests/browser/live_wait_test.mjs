// live_wait_test.mjs: the live page of ev2hp --serve says why it waits (headless Chromium
// via puppeteer-core, as live_test.mjs).
//
//   node live_wait_test.mjs CHROMIUM WORKDIR URL EVENTLOG FIFO CUT PATIENCE
//
// URL is ev2hp --serve reading FIFO. EVENTLOG is a real GHC eventlog written without a
// flush interval, whose first census event (and HEAP_PROF_BEGIN) sits at byte CUT, after
// the garbage collections of the whole run: the runtime held its global buffer back. This
// script writes the bytes before CUT into FIFO, as the running program did, and holds the
// rest until the page has said why no census comes: the runtime buffers its events, run
// with --eventlog-flush-interval or eventlog-socket (waiting up to PATIENCE seconds). No
// control of the program is offered (a FIFO is no socket), while waiting nor after. Then
// the rest comes in one burst, as it did from the program: every census is drawn, the
// stream's end said, and the reason stays on the page. No console errors, page errors or
// failed requests.
import fs from "node:fs";
import path from "node:path";
import { launch, check, awaitServed, liveErrors, liveControls as offered } from "./launch.mjs";

const [chromium, work, url, eventlog, fifo, cutArg, patienceArg] = process.argv.slice(2);
const bytes = fs.readFileSync(eventlog);
const cut = Number(cutArg);
const patience = Number(patienceArg) * 1000;
const fd = fs.openSync(fifo, "w");
fs.writeSync(fd, bytes, 0, cut);
await awaitServed(url, patience);
const browser = await launch(chromium, path.join(work, "profile"));

let status = 0;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = liveErrors(page);
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#report[data-ready=true]", { timeout: patience });
  const opened = Date.now();

  // while the rest is held: the page says why no census comes, and what to run
  await page.waitForSelector("#live-wait:not([hidden])", { timeout: patience });
  const waited = (Date.now() - opened) / 1000;
  const why = await page.$eval("#live-wait", (e) => e.textContent);
  for (const [want, what] of [
    [/^no census yet, though the program's events have arrived up to 1\.15 s into its run/, "what"],
    [/the GHC runtime buffers its events and writes them only when a buffer fills/, "why"],
    [/\+RTS --eventlog-flush-interval=1/, "the flag"],
    [/eventlog-socket/, "eventlog-socket"],
  ])
    check(want.test(why), `the page does not say ${what}: ${why}`);
  const censuses = await page.$eval("#live", (e) => e.dataset.censuses);
  check(censuses === "0", `a census came before the rest was written (${censuses})`);
  let buttons = await offered(page);
  check(buttons.length === 0, `controls offered for a FIFO while waiting: ${buttons}`);

  // the rest in one burst, as the runtime flushed it at the program's end
  fs.writeSync(fd, bytes, cut, bytes.length - cut);
  fs.closeSync(fd);
  await page.waitForSelector("#live[data-ended=true]", { timeout: patience * 2 });
  const counted = await page.$eval("#live", (e) => Number(e.dataset.censuses));
  check(counted > 0, "no census counted at the end");
  await page.waitForFunction(
    (n) => JSON.parse(document.getElementById("ev2hp-data").textContent).run.censuses === n,
    { timeout: patience },
    counted,
  );
  const end = await page.$eval("#live-status", (e) => e.textContent);
  check(/stream ended/.test(end), `the end is not said: ${end}`);
  const still = await page.$eval("#live-wait", (e) => !e.hidden && e.textContent);
  check(still === why, `after the burst the reason is gone: ${still}`);
  buttons = await offered(page);
  check(buttons.length === 0, `controls offered for a FIFO at the end: ${buttons}`);
  check(errors.length === 0, errors.join("; "));
  console.log(`ok: said why after ${waited.toFixed(1)} s of the page; then ${counted} censuses`);
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  status = 1;
}
await browser.close();
process.exit(status);
