// Reads `perf script -F ip,sym,dso` of a process run with --perf-basic-prof-only-functions and
// says where its CPU time went. V8's own profiler (--profile) samples the wall clock, so a
// thread preempted inside a system call counts there as that call; perf's cpu-clock samples
// only the time on a CPU, kernel included. Two readings: by where the CPU ran (the binary or
// the kernel), and by the JavaScript that asked for it (native and kernel frames counted to
// their nearest JavaScript caller, grouped by package). V8 reuses the memory of code it
// drops, and the map names an address after every function that ever lived there: a share of
// a per cent or two can go to a package that did not run (seen: a zip library's big-integer).

import { ownerOfScript } from './profile-summary.mjs'

/** A JIT frame as --perf-basic-prof names it: `JS:*name file:line:column` (or `LazyCompile:`). */
const JS_FRAME = /^(?:JS|LazyCompile|Function):[*~^]?\S*\s*(\S+):\d+:\d+$/

/** One sample's frames, leaf first: `{ sym, dso }` parsed from `<ip> <sym> (<dso>)` lines. */
function framesOf(block) {
  const frames = []
  for (const raw of block.split('\n')) {
    const line = raw.trim()
    if (!line) continue
    const m = /^[0-9a-f]+\s+(.*?)\s+\(([^)]*)\)$/.exec(line)
    if (m) frames.push({ sym: m[1], dso: m[2] })
  }
  return frames
}

/** Where the leaf ran: the kernel, JIT code, or the binary or library it belongs to. */
function placeOf(frame) {
  if (frame.dso.includes('kernel.kallsyms') || frame.dso.startsWith('[kernel')) return 'kernel'
  if (/perf-\d+\.map$/.test(frame.dso) || JS_FRAME.test(frame.sym)) return 'JIT (compiled JavaScript)'
  return frame.dso.split('/').pop() || '(unknown)'
}

/**
 * Shares (0–1) of the samples in `text` (perf script output, samples separated by blank
 * lines): `byPlace` by where the leaf ran, `byCaller` by the package of the nearest
 * JavaScript frame, `kernelSymbols` the kernel's busiest symbols, `samples` the count.
 */
export function summarisePerfScript(text) {
  const byPlace = new Map()
  const byCaller = new Map()
  const kernelSymbols = new Map()
  let samples = 0
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1)
  for (const block of text.split(/\n\s*\n/)) {
    const frames = framesOf(block)
    if (frames.length === 0) continue
    samples++
    const place = placeOf(frames[0])
    add(byPlace, place)
    if (place === 'kernel') add(kernelSymbols, frames[0].sym)
    const js = frames.find((f) => JS_FRAME.test(f.sym))
    add(byCaller, js ? ownerOfScript(JS_FRAME.exec(js.sym)[1]) : '(no JavaScript frame: event loop, reads, GC)')
  }
  const shares = (map) => [...map].map(([key, n]) => ({ key, share: n / samples })).sort((a, b) => b.share - a.share)
  return { samples, byPlace: shares(byPlace), byCaller: shares(byCaller), kernelSymbols: shares(kernelSymbols).slice(0, 5) }
}

/** The summary as lines to print. */
export function describePerfSummary({ samples, byPlace, byCaller, kernelSymbols }) {
  const pct = (s) => `${(s * 100).toFixed(1).padStart(5)} %`
  return [
    `${samples} samples of CPU time (perf cpu-clock)`,
    'where it ran:',
    ...byPlace.map((r) => `${pct(r.share)}  ${r.key}`),
    'busiest kernel symbols:',
    ...kernelSymbols.map((r) => `${pct(r.share)}  ${r.key}`),
    'by the JavaScript that asked for it (callees included):',
    ...byCaller.slice(0, 20).map((r) => `${pct(r.share)}  ${r.key}`),
  ].join('\n')
}
