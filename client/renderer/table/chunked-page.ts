import type { QueryParams } from '../../api/client'

/** Largest page the upstream serves (spec §7; the reference API's limit, and the catalogue's). */
export const UPSTREAM_MAX_PAGE = 500

/**
 * The upstream pages that make up page `page` of `size` rows when `size` is above what the
 * upstream serves: consecutive pages of the largest size ≤ its limit that divides `size`.
 */
export function chunksOf(page: number, size: number, max = UPSTREAM_MAX_PAGE): { pageIndex: number; pageSize: number }[] {
  if (size <= max) return [{ pageIndex: page, pageSize: size }]
  let chunk = max
  while (size % chunk !== 0) chunk--
  const per = size / chunk
  return Array.from({ length: per }, (_, i) => ({ pageIndex: page * per + i, pageSize: chunk }))
}

/** One answer of the chunks' answers: their rows in order; the total and totals (whole-set figures) of the first. */
export function mergeChunks(answers: readonly unknown[], rowsPath = 'Items'): unknown {
  const [first] = answers
  if (!first || typeof first !== 'object') return first
  const rows = answers.flatMap((a) => {
    const items = a && typeof a === 'object' ? (a as Record<string, unknown>)[rowsPath] : undefined
    return Array.isArray(items) ? items : []
  })
  return { ...(first as Record<string, unknown>), [rowsPath]: rows }
}

/** Fetches a large page as upstream-sized chunks, in parallel, and joins them. */
export async function fetchChunked(get: (params: QueryParams) => Promise<unknown>, params: QueryParams, page: number, size: number, rowsPath?: string): Promise<unknown> {
  const answers = await Promise.all(chunksOf(page, size).map((c) => get({ ...params, ...c })))
  return mergeChunks(answers, rowsPath)
}
