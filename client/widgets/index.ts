import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

/**
 * Hand-written widgets by name, for what screen data cannot describe. Each is loaded on
 * demand so heavy libraries (charts, grid) stay out of the initial bundle.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const WIDGETS: Record<string, LazyExoticComponent<ComponentType<any>>> = {}
