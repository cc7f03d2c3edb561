// caps_test.mjs: the report's strip per capability under the heap view, and the
// nonmoving collector's line of its collector section, in a real browser (headless
// Chromium via puppeteer-core), for tests/caps_browser.sh (issue 35, items 2 and 1).
//
//   node caps_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|summary.json|want": want "strips" (the heap view has a
// strip per capability of the summary's capabilities, in order: each titled with its
// shares, its running and collecting areas over its ground the summary's running and gc
// within 1e-4 when the view shows the whole run, else its timeline's over the view's
// range (the report's data), and zoomed in by a drag the same over the new range, inside
// the plot), "none" (no
// strip in the heap view), "nmstrip" (the heap view has the nonmoving collector's strip:
// its synchronisations' and sweeps' areas over its height, in seconds of the time axis,
// the summary's gc.nonmoving sync_s and sweep_s within a pixel's worth when the view
// shows the whole run, and each phase's the timeline's over the view's range (the
// report's data); its marking within a pixel's worth of the data's concurrent marking,
// no more than gc.nonmoving's mark_s), or "facts:TEXT" (the collector section's facts
// line holds TEXT). A run other than "nmstrip"'s has no nonmoving strip; the area view
// never has strips; no console or page errors.
import fs from "node:fs";
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* What a strip over the window [t0, t1] must show of capability c's timeline tl
 * (the report's own data): each slot's running and collecting shares over the part of it
 * inside the window, as shares of the window's part of the run. */
function windowShares(tl, c, t0, t1) {
  const lo = Math.max(0, t0);
  const hi = Math.min(tl.end_s, t1);
  const out = { running: 0, gc: 0 };
  c.running_s.forEach((run, k) => {
    const s0 = k * tl.width_s;
    const s1 = Math.min(s0 + tl.width_s, tl.end_s);
    const inside = Math.min(s1, hi) - Math.max(s0, lo);
    if (inside <= 0 || s1 <= s0) return;
    out.running += (run * inside) / (s1 - s0);
    out.gc += (c.gc_s[k] * inside) / (s1 - s0);
  });
  return { running: out.running / (hi - lo), gc: out.gc / (hi - lo) };
}

/* The page's data and its time range. */
function pageState(page) {
  return page.evaluate(() => ({
    data: JSON.parse(document.getElementById("ev2hp-data").textContent),
    range: document.getElementById("report").dataset.range.split(",").map(Number),
  }));
}

/* Each strip of the page: its capability, title, and its areas as shares of its ground. */
function strips(page) {
  return page.$$eval("#capstrips g.capstrip", (gs) =>
    gs.map((g) => {
      const num = (r, a) => parseFloat(r.getAttribute(a));
      const ground = g.querySelector("rect.cap-idle");
      const area = (cls) =>
        [...g.querySelectorAll("rect." + cls)].reduce(
          (sum, r) => sum + num(r, "width") * num(r, "height"),
          0,
        );
      const whole = num(ground, "width") * num(ground, "height");
      return {
        cap: Number(g.dataset.cap),
        title: ground.querySelector("title").textContent,
        running: area("cap-running") / whole,
        gc: area("cap-gc") / whole,
        left: Math.min(...[...g.querySelectorAll("rect")].map((r) => num(r, "x"))),
      };
    }),
  );
}

/* Seconds of each phase the nonmoving timeline nm holds inside the window [t0, t1]. */
function windowSeconds(nm, t0, t1) {
  const lo = Math.max(0, t0);
  const hi = Math.min(nm.end_s, t1);
  const out = { sync: 0, mark: 0, sweep: 0 };
  nm.sync_s.forEach((_, k) => {
    const s0 = k * nm.width_s;
    const s1 = Math.min(s0 + nm.width_s, nm.end_s);
    const inside = Math.min(s1, hi) - Math.max(s0, lo);
    if (inside <= 0 || s1 <= s0) return;
    for (const p of Object.keys(out)) out[p] += (nm[p + "_s"][k] * inside) / (s1 - s0);
  });
  return out;
}

/* The nonmoving strip: each phase's area over its height, in units, the ground's
 * width, its title; null without it. */
function nonmovingStrip(page) {
  return page.evaluate(() => {
    const g = document.querySelector("#nmstrip g.nmstrip");
    if (!g) return null;
    const num = (r, a) => parseFloat(r.getAttribute(a));
    const ground = g.querySelector("rect.nm-ground");
    const units = (cls) =>
      [...g.querySelectorAll("rect." + cls)].reduce(
        (sum, r) => sum + num(r, "width") * num(r, "height"),
        0,
      ) / num(ground, "height");
    return {
      width: num(ground, "width"),
      title: ground.querySelector("title").textContent,
      sync: units("nm-sync"),
      mark: units("nm-mark"),
      sweep: units("nm-sweep"),
    };
  });
}

/* The nonmoving strip against the summary's gc.nonmoving and the report's data. */
async function checkNonmoving(page, name, json, notes) {
  const nmSummary = JSON.parse(fs.readFileSync(json, "utf8")).gc.nonmoving;
  const got = await nonmovingStrip(page);
  check(got, `${name}: no nonmoving strip`);
  if (!got) return;
  const { data, range } = await pageState(page);
  const nm = data.run.nonmoving_timeline;
  const whole = range[0] <= 0 && range[1] >= nm.end_s;
  const shown = Math.min(nm.end_s, range[1]) - Math.max(0, range[0]);
  const perS = got.width / shown; // units of the time axis a second
  const want = windowSeconds(nm, range[0], range[1]);
  if (whole) {
    want.sync = nmSummary.sync_s;
    want.sweep = nmSummary.sweep_s;
  }
  for (const p of ["sync", "mark", "sweep"]) {
    check(
      Math.abs(got[p] - want[p] * perS) <= 1,
      `${name}: ${p} drawn ${got[p].toFixed(2)} units, ${(want[p] * perS).toFixed(2)} expected`,
    );
    notes.push(`${p} ${got[p].toFixed(2)} units for ${want[p].toFixed(6)} s`);
  }
  check(
    nm.mark_total_s > 0 && nm.mark_total_s <= nmSummary.mark_s,
    `${name}: marking ${nm.mark_total_s} s, mark_s ${nmSummary.mark_s}`,
  );
  check(got.title.startsWith("nonmoving GC: synchronising "), `${name}: title ${got.title}`);
  notes.push(whole ? "the whole run" : `over ${range.map((t) => t.toFixed(3))} s`);
}

async function runCase(spec) {
  const [name, html, json, want] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  const notes = [];
  if (want.startsWith("facts:")) {
    const facts = await page.$eval("#gcfacts", (s) => s.textContent);
    check(facts.includes(want.slice(6)), `${name}: the facts line: ${facts}`);
    notes.push(facts);
  } else if (want === "nmstrip") {
    await page.click('#views button[data-view="heap"]');
    await checkNonmoving(page, name, json, notes);
    await page.click('#views button[data-view="area"]');
    check(!(await page.$("#nmstrip")), `${name}: the nonmoving strip in the area view`);
  } else {
    await page.click('#views button[data-view="heap"]');
    check(!(await page.$("#nmstrip")), `${name}: a nonmoving strip`);
    const got = await strips(page);
    if (want === "none") {
      check(!got.length, `${name}: ${got.length} strips`);
      notes.push("no strip");
    } else {
      const caps = JSON.parse(fs.readFileSync(json, "utf8")).capabilities;
      check(got.length === caps.length, `${name}: ${got.length} strips, ${caps.length} caps`);
      const pct = (v) => (100 * v).toFixed(1) + " %";
      // the heap view's range: the whole run, or from its first heap total (before it,
      // nothing to show): over the whole run the summary's shares, else the timeline's
      // over the range
      let { data, range } = await pageState(page);
      const tl = data.run.cap_timeline;
      const whole = range[0] <= 0 && range[1] >= tl.end_s;
      caps.forEach((c, i) => {
        const s = got[i];
        check(s.cap === c.cap, `${name}: strip ${i} is cap ${s.cap}`);
        const line =
          `cap ${c.cap}: ${pct(c.running)} running, ${pct(c.gc)} collecting, ` +
          `${pct(c.idle)} idle`;
        check(s.title === line, `${name}: strip titled ${s.title}, not ${line}`);
        const want = whole ? c : windowShares(tl, tl.caps[i], range[0], range[1]);
        for (const key of ["running", "gc"])
          check(
            Math.abs(s[key] - want[key]) <= 1e-4,
            `${name}: cap ${c.cap} ${key} ${s[key].toFixed(5)}, ` +
              `${whole ? "summary" : "timeline over " + range} ${want[key].toFixed(5)}`,
          );
        notes.push(`cap ${c.cap} running ${s.running.toFixed(4)} gc ${s.gc.toFixed(4)}`);
      });
      notes.push(whole ? "the whole run" : `over ${range.map((t) => t.toFixed(3))} s`);
      // zoomed in (a drag across the heap chart): the strips follow, inside the plot
      const box = await (await page.$("#charts .panel svg")).boundingBox();
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      const zoomed = await strips(page);
      ({ range } = await pageState(page));
      check(zoomed.length === caps.length, `${name}: ${zoomed.length} strips zoomed in`);
      check(
        zoomed.every((s) => s.left >= 72 - 1e-6),
        `${name}: a strip left of the plot`,
      );
      zoomed.forEach((s, i) => {
        const want = windowShares(tl, tl.caps[i], range[0], range[1]);
        check(
          Math.abs(s.running - want.running) <= 1e-4 && Math.abs(s.gc - want.gc) <= 1e-4,
          `${name}: zoomed to ${range}: cap ${s.cap} ${s.running}, ${s.gc}; want ` +
            `${want.running}, ${want.gc}`,
        );
      });
    }
    await page.click('#views button[data-view="area"]');
    check(!(await page.$("#capstrips")), `${name}: strips in the area view`);
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return notes.join("; ");
}

await runCases(browser, cases, runCase);
