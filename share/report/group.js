/* group.js: the report's grouping control (issue 31): the run's bands merged by a key of
 * their own, in the page, as ev2hp --group-by KEY merges them.
 *
 * ev2hp writes, for every key that applies to the run, each band's group as --group-by
 * computes it (the one rule, grouping_band_key): data.run.table.group_by, per key a table
 * of group names (with each group's own colour, which the charts of --group-by give it
 * unless a larger group shown with it has it: the page resolves them alike) and per band of
 * the band table the index of its group, -1 for a band the key says nothing of, which
 * stays a group of its own. regroup makes of the run a run of groups, of the same shape
 * as ev2hp writes a run of bands, which report.js then draws as it draws bands: the chart
 * shows the --bands largest groups by bandselect.c's rule (ranked by area, by peak when
 * there is no area; --trace; then --sort and --reverse) and OTHER, the band table lists
 * every group.
 *
 * Exactness: a group's bytes at a point are the exact sum of its members' there, taken
 * only where every band has values: the shown bands have theirs at the kept censuses
 * (run.t), the bands folded into OTHER at the table's points (table.t: all kept censuses
 * while the report's budget allows, an even subset of them past it). So the groups are
 * drawn at the table's points when there are folded bands, and the run says how many
 * (run.grouped.points), for the page to say so. A group's area, mean and growth are the
 * sums of its members' exact ones (all three add); its peak, standard deviation and R^2
 * are computed from its sums at those points (exact for a group of one band: its own),
 * and the page says so when they are fewer than the run's censuses. The peak list names
 * the groups with their bytes in the peak census, exact (group_by.peak: every band's
 * bytes there); the suspects are the shown groups that rose steadily to their peak by
 * profile.h's rule, judged at the points (a group of one shown band: ev2hp's verdict).
 * OTHER's spread is not its groups' (report.js computes it where it has every census).
 */
