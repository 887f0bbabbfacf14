import { createElement, lazy, useState, type ComponentType } from 'react'

export type LazyComponent<P extends object> = ComponentType<P> & {
  /** Starts loading the component's code now (the same request the first render would make). */
  preload: () => Promise<ComponentType<P>>
}

/**
 * A component whose code is its own chunk, loaded on first render or earlier through
 * `preload()`. Once the chunk has arrived the component renders directly, so a preloaded one
 * never shows the Suspense fallback; an instance that started out suspended stays on the lazy
 * path (switching component types would remount everything below it).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        // A failed chunk (network, new build) may be asked for again later.
        pending = undefined
        throw err
      },
    ))
  const Suspended = lazy(async () => ({ default: await preload() }))
  function Lazy(props: P) {
    const [ready] = useState(() => loaded)
    return createElement(ready ?? Suspended, props)
  }
  return Object.assign(Lazy, { preload })
}

/** Runs `task` once the browser has nothing better to do (a second later where idle callbacks are missing); returns a cancel. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2_000 })
    return () => window.cancelIdleCallback(id)
  }
  const id = window.setTimeout(task, 1_000)
  return () => window.clearTimeout(id)
}
