import { Button } from 'primereact/button'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { useMessages } from '../../../i18n/i18n'
import type { CatalogueCall } from '../../../api/screen-admin'
import { declares, queryNamesOf, type Params } from './call-model'
import { messages } from './messages'

/**
 * A call's query parameters as rows of name and value: names offered from what the call declares,
 * values fixed or templates offered from where the call sits ({row.Id}…). A name the call does
 * not declare is flagged as the BFF would refuse it on save.
 */
export function ParamRows(props: { id: string; call: CatalogueCall | null; params: Params | undefined; templates: readonly string[]; onChange: (next: Params | undefined) => void }) {
  const { id, call, params, templates, onChange } = props
  const t = useMessages(messages)
  const entries = Object.entries(params ?? {})
  const set = (next: [string, Params[string]][]) => onChange(next.length ? Object.fromEntries(next) : undefined)
  // Without a catalogued call (none picked yet) nothing is declared, and nothing is flagged.
  const declared = queryNamesOf(call)
  const free = declared.filter((n) => !(n in (params ?? {})))
  const isDeclared = (name: string) => !call || declares(call, name)
  const undeclared = entries.find(([name]) => !isDeclared(name))?.[0]
  return (
    <div className="structure__params">
      {entries.length > 0 && (
        <table className="screen-studio__columns">
          <thead>
            <tr>
              <th scope="col">{t('param.name')}</th>
              <th scope="col">{t('param.value')}</th>
              <th scope="col">{t('param.removeHeader')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, value], i) => (
              <tr key={i}>
                <td>
                  <InputText value={name} list={`${id}-names`} onChange={(e) => set(entries.map((x, j) => (j === i ? [e.target.value.trim(), x[1]] : x)))} aria-label={`${t('param.name')} ${i + 1}`} aria-invalid={!isDeclared(name)} />
                </td>
                <td>
                  <InputText value={value === null ? '' : String(value)} list={`${id}-values`} onChange={(e) => set(entries.map((x, j) => (j === i ? [x[0], e.target.value] : x)))} aria-label={`${t('param.value')}: ${name || i + 1}`} placeholder={t('param.valueHelp')} />
                </td>
                <td>
                  <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => set(entries.filter((_, j) => j !== i))} aria-label={t('param.remove', { name: name || String(i + 1) })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {undeclared !== undefined && <Message severity="error" className="screen-studio__message" text={t('param.undeclared', { name: undeclared })} />}
      <datalist id={`${id}-names`}>
        {declared.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <datalist id={`${id}-values`}>
        {templates.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <Button type="button" icon="pi pi-plus" text size="small" label={t('param.add')} disabled={'' in (params ?? {})} onClick={() => set([...entries, [free[0] ?? '', '']])} />
    </div>
  )
}
