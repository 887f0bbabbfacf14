/**
 * The signed-in part of the app, one chunk: the default layout and the screen renderer, with
 * PrimeReact and its set-up (./prime-setup.tsx). Sign-in, recovery and error pages never load it.
 * The route pages render inside the layout, under its PrimeReact provider.
 */
import { DefaultLayout as Layout } from '../layouts/DefaultLayout'
import { withPrimeSetup } from './prime-setup'
import { ScreenPreviewPage as PreviewPage } from './ScreenPreviewPage'

export const DefaultLayout = withPrimeSetup(Layout)
export const ScreenPreviewPage = withPrimeSetup(PreviewPage)
export { RoutePage } from './RoutePage'
