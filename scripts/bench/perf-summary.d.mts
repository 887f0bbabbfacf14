// Types of scripts/bench/perf-summary.mjs for its test.

export interface Share {
  key: string
  share: number
}

export interface PerfSummary {
  samples: number
  byPlace: Share[]
  byCaller: Share[]
  kernelSymbols: Share[]
}

export function summarisePerfScript(text: string): PerfSummary
export function describePerfSummary(summary: PerfSummary): string
