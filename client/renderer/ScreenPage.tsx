import type { RouteDef } from '../../schemas/manifest'
import { useI18n } from '../i18n/i18n'

/** The page of a protected route: its screen, rendered from the BFF's JSON. */
export function ScreenPage({ route }: { route: RouteDef }) {
  const { l } = useI18n()
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" className="screen-title">
        {l(route.title)}
      </h1>
    </section>
  )
}
