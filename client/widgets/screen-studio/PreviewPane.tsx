import { useQuery } from '@tanstack/react-query'
import { Dropdown } from 'primereact/dropdown'
import { useEffect, useRef, useState } from 'react'
import type { ScreenFile } from '../../../schemas/screen'
import { api } from '../../api/client'
import { useLoadedManifest } from '../../api/manifest'
import { screenPath } from '../../api/screen-path'
import { useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { messages } from './messages'
import { PREVIEW_MESSAGE, PREVIEW_READY, type PreviewMessage } from './preview-message'

interface UserRow {
  Id: number
  Email: string
  Nombre: string
  Apellidos?: string | null
}

/**
 * The screen being edited, drawn live by the real renderer in a frame, as the chosen user would
 * get it on this brand (the BFF prunes it by their permissions), over real data; the frame's
 * actions are shown but not run.
 */
export function PreviewPane({ screen }: { screen: ScreenFile }) {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const frame = useRef<HTMLIFrameElement>(null)
  // 0: the admin themselves (a dropdown cannot show a null choice as selected).
  const [userId, setUserId] = useState(0)
  const [ready, setReady] = useState(0)
  const users = useQuery({
    queryKey: ['studio', 'users'],
    queryFn: () => api.get<{ Items: UserRow[] }>('/api/usuarios', { params: { pageIndex: 0, pageSize: 200 } }),
    staleTime: 60_000,
    meta: { errorArea: t('area') },
  })
  const src = screenPath(manifest.routes, 'screen-preview')

  // The frame says when its page listens; a reload of the frame says it again.
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin === window.location.origin && e.source === frame.current?.contentWindow && (e.data as { type?: unknown } | null)?.type === PREVIEW_READY) setReady((n) => n + 1)
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [])

  // Live: every change reaches the frame a moment after the admin stops typing.
  useEffect(() => {
    if (!ready) return
    const timer = setTimeout(() => {
      const message: PreviewMessage = { type: PREVIEW_MESSAGE, screen, userId: userId || null }
      frame.current?.contentWindow?.postMessage(message, window.location.origin)
    }, 300)
    return () => clearTimeout(timer)
  }, [screen, userId, ready])

  const options = [{ value: 0, label: t('preview.asMe') }, ...(users.data?.Items ?? []).map((u) => ({ value: u.Id, label: `${[u.Nombre, u.Apellidos].filter(Boolean).join(' ')} · ${u.Email}` }))]
  return (
    <div className="screen-studio__preview">
      <div className="screen-studio__grid">
        <FieldShell id="preview-as" label={t('preview.as')} hint={t('preview.help')}>
          <Dropdown inputId="preview-as" value={userId} onChange={(e) => setUserId((e.value as number | null) ?? 0)} options={options} filter filterPlaceholder={t('preview.userSearch')} loading={users.isPending} aria-describedby="preview-as-help" />
        </FieldShell>
      </div>
      {src && <iframe ref={frame} src={src} title={t('preview.frame')} className="screen-studio__frame" />}
    </div>
  )
}
