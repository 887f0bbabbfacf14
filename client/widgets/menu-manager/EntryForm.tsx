import { PrimeIcons } from 'primereact/api'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { confirmDialog } from 'primereact/confirmdialog'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { MultiSelect } from 'primereact/multiselect'
import { SelectButton } from 'primereact/selectbutton'
import { useMemo } from 'react'
import { localized, useI18n, useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import type { MenuState } from './admin-api'
import { containers, type EntryFields, type Located } from './menu-model'
import { messages } from './messages'

const ICONS = [...new Set(Object.values(PrimeIcons) as string[])].sort().map((value) => ({ value, label: value.replace(/^pi pi-/, '') }))

type Destination = 'route' | 'href' | 'command'

export interface EntryFormProps {
  located: Located
  menu: MenuState['menu']
  options: Pick<MenuState, 'routes' | 'permissions' | 'brands'>
  siblings: number
  onChange: (fields: EntryFields) => void
  onMove: (delta: -1 | 1) => void
  onMoveInto: (parent: string) => void
  onRemove: () => void
}

/** Everything an admin may change on one entry: texts, icon, destination, permission, visibility, brands. */
export function EntryForm({ located, menu, options, siblings, onChange, onMove, onMoveInto, onRemove }: EntryFormProps) {
  const t = useMessages(messages)
  const { lang } = useI18n()
  const { entry, depth, parent, index } = located
  const { items: _items, ...fields } = entry
  const container = Array.isArray(entry.items)
  const kind = depth === 0 ? t('entry.kind.section') : container ? t('entry.kind.group') : t('entry.kind.entry')
  const set = (patch: Partial<EntryFields>) => {
    const next = { ...fields, ...patch } as Record<string, unknown>
    for (const [k, v] of Object.entries(next)) if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k]
    onChange(next as EntryFields)
  }
  const destination: Destination = entry.command ? 'command' : entry.href ? 'href' : 'route'
  // Page titles in the current language: rebuilt on a switch.
  const routeOptions = useMemo(() => options.routes.map((r) => ({ value: r.path, label: `${localized(r.title, lang)} — ${r.path}` })), [options.routes, lang])
  const parentOptions = useMemo(
    () => containers(menu).filter((c) => c.key !== entry.key && (container ? c.depth === 0 : true)).map((c) => ({ value: c.key, label: c.label })),
    [menu, entry.key, container],
  )
  const id = (name: string) => `mm-${name}`

  const askRemove = () =>
    confirmDialog({
      header: t('entry.remove.title', { kind }),
      message: t(container ? 'entry.remove.container' : 'entry.remove.entry', { label: entry.label.es }),
      icon: 'pi pi-trash',
      acceptLabel: t('entry.remove'),
      rejectLabel: t('cancel'),
      defaultFocus: 'reject',
      acceptClassName: 'p-button-danger',
      accept: onRemove,
    })

  return (
    <form className="card screen-form menu-manager__entry" onSubmit={(e) => e.preventDefault()} aria-labelledby="mm-entry-title">
      <div className="menu-manager__entry-head">
        <h2 id="mm-entry-title" className="screen-form__title">
          {entry.label.es || t('entry.noText')} <span className="menu-manager__kind">({kind})</span>
        </h2>
        <div className="action-bar">
          <Button type="button" icon="pi pi-arrow-up" label={t('entry.up')} size="small" outlined disabled={index === 0} onClick={() => onMove(-1)} />
          <Button type="button" icon="pi pi-arrow-down" label={t('entry.down')} size="small" outlined disabled={index >= siblings - 1} onClick={() => onMove(1)} />
          <Button type="button" icon="pi pi-trash" label={t('entry.remove')} size="small" severity="danger" outlined onClick={askRemove} />
        </div>
      </div>
      <p className="field-help">
        {t('entry.key')} <code>{entry.key}</code>
      </p>
      <div className="screen-form__fields menu-manager__fields">
        <FieldShell id={id('label-es')} label={t('entry.labelEs')} required>
          <InputText id={id('label-es')} value={entry.label.es} maxLength={60} onChange={(e) => set({ label: { ...entry.label, es: e.target.value } })} />
        </FieldShell>
        <FieldShell id={id('label-en')} label={t('entry.labelEn')}>
          <InputText id={id('label-en')} value={entry.label.en ?? ''} maxLength={60} onChange={(e) => set({ label: { es: entry.label.es, ...(e.target.value ? { en: e.target.value } : {}) } })} />
        </FieldShell>
        <FieldShell id={id('icon')} label={t('entry.icon')}>
          <Dropdown
            inputId={id('icon')}
            value={entry.icon ?? null}
            options={ICONS}
            filter
            showClear
            placeholder={t('entry.noIcon')}
            emptyFilterMessage={t('entry.noIconFound')}
            onChange={(e) => set({ icon: (e.value as string | null) ?? undefined })}
            itemTemplate={(o: { value: string; label: string }) => (
              <span className="menu-manager__icon-option">
                <i className={o.value} aria-hidden="true" /> {o.label}
              </span>
            )}
            valueTemplate={(o: { value: string; label: string } | null, props) =>
              o ? (
                <span className="menu-manager__icon-option">
                  <i className={o.value} aria-hidden="true" /> {o.label}
                </span>
              ) : (
                <span>{props.placeholder}</span>
              )
            }
          />
        </FieldShell>
        {depth > 0 && (
          <FieldShell id={id('parent')} label={t('entry.parent')} hint={t('entry.parentHint')}>
            <Dropdown inputId={id('parent')} value={parent} options={parentOptions} filter placeholder={t('entry.parentPlaceholder')} onChange={(e) => onMoveInto(e.value as string)} />
          </FieldShell>
        )}
        {!container && (
          <fieldset className="menu-manager__destination screen-form__field--wide">
            <legend className="screen-form__label">{t('entry.destination')}</legend>
            <SelectButton
              value={destination}
              allowEmpty={false}
              options={[
                { value: 'route', label: t('entry.destination.route') },
                { value: 'href', label: t('entry.destination.href') },
                ...(entry.command ? [{ value: 'command', label: t('entry.destination.command') }] : []),
              ]}
              onChange={(e) => {
                const next = e.value as Destination
                if (next === destination) return
                if (next === 'route') set({ to: options.routes[0]?.path, href: undefined, command: undefined })
                if (next === 'href') set({ href: 'https://', to: undefined, productionHref: undefined, command: undefined })
              }}
              aria-label={t('entry.destination')}
            />
            {destination === 'route' && (
              <FieldShell id={id('to')} label={t('entry.page')}>
                <Dropdown inputId={id('to')} value={entry.to ?? null} options={routeOptions} filter placeholder={t('entry.pagePlaceholder')} onChange={(e) => set({ to: e.value as string })} />
              </FieldShell>
            )}
            {destination === 'href' && (
              <FieldShell id={id('href')} label={t('entry.href')} hint={t('entry.hrefHint')}>
                <InputText id={id('href')} type="url" inputMode="url" value={entry.href ?? ''} maxLength={500} onChange={(e) => set({ href: e.target.value })} aria-describedby={`${id('href')}-help`} />
              </FieldShell>
            )}
            {destination === 'command' && <p className="field-help">{t('entry.command')}</p>}
            {entry.productionHref !== undefined && destination === 'route' && (
              <FieldShell id={id('production-href')} label={t('entry.productionHref')} hint={t('entry.productionHrefHint')}>
                <InputText id={id('production-href')} value={entry.productionHref} maxLength={500} onChange={(e) => set({ productionHref: e.target.value })} />
              </FieldShell>
            )}
          </fieldset>
        )}
        <FieldShell id={id('permission')} label={t('entry.permission')} hint={t('entry.permissionHint')}>
          <Dropdown
            inputId={id('permission')}
            value={entry.permission ?? null}
            options={options.permissions.map((p) => ({ value: p.code, label: p.name === p.code ? p.code : `${p.name} (${p.code})` }))}
            filter
            showClear
            placeholder={t('entry.permissionNone')}
            onChange={(e) => set({ permission: (e.value as string | null) ?? undefined })}
          />
        </FieldShell>
        <FieldShell id={id('brands')} label={t('entry.brands')}>
          <MultiSelect
            inputId={id('brands')}
            value={entry.brands ?? []}
            options={options.brands.map((b) => ({ value: b.key, label: b.name }))}
            placeholder={t('entry.brandsAll')}
            display="chip"
            onChange={(e) => set({ brands: e.value as string[] })}
          />
        </FieldShell>
        <FieldShell id={id('badge')} label={t('entry.badge')} hint={t('entry.badgeHint')}>
          <InputText id={id('badge')} value={entry.badge ?? ''} maxLength={12} onChange={(e) => set({ badge: e.target.value })} />
        </FieldShell>
        <FieldShell id={id('hidden')} label={t('entry.hidden')} check>
          <Checkbox inputId={id('hidden')} checked={!!entry.hidden} onChange={(e) => set({ hidden: e.checked ? true : undefined })} />
        </FieldShell>
        <FieldShell id={id('dev-only')} label={t('entry.devOnly')} check>
          <Checkbox inputId={id('dev-only')} checked={!!entry.devOnly} onChange={(e) => set({ devOnly: e.checked ? true : undefined })} />
        </FieldShell>
      </div>
    </form>
  )
}
