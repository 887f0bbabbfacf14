import { useMutation } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { useState } from 'react'
import type { ScreenFile } from '../../../schemas/screen'
import { errorText } from '../../api/errors'
import { useLoadedManifest } from '../../api/manifest'
import { localized, useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { listableCall, sampleColumns } from './call-sample'
import { BADGE_SEVERITIES, designOfScreen, routeOfRowLink, rowLinkFor, STUDIO_FORMATS, withDesign, type ColumnDesign, type ListDesign } from './list-design'
import { messages } from './messages'
import { useReadCalls } from './studio-data'

/** The structured editor of a list screen's body: call, columns, filters and row link (null when the body is more than a list). */
export function ListDesigner({ screen, onChange }: { screen: ScreenFile; onChange: (next: ScreenFile) => void }) {
  const design = designOfScreen(screen)
  if (!design) return null
  return <Designer design={design} onChange={(d) => onChange(withDesign(screen, d))} />
}

function Designer({ design, onChange }: { design: ListDesign; onChange: (next: ListDesign) => void }) {
  const t = useMessages(messages)
  const calls = useReadCalls()
  const manifest = useLoadedManifest()
  const [newField, setNewField] = useState('')
  const call = calls.data?.find((c) => c.path === design.endpoint) ?? null
  const set = (patch: Partial<ListDesign>) => onChange({ ...design, ...patch })
  const setColumn = (i: number, patch: Partial<ColumnDesign>) => set({ columns: design.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) })
  const move = (i: number, by: number) => {
    const next = [...design.columns]
    const [c] = next.splice(i, 1)
    next.splice(i + by, 0, c!)
    set({ columns: next })
  }
  const sample = useMutation({
    mutationFn: () => sampleColumns(call!),
    onSuccess: (s) => {
      if (s.columns.length) set({ paged: s.paged, columns: s.columns, dataKey: s.dataKey })
    },
  })
  const targets = manifest.routes.filter((r) => !r.public && r.path.includes('{'))
  const link = design.rowLink ? routeOfRowLink(design.rowLink, targets.map((r) => r.path)) : null
  const targetParams = link ? [...link.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!) : []
  const fields = design.columns.map((c) => c.field)

  return (
    <>
      <fieldset className="screen-studio__group">
        <legend>{t('design.call')}</legend>
        <div className="screen-studio__grid">
          <FieldShell id="design-call" label={t('design.call')} hint={t('design.callHelp')}>
            <Dropdown
              inputId="design-call"
              value={design.endpoint}
              onChange={(e) => set({ endpoint: e.value as string })}
              options={(calls.data ?? []).filter(listableCall).map((c) => ({ value: c.path, label: `${c.summary} — ${c.path}` }))}
              filter
              loading={calls.isPending}
              placeholder={t('design.callPick')}
            />
          </FieldShell>
          <FieldShell id="design-key" label={t('design.dataKey')}>
            <Dropdown inputId="design-key" value={design.dataKey} onChange={(e) => set({ dataKey: e.value as string })} options={fields} />
          </FieldShell>
          <FieldShell id="design-paged" label={t('design.paged')} check>
            <Checkbox inputId="design-paged" checked={design.paged} onChange={(e) => set({ paged: !!e.checked })} />
          </FieldShell>
        </div>
        <Button type="button" label={t('design.sample')} icon="pi pi-bolt" outlined size="small" disabled={!call} loading={sample.isPending} onClick={() => sample.mutate()} />
        {sample.isError && <Message severity="error" className="screen-studio__message" text={t('design.sampleError', { error: errorText(sample.error) })} />}
        {sample.isSuccess && sample.data.columns.length === 0 && <Message severity="warn" className="screen-studio__message" text={t('design.sampleEmpty')} />}
      </fieldset>

      <fieldset className="screen-studio__group">
        <legend>{t('design.columns')}</legend>
        <div className="screen-studio__table-wrap">
          <table className="screen-studio__columns">
            <thead>
              <tr>
                <th scope="col">{t('design.col.field')}</th>
                <th scope="col">{t('design.col.es')}</th>
                <th scope="col">{t('design.col.en')}</th>
                <th scope="col">{t('design.col.format')}</th>
                <th scope="col">{t('design.col.sortable')}</th>
                <th scope="col">{t('design.col.filter')}</th>
                <th scope="col">{t('design.col.move')}</th>
              </tr>
            </thead>
            <tbody>
              {design.columns.map((c, i) => {
                const canSort = !call?.list || call.list.sortable.includes(c.field) || !design.paged
                const canFilter = !call?.list || call.list.filterable.includes(c.field) || !design.paged
                return (
                  <ColumnRow key={c.field} column={c} index={i} last={i === design.columns.length - 1} canSort={canSort} canFilter={canFilter} onChange={(p) => setColumn(i, p)} onMove={(by) => move(i, by)} onRemove={() => set({ columns: design.columns.filter((_, j) => j !== i) })} />
                )
              })}
            </tbody>
          </table>
        </div>
        <div className="screen-studio__inline">
          <InputText value={newField} onChange={(e) => setNewField(e.target.value.trim())} placeholder={t('design.col.newField')} aria-label={t('design.col.newField')} />
          <Button
            type="button"
            icon="pi pi-plus"
            label={t('design.col.add')}
            outlined
            size="small"
            disabled={!newField || fields.includes(newField)}
            onClick={() => {
              set({ columns: [...design.columns, { field: newField, header: { es: newField }, format: 'text', sortable: false, filter: false, badges: [] }] })
              setNewField('')
            }}
          />
        </div>
        <div className="screen-studio__grid">
          <FieldShell id="design-rowlink" label={t('design.rowLink')}>
            <Dropdown
              inputId="design-rowlink"
              value={link?.path ?? ''}
              onChange={(e) => set({ rowLink: e.value ? rowLinkFor(e.value as string, {}) : null })}
              options={[{ value: '', label: t('design.rowLinkNone') }, ...targets.map((r) => ({ value: r.path, label: `${localized(r.title)} (${r.path})` }))]}
              placeholder={t('design.rowLinkNone')}
              filter
            />
          </FieldShell>
          {targetParams.map((name) => (
            <FieldShell key={name} id={`design-param-${name}`} label={t('design.rowLinkParam', { name })}>
              <Dropdown inputId={`design-param-${name}`} value={link!.fields[name] ?? null} onChange={(e) => set({ rowLink: rowLinkFor(link!.path, { ...link!.fields, [name]: e.value as string }) })} options={fields} />
            </FieldShell>
          ))}
        </div>
      </fieldset>

    </>
  )
}

