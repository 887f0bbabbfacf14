/** The attribute holding a grid body row's index (from 0, in the rows given), virtual body or not: what the keyboard grid reads. */
export const ROW_INDEX_ATTR = 'data-row-index'
