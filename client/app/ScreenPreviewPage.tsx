import { useMutation } from '@tanstack/react-query'
import { Message } from 'primereact/message'
import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import type { ScreenFile } from '../../schemas/screen'
import { setReadOnly } from '../api/client'
import { errorText } from '../api/errors'
import { useLoadedManifest } from '../api/manifest'
import { screenAdmin, type PreviewAnswer } from '../api/screen-admin'
import { screenPath } from '../api/screen-path'
import { localized, messageIn, useMessages } from '../i18n/i18n'
import { RenderContext } from '../renderer/context'
import { preloadScreenCode } from '../renderer/registry'
import { ScreenRenderer } from '../renderer/ScreenRenderer'
import { WIDGETS } from '../widgets'
import { isPreviewMessage, PREVIEW_READY } from '../widgets/screen-studio/preview-message'
import { messages } from './messages'

const PREVIEW_CALL = '/bff/admin/screens/preview'

/**
 * The screen studio's preview, in a frame of the studio: it takes the screen being edited from
 * the studio (same origin only), has the BFF check it and prune it for the chosen user, and
 * draws it with the real renderer over real data. Nothing it shows can change data: the api
 * client refuses every call but catalogued reads while this page is open.
 */
export function ScreenPreviewPage() {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const latest = useRef(0)
  const preview = useMutation({
    mutationFn: async ({ screen, userId, n }: { screen: unknown; userId: number | null; n: number }) => {
      const answer = await screenAdmin.preview(screen, userId)
      await preloadScreenCode(answer.screen.root, WIDGETS).catch(() => undefined)
      return { answer, n }
    },
  })
  const { mutate } = preview

  useEffect(() => {
    setReadOnly({ message: messageIn(messages, 'preview.readOnly'), allows: (method, path) => method === 'POST' && path === PREVIEW_CALL })
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || e.source !== window.parent || !isPreviewMessage(e.data)) return
      mutate({ screen: e.data.screen, userId: e.data.userId, n: ++latest.current })
    }
    window.addEventListener('message', onMessage)
    window.parent.postMessage({ type: PREVIEW_READY }, window.location.origin)
    return () => {
      window.removeEventListener('message', onMessage)
      setReadOnly(null)
    }
  }, [mutate])

  const shown: PreviewAnswer | undefined = preview.data?.answer
  const studio = screenPath(manifest.routes, 'pantallas')
  // Opened on its own rather than inside the studio: say what it is and where it is used.
  const alone = window.parent === window
  return (
    <main className="screen-preview" aria-live="polite">
      <h1 className="screen-preview__title">{t('preview.title')}</h1>
      {alone && (
        <p className="screen-preview__who">
          {t('preview.alone')} {studio && <Link to={studio}>{t('preview.openStudio')}</Link>}
        </p>
      )}
      <Message severity="info" text={t('preview.readOnly')} className="screen-preview__note" />
      {preview.isError && <Message severity="error" text={t('preview.error', { error: errorText(preview.error) })} className="screen-preview__note" />}
      {!shown && !preview.isError && !alone && <p className="empty-state">{t('preview.waiting')}</p>}
      {shown && <PreviewBody answer={shown} />}
    </main>
  )
}

function PreviewBody({ answer }: { answer: PreviewAnswer }) {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const screen: ScreenFile = answer.screen
  const who = answer.as ? t('preview.as', { name: answer.as.name }) : t('preview.asMe')
  if (!answer.allowed && answer.as) {
    return <Message severity="warn" text={t('preview.denied', { name: answer.as.name, permission: screen.routes?.[0]?.permission ?? '' })} className="screen-preview__note" />
  }
  const user = manifest.user ? { id: manifest.user.id, email: manifest.user.email, name: manifest.user.name, agentId: manifest.user.agent?.id ?? null } : undefined
  return (
    <RenderContext value={{ screenId: screen.id, params: {}, query: {}, user }}>
      <p className="screen-preview__who">{who}</p>
      <div className="screen" data-screen={screen.id}>
        {screen.root.type !== 'page' && <h1 className="screen-title">{localized(screen.title)}</h1>}
        <ScreenRenderer node={screen.root} widgets={WIDGETS} />
      </div>
    </RenderContext>
  )
}
