import { ConfirmDialog } from 'primereact/confirmdialog'
import { Toast } from 'primereact/toast'
import { useEffect, useRef } from 'react'
import { registerToastSink } from '../api/toast'

/** Mounts the PrimeReact Toast that the one toast path (api/toast.ts) writes to, and the confirmation dialog actions use. */
export function ToastHost() {
  const ref = useRef<Toast>(null)
  useEffect(() => {
    registerToastSink((m) => ref.current?.show(m))
    return () => registerToastSink(null)
  }, [])
  return (
    <>
      <Toast ref={ref} position="top-right" />
      <ConfirmDialog style={{ width: '25vw' }} breakpoints={{ '960px': '60vw', '641px': '95vw' }} />
    </>
  )
}
