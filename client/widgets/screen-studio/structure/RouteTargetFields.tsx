import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { useLoadedManifest } from '../../../api/manifest'
import { localized, useMessages } from '../../../i18n/i18n'
import { describedBy } from '../../../ui/described-by'
import { FieldShell } from '../../../ui/FieldShell'
import { linkFor, routeOfLink, routeParams } from '../route-link'
import { messages } from './messages'

/**
 * Where an action leads: a route of the manifest, each parameter of its path filled with a value
 * or a template of where the action sits ({row.Id}, {data.Codigo}), and maybe a query. A target
 * that is no route of the manifest is shown as it is and kept until another is picked.
 */
export function RouteTargetFields(props: { id: string; label: string; value: string | undefined; templates: readonly string[]; onChange: (next: string | undefined) => void }) {
  const { id, label, value, templates, onChange } = props
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const routes = manifest.routes.filter((r) => !r.public)
  const link = value ? routeOfLink(value, routes.map((r) => r.path)) : null
  const set = (path: string, values: Record<string, string>, query: string) => onChange(linkFor(path, values, query.trim()))
  return (
    <div className="structure__target">
      <div className="screen-studio__grid">
        <FieldShell id={`${id}-route`} label={label}>
          <Dropdown
            inputId={`${id}-route`}
            value={link?.path ?? ''}
            onChange={(e) => (e.value ? set(e.value as string, {}, '') : onChange(undefined))}
            options={[{ value: '', label: t('target.none') }, ...routes.map((r) => ({ value: r.path, label: `${localized(r.title)} (${r.path})` }))]}
            placeholder={t('target.none')}
            filter
          />
        </FieldShell>
        {link &&
          routeParams(link.path).map((name) => {
            // A parameter not filled yet is written as itself ({id}) in the link.
            const filled = link.values[name] === `{${name}}` ? '' : (link.values[name] ?? '')
            return (
              <FieldShell key={name} id={`${id}-param-${name}`} label={t('target.param', { name })} required error={filled ? undefined : t('param.missing')}>
                <InputText id={`${id}-param-${name}`} value={filled} list={`${id}-values`} placeholder={t('param.valueHelp')} onChange={(e) => set(link.path, { ...link.values, [name]: e.target.value.trim() }, link.query)} aria-describedby={describedBy(`${id}-param-${name}`, null, !filled)} />
              </FieldShell>
            )
          })}
        {link && (
          <FieldShell id={`${id}-query`} label={t('target.query')} hint={t('target.queryHelp')}>
            <InputText id={`${id}-query`} value={link.query} onChange={(e) => set(link.path, link.values, e.target.value)} aria-describedby={describedBy(`${id}-query`, true, null)} />
          </FieldShell>
        )}
      </div>
      <datalist id={`${id}-values`}>
        {templates.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      {value && !link && <Message severity="info" className="screen-studio__message" text={t('target.own', { link: value })} />}
    </div>
  )
}
