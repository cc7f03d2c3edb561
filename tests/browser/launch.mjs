// launch.mjs: what the browser scripts share. Headless Chromium started one way (the
// installed browser through puppeteer-core, a profile folder of the script's own, no
// background traffic, no sandbox: the tests run as root in CI), check, which throws
// what failed, runCases, the loop over a script's cases, overlayBox and hover, the
// report's chart and its read-out at a place of it, and for the live page feedFifo, an
// eventlog written into the server's FIFO as a running program would, awaitServed,
// until the server answers, liveErrors, what goes wrong on the page, and liveControls,
// the buttons its bar offers.
import fs from "node:fs";
import puppeteer from "puppeteer-core";

export function launch(chromium, profileDir) {
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profileDir,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/* A new page of the report file html, loaded and drawn (data-ready), width px wide (1280
 * unless said), and the page's errors and console errors as they come (errors, an array). */
export async function openReport(browser, html, width = 1280) {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto("file://" + html);
  await page.waitForFunction(() => document.getElementById("report").dataset.ready === "true");
  return { page, errors };
}

export function check(cond, what) {
  if (!cond) throw new Error(what);
}

/* Runs runCase(spec) for each case ("name|..."): prints "ok: name: " and what it returns,
 * or "FAIL: " and why; then "N passed, N failed", closes the browser and exits (1 when
 * a case failed). */
export async function runCases(browser, cases, runCase) {
  let passed = 0;
  let failed = 0;
  for (const spec of cases) {
    const name = spec.split("|")[0];
    try {
      const notes = await runCase(spec);
      console.log(`ok: ${name}: ${notes}`);
      passed++;
    } catch (e) {
      console.log(`FAIL: ${e.message}`);
      failed++;
    }
  }
  await browser.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/* The chart of this run: the last panel (with --compare the base is drawn above it). */
export async function overlayBox(page) {
  const boxes = await page.$$("#charts .overlay");
  const last = boxes[boxes.length - 1];
  await last.evaluate((e) => e.scrollIntoView({ block: "center" }));
  return last.boundingBox();
}

/* The report's read-out with the pointer at fraction (0 to 1) of this run's chart's
 * width: its time, rows (data-band, label, bytes) and total; null when none shows. */
export async function hover(page, fraction) {
  const box = await overlayBox(page);
  await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
  return page.evaluate(() => {
    const r = document.getElementById("readout");
    if (r.style.display !== "block") return null;
    return {
      time: Number(r.querySelector(".time").dataset.time),
      rows: [...r.querySelectorAll("tr[data-band]")].map((tr) => ({
        band: tr.dataset.band,
        label: tr.querySelector(".label").textContent,
        bytes: Number(tr.dataset.bytes),
      })),
      total: Number((r.querySelector("tr.total") || { dataset: { bytes: "NaN" } }).dataset.bytes),
    };
  });
}

/* Until url answers 200, for up to ms: a live server (ev2hp --serve) answers 503 until
 * its input is open. */
export async function awaitServed(url, ms) {
  for (let waited = 0; ; waited += 100) {
    const r = await fetch(url).catch(() => null);
    if (r && r.status === 200) return;
    if (waited > ms) throw new Error("the page never answered 200");
    await new Promise((done) => setTimeout(done, 100));
  }
}

/* Writes the first 30 % of EVENTLOG into FIFO (the header and a few censuses) at once,
 * as a running program would; the function returned writes the rest in `pieces` pieces
 * 100 ms apart and then ends the input, so the page sees the run grow however long the
 * browser took to start. */
export function feedFifo(eventlog, fifo, pieces) {
  const bytes = fs.readFileSync(eventlog);
  const head = Math.floor(bytes.length * 0.3);
  const fd = fs.openSync(fifo, "w");
  fs.writeSync(fd, bytes, 0, head);
  return async function writeRest() {
    const step = Math.ceil((bytes.length - head) / pieces);
    for (let at = head; at < bytes.length; at += step) {
      fs.writeSync(fd, bytes, at, Math.min(step, bytes.length - at));
      await new Promise((done) => setTimeout(done, 100));
    }
    fs.closeSync(fd);
  };
}

/* What goes wrong on a live page as it comes (an array): console errors but those that
 * match expected, page errors, failed requests but the event stream's (it is cut when
 * the server stops or the page closes). */
export function liveErrors(page, expected = null) {
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !(expected && expected.test(m.text())))
      errors.push("console: " + m.text());
  });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  page.on("requestfailed", (r) => {
    if (!r.url().endsWith("/events")) errors.push("request: " + r.url());
  });
  return errors;
}

/* The buttons of the live page's bar (live.js) that a user can see, by id. */
export function liveControls(page) {
  return page.$$eval("#live button", (bs) =>
    bs.filter((b) => !b.hidden && b.offsetParent !== null).map((b) => b.id),
  );
}