function ColumnRow(props: { column: ColumnDesign; index: number; last: boolean; canSort: boolean; canFilter: boolean; onChange: (p: Partial<ColumnDesign>) => void; onMove: (by: number) => void; onRemove: () => void }) {
  const { column: c, index, last, canSort, canFilter, onChange, onMove, onRemove } = props
  const t = useMessages(messages)
  const id = `col-${index}`
  return (
    <>
      <tr>
        <th scope="row">
          <code translate="no">{c.field}</code>
        </th>
        <td>
          <InputText value={c.header.es} onChange={(e) => onChange({ header: { ...c.header, es: e.target.value } })} aria-label={`${t('design.col.es')}: ${c.field}`} />
        </td>
        <td>
          <InputText value={c.header.en ?? ''} onChange={(e) => onChange({ header: e.target.value ? { ...c.header, en: e.target.value } : { es: c.header.es } })} aria-label={`${t('design.col.en')}: ${c.field}`} className={c.header.en ? '' : 'screen-studio__missing'} placeholder={c.header.es} />
        </td>
        <td>
          <Dropdown value={c.format} onChange={(e) => onChange({ format: e.value as ColumnDesign['format'] })} options={STUDIO_FORMATS.map((f) => ({ value: f, label: t(`format.${f}`) }))} aria-label={`${t('design.col.format')}: ${c.field}`} />
        </td>
        <td>
          <Checkbox inputId={`${id}-sort`} checked={c.sortable} disabled={!canSort && !c.sortable} onChange={(e) => onChange({ sortable: !!e.checked })} aria-label={`${t('design.col.sortable')}: ${c.field}`} tooltip={canSort ? undefined : t('design.col.notSortable')} />
        </td>
        <td>
          <Checkbox inputId={`${id}-filter`} checked={c.filter} disabled={!canFilter && !c.filter} onChange={(e) => onChange({ filter: !!e.checked })} aria-label={`${t('design.col.filter')}: ${c.field}`} tooltip={canFilter ? undefined : t('design.col.notFilterable')} />
        </td>
        <td className="screen-studio__move">
          <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('design.col.up', { field: c.field })} />
          <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={last} onClick={() => onMove(1)} aria-label={t('design.col.down', { field: c.field })} />
          <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={onRemove} aria-label={t('design.col.remove', { field: c.field })} />
        </td>
      </tr>
      {c.format === 'badge' && (
        <tr className="screen-studio__badges">
          <td />
          <td colSpan={6}>
            <span className="screen-studio__badges-title">{t('design.col.badges')}</span>
            {c.badges.map((b, j) => (
              <span key={j} className="screen-studio__inline">
                <InputText value={b.value} onChange={(e) => onChange({ badges: c.badges.map((x, k) => (k === j ? { ...x, value: e.target.value } : x)) })} aria-label={`${t('design.badge.value')} ${j + 1}`} placeholder={t('design.badge.value')} />
                <InputText value={b.label} onChange={(e) => onChange({ badges: c.badges.map((x, k) => (k === j ? { ...x, label: e.target.value } : x)) })} aria-label={`${t('design.badge.label')} ${j + 1}`} placeholder={t('design.badge.label')} />
                <Dropdown value={b.severity} onChange={(e) => onChange({ badges: c.badges.map((x, k) => (k === j ? { ...x, severity: e.value as typeof x.severity } : x)) })} options={BADGE_SEVERITIES.map((s) => ({ value: s, label: t(`severity.${s}`) }))} aria-label={`${t('design.badge.colour')} ${j + 1}`} />
              </span>
            ))}
            <Button type="button" icon="pi pi-plus" text size="small" label={t('design.badge.add')} onClick={() => onChange({ badges: [...c.badges, { value: '', label: '', severity: 'info' }] })} />
          </td>
        </tr>
      )}
    </>
  )
}
