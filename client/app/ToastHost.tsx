import { Toast } from 'primereact/toast'
import { useEffect, useRef } from 'react'
import { registerToastSink } from '../api/toast'

/** Mounts the PrimeReact Toast that the one toast path (api/toast.ts) writes to. */
export function ToastHost() {
  const ref = useRef<Toast>(null)
  useEffect(() => {
    registerToastSink((m) => ref.current?.show(m))
    return () => registerToastSink(null)
  }, [])
  return <Toast ref={ref} position="top-right" />
}
