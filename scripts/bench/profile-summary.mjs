// Reads a V8 .cpuprofile (node --cpu-prof) and lists where the samples fell: by package and
// by function (self time), so a profile of the BFF under load reads at a glance. With
// `lastSeconds`, only the samples of that many seconds before the process began to stop
// count (start-up, module loading and schema compilation left out).
import fs from 'node:fs'

/**
 * Who a script belongs to: `node_modules/<pkg>`, `node:` internals, or the project's own
 * folder two levels deep (`server/proxy`); no URL is V8's or native code. Shared with
 * perf-summary.mjs, so both profiles group alike.
 */
export function ownerOfScript(url) {
  if (!url) return '(native / V8)'
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (nm) return nm[1]
  if (url.startsWith('node:')) return 'node (core)'
  const own = /\/((?:server|schemas|scripts)\/[^/]+)/.exec(url)
  return own ? own[1] : url
}

/** Samples per node id, within the window. */
function hitsInWindow(profile, lastSeconds, stopSeconds) {
  const hits = new Map()
  const times = []
  let t = profile.startTime
  for (const delta of profile.timeDeltas) times.push((t += delta))
  const to = profile.endTime - stopSeconds * 1e6
  const from = lastSeconds ? to - lastSeconds * 1e6 : -Infinity
  profile.samples.forEach((id, i) => {
    if (times[i] >= from && times[i] <= to) hits.set(id, (hits.get(id) ?? 0) + 1)
  })
  return hits
}

/**
 * The share of the window's samples spent in code matching `pattern`, callees included: a
 * sample counts when any frame of its stack is such code. Inclusive, so what governance code
 * asks of JSON, V8 or a library counts as its own.
 */
export function inclusiveShare(file, pattern, { lastSeconds = 0, stopSeconds = 0 } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const hits = hitsInWindow(profile, lastSeconds, stopSeconds)
  const parent = new Map()
  const byId = new Map()
  for (const node of profile.nodes) {
    byId.set(node.id, node)
    for (const child of node.children ?? []) parent.set(child, node.id)
  }
  const inside = new Map()
  const isInside = (id) => {
    if (id === undefined) return false
    let known = inside.get(id)
    if (known === undefined) {
      known = pattern.test(byId.get(id)?.callFrame.url ?? '') || isInside(parent.get(id))
      inside.set(id, known)
    }
    return known
  }
  let total = 0
  let matched = 0
  for (const [id, n] of hits) {
    total += n
    if (isInside(id)) matched += n
  }
  return { samples: total, share: total ? matched / total : NaN }
}

export function profileSummary(file, { top = 25, lastSeconds = 0, stopSeconds = 0 } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const hits = hitsInWindow(profile, lastSeconds, stopSeconds)
  const total = [...hits.values()].reduce((a, b) => a + b, 0)
  const byFunction = new Map()
  const byOwner = new Map()
  for (const node of profile.nodes) {
    const n = hits.get(node.id) ?? 0
    if (!n) continue
    const { functionName, url, lineNumber } = node.callFrame
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|server)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim()
    byFunction.set(name, (byFunction.get(name) ?? 0) + n)
    const who = ownerOfScript(url)
    byOwner.set(who, (byOwner.get(who) ?? 0) + n)
  }
  const rows = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => `${((n / total) * 100).toFixed(1).padStart(5)} %  ${name}`)
  return [`${total} samples`, 'self time by package:', ...rows(byOwner), '', 'self time by function:', ...rows(byFunction)].join('\n')
}

if (process.argv[1] === import.meta.filename) {
  const [file, lastSeconds = '0', stopSeconds = '0'] = process.argv.slice(2)
  console.log(profileSummary(file, { lastSeconds: Number(lastSeconds), stopSeconds: Number(stopSeconds) }))
}
