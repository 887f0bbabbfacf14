/**
 * The command palette's answer (`GET /bff/search?q=`): what the signed-in user may open, already
 * filtered by permission and brand. Screens carry their route path; records the route that opens them.
 */

/** The groups of the palette, in the order they are shown. */
export const SEARCH_GROUPS = ['screens', 'contracts', 'supplyPoints', 'clients', 'users', 'agents'] as const
export type SearchGroup = (typeof SEARCH_GROUPS)[number]

/** What a result is: a screen, or a record of one kind. */
export type SearchKind = 'screen' | 'contract' | 'supplyPoint' | 'client' | 'user' | 'agent'

export interface SearchResult {
  kind: SearchKind
  group: SearchGroup
  /** What the palette shows: never personal data the user did not type (no IBAN, phone, e-mail; a NIF only as typed). */
  label: string
  /** A second line (state, tariff, level…), same rule as the label. */
  detail?: string
  /** The client route that opens it, query included. */
  path: string
}

/** The response header listing the groups whose lookup failed (comma separated): the others still answer. */
export const SEARCH_UNAVAILABLE_HEADER = 'x-search-unavailable'

/** The longest query the palette sends. */
export const SEARCH_MAX_LENGTH = 100
