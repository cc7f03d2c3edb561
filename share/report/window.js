/* window.js: a band's statistics over a window of the run, as ev2hp computes them.
 *
 * A selection on the chart (or a phase) makes a window of every view: the band table's
 * peak, mean, std. dev., area, growth and R², the suspects, the legend's order. ev2hp
 * computes the same figures for `--from A --to B` (src/model/bandstats.c, whose rules
 * this file follows; the two must agree, and tests/report_window.sh checks that they do):
 *
 *   - the censuses of the window are those whose time t is in [from, to], both ends
 *     inclusive; a band absent from one counts 0 there;
 *   - peak: the largest value; mean and std. dev. over the window's censuses (population);
 *   - area: trapezoids between consecutive censuses, byte-seconds;
 *   - growth: the least-squares slope of the values against the times (seconds after the
 *     window's first census), R² = Sty² / (Stt Syy) (0 for a constant band, at most 1);
 *     both 0 with fewer than two censuses at distinct times;
 *   - the rise: the same fit from the window's first census up to the first census of
 *     the band's peak; a suspect has a rise over 4 censuses or more, positive, R² ≥ 0.8,
 *     and rising by at least 10 % of the window's largest census total.
 *
 * The page has every census when the run has few (run.t is then all of them, and the
 * figures are ev2hp's exactly); a longer run's report keeps a few censuses per pixel
 * column, and a window's figures are then of those, which the page says.
 * ev2hp.windowStats = {indices, stats, isSuspect}.
 */
(function (ev2hp) {
  "use strict";

  const SUSPECT_CENSUSES = 4;
  const SUSPECT_R2 = 0.8;
  const SUSPECT_RISE = 0.1;

  /* The first and last index of ts (ascending) in [from, to], or null when none is. */
  function indices(ts, from, to) {
    let a = 0;
    while (a < ts.length && ts[a] < from) a++;
    let b = ts.length - 1;
    while (b >= 0 && ts[b] > to) b--;
    return a <= b ? [a, b] : null;
  }

  /* Least squares of ys against ts over [a, b]: {slope, r2} (bandstats.c's fit). */
  function fit(ts, ys, a, b) {
    const n = b - a + 1;
    if (n < 2) return { slope: 0, r2: 0 };
    const t0 = ts[a];
    let tm = 0;
    let ym = 0;
    for (let i = a; i <= b; i++) {
      tm += ts[i] - t0;
      ym += ys[i];
    }
    tm /= n;
    ym /= n;
    let stt = 0;
    let syy = 0;
    let sty = 0;
    for (let i = a; i <= b; i++) {
      const dt = ts[i] - t0 - tm;
      const dy = ys[i] - ym;
      stt += dt * dt;
      syy += dy * dy;
      sty += dt * dy;
    }
    if (!(stt > 0)) return { slope: 0, r2: 0 };
    const r2 = syy > 0 ? Math.min(1, (sty * sty) / (stt * syy)) : 0;
    return { slope: sty / stt, r2: r2 };
  }

  /* A band's figures over points a..b of ts (its values ys at them). */
  function stats(ts, ys, a, b) {
    const n = b - a + 1;
    let peak = 0;
    let peakAt = a;
    let sum = 0;
    let area = 0;
    for (let i = a; i <= b; i++) {
      const y = ys[i] || 0;
      if (y > peak) [peak, peakAt] = [y, i];
      sum += y;
      if (i > a) area += ((ts[i] - ts[i - 1]) * ((ys[i - 1] || 0) + y)) / 2;
    }
    const mean = sum / n;
    let m2 = 0;
    for (let i = a; i <= b; i++) m2 += ((ys[i] || 0) - mean) ** 2;
    const growth = fit(ts, ys, a, b);
    const rise = peak > 0 ? fit(ts, ys, a, peakAt) : { slope: 0, r2: 0 };
    return {
      peak: peak,
      mean: mean,
      stddev: Math.sqrt(m2 / n),
      area: area,
      growth: growth.slope,
      r2: growth.r2,
      rise: rise.slope,
      riseR2: rise.r2,
      riseCensuses: peak > 0 ? peakAt - a + 1 : 0,
      peakTime: ts[peakAt],
      firstTime: ts[a],
    };
  }

  /* Whether figures s (stats) make a suspect in a window whose largest census total is
   * peakTotal (profile_is_suspect). */
  function isSuspect(s, peakTotal) {
    const span = s.peakTime - s.firstTime;
    return (
      s.riseCensuses >= SUSPECT_CENSUSES &&
      s.rise > 0 &&
      s.riseR2 >= SUSPECT_R2 &&
      peakTotal > 0 &&
      s.rise * span >= SUSPECT_RISE * peakTotal
    );
  }

  ev2hp.windowStats = { indices: indices, stats: stats, isSuspect: isSuspect };
})(window.ev2hp);
