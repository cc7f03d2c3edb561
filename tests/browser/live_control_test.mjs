// live_control_test.mjs: the live page of ev2hp --serve offers the program's controls
// when its eventlog comes over a socket (headless Chromium via puppeteer-core).
//
//   node live_control_test.mjs CHROMIUM WORKDIR URL PATIENCE
//
// URL is ev2hp --serve reading unix:PATH, a program streaming its eventlog
// (tests/replay.py). While the stream goes on, "census now", "start heap profiling" and
// "stop heap profiling" are shown; "census now" reaches the server, which sends it to
// the program (202, shown in the bar). Once the stream ended none is offered. The FIFO's
// side (no control at all) is live_wait_test.mjs's and live_test.mjs's.
import path from "node:path";
import { launch, check, awaitServed, liveControls as offered } from "./launch.mjs";

const [chromium, work, url, patienceArg] = process.argv.slice(2);
const patience = Number(patienceArg) * 1000;
await awaitServed(url, patience);
const browser = await launch(chromium, path.join(work, "profile"));

let status = 0;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push("console: " + m.text()));
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#census-now:not([hidden])", { timeout: patience });
  const shown = (await offered(page)).join();
  check(
    shown === "census-now,profiling-start,profiling-stop",
    `the controls offered for a socket: ${shown}`,
  );
  await page.click("#census-now");
  await page.waitForFunction(() => document.getElementById("live-said").textContent !== "", {
    timeout: patience,
  });
  const said = await page.$eval("#live-said", (e) => e.textContent);
  check(/^202/.test(said), `census now: ${said}`);
  await page.waitForSelector("#live[data-ended=true]", { timeout: patience * 2 });
  const after = await offered(page);
  check(after.length === 0, `controls offered after the end: ${after}`);
  check(errors.length === 0, errors.join("; "));
  console.log(`ok: ${shown} offered for a socket, census now: ${said}; none after the end`);
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  status = 1;
}
await browser.close();
process.exit(status);
