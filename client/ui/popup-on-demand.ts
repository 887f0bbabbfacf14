import { useEffect, useRef, useState, type SyntheticEvent } from 'react'

/** What a PrimeReact popup (TieredMenu, OverlayPanel, Menu) is opened through. */
export interface PopupHandle {
  toggle(event: SyntheticEvent): void
}

/**
 * A popup that is only mounted once someone first opens it. PrimeReact's popups run all their
 * hooks (styles, overlay listeners, ids) on every render of the screen that holds them, drawn
 * or not; a list's toolbar holds three, and most visits open none. Render the popup when
 * `mounted`, with `ref`; open it with `toggle` from its button's click, close it through `ref`.
 * The first click mounts it and opens it once it is settled, aligned to the same button.
 */
export function usePopupOnDemand<P extends PopupHandle>() {
  const ref = useRef<P>(null)
  const [stage, setStage] = useState<'none' | 'mounting' | 'settled'>('none')
  const opener = useRef<HTMLElement | null>(null)
  // A PrimeReact popup draws its portal one render after it mounts; opened before that, it
  // would appear without its entering step, which is where it takes its place by the button.
  useEffect(() => {
    if (stage === 'mounting') setStage('settled')
  }, [stage])
  useEffect(() => {
    const button = opener.current
    if (stage !== 'settled' || !button || !ref.current) return
    opener.current = null
    // The click's own event is spent by now; the popups read only where it happened.
    ref.current.toggle({ currentTarget: button, target: button, relatedTarget: null } as unknown as SyntheticEvent)
  }, [stage])
  return {
    ref,
    mounted: stage !== 'none',
    toggle(event: SyntheticEvent<HTMLElement>) {
      // A press while the first one's opening is still on its way is the same press.
      if (opener.current) return
      if (stage === 'settled' && ref.current) ref.current.toggle(event)
      else if (stage === 'none') {
        opener.current = event.currentTarget
        setStage('mounting')
      }
    },
  }
}
