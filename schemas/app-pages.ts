import type { RouteDef } from './manifest'

/**
 * Signed-in pages that are client code rather than a screen file and are drawn without the
 * portal's frame (no menu, no top bar): the screen studio's live preview, shown inside the
 * studio. Declared here once: the BFF lists them in the route manifest (filtered by permission
 * like any route) and the client's router draws them (client/app/router.tsx).
 */
export const APP_PAGES = [
  { path: '/sysmanager/pantallas/vista-previa', screen: 'screen-preview', permission: 'GESTORACCESS', title: { es: 'Vista previa de pantalla', en: 'Screen preview' } },
] as const satisfies readonly RouteDef[]

export type AppPageId = (typeof APP_PAGES)[number]['screen']

export const isAppPage = (screen: string): screen is AppPageId => APP_PAGES.some((p) => p.screen === screen)
