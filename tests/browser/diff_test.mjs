// diff_test.mjs: the report's Diff tab in a real browser (headless Chromium via
// puppeteer-core): a diff that never invents change.
//
//   node diff_test.mjs CHROMIUM WORKDIR CASE...
//
// A CASE is "name|report.html|align|changes": the report of a run with --compare, the
// alignment the tab must open with ("time" or "progress"), and for the bands to check,
// "key=bytes;key=bytes" (a part of the band's label, its change at the peak from the
// runtime's .hp) or "-". For each case, as a user sees it: the tab opens aligned so and
// its caption says why; every line the tab draws has no jump (no step between columns
// more than 3 times its 90th-percentile step); a band whose change is negative stays
// below the zero line all along; the read-out at the right end gives, per checked band,
// this run's bytes minus the base's within 10 % of its change at the peak. Then the other
// alignment through the control: by time, no line goes past the shorter run's end (the
// caption says where the lines stop) and the lines still have no jump. A case "one"
// (a run of one census) offers no progress and draws the moment as one mark. No console
// or page errors. Prints one line per case and "N passed, N failed".
import path from "node:path";
import { launch, check, openReport, runCases } from "./launch.mjs";

const [chromium, work, ...cases] = process.argv.slice(2);
const browser = await launch(chromium, path.join(work, "profile"));

/* What the tab shows: its alignment, caption, zero line, lines (band, y values) and
 * x labels. */
function diffTab(page) {
  return page.evaluate(() => {
    const s = document.querySelector("#charts svg.diff");
    const ys = (d) => (d.match(/-?[\d.]+/g) || []).map(Number).filter((_, i) => i % 2 === 1);
    return {
      align: s.dataset.align,
      caption: document.querySelector("#charts figcaption").textContent,
      zero: Number(s.querySelector("line.zero").getAttribute("y1")),
      lines: [...s.querySelectorAll("path.diffline")].map((p) => ({
        band: p.dataset.band,
        d: p.getAttribute("d"),
        ys: ys(p.getAttribute("d")),
      })),
      xlabels: [...s.querySelectorAll(".xlabel")].map((t) => t.textContent),
      width: Number(s.getAttribute("viewBox").split(" ")[2]),
      progressOffered: !document.querySelector('#diffalign option[value="progress"]').disabled,
    };
  });
}

// a band's label from its key in the page ("b:(7)loop/main" is "loop/main")
const bare = (key) => key.replace(/^b:(\(\d+\))?/, "");

/* The largest step of a line against its 90th-percentile step, in layout units. */
function jumps(tab, name) {
  for (const l of tab.lines) {
    const steps = l.ys
      .slice(1)
      .map((y, i) => Math.abs(y - l.ys[i]))
      .sort((a, b) => a - b);
    if (steps.length < 2) continue;
    const steady = steps[Math.floor(steps.length * 0.9)];
    check(
      steps[steps.length - 1] <= 3 * steady + 2,
      `${name} (${tab.align}): ${l.band} jumps ${steps[steps.length - 1].toFixed(1)} units, ` +
        `its steady steps ${steady.toFixed(1)}`,
    );
  }
}

/* The read-out with the pointer at the plot's right end: per band, now minus base. */
async function rightEnd(page, tab) {
  const box = await (await page.$("#charts svg.diff")).boundingBox();
  const x = box.x + (box.width * (tab.width - 16.5)) / tab.width;
  await page.mouse.move(x, box.y + box.height / 2);
  return page.$$eval("#readout tr[data-band]", (rs) =>
    Object.fromEntries(rs.map((r) => [r.dataset.band, +r.dataset.now - +r.dataset.base])),
  );
}

async function runCase(spec) {
  const [name, html, align, changes] = spec.split("|");
  const { page, errors } = await openReport(browser, path.resolve(html));
  await page.click('#views button[data-view="diff"]');
  let tab = await diffTab(page);
  const notes = [];
  check(tab.align === align, `${name}: the Diff tab opens aligned by ${tab.align}, not ${align}`);
  check(!/aligned by time align by/.test(tab.caption), `${name}: caption ${tab.caption}`);
  if (align === "progress")
    check(/more than a fifth apart/.test(tab.caption), `${name}: caption says not why`);
  else
    check(
      /where both runs have censuses|one census: no length to share out/.test(tab.caption),
      `${name}: caption ${tab.caption}`,
    );
  jumps(tab, name);
  const wanted =
    changes === "-"
      ? []
      : changes
          .split(";")
          .map((c) => c.split("="))
          .map(([k, v]) => [k, +v]);
  const end = await rightEnd(page, tab);
  for (const [part, change] of wanted) {
    const key = Object.keys(end).find((k) => bare(k).startsWith(part));
    check(key !== undefined, `${name}: no band ${part} in the read-out`);
    check(
      Math.abs(end[key] - change) <= 0.1 * Math.abs(change),
      `${name}: ${part} ends at ${end[key]}, its change at the peak ${change}`,
    );
    const line = tab.lines.find((l) => l.band === key);
    if (change < 0)
      check(
        line && line.ys.every((y) => y > tab.zero),
        `${name}: ${part} (shrank) is not below zero all along`,
      );
  }
  notes.push(`opens by ${align}, ${tab.lines.length} lines, ${wanted.length} ends checked`);
  if (name === "one") {
    check(!tab.progressOffered, `${name}: progress offered for a run of one census`);
    check(
      tab.lines.length > 0 && tab.lines.every((l) => l.d.endsWith("h6m-12 0h6")),
      `${name}: the one moment is not drawn as a mark: ${tab.lines.map((l) => l.d)}`,
    );
    notes.push("no progress offered, one moment marked");
  } else {
    const other = align === "progress" ? "time" : "progress";
    await page.select("#diffalign", other);
    tab = await diffTab(page);
    check(tab.align === other, `${name}: the control did not align by ${other}`);
    jumps(tab, name);
    if (other === "time") {
      check(/goes on to/.test(tab.caption), `${name}: by time, not said where the lines stop`);
      for (const [part, change] of wanted) {
        const line = tab.lines.find((l) => bare(l.band).startsWith(part));
        if (change < 0)
          check(
            line && line.ys.every((y) => y > tab.zero),
            `${name} by time: ${part} (shrank) is not below zero all along`,
          );
      }
    }
    notes.push(`then by ${other}`);
  }
  check(!errors.length, `${name}: page errors: ${errors.join("; ")}`);
  await page.close();
  return notes.join(", ");
}

await runCases(browser, cases, runCase);
