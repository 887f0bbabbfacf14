import { Dialog } from 'primereact/dialog'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { OverlayPanel } from 'primereact/overlaypanel'
import { RadioButton } from 'primereact/radiobutton'
import { useRef, useState } from 'react'
import { Button } from '../../ui/plain/Button'
import { VIEW_NAME_MAX, type ViewVisibility } from '../../../schemas/view'
import { useMessages } from '../../i18n/i18n'
import { usePopupOnDemand } from '../../ui/popup-on-demand'
import { confirm } from '../../ui/confirm'
import { useReturnFocus } from '../../ui/return-focus'
import { ErrorState, LoadingState } from '../../ui/states'
import { messages } from './messages'
import type { TableViews, ViewEntry } from './use-table-views'

/**
 * The views menu of a table: «Mis vistas», «Compartidas conmigo» (with their owner), «Publicadas»;
 * a click applies a view; the owner overwrites it with what the table shows or withdraws it;
 * «Guardar vista» names what the table shows and says who sees it.
 */
export function ViewsMenu({ tableId, views }: { tableId: string; views: TableViews }) {
  const t = useMessages(messages)
  const panel = usePopupOnDemand<OverlayPanel>()
  const trigger = useRef<HTMLElement | null>(null)
  const [open, setOpen] = useState(false)
  const [saving, setSaving] = useState(false)
  const all = [...views.mine, ...views.shared, ...views.published]
  const active = all.find((e) => e.key === views.active)

  /** Who else sees one of the user's own views, or whose a shared one is: the line under its name. */
  const metaOf = (e: ViewEntry, showOwner: boolean): string | undefined => {
    const v = e.view
    if (!v) return undefined
    const sharing = v.visibility === 'group' && v.groupName ? t('views.withGroup', { group: v.groupName }) : v.visibility === 'brand' ? t('views.toBrand') : undefined
    return [showOwner ? t('views.by', { owner: v.owner.name }) : undefined, sharing].filter(Boolean).join(' · ') || undefined
  }

  const section = (key: 'mine' | 'shared' | 'published', title: string, entries: ViewEntry[]) => {
    const id = `views-${tableId}-${key}`
    return (
      <section aria-labelledby={id} className="views-menu__section">
        <h3 id={id} className="views-menu__title">
          {title}
        </h3>
        {entries.length === 0 ? (
          <p className="views-menu__none">{t('views.none')}</p>
        ) : (
          <ul className="views-menu__list">
            {entries.map((e) => {
              const meta = metaOf(e, key !== 'mine')
              return (
                <li key={e.key} className={e.key === views.active ? 'is-active' : undefined}>
                  <button
                    type="button"
                    className="views-menu__apply"
                    aria-current={e.key === views.active ? 'true' : undefined}
                    onClick={() => {
                      panel.ref.current?.hide()
                      views.apply(e)
                    }}
                  >
                    <span className="views-menu__name">{e.name}</span>
                    {meta && <span className="views-menu__meta">{meta}</span>}
                  </button>
                  {e.editable && e.view && <Button type="button" icon="pi pi-refresh" text rounded size="small" aria-label={t('views.update', { name: e.name })} title={t('views.update', { name: e.name })} onClick={() => void views.update(e)} />}
                  {e.editable && (
                    <Button
                      type="button"
                      icon="pi pi-trash"
                      text
                      rounded
                      size="small"
                      severity="danger"
                      aria-label={t('views.withdraw', { name: e.name })}
                      title={t('views.withdraw', { name: e.name })}
                      onClick={() => {
                        panel.ref.current?.hide()
                        void confirm(t('views.withdrawConfirm', { name: e.name })).then((yes) => {
                          if (yes) void views.withdraw(e)
                        })
                      }}
                    />
                  )}
                </li>
              )
            })}
          </ul>
        )}
      </section>
    )
  }

  return (
    <div className="views-menu">
      <Button
        type="button"
        icon="pi pi-bookmark"
        label={active ? t('views.menuActive', { name: active.name }) : t('views.menu')}
        outlined
        size="small"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `views-${tableId}` : undefined}
        onClick={(e) => {
          trigger.current = e.currentTarget
          panel.toggle(e)
        }}
      />
      {panel.mounted && (
      <OverlayPanel ref={panel.ref} id={`views-${tableId}`} className="views-menu__panel" aria-label={t('views.menu')} onShow={() => setOpen(true)} onHide={() => setOpen(false)}>
        {views.status === 'loading' ? (
          <LoadingState lines={3} />
        ) : views.status === 'error' ? (
          <ErrorState compact onRetry={views.retry}>
            {t('views.loadError')}
          </ErrorState>
        ) : (
          <>
            {section('mine', t('views.mine'), views.mine)}
            {section('shared', t('views.shared'), views.shared)}
            {section('published', t('views.published'), views.published)}
          </>
        )}
        <Button
          type="button"
          icon="pi pi-plus"
          label={t('views.save')}
          size="small"
          className="views-menu__save"
          disabled={views.status !== 'ready'}
          onClick={() => {
            panel.ref.current?.hide()
            setSaving(true)
          }}
        />
      </OverlayPanel>
      )}
      {saving && <SaveViewDialog tableId={tableId} views={views} onClose={() => setSaving(false)} opener={() => trigger.current} />}
    </div>
  )
}

