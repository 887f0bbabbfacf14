import { Toast } from 'primereact/toast'
import { useEffect, useRef } from 'react'
import { registerToastSink } from '../api/toast'
import { PrimeSetup } from './prime-setup'

/** The PrimeReact Toast that the one toast path (api/toast.ts) writes to; messages sent before it loaded show now. */
export default function ToastView() {
  const ref = useRef<Toast>(null)
  useEffect(() => {
    registerToastSink((m) => ref.current?.show(m))
    return () => registerToastSink(null)
  }, [])
  return (
    <PrimeSetup>
      <Toast ref={ref} position="top-right" />
    </PrimeSetup>
  )
}
