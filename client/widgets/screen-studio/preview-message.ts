/**
 * What the studio posts to its preview frame (same origin only): the screen being edited and
 * the user to draw it for. Declared here and read by the preview page (client/app), which draws
 * it with the real renderer.
 */
export const PREVIEW_MESSAGE = 'portal:screen-preview'

export interface PreviewMessage {
  type: typeof PREVIEW_MESSAGE
  screen: unknown
  userId: number | null
}

export function isPreviewMessage(data: unknown): data is PreviewMessage {
  return !!data && typeof data === 'object' && (data as { type?: unknown }).type === PREVIEW_MESSAGE
}

/** What the preview page posts to the studio once it listens (the studio then sends the screen). */
export const PREVIEW_READY = 'portal:screen-preview-ready'
