import { Suspense } from 'react'
import { lazyComponent } from '../../ui/lazy-component'
import { closeRevealed, useRevealed } from './reveal-store'

// The dialog (PrimeReact) is its own chunk: the shell mounts the host on every page, the sign-in
// page included, and a secret is revealed only after an admin action.
const RevealDialog = lazyComponent(() => import('./RevealDialog').then((m) => m.RevealDialog))

/** Draws the secret an action revealed, wherever that action now is (mounted once, in the app shell). */
export function RevealHost() {
  const revealed = useRevealed()
  if (!revealed) return null
  return (
    <Suspense fallback={null}>
      <RevealDialog key={revealed.value} value={revealed.value} spec={revealed.spec} onClose={closeRevealed} />
    </Suspense>
  )
}
