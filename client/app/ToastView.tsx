import { Toast } from 'primereact/toast'
import { useEffect, useRef } from 'react'
import { registerToastSink } from '../api/toast'

/** The PrimeReact Toast that the one toast path (api/toast.ts) writes to; messages sent before it loaded show now. */
export default function ToastView() {
  const ref = useRef<Toast>(null)
  useEffect(() => {
    registerToastSink((m) => ref.current?.show(m))
    return () => registerToastSink(null)
  }, [])
  return <Toast ref={ref} position="top-right" />
}
