import { Button } from 'primereact/button'
import { useState } from 'react'
import type { ActionSpec } from '../../../../schemas/screen'
import { localized, messageIn, useMessages } from '../../../i18n/i18n'
import { newAction, type ActionScope } from './action-model'
import { ActionForm } from './ActionForm'
import { moved, removed, replaced } from './edit'
import { messages } from './messages'

/**
 * A list of actions (a page's, a detail's, a table's rows, selection or toolbar): add, remove,
 * move, and open one to edit it. `pointer` is where the list sits in the screen; `scope` says
 * what an action there reads (a row, the selected rows, a detail's data, the route's parameters).
 */
export function ActionsEditor(props: { id: string; legend: string; actions: ActionSpec[] | undefined; pointer: string; scope: ActionScope; onChange: (next: ActionSpec[] | undefined) => void }) {
  const { id, legend, actions = [], pointer, scope, onChange } = props
  const t = useMessages(messages)
  const [open, setOpen] = useState<number | null>(null)
  const set = (next: ActionSpec[]) => onChange(next.length ? next : undefined)
  const move = (i: number, by: number) => {
    set(moved(actions, i, by))
    if (open === i) setOpen(i + by)
    else if (open === i + by) setOpen(i)
  }
  const remove = (i: number) => {
    set(removed(actions, i))
    setOpen(open === i ? null : open !== null && open > i ? open - 1 : open)
  }
  const add = () => {
    set([...actions, newAction(actions, { es: messageIn(messages, 'action.newLabel', undefined, 'es'), en: messageIn(messages, 'action.newLabel', undefined, 'en') })])
    setOpen(actions.length)
  }

  return (
    <fieldset className="screen-studio__group" id={id}>
      <legend>{legend}</legend>
      {actions.length === 0 && <p className="screen-studio__help">{t('actions.none')}</p>}
      {actions.length > 0 && (
        <ul className="structure__actions">
          {actions.map((action, i) => {
            const label = localized(action.label) || action.id
            const what = t('action.what', { label })
            return (
              <li key={i} className="structure__action">
                <div className="structure__action-head">
                  <Button type="button" text size="small" icon={open === i ? 'pi pi-chevron-down' : 'pi pi-chevron-right'} label={label} aria-label={t('action.edit', { label })} aria-expanded={open === i} aria-controls={`${id}-${i}`} onClick={() => setOpen(open === i ? null : i)} />
                  <span className="structure__action-kind">
                    {action.icon && <i className={action.icon} aria-hidden="true" />} {t('action.summary', { kind: t(`kind.${action.kind}`), id: action.id })}
                  </span>
                  <span className="screen-studio__move">
                    <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('up', { what })} />
                    <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === actions.length - 1} onClick={() => move(i, 1)} aria-label={t('down', { what })} />
                    <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => remove(i)} aria-label={t('remove', { what })} />
                  </span>
                </div>
                {open === i && (
                  <div id={`${id}-${i}`}>
                    <ActionForm id={`${id}-${i}`} action={action} pointer={`${pointer}/${i}`} scope={scope} onChange={(next) => set(replaced(actions, i, next))} />
                  </div>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <Button type="button" icon="pi pi-plus" outlined size="small" label={t('action.add')} onClick={add} className="structure__add" />
    </fieldset>
  )
}
