import { describe, expect, it } from 'vitest'
import { describePerfSummary, summarisePerfScript } from '../../scripts/bench/perf-summary.mjs'
import { ownerOfScript } from '../../scripts/bench/profile-summary.mjs'

/** Four samples as `perf script -F ip,sym,dso` prints them, leaf first, blank line between. */
const SCRIPT = `
\tffffffff82075f2b tcp_sendmsg ([kernel.kallsyms])
\tffffffff8223c951 do_syscall_64 ([kernel.kallsyms])
\t           fde9d __GI___writev (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t    7f00000010a0 JS:*clearBuffer node:internal/streams/writable:744:21 (/tmp/perf-42.map)
\t    7f00000020a0 JS:* file:///srv/portal/server/proxy/api-proxy.ts:1:6502 (/tmp/perf-42.map)

\t    7f00000030a0 JS:*parseHeaders /srv/portal/node_modules/undici/lib/core/util.js:436:23 (/tmp/perf-42.map)
\t    7f00000040a0 JS:*onHeadersComplete /srv/portal/node_modules/undici/lib/dispatcher/client-h1.js:581:21 (/tmp/perf-42.map)

\t         1a2b3c4 Builtins_KeyedLoadIC_Megamorphic (/usr/bin/node)
\t    7f00000050a0 JS:^observe file:///srv/portal/server/plugins/metrics/index.ts:1:2477 (/tmp/perf-42.map)

\tffffffff81000130 pvm_irq_enable ([kernel.kallsyms])
\t          12ab34 uv__io_poll (/usr/bin/node)
`

describe('npm run bench -- --perf: where the CPU time went', () => {
  it('counts each sample once by where its leaf ran, and once by its nearest JavaScript caller', () => {
    const summary = summarisePerfScript(SCRIPT)
    expect(summary.samples).toBe(4)
    expect(summary.byPlace).toEqual(
      expect.arrayContaining([
        { key: 'kernel', share: 0.5 },
        { key: 'JIT (compiled JavaScript)', share: 0.25 },
        { key: 'node', share: 0.25 },
      ]),
    )
    // The kernel's write is counted to Node's stream that made it, not to the portal's proxy above it.
    expect(summary.byCaller).toEqual(
      expect.arrayContaining([
        { key: 'node (core)', share: 0.25 },
        { key: 'undici', share: 0.25 },
        { key: 'server/plugins', share: 0.25 },
        { key: '(no JavaScript frame: event loop, reads, GC)', share: 0.25 },
      ]),
    )
    expect(summary.byCaller).toHaveLength(4)
    expect(summary.kernelSymbols).toEqual([
      { key: 'tcp_sendmsg', share: 0.25 },
      { key: 'pvm_irq_enable', share: 0.25 },
    ])
    expect(describePerfSummary(summary)).toContain(' 25.0 %  undici')
  })

  it('names the package or the project folder of a script', () => {
    expect(ownerOfScript('/srv/portal/node_modules/@fastify/cookie/plugin.js')).toBe('@fastify/cookie')
    expect(ownerOfScript('node:_http_server')).toBe('node (core)')
    expect(ownerOfScript('file:///srv/portal/schemas/catalogue/match.ts')).toBe('schemas/catalogue')
    expect(ownerOfScript('')).toBe('(native / V8)')
  })

  it('reads nothing from an empty script', () => {
    expect(summarisePerfScript('\n\n').samples).toBe(0)
  })
})
