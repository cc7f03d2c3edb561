// findband.mjs: finding one band in a report's band table and drawing it, as a user does:
// text typed into the search box (#filter, any part of a label), the row of the band
// looked for among those listed, then its "draw" button, which draws it out of OTHER.
// Shared by the report test (report_test.mjs: the smallest band of thousands) and
// `make bench` (report_find.mjs: the smallest of 100,000, timed).

/* Types text into the search box (after clearing it) and returns the listed row whose
 * label ends with label, as [data-band, label shown], or null. */
export async function findBand(page, text, label) {
  await page.click("#filter", { clickCount: 3 });
  await page.type("#filter", text);
  const found = await page.$$eval("#bandtable tbody tr[data-band]", (trs) =>
    trs.map((t) => [t.dataset.band, t.querySelector("td span[title]").title]),
  );
  return found.find(([, title]) => title.endsWith(label)) || null;
}

/* Clicks the row's "draw" button: the fills (or strokes) of the chart's paths of that
 * band afterwards (none: it was not drawn), and its key in the chart. */
export async function drawBand(page, row) {
  await page.click(`#bandtable tbody tr[data-band="${row[0]}"] button.draw`);
  const key = "b:" + row[0].slice(2);
  const fills = await page.$$eval(`#charts path[data-band="${key}"]`, (ps) =>
    ps.map((p) => p.getAttribute("fill") || p.getAttribute("stroke")),
  );
  return { key, fills };
}

/* Empties the search box again. */
export async function clearSearch(page) {
  await page.click("#filter", { clickCount: 3 });
  await page.keyboard.press("Backspace");
}
