import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dialog } from 'primereact/dialog'
import { MultiSelect } from 'primereact/multiselect'
import { useState } from 'react'
import type { MenuDefinition, ResolvedMenuEntry } from '../../../schemas/menu'
import { useI18n, useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { menuAdmin, type MenuState } from './admin-api'
import { ChangeList } from './ChangeList'
import { messages } from './messages'

/** The draft as a chosen permission set would see it on this brand, before saving; and what it changes. */
export function MenuPreview({ brand, brandName, draft, permissions, onHide }: { brand: string; brandName: string; draft: MenuDefinition; permissions: MenuState['permissions']; onHide: () => void }) {
  const t = useMessages(messages)
  const [chosen, setChosen] = useState<string[]>([])
  const [production, setProduction] = useState(true)
  const preview = useQuery({
    queryKey: ['menu-manager', 'preview', brand, JSON.stringify(draft), chosen, production],
    queryFn: () => menuAdmin.preview(brand, draft, chosen, production),
    staleTime: 0,
    meta: { errorArea: t('area.menu'), errorMessage: t('preview.error') },
  })
  return (
    <Dialog header={t('preview.title', { brand: brandName })} visible onHide={onHide} style={{ width: '52rem' }} breakpoints={{ '960px': '92vw', '641px': '98vw' }}>
      <div className="menu-preview">
        <div className="menu-preview__controls">
          <FieldShell id="mm-preview-perms" label={t('preview.permissions')}>
            <MultiSelect
              inputId="mm-preview-perms"
              value={chosen}
              options={permissions.map((p) => ({ value: p.code, label: p.code }))}
              display="chip"
              placeholder={t('preview.permissionsNone')}
              filter
              onChange={(e) => setChosen(e.value as string[])}
            />
          </FieldShell>
          <div className="action-bar">
            <Button type="button" size="small" text label={t('preview.none')} onClick={() => setChosen([])} />
            <Button type="button" size="small" text label={t('preview.all')} onClick={() => setChosen(permissions.map((p) => p.code))} />
          </div>
          <FieldShell id="mm-preview-production" label={t('preview.production')} check>
            <Checkbox inputId="mm-preview-production" checked={production} onChange={(e) => setProduction(!!e.checked)} />
          </FieldShell>
          <h3 className="menu-preview__subtitle">{t('preview.unsaved')}</h3>
          {preview.data ? <ChangeList changes={preview.data.changes} empty={t('preview.noChanges')} /> : <p aria-busy="true">…</p>}
        </div>
        <div className="menu-preview__menu" aria-label={t('preview.menu')} role="region" aria-busy={preview.isFetching}>
          {preview.data && <PreviewEntries entries={preview.data.menu} top />}
          {preview.data?.menu.length === 0 && <p>{t('preview.empty')}</p>}
        </div>
      </div>
    </Dialog>
  )
}

/** The entries as the side menu draws them, texts in the current language (as users will see them). */
function PreviewEntries({ entries, top = false }: { entries: ResolvedMenuEntry[]; top?: boolean }) {
  const t = useMessages(messages)
  const { l } = useI18n()
  return (
    <ul className={top ? 'layout-menu' : 'layout-menu__sub'}>
      {entries.map((e) =>
        top ? (
          <li key={e.key} className="layout-menu__section">
            <div className="layout-menu__section-title">
              {l(e.label)}
              {e.badge && <span className="menu-badge">{e.badge}</span>}
            </div>
            <PreviewEntries entries={e.items ?? []} />
          </li>
        ) : (
          <li key={e.key}>
            <span className="layout-menu__link" title={e.to ?? e.href ?? ''}>
              {e.icon && <i className={`${e.icon} layout-menu__icon`} aria-hidden="true" />}
              <span>{l(e.label)}</span>
              {e.badge && <span className="menu-badge">{e.badge}</span>}
              {e.href && <i className="pi pi-external-link layout-menu__external" aria-label={t('preview.externalLink')} />}
            </span>
            {e.items && <PreviewEntries entries={e.items} />}
          </li>
        ),
      )}
    </ul>
  )
}
