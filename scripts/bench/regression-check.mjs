// `npm run bench:check`: the run's ratios against the committed baseline. Only ratios taken
// within one run are compared (absolute numbers move ±25 % between identical runs here).

/** How far a ratio may fall below the baseline before the check fails. */
export const ALLOWED_DROP = 0.2

/**
 * Every `ratio_*` figure of the baseline, compared with the run's: `ok` unless the run's is
 * more than `allowedDrop` (a fraction) below the baseline's, or missing.
 */
export function compareWithBaseline(latest, baseline, allowedDrop = ALLOWED_DROP) {
  return Object.keys(baseline)
    .filter((key) => key.startsWith('ratio_') && typeof baseline[key] === 'number')
    .map((key) => {
      const before = baseline[key]
      const now = typeof latest[key] === 'number' ? latest[key] : null
      const change = now === null ? null : now / before - 1
      return { key, baseline: before, latest: now, change, ok: change !== null && change >= -allowedDrop }
    })
}

/** The comparison as lines of text. */
export function describeComparison(rows, allowedDrop = ALLOWED_DROP) {
  return rows.map((r) => {
    const change = r.change === null ? 'missing' : `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} %`
    return `${r.ok ? 'ok  ' : 'DROP'} ${r.key.padEnd(24)} baseline ${r.baseline.toFixed(3)}  now ${r.latest === null ? '–' : r.latest.toFixed(3)}  (${change}; allowed −${allowedDrop * 100} %)`
  })
}
