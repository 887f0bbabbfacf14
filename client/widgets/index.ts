import type { ComponentType } from 'react'
import type { WidgetPrefetch } from '../api/widget-prefetch'
import { lazyComponent, type LazyComponent } from '../ui/lazy-component'

/**
 * Hand-written widgets, for what screen data cannot describe. Each lives in its own folder
 * (`client/widgets/<name>/index.tsx`, default export) and is found here by that name; each
 * is loaded on demand, so heavy libraries (charts, grid) stay out of the initial bundle.
 */
const modules = import.meta.glob<{ default: ComponentType<Record<string, unknown>> }>('./*/index.tsx')
/** A widget's init step, where it has one (`client/widgets/<name>/prefetch.ts`): small modules, without the widget's own code. */
const prefetches = import.meta.glob<{ default: WidgetPrefetch }>('./*/prefetch.ts')

export const WIDGETS: Readonly<Record<string, LazyComponent<Record<string, unknown>> & { prefetchData?: WidgetPrefetch }>> = Object.fromEntries(
  Object.entries(modules).map(([file, load]) => {
    const name = file.split('/')[1]!
    const prefetch = prefetches[`./${name}/prefetch.ts`]
    const component = lazyComponent(() => load().then((m) => m.default))
    return [name, prefetch ? Object.assign(component, { prefetchData: ((client, manifest) => prefetch().then((m) => m.default(client, manifest))) satisfies WidgetPrefetch }) : component]
  }),
)
