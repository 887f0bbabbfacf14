import type { ComponentType } from 'react'
import { lazyComponent, type LazyComponent } from '../ui/lazy-component'

/**
 * Hand-written widgets, for what screen data cannot describe. Each lives in its own folder
 * (`client/widgets/<name>/index.tsx`, default export) and is found here by that name; each
 * is loaded on demand, so heavy libraries (charts, grid) stay out of the initial bundle.
 */
const modules = import.meta.glob<{ default: ComponentType<Record<string, unknown>> }>('./*/index.tsx')

export const WIDGETS: Record<string, LazyComponent<Record<string, unknown>>> = Object.fromEntries(
  Object.entries(modules).map(([file, load]) => [file.split('/')[1]!, lazyComponent(() => load().then((m) => m.default))]),
)
