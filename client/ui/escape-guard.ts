/** The option lists PrimeReact draws while a dropdown, a multiselect or an autocomplete is open. */
const OPEN_LIST = '.p-dropdown-panel, .p-multiselect-panel, .p-autocomplete-panel'

/**
 * Escape closes the innermost thing open, one at a time. PrimeReact's dialogs close on any
 * Escape that reaches the document, and its dropdowns, multiselects and autocompletes (unlike
 * its calendars and menus) let the Escape that closed their list go on: the dialog around them
 * closed with it, and the form in it was lost. An Escape pressed while such a list is open now
 * stops before the document, once the list has had it. Returns what undoes it.
 */
export function keepEscapeInOpenLists(doc: Document = document): () => void {
  const view = doc.defaultView
  if (!view) return () => undefined
  let closingList: Event | null = null
  // Before anything handles the key: was a list open?
  const before = (e: KeyboardEvent) => {
    closingList = e.key === 'Escape' && doc.querySelector(OPEN_LIST) ? e : null
  }
  // After the page's own handlers (React's, the list's), before the document's (the dialog's).
  const after = (e: KeyboardEvent) => {
    if (e === closingList) e.stopPropagation()
    closingList = null
  }
  view.addEventListener('keydown', before, true)
  doc.documentElement.addEventListener('keydown', after)
  return () => {
    view.removeEventListener('keydown', before, true)
    doc.documentElement.removeEventListener('keydown', after)
  }
}