(function (ev2hp) {
  "use strict";

  const { lineFit: fit } = ev2hp.kit;

  /* The run's groupings as ev2hp writes them (data.run.table.group_by), or null: none
   * applies, or --compare (the base has no table to group). */
  function groupings(data) {
    const g = data.run && data.run.table ? data.run.table.group_by : null;
    return g && !data.base ? g : null;
  }

  /* The grouping control's choices: the bands as they are ("table" for info tables,
   * "stack" for stacks) first, then each key that applies; null when none does (no
   * control). */
  function choices(data) {
    const g = groupings(data);
    return g ? [g.none].concat(g.keys.map((k) => k.key)) : null;
  }

  // bandselect.c's order of ranked bands: by area, then peak, then first seen
  function byRank(a, b) {
    if (a.area !== b.area) return b.area - a.area;
    if (a.peak !== b.peak) return b.peak - a.peak;
    return a.first - b.first;
  }
  // bandselect.c's sort_shown: --sort stddev, name or growth (size keeps the rank)
  const SORTS = {
    stddev: (a, b) => b.stddev - a.stddev || byRank(a, b),
    name: (a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : byRank(a, b)),
    growth: (a, b) => b.growth - a.growth || byRank(a, b),
  };

  /* How many of the ranked groups are shown (bandselect.c's shown_count). */
  function shownCount(select, ranked, totalArea) {
    const byPeak = totalArea <= 0; // a single census has no area: rank by peak
    const top = ranked.length ? ranked[0].peak : 0;
    let shown = 0;
    for (; shown < ranked.length; shown++) {
      if (select.bands && shown >= select.bands) break;
      const g = ranked[shown];
      const share = byPeak ? (top ? g.peak / top : 0) : g.area / totalArea;
      if (share * 100 < select.trace) break;
    }
    return shown;
  }

  /* Peak, standard deviation and R^2 of values v at times t. */
  function pointStats(t, v) {
    const f = fit(t, v, v.length);
    return { peak: v.reduce((m, x) => Math.max(m, x), 0), stddev: f.stddev, r2: f.r2 };
  }

  /* A group's rise to its peak as bandstats.c judges a band's (the line through its
   * values from the first point to its first largest), and whether that makes it a
   * suspect by profile.h's rule: 4 or more points, a positive slope, R^2 >= 0.8, and a
   * rise of at least 10 % of the heap's peak (peakTotal) from the window's first census
   * (first) to the group's peak. An object as ev2hp writes a suspect, or null. */
  function suspect(t, v, first, peakTotal) {
    let p = 0;
    for (let i = 1; i < v.length; i++) if (v[i] > v[p]) p = i;
    const f = fit(t, v, p + 1);
    const span = Math.max(0, t[p] - first);
    const is = p + 1 >= 4 && f.slope > 0 && f.r2 >= 0.8 && peakTotal > 0;
    if (!is || f.slope * span < 0.1 * peakTotal) return null;
    return {
      rise_bytes_per_s: f.slope,
      rise_r2: f.r2,
      rise_censuses: p + 1,
      peak_time_s: t[p],
    };
  }

  /* The suspects among the shown groups (bands: the grouped run's; shown: their groups),
   * largest rise first, at most 10 as ev2hp lists them: a group of one band the run
   * shows keeps that band's own verdict (ev2hp's, over every census); any other is
   * judged at the points t. */
  function groupSuspects(run, shown, t, peakTotal) {
    const exact = new Map((run.suspects || []).map((s) => [s.band, s]));
    const out = [];
    shown.forEach((g, i) => {
      const only = g.members.length === 1 ? g.members[0] : null;
      const s =
        only && only[3] >= 0 ? exact.get(only[3]) || null : suspect(t, g.v, run.first_s, peakTotal);
      if (s) out.push(Object.assign({}, s, { band: i }));
    });
    out.sort((a, b) => b.rise_bytes_per_s - a.rise_bytes_per_s);
    return out.slice(0, 10);
  }

  /* The peak census of data as the groups make it up: each group's bytes there, the
   * sums of its members' (group_by.peak: every band's bytes in that census), largest
   * first, as many as ev2hp names (10); data.peak itself when ev2hp wrote no bytes. */
  function groupPeak(data, groups, atPeak) {
    if (!atPeak) return data.peak;
    const sums = groups.map((g) => [g.label, g.rows.reduce((s, r) => s + (atPeak[r] || 0), 0)]);
    const bands = sums.filter((x) => x[1] > 0).sort((a, b) => b[1] - a[1]);
    return Object.assign({}, data.peak, { bands: bands.slice(0, 10) });
  }

  /* The groups of the run's bands under key: each with its members' rows (band table
   * records) and its sums at the points. */
  function groupsOf(run, key, points) {
    const groups = [];
    const named = new Map();
    run.table.bands.forEach((row, r) => {
      const i = key.of[r];
      let g = i >= 0 ? named.get(i) : undefined;
      if (!g) {
        g =
          i >= 0
            ? { label: key.names[i][0], raw: null, colour: key.names[i][1] }
            : { label: row[0], raw: row[1], colour: row[2] }; // a band of its own
        Object.assign(g, { first: groups.length, members: [], rows: [] });
        Object.assign(g, { area: 0, mean: 0, growth: 0 });
        g.v = new Array(points.length).fill(0);
        groups.push(g);
        if (i >= 0) named.set(i, g);
      }
      const [, , , shown, , mean, , area, growth, , series] = row;
      g.members.push(row);
      g.rows.push(r);
      g.area += area;
      g.mean += mean;
      g.growth = g.growth === null || growth === null ? null : g.growth + growth;
      // a shown band's values at the kept censuses, a folded one's at the table's points
      if (shown >= 0) points.forEach((p, c) => (g.v[c] += run.v[shown][p]));
      else series.forEach((x, c) => (g.v[c] += x));
    });
    return groups;
  }

  /* data with its run's bands merged by the key named name (one of choices(data) but
   * the first): a run of the same shape whose bands are the shown groups and OTHER, whose
   * table lists every group, drawn at the points every band has values at; data itself
   * for the bands as they are. */
  function regroup(data, name) {
    const g = groupings(data);
    const key = g ? g.keys.find((k) => k.key === name) : null;
    if (!key) return data;
    const run = data.run;
    // the points: the kept censuses, or the table's (a sample of them) with folded bands
    const folded = run.table.bands.some((r) => r[3] < 0);
    const at = new Map(run.t.map((t, i) => [t, i]));
    const points = folded ? run.table.t.map((t) => at.get(t)) : run.t.map((t, i) => i);
    if (points.some((p) => p === undefined)) return data; // (the table's are kept censuses)
    const t = points.map((p) => run.t[p]);
    const groups = groupsOf(run, key, points);
    for (const grp of groups) {
      if (grp.members.length === 1) {
        // a group of one band: its exact statistics
        const row = grp.members[0];
        Object.assign(grp, { peak: row[4], stddev: row[6], r2: row[9] });
      } else Object.assign(grp, pointStats(t, grp.v));
    }
    const select = data.options.select; // ev2hp's --bands, --trace, --sort, --reverse
    const ranked = groups.slice().sort(byRank);
    const totalArea = ranked.reduce((s, x) => s + x.area, 0);
    const n = shownCount(select, ranked, totalArea);
    const shown = ranked.slice(0, n);
    // the shown groups' colours, no two alike, as the charts of --group-by give them
    // (each its own unless a larger group took it: ev2hp.kit.bandColours)
    const drawnColour = new Map(
      ev2hp.kit.bandColours(data.palette || [], shown).map((c, i) => [shown[i], c]),
    );
    if (SORTS[select.sort]) shown.sort(SORTS[select.sort]);
    if (select.reverse) shown.reverse();
    const band = (x) => ({
      label: x.label,
      raw: x.raw || undefined,
      colour: drawnColour.get(x),
      area: x.area,
      peak: x.peak,
      mean: x.mean,
      stddev: x.stddev,
      growth_bytes_per_s: x.growth,
      growth_r2: x.r2,
    });
    const bands = shown.map(band);
    const v = shown.map((x) => x.v);
    const rest = ranked.slice(n);
    if (rest.length) {
      // OTHER as ev2hp makes it: the sum of the folded, area, mean and growth exact
      const ov = new Array(t.length).fill(0);
      for (const x of rest) x.v.forEach((b, c) => (ov[c] += b));
      const was = run.bands.find((b) => b.other);
      bands.push({
        label: "OTHER",
        other: true,
        folded: rest.length,
        colour: was ? was.colour : "#c4c4c4",
        area: rest.reduce((s, x) => s + x.area, 0),
        peak: ov.reduce((m, b) => Math.max(m, b), 0),
        mean: rest.reduce((s, x) => s + x.mean, 0),
        stddev: null, // not the sum of the groups': report.js's, where every census is a point
        growth_bytes_per_s: rest.reduce((s, x) => s + (x.growth || 0), 0),
        growth_r2: null,
      });
      v.push(ov);
    }
    const place = new Map(shown.map((x, i) => [x, i]));
    const rows = ranked.map((x) => [
      x.label,
      x.raw,
      x.colour,
      place.has(x) ? place.get(x) : -1,
      x.peak,
      x.mean,
      x.stddev,
      x.area,
      x.growth,
      x.r2,
      place.has(x) ? null : x.v,
    ]);
    const grouped = Object.assign({}, run, {
      t: t,
      v: v,
      bands: bands,
      table: { t: t, bands: rows, group_by: g },
      bands_seen: groups.length,
      suspects: groupSuspects(run, shown, t, data.peak.bytes),
      grouped: { key: name, groups: groups.length, of: run.table.bands.length, points: t.length },
    });
    // a census's flame graph sums bands over their stacks: the groups have none
    const peak = groupPeak(data, groups, g.peak);
    return Object.assign({}, data, { run: grouped, peak: peak, census_stacks: null });
  }

  ev2hp.grouping = { choices: choices, regroup: regroup };
})(window.ev2hp);
