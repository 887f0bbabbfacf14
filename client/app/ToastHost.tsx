import { lazy, Suspense, useEffect, useState } from 'react'
import { onToastWaiting } from '../api/toast'

const ToastView = lazy(() => import('./ToastView'))

/**
 * Mounts the toast view without holding up the first paint: its code (Toast, transitions,
 * icons) loads once the first page has been drawn (`pageDrawn`), or at once when a message is
 * already waiting. Loading it then rather than on the first message means it is there even
 * when the network is not.
 */
export function ToastHost({ pageDrawn }: { pageDrawn: boolean }) {
  const [wanted, setWanted] = useState(false)
  useEffect(() => {
    onToastWaiting(() => setWanted(true))
    return () => onToastWaiting(null)
  }, [])
  useEffect(() => {
    if (!pageDrawn || wanted) return
    // The frame after the page's first paint.
    let timer = 0
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setWanted(true), 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      window.clearTimeout(timer)
    }
  }, [pageDrawn, wanted])
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <ToastView />
    </Suspense>
  )
}
