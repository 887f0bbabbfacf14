/** The paging parameters a paged list or export takes without declaring them (spec §7). */
export const PAGING_PARAMS = ['pageIndex', 'pageSize', 'sortColumn', 'sortOrder', 'filterColumns', 'filterQueries'] as const
