/** The paging parameters a paged list or export takes without declaring them (spec §7). */
export const PAGING_PARAMS = ['pageIndex', 'pageSize', 'sortColumn', 'sortOrder', 'filterColumns', 'filterQueries'] as const

/**
 * What an export built from a list's pages (`list.pages`) takes besides: the row fields to put in
 * the file, in order (`columns[i]`), and each one's header as the user reads it (`labels[i]`).
 */
export const EXPORT_COLUMN_PARAMS = ['columns', 'labels'] as const
/** At most this many columns in an export. */
export const MAX_EXPORT_COLUMNS = 100
/** A row field an export names: a top-level field of the list's rows. */
export const EXPORT_FIELD_PATTERN = '[A-Za-z_][A-Za-z0-9_]{0,63}'
