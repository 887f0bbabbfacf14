import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Suspense, useRef, useState, type MouseEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import type { ActionSpec } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'
import { lazyComponent } from '../../ui/lazy-component'
import { Button as PlainButton } from '../../ui/plain/Button'
import { useOfferAction } from '../../ui/offered-actions'
import { useRenderContext } from '../context'
import { evalCondition, fill, type TemplateContext } from '../template'
import { showRevealed } from './reveal-store'
import { ViewDialog } from './ViewDialog'
import { useViewAs } from '../../api/manifest'
import { useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import { changesData, runAction } from './run-action'

/** The form machinery (fields, calendars, validators) loads with the first form dialog opened. */
const FormDialog = lazyComponent(() => import('./FormDialog').then((m) => m.FormDialog))

interface ActionButtonProps {
  action: ActionSpec
  /** Extra context (a table row, the selection). */
  extra?: Partial<TemplateContext>
  ownerId?: string
  compact?: boolean
  /** Called before running (e.g. to gather every row matching a filter); may refine the context. */
  prepare?: () => Promise<Partial<TemplateContext> | null>
  disabled?: boolean
  /** A page or toolbar action: the command palette offers it while it is on screen (navigate, download, open a form or view). */
  offer?: boolean
}

/** The kinds the palette runs: they open something, and a call's confirmation stays on its button. */
const OFFERED_KINDS = new Set(['navigate', 'download', 'form', 'dialog'])

/** One action as a button: navigate, call (with confirm), download, or a form in a dialog. */
export function ActionButton({ action, extra, ownerId, compact, prepare, disabled, offer }: ActionButtonProps) {
  const { l } = useI18n()
  const base = useRenderContext()
  const client = useQueryClient()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [formCtx, setFormCtx] = useState<TemplateContext | null>(null)
  const [viewCtx, setViewCtx] = useState<TemplateContext | null>(null)
  // The button last pressed: where focus goes back when the dialog it opened closes.
  const button = useRef<HTMLElement | null>(null)
  const t = useMessages(messages)
  // Viewing as someone is read-only: what would change data is shown, not offered.
  const readOnly = !!useViewAs() && changesData(action)
  const ctx: TemplateContext = { ...base, ...extra }
  const visible = evalCondition(action.visibleWhen, ctx)
  const label = l(action.label)
  useOfferAction(
    offer && visible && !disabled && !readOnly && OFFERED_KINDS.has(action.kind)
      ? { key: `${ownerId ?? 'page'}:${action.id}`, label, icon: action.icon, run: () => void onClick() }
      : null,
  )
  // A form or view already open outlives its action: the record behind it may change under it
  // (a live refresh ends the contract whose «Dar de baja» is open), and what the user typed is not
  // thrown away; the form meets the change itself (its conflict panel). Only the button goes.
  const open = formCtx !== null || viewCtx !== null
  if (!visible && !open) return null

  const onClick = async () => {
    setBusy(true)
    try {
      const more = prepare ? await prepare() : {}
      if (more === null) return
      const full = { ...ctx, ...more }
      if (action.kind === 'form') {
        setFormCtx(full)
        return
      }
      if (action.kind === 'dialog') {
        setViewCtx(full)
        return
      }
      await runAction(action, full, { client, navigate, ownerId, reveal: showRevealed })
    } finally {
      setBusy(false)
    }
  }

  const press = (e: MouseEvent<HTMLButtonElement>) => {
    button.current = e.currentTarget
    void onClick()
  }

  return (
    <>
      {visible &&
        (compact && !readOnly ? (
          // A row's button: drawn once per row, so plain markup and the app's one tooltip (ui/hover-tip).
          <PlainButton
            icon={action.icon}
            aria-label={label}
            data-tip={label}
            severity={action.severity}
            text
            rounded
            size="small"
            loading={busy}
            disabled={disabled}
            onClick={press}
            data-action={action.id}
          />
        ) : (
          <Button
            type="button"
            label={compact ? undefined : label}
            icon={action.icon}
            aria-label={label}
            tooltip={readOnly ? t('viewAs.readOnly') : undefined}
            tooltipOptions={{ position: 'top', showOnDisabled: readOnly }}
            severity={action.severity === 'warning' ? 'warning' : action.severity}
            outlined={compact ? false : action.severity === 'secondary'}
            text={compact}
            rounded={compact}
            size={compact ? 'small' : undefined}
            loading={busy}
            disabled={disabled || readOnly}
            onClick={press}
            data-action={action.id}
          />
        ))}
      {action.kind === 'form' && action.form && formCtx && (
        <Suspense fallback={null}>
          <FormDialog
            action={action}
            form={action.form}
            ctx={formCtx}
            ownerId={ownerId}
            onClose={() => setFormCtx(null)}
            onReveal={showRevealed}
            opener={() => button.current}
          />
        </Suspense>
      )}
      {action.kind === 'dialog' && action.content && viewCtx && (
        <ViewDialog title={fill(l(action.dialogTitle ?? action.label), viewCtx)} width={action.dialogWidth} ctx={viewCtx} nodes={action.content} onClose={() => setViewCtx(null)} opener={() => button.current} />
      )}
    </>
  )
}

/** A row of action buttons (page or table toolbar, detail header). */
export function ActionBar({ actions, extra, ownerId }: { actions: ActionSpec[]; extra?: Partial<TemplateContext>; ownerId?: string }) {
  return (
    <div className="action-bar">
      {actions.map((a) => (
        <ActionButton key={a.id} action={a} extra={extra} ownerId={ownerId} offer />
      ))}
    </div>
  )
}

/** The standalone `action` node. */
export function ActionNodeInner({ action }: { action: ActionSpec }) {
  return (
    <div className="action-node">
      <ActionButton action={action} offer />
    </div>
  )
}
