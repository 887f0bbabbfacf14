import { Button } from 'primereact/button'
import { useState } from 'react'
import type { Manifest } from '../../schemas/manifest'
import { api } from '../api/client'
import { reportError } from '../api/errors'
import { useMessages } from '../i18n/i18n'
import { messages } from './messages'

/**
 * While an admin views the portal as another user: who, that nothing can be changed, how the
 * view is made, and the way out. Leaving starts the app again as the admin (a new manifest).
 */
export function ViewAsBanner({ manifest }: { manifest: Manifest }) {
  const t = useMessages(messages)
  const [leaving, setLeaving] = useState(false)
  if (!manifest.viewAs || !manifest.user) return null
  const leave = async () => {
    setLeaving(true)
    try {
      await api.delete('/bff/view-as')
      window.location.assign('/')
    } catch (err) {
      setLeaving(false)
      reportError(t('viewAs.area'), err)
    }
  }
  return (
    <div className="view-as-banner" role="region" aria-label={t('viewAs.area')}>
      <i className="pi pi-eye" aria-hidden="true" />
      <p>
        <strong>{t('viewAs.title', { name: manifest.user.name || manifest.user.email })}</strong> {t('viewAs.readOnly')}{' '}
        {manifest.viewAs.mode === 'permissions' && <span className="view-as-banner__mode">{t('viewAs.permissionsOnly')}</span>}
      </p>
      <Button type="button" size="small" icon="pi pi-sign-out" label={t('viewAs.leave', { name: manifest.viewAs.actor.name })} loading={leaving} onClick={() => void leave()} />
    </div>
  )
}
