import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import { MultiSelect } from 'primereact/multiselect'
import type { MenuPlacement } from '../../../schemas/menu'
import type { ScreenFile } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { messages } from './messages'
import { menuIcons, menuPlaces, useAdminChoices } from './studio-data'

/** The icons offered first; those the menu already uses are added after them. */
const ICONS = ['pi pi-list', 'pi pi-table', 'pi pi-bolt', 'pi pi-euro', 'pi pi-file', 'pi pi-users', 'pi pi-chart-bar', 'pi pi-map', 'pi pi-cog', 'pi pi-tags']

type Route = NonNullable<ScreenFile['routes']>[number]

/**
 * Where any screen lives: its routes with the permission each needs, and its entry in the side
 * menu (section, order, icon and the brands whose menu shows it; none picked means every brand).
 * A screen without routes is one drawn inside others (a dialog's body); it gets none here.
 */
export function RouteMenuEditor({ screen, onChange }: { screen: ScreenFile; onChange: (next: ScreenFile) => void }) {
  const t = useMessages(messages)
  const choices = useAdminChoices()
  const routes = screen.routes ?? []
  const setRoutes = (next: Route[]) => onChange({ ...screen, routes: next } as ScreenFile)
  const setRoute = (i: number, patch: Partial<Route>) => setRoutes(routes.map((r, j) => (j === i ? withoutEmpty({ ...r, ...patch }) : r)))
  const setMenu = (menu: MenuPlacement | null) => {
    const next = { ...screen } as ScreenFile
    if (menu) next.menu = menu
    else delete next.menu
    onChange(next)
  }
  const menu = screen.menu ?? null
  const permissions = [{ value: '', label: t('design.permissionNone') }, ...(choices.data?.permissions ?? []).map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` }))]

  return (
    <fieldset className="screen-studio__group">
      <legend>{t('design.route')}</legend>
      {routes.map((route, i) => {
        const suffix = i === 0 ? '' : `-${i}`
        return (
          <div className="screen-studio__grid" key={i}>
            <FieldShell id={`design-path${suffix}`} label={routes.length > 1 ? t('design.routeN', { n: i + 1 }) : t('new.path')} hint={t('new.pathHelp')}>
              <InputText id={`design-path${suffix}`} value={route.path} onChange={(e) => setRoute(i, { path: e.target.value.trim() })} />
            </FieldShell>
            <FieldShell id={`design-permission${suffix}`} label={t('design.permission')}>
              <Dropdown inputId={`design-permission${suffix}`} value={route.permission ?? ''} onChange={(e) => setRoute(i, { permission: (e.value as string) || undefined })} options={permissions} placeholder={t('design.permissionNone')} filter />
            </FieldShell>
          </div>
        )
      })}
      <div className="screen-studio__grid">
        <FieldShell id="design-menu" label={t('design.menu')}>
          <Dropdown
            inputId="design-menu"
            value={menu?.section ?? ''}
            onChange={(e) => setMenu(e.value ? { ...(menu ?? { key: screen.id, order: 500, icon: 'pi pi-list' }), section: e.value as string } : null)}
            options={[{ value: '', label: t('design.menuNone') }, ...(choices.data ? menuPlaces(choices.data.menu).map((p) => ({ value: p.key, label: p.label })) : [])]}
            placeholder={t('design.menuNone')}
            disabled={routes.length === 0}
          />
        </FieldShell>
        {menu && (
          <>
            <FieldShell id="design-order" label={t('design.menuOrder')}>
              <InputNumber inputId="design-order" value={menu.order} onValueChange={(e) => setMenu({ ...menu, order: e.value ?? 0 })} min={0} max={100000} useGrouping={false} />
            </FieldShell>
            <FieldShell id="design-icon" label={t('design.menuIcon')}>
              <Dropdown
                inputId="design-icon"
                value={menu.icon ?? 'pi pi-list'}
                onChange={(e) => setMenu({ ...menu, icon: e.value as string })}
                options={[...new Set([...ICONS, ...menuIcons(choices.data?.menu), menu.icon ?? 'pi pi-list'])]}
                itemTemplate={iconOption}
                valueTemplate={(icon: string | null) => (icon ? iconOption(icon) : null)}
              />
            </FieldShell>
            <FieldShell id="design-brands" label={t('design.menuBrands')} hint={t('design.menuBrandsHelp')}>
              <MultiSelect
                inputId="design-brands"
                value={menu.brands ?? []}
                onChange={(e) => {
                  const brands = e.value as string[]
                  const { brands: _old, ...rest } = menu
                  setMenu(brands.length ? { ...rest, brands } : rest)
                }}
                options={(choices.data?.brands ?? []).map((b) => ({ value: b.key, label: `${b.name} (${b.key})` }))}
                placeholder={t('design.menuBrandsAll')}
                display="chip"
              />
            </FieldShell>
          </>
        )}
      </div>
      {routes.length === 0 && <p className="screen-studio__help">{t('design.noRoutes')}</p>}
      <div className="screen-studio__actions">
        <Button type="button" icon="pi pi-plus" text size="small" label={t('design.routeAdd')} onClick={() => setRoutes([...routes, { path: '/' }])} />
        {routes.length > 1 && <Button type="button" icon="pi pi-trash" text size="small" severity="danger" label={t('design.routeRemove')} onClick={() => setRoutes(routes.slice(0, -1))} />}
      </div>
    </fieldset>
  )
}

/** A route without an empty permission (none means any signed-in user). */
function withoutEmpty(route: Route): Route {
  if (route.permission) return route
  const { permission: _none, ...rest } = route
  return rest
}

function iconOption(icon: string) {
  return (
    <span className="screen-studio__icon-option">
      <i className={icon} aria-hidden="true" /> {icon.replace('pi pi-', '')}
    </span>
  )
}
