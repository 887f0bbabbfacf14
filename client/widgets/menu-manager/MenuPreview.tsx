import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dialog } from 'primereact/dialog'
import { MultiSelect } from 'primereact/multiselect'
import { useState } from 'react'
import type { MenuDefinition, ResolvedMenuEntry } from '../../../schemas/menu'
import { FieldShell } from '../shared/FieldShell'
import { menuAdmin, type MenuState } from './admin-api'
import { ChangeList } from './ChangeList'

/** The draft as a chosen permission set would see it on this brand, before saving; and what it changes. */
export function MenuPreview({ brand, brandName, draft, permissions, onHide }: { brand: string; brandName: string; draft: MenuDefinition; permissions: MenuState['permissions']; onHide: () => void }) {
  const [chosen, setChosen] = useState<string[]>([])
  const [production, setProduction] = useState(true)
  const preview = useQuery({
    queryKey: ['menu-manager', 'preview', brand, JSON.stringify(draft), chosen, production],
    queryFn: () => menuAdmin.preview(brand, draft, chosen, production),
    staleTime: 0,
    meta: { errorArea: 'Menú', errorMessage: 'No se ha podido preparar la vista previa.' },
  })
  return (
    <Dialog header={`Vista previa · ${brandName}`} visible onHide={onHide} style={{ width: '52rem' }} breakpoints={{ '960px': '92vw', '641px': '98vw' }}>
      <div className="menu-preview">
        <div className="menu-preview__controls">
          <FieldShell id="mm-preview-perms" label="Con los permisos">
            <MultiSelect
              inputId="mm-preview-perms"
              value={chosen}
              options={permissions.map((p) => ({ value: p.code, label: p.code }))}
              display="chip"
              placeholder="Ninguno (como un agente)"
              filter
              onChange={(e) => setChosen(e.value as string[])}
            />
          </FieldShell>
          <div className="action-bar">
            <Button type="button" size="small" text label="Ninguno" onClick={() => setChosen([])} />
            <Button type="button" size="small" text label="Todos" onClick={() => setChosen(permissions.map((p) => p.code))} />
          </div>
          <div className="screen-form__field screen-form__field--check">
            <Checkbox inputId="mm-preview-production" checked={production} onChange={(e) => setProduction(!!e.checked)} />
            <label htmlFor="mm-preview-production">Como en producción (sin las entradas de desarrollo)</label>
          </div>
          <h3 className="menu-preview__subtitle">Cambios sin guardar</h3>
          {preview.data ? <ChangeList changes={preview.data.changes} empty="Ninguno: es la versión guardada." /> : <p aria-busy="true">…</p>}
        </div>
        <div className="menu-preview__menu" aria-label="Menú tal como se verá" role="region" aria-busy={preview.isFetching}>
          {preview.data && <PreviewEntries entries={preview.data.menu} top />}
          {preview.data?.menu.length === 0 && <p>Con estos permisos el menú queda vacío.</p>}
        </div>
      </div>
    </Dialog>
  )
}

function PreviewEntries({ entries, top = false }: { entries: ResolvedMenuEntry[]; top?: boolean }) {
  return (
    <ul className={top ? 'layout-menu' : 'layout-menu__sub'}>
      {entries.map((e) =>
        top ? (
          <li key={e.key} className="layout-menu__section">
            <div className="layout-menu__section-title">
              {e.label.es}
              {e.badge && <span className="menu-badge">{e.badge}</span>}
            </div>
            <PreviewEntries entries={e.items ?? []} />
          </li>
        ) : (
          <li key={e.key}>
            <span className="layout-menu__link" title={e.to ?? e.href ?? ''}>
              {e.icon && <i className={`${e.icon} layout-menu__icon`} aria-hidden="true" />}
              <span>{e.label.es}</span>
              {e.badge && <span className="menu-badge">{e.badge}</span>}
              {e.href && <i className="pi pi-external-link layout-menu__external" aria-label="(enlace externo)" />}
            </span>
            {e.items && <PreviewEntries entries={e.items} />}
          </li>
        ),
      )}
    </ul>
  )
}
