import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

/**
 * Hand-written widgets, for what screen data cannot describe. Each lives in its own folder
 * (`client/widgets/<name>/index.tsx`, default export) and is found here by that name; each
 * is loaded on demand, so heavy libraries (charts, grid) stay out of the initial bundle.
 */
const modules = import.meta.glob<{ default: ComponentType<Record<string, unknown>> }>('./*/index.tsx')

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const WIDGETS: Record<string, LazyExoticComponent<ComponentType<any>>> = Object.fromEntries(
  Object.entries(modules).map(([file, load]) => [file.split('/')[1]!, lazy(load)]),
)
