import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { useLoadedManifest } from '../../../api/manifest'
import { localized, useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { routeOfRowLink, rowLinkFor } from '../list-design'
import { routeParams } from '../route-link'
import { messages } from './messages'

/** Where clicking a row leads: a route of the manifest with a parameter, each filled with a row field (as the list designer does). */
export function RowLinkFields({ id, rowLink, fields, onChange }: { id: string; rowLink: string | undefined; fields: readonly string[]; onChange: (next: string | undefined) => void }) {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const targets = manifest.routes.filter((r) => !r.public && r.path.includes('{'))
  const link = rowLink ? routeOfRowLink(rowLink, targets.map((r) => r.path)) : null
  return (
    <fieldset className="screen-studio__group">
      <legend>{t('rowLink.legend')}</legend>
      <div className="screen-studio__grid">
        <FieldShell id={`${id}-route`} label={t('rowLink.route')}>
          <Dropdown
            inputId={`${id}-route`}
            value={link?.path ?? ''}
            onChange={(e) => onChange(e.value ? rowLinkFor(e.value as string, {}) : undefined)}
            options={[{ value: '', label: t('rowLink.none') }, ...targets.map((r) => ({ value: r.path, label: `${localized(r.title)} (${r.path})` }))]}
            placeholder={t('rowLink.none')}
            filter
          />
        </FieldShell>
        {link &&
          routeParams(link.path).map((name) => (
            <FieldShell key={name} id={`${id}-param-${name}`} label={t('rowLink.param', { name })}>
              <Dropdown inputId={`${id}-param-${name}`} value={link.fields[name] ?? null} onChange={(e) => onChange(rowLinkFor(link.path, { ...link.fields, [name]: e.value as string }))} options={[...new Set([...fields, link.fields[name] ?? name])]} />
            </FieldShell>
          ))}
      </div>
      {rowLink && !link && <Message severity="info" className="screen-studio__message" text={t('rowLink.own', { link: rowLink })} />}
    </fieldset>
  )
}