/** Names what the table shows and says who sees it: only me, one of my groups, the whole brand (GESTORACCESS). */
function SaveViewDialog({ tableId, views, onClose, opener }: { tableId: string; views: TableViews; onClose: () => void; opener: () => HTMLElement | null }) {
  const t = useMessages(messages)
  const [name, setName] = useState('')
  const [visibility, setVisibility] = useState<ViewVisibility>('private')
  const [groupId, setGroupId] = useState<number | undefined>(views.groups[0]?.id)
  const [busy, setBusy] = useState(false)
  // Opened from the views menu, which is closed by then: focus goes back to the menu's button.
  useReturnFocus(opener)
  const id = (what: string) => `view-${tableId}-${what}`
  const choice = (value: ViewVisibility, label: string) => (
    <div className="views-save__choice">
      <RadioButton inputId={id(value)} name={id('visibility')} value={value} checked={visibility === value} onChange={() => setVisibility(value)} />
      <label htmlFor={id(value)}>{label}</label>
    </div>
  )
  const ready = !!name.trim() && (visibility !== 'group' || groupId !== undefined)
  return (
    <Dialog header={t('views.save')} visible modal onHide={onClose} style={{ width: '28rem' }} breakpoints={{ '641px': '95vw' }} draggable={false}>
      <form
        className="views-save"
        onSubmit={(e) => {
          e.preventDefault()
          if (!ready || busy) return
          setBusy(true)
          void views.save(name.trim(), visibility === 'group' ? { visibility, groupId: groupId! } : { visibility }).then((saved) => {
            setBusy(false)
            if (saved) onClose()
          })
        }}
      >
        <label htmlFor={id('name')}>{t('views.name')}</label>
        <InputText id={id('name')} value={name} autoFocus maxLength={VIEW_NAME_MAX} onChange={(e) => setName(e.target.value)} className="w-full" />
        <fieldset className="views-save__visibility">
          <legend>{t('views.visibility')}</legend>
          {choice('private', t('views.private'))}
          {views.groups.length > 0 && (
            <>
              {choice('group', t('views.group'))}
              {visibility === 'group' && (
                <div className="views-save__group">
                  <label htmlFor={id('group-pick')}>{t('views.groupPick')}</label>
                  <Dropdown inputId={id('group-pick')} value={groupId} options={views.groups.map((g) => ({ label: g.name, value: g.id }))} onChange={(e) => setGroupId(e.value as number)} />
                </div>
              )}
            </>
          )}
          {views.canPublish && choice('brand', t('views.brand'))}
        </fieldset>
        <div className="dialog-actions">
          <Button type="button" label={t('dialog.cancel')} text onClick={onClose} />
          <Button type="submit" label={t('dialog.save')} icon="pi pi-check" loading={busy} disabled={!ready} />
        </div>
      </form>
    </Dialog>
  )
}
