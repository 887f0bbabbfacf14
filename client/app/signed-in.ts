/**
 * The signed-in part of the app, one chunk: the default layout and the screen renderer. Sign-in,
 * recovery and error pages never load it.
 */
export { DefaultLayout } from '../layouts/DefaultLayout'
export { RoutePage } from './RoutePage'
export { ScreenPreviewPage } from './ScreenPreviewPage'
