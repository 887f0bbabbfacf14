import type { QueryClient } from '@tanstack/react-query'
import type { Manifest } from '../../schemas/manifest'

/**
 * A widget's init step: the data it shows, fetched into the query cache before the screen that
 * holds it is drawn, so its parts arrive together rather than one by one (see the renderer's
 * screenQuery). A widget declares one in `client/widgets/<name>/prefetch.ts`.
 */
export type WidgetPrefetch = (client: QueryClient, manifest: Manifest) => Promise<unknown>
