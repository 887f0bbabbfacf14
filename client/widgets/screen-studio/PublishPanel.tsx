import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { confirmDialog } from 'primereact/confirmdialog'
import { Message } from 'primereact/message'
import { MultiSelect } from 'primereact/multiselect'
import { RadioButton } from 'primereact/radiobutton'
import { useState } from 'react'
import { screenAdmin, type ScreenAudience, type StudioScreenState } from '../../api/screen-admin'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { messages } from './messages'
import { audienceText, releaseText } from './status'
import { useAdminChoices, useUserGroups } from './studio-data'

/** Publish the latest version to everyone, some brands or some user groups; undo the last publish. */
export function PublishPanel({ id, state, dirty }: { id: string; state: StudioScreenState; dirty: boolean }) {
  const t = useMessages(messages)
  const client = useQueryClient()
  const choices = useAdminChoices()
  const groups = useUserGroups()
  const [who, setWho] = useState<'everyone' | 'brands' | 'groups'>('everyone')
  const [brands, setBrands] = useState<string[]>([])
  const [groupIds, setGroupIds] = useState<number[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const groupName = (gid: number) => groups.data?.find((g) => g.Id === gid)?.Nombre ?? String(gid)
  const release = state.audience
  const published = release.everyone !== null || release.staged !== null
  // The latest version is out to everyone already: nothing to publish.
  const hasDraft = release.everyone !== state.version

  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['studio'] })
  }
  const publish = useMutation({
    mutationFn: (audience: ScreenAudience | undefined) => screenAdmin.publish(id, state.version, audience),
    onSuccess: () => {
      refresh()
      notifySuccess(t('area'), t('publish.done', { n: state.version }))
    },
    onError: (err) => reportError(t('area'), err),
  })
  const rollback = useMutation({
    mutationFn: () => screenAdmin.rollback(id),
    onSuccess: () => {
      refresh()
      notifySuccess(t('area'), t('publish.rolledBack'))
    },
    onError: (err) => reportError(t('area'), err),
  })

  const audience: ScreenAudience | undefined = who === 'brands' ? { brands } : who === 'groups' ? { groups: groupIds } : undefined
  const askPublish = () => {
    setProblem(null)
    if ((who === 'brands' && !brands.length) || (who === 'groups' && !groupIds.length)) return setProblem(t('publish.needAudience'))
    confirmDialog({
      header: t('publish.draftOf', { n: state.version }),
      message: t('publish.confirm', { n: state.version, who: audienceText(audience, groupName) }),
      icon: 'pi pi-send',
      acceptLabel: t('publish.do'),
      rejectLabel: t('cancel'),
      defaultFocus: 'reject',
      accept: () => publish.mutate(audience),
    })
  }
  const askRollback = () =>
    confirmDialog({
      header: t('publish.rollback'),
      message: t('publish.rollbackConfirm'),
      icon: 'pi pi-undo',
      acceptLabel: t('publish.rollback'),
      rejectLabel: t('cancel'),
      defaultFocus: 'reject',
      accept: () => rollback.mutate(),
    })

  return (
    <div className="screen-studio__publish">
      <p className="screen-studio__help">{published ? t('publish.current', { who: releaseText(release, groupName) }) : t('publish.none')}</p>
      {state.fallback && <Message severity="error" className="screen-studio__message" text={t('publish.fallback', { n: state.fallback.version ?? 0, reason: state.fallback.reason ?? '' })} />}
      {state.underneath.length > 0 && (
        <Message
          severity="info"
          className="screen-studio__message"
          content={
            <div>
              <strong>{t('publish.underneath')}</strong>
              <ul className="screen-studio__changes">
                {state.underneath.map((c, i) => (
                  <li key={i}>{c.text}</li>
                ))}
              </ul>
            </div>
          }
        />
      )}
      {dirty && <Message severity="warn" className="screen-studio__message" text={t('publish.saveFirst')} />}
      {hasDraft ? (
        <fieldset className="screen-studio__group">
          <legend>{t('publish.draftOf', { n: state.version })}</legend>
          <div className="screen-studio__choice" role="radiogroup" aria-label={t('publish.to')}>
            {(['everyone', 'brands', 'groups'] as const).map((w) => (
              <label key={w}>
                <RadioButton inputId={`publish-${w}`} checked={who === w} onChange={() => setWho(w)} /> {t(`publish.${w}`)}
              </label>
            ))}
          </div>
          {who === 'brands' && (
            <FieldShell id="publish-brands" label={t('publish.pickBrands')}>
              <MultiSelect inputId="publish-brands" value={brands} onChange={(e) => setBrands(e.value as string[])} options={(choices.data?.brands ?? []).map((b) => ({ value: b.key, label: `${b.name} (${b.key})` }))} display="chip" placeholder={t('publish.pickBrands')} />
            </FieldShell>
          )}
          {who === 'groups' && (
            <FieldShell id="publish-groups" label={t('publish.pickGroups')}>
              <MultiSelect inputId="publish-groups" value={groupIds} onChange={(e) => setGroupIds(e.value as number[])} options={(groups.data ?? []).map((g) => ({ value: g.Id, label: g.Nombre }))} display="chip" filter placeholder={t('publish.pickGroups')} />
            </FieldShell>
          )}
          <p className="screen-studio__help">{t('publish.help')}</p>
          {problem && <Message severity="error" className="screen-studio__message" text={problem} />}
          <div className="screen-studio__actions">
            <Button label={t('publish.do')} icon="pi pi-send" onClick={askPublish} loading={publish.isPending} disabled={dirty} />
          </div>
        </fieldset>
      ) : (
        <p className="screen-studio__help">{t('publish.nothing')}</p>
      )}
      {published && (
        <div className="screen-studio__actions">
          <Button label={t('publish.rollback')} icon="pi pi-undo" outlined severity="secondary" onClick={askRollback} loading={rollback.isPending} />
        </div>
      )}
    </div>
  )
}
