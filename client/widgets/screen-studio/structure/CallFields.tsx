import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import type { CallSpec } from '../../../../schemas/screen'
import type { CatalogueCall } from '../../../api/screen-admin'
import { useMessages } from '../../../i18n/i18n'
import { describedBy } from '../../../ui/described-by'
import { FieldShell } from '../../../ui/FieldShell'
import { useCatalogue } from '../studio-data'
import { callSpecOf, choiceOf, declares, pathParamsOf, type Params } from './call-model'
import { messages } from './messages'
import { ParamRows } from './ParamRows'

/**
 * A call picked from the endpoint catalogue only (`pick` says which calls fit), with what fills
 * each parameter of its path and the query parameters it declares. A call the screen makes that
 * the catalogue does not hold is named, to be picked again.
 */
export function CallFields(props: { id: string; label: string; help: string; value: Partial<CallSpec> | undefined; pick: (calls: readonly CatalogueCall[]) => CatalogueCall[]; templates: readonly string[]; onChange: (next: CallSpec) => void }) {
  const { id, label, help, value, pick, templates, onChange } = props
  const t = useMessages(messages)
  const catalogue = useCatalogue()
  const calls = catalogue.data ?? []
  const method = value?.method ?? 'GET'
  const choice = choiceOf(method, value?.endpoint, calls)
  const choices = pick(calls)
  const options = (choice && !choices.includes(choice.call) ? [choice.call, ...choices] : choices).map((c) => ({ value: c.id, label: `${c.method} ${c.path} — ${c.summary}` }))
  const choose = (callId: string) => {
    const call = calls.find((c) => c.id === callId)
    if (!call) return
    // What the old call's path and query had under the same names carries over; the rest is the old call's own.
    const pathValues = Object.fromEntries(pathParamsOf(call).map((name) => [name, choice?.pathValues[name] ?? '']))
    const params = Object.fromEntries(Object.entries(value?.params ?? {}).filter(([name]) => declares(call, name)))
    onChange(callSpecOf({ call, pathValues }, Object.keys(params).length ? params : undefined, value))
  }
  const unknown = value?.endpoint && !choice && catalogue.isSuccess

  return (
    <div className="structure__call">
      <FieldShell id={`${id}-call`} label={label} hint={help} error={unknown ? t('call.unknown', { call: `${method} ${value.endpoint}` }) : undefined}>
        <Dropdown inputId={`${id}-call`} value={choice?.call.id ?? null} options={options} onChange={(e) => choose(e.value as string)} filter loading={catalogue.isPending} placeholder={t('source.pick')} aria-describedby={describedBy(`${id}-call`, help, unknown)} />
      </FieldShell>
      {choice && (
        <>
          {pathParamsOf(choice.call).length > 0 && (
            <div className="screen-studio__grid">
              {pathParamsOf(choice.call).map((name) => (
                <FieldShell key={name} id={`${id}-path-${name}`} label={t('call.pathParam', { name })} required error={choice.pathValues[name] ? undefined : t('param.missing')}>
                  <InputText
                    id={`${id}-path-${name}`}
                    value={choice.pathValues[name] ?? ''}
                    list={`${id}-path-values`}
                    placeholder={t('param.valueHelp')}
                    aria-describedby={describedBy(`${id}-path-${name}`, null, !choice.pathValues[name])}
                    onChange={(e) => onChange(callSpecOf({ call: choice.call, pathValues: { ...choice.pathValues, [name]: e.target.value.trim() } }, value?.params, value))}
                  />
                </FieldShell>
              ))}
              <datalist id={`${id}-path-values`}>
                {templates.map((v) => (
                  <option key={v} value={v} />
                ))}
              </datalist>
            </div>
          )}
          <span className="structure__sublabel">{t('call.params')}</span>
          <ParamRows id={`${id}-params`} call={choice.call} params={value?.params} templates={templates} onChange={(params: Params | undefined) => onChange(callSpecOf(choice, params, value))} />
        </>
      )}
    </div>
  )
}
