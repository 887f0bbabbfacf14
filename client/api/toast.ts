/**
 * The one toast path. Every error and success message of the portal goes through here; the
 * app's <ToastHost> mounts the PrimeReact Toast (ToastView) that shows them (spec §8: 3 s, titled by area).
 */
export interface ToastMessage {
  severity: 'success' | 'info' | 'warn' | 'error'
  summary: string
  detail: string
  life?: number
}

export const TOAST_LIFE_MS = 3000

type Sink = (message: ToastMessage) => void
let sink: Sink | null = null
const pending: ToastMessage[] = []
let onWaiting: (() => void) | null = null

export function registerToastSink(next: Sink | null): void {
  sink = next
  if (sink) for (const m of pending.splice(0)) sink(m)
}

/** Told when a message waits because no sink is registered yet (the Toast's code loads after first paint). */
export function onToastWaiting(listener: (() => void) | null): void {
  onWaiting = listener
  if (listener && pending.length > 0) listener()
}

export function showToast(message: ToastMessage): void {
  const full = { life: TOAST_LIFE_MS, ...message }
  if (sink) sink(full)
  else {
    pending.push(full)
    onWaiting?.()
  }
}

export function notifyError(area: string, detail: string): void {
  showToast({ severity: 'error', summary: area, detail })
}

export function notifySuccess(area: string, detail: string): void {
  showToast({ severity: 'success', summary: area, detail })
}
