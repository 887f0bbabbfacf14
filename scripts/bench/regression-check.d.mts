// Types of scripts/bench/regression-check.mjs for its test.

export const ALLOWED_DROP: number

export interface RatioComparison {
  key: string
  baseline: number
  latest: number | null
  change: number | null
  ok: boolean
}

export function compareWithBaseline(latest: Record<string, unknown>, baseline: Record<string, unknown>, allowedDrop?: number): RatioComparison[]
export function describeComparison(rows: RatioComparison[], allowedDrop?: number): string[]
