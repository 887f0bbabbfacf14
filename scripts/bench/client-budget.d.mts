// Types of scripts/bench/client-budget.mjs for its test.

export interface RouteBudget {
  route: string
  path: string
  /** Vite manifest keys the route loads on first paint. */
  chunks: string[]
  budgetKb: number
  /** npm packages the route's initial JavaScript must not hold. */
  excludes?: string[]
}

export interface RouteMeasure {
  route: string
  path: string
  files: string[]
  jsRawKb: number
  jsGzipKb: number
  jsBrotliKb: number
  cssGzipKb: number
  budgetKb: number
  excludedFound: string[]
  withinBudget: boolean
}

export const ROUTE_BUDGETS: RouteBudget[]
export function readViteManifest(distDir: string): Record<string, { file: string; imports?: string[]; css?: string[] }>
export function staticClosure(manifest: Record<string, unknown>, keys: string[]): { js: string[]; css: string[] }
export function packagesIn(distDir: string, files: string[]): string[]
export function measureBudgets(distDir: string, budgets?: RouteBudget[]): RouteMeasure[]
