import type { QueryClient } from '@tanstack/react-query'
import type { NavigateFunction } from 'react-router-dom'
import type { ActionSpec, AfterSpec, CallSpec } from '../../../schemas/screen'
import { api, saveFile, send } from '../../api/client'
import { isHeld, reportError, withCallArea, type CallerText } from '../../api/errors'
import { nodeKey } from '../../api/query-keys'
import { notifySuccess } from '../../api/toast'
import { localized, messageIn } from '../../i18n/i18n'
import { confirm } from '../../ui/confirm'
import { fill, resolveParams, resolveValue, type TemplateContext } from '../template'
import { messages } from './messages'

/** The request of a call spec, with its templates filled from the context. */
export function resolveCall(call: CallSpec, ctx: TemplateContext) {
  const endpoint = `/${fill(call.endpoint, ctx, true)}`
  const params = resolveParams(call.params, ctx)
  let body: unknown
  if (call.body === 'values') body = ctx.values
  else if (call.body === 'row') body = ctx.row
  // The versioned form builds it from the record it holds (form/record-edit.ts).
  else if (call.body === 'record') body = undefined
  else if (call.body !== undefined) body = resolveValue(call.body, ctx)
  return { method: call.method, endpoint, params, body }
}

export interface ActionEnv {
  client: QueryClient
  navigate: NavigateFunction
  /** The table the action belongs to: refreshed after success. */
  ownerId?: string
  /** Shows a value once (e.g. a new API key). */
  reveal?: (value: string, spec: NonNullable<AfterSpec['reveal']>) => void
  /** Closes the dialog the action ran from. */
  closeDialog?: () => void
}

/**
 * The title of a success toast: a fixed one, or the call's, titled like its failures (the
 * screen's explicit area, else the endpoint catalogue's for the call, else the last resort).
 */
export type SuccessTitle = string | { area: CallerText | undefined; method: string; path: string; lastResort: string }

function notifyAfter(title: SuccessTitle, text: string): void {
  if (typeof title === 'string') notifySuccess(title, text)
  else withCallArea(title.area, title.method, title.path, title.lastResort, (area) => notifySuccess(area, text))
}

/** What every successful call or form does next: toast, refresh, reveal, close, navigate. */
export async function applyAfter(after: AfterSpec | undefined, success: string | undefined, title: SuccessTitle, ctx: TemplateContext, env: ActionEnv): Promise<void> {
  const message = success ?? (after?.toast ? localized(after.toast) : undefined)
  if (message) notifyAfter(title, fill(message, ctx))
  const ids = new Set([...(after?.refresh ?? []), ...(env.ownerId ? [env.ownerId] : [])])
  await Promise.all([...ids].map((id) => env.client.invalidateQueries({ queryKey: nodeKey(id) })))
  // Every other view of server data (another list, a detail left behind, option lists) is
  // marked stale and reloads when it is shown again: a change is never hidden by a cache.
  await env.client.invalidateQueries({ queryKey: ['node'], refetchType: 'none' })
  await env.client.invalidateQueries({ queryKey: ['options'], refetchType: 'none' })
  if (after?.reveal && env.reveal) {
    const value = resolveValue(`{result.${after.reveal.field}}`, ctx)
    if (typeof value === 'string') env.reveal(value, after.reveal)
  }
  if (after?.closeDialog) env.closeDialog?.()
  if (after?.navigate) env.navigate(fill(after.navigate, ctx, true))
  if (after?.restart) window.location.assign(fill(after.restart, ctx, true))
}

/**
 * Whether this tab holds a portal page before this one to go back to. The router numbers the
 * history entries it makes, from 0 where the portal was opened (a link, a bookmark, a new tab,
 * the page after sign-in, which replaces the sign-in page).
 */
export function cameFromPortal(): boolean {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx
  return typeof idx === 'number' && idx > 0
}

/** Whether running the action changes data (a call or form that is not a read): refused while viewing as someone. */
export function changesData(action: ActionSpec): boolean {
  if (action.kind === 'call') return !!action.call && action.call.method !== 'GET'
  if (action.kind === 'form') return !!action.form && action.form.submit.method !== 'GET'
  return false
}

/** Runs a navigate, call or download action. Form actions open their dialog in the button instead. */
export async function runAction(action: ActionSpec, ctx: TemplateContext, env: ActionEnv): Promise<boolean> {
  // The label titles the action's toasts only where neither the screen nor the endpoint catalogue gives an area.
  const label = localized(action.label)
  if (action.confirm && !(await confirm(fill(localized(action.confirm), ctx), localized(action.label)))) return false
  try {
    if (action.kind === 'navigate' && action.to) {
      if (action.back && cameFromPortal()) env.navigate(-1)
      else env.navigate(fill(action.to, ctx, true))
      return true
    }
    if (!action.call) return false
    const req = resolveCall(action.call, ctx)
    const title: SuccessTitle = { area: action.errorArea, method: req.method, path: req.endpoint, lastResort: label }
    if (action.kind === 'download') {
      const file = await api.download(req.endpoint, { method: req.method === 'POST' ? 'POST' : 'GET', params: req.params, body: req.body, fallbackName: messageIn(messages, 'download.name') })
      saveFile(file)
      if (action.success) notifyAfter(title, fill(localized(action.success), ctx))
      return true
    }
    const res = await send(req.method, req.endpoint, { params: req.params, body: req.body })
    const text = await res.text()
    let result: unknown = text
    try {
      result = text ? JSON.parse(text) : undefined
    } catch {
      // a text answer stays text
    }
    await applyAfter(action.after, action.success ? localized(action.success) : undefined, title, { ...ctx, result }, env)
    return true
  } catch (err) {
    reportError(action.errorArea, err, action.errorMessage, { area: label })
    // Held for approval: the BFF keeps the change; the dialog it ran from is done with.
    if (isHeld(err)) env.closeDialog?.()
    return false
  }
}
