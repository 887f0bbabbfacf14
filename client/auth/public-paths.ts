/** Paths that need no session (spec §2): declared once, with the BFF, in schemas/public-pages.ts. */
export { isPublicPath } from '../../schemas/public-pages'
