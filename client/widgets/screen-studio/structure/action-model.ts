import type { ActionSpec, AfterSpec, Text } from '../../../../schemas/screen'
import { withProps } from './edit'

/**
 * Actions as the actions editor builds them from the admin's choices: a new one, a change of
 * kind, what follows a call, the templates a parameter may take from where the action sits. Pure.
 */
export type ActionKind = ActionSpec['kind']
export const ACTION_KINDS: readonly ActionKind[] = ['navigate', 'call', 'download', 'form', 'dialog']

/** The colours an action may take (the schema's severities). */
export const ACTION_SEVERITIES = ['success', 'info', 'warning', 'danger', 'secondary', 'contrast', 'help'] as const satisfies readonly NonNullable<ActionSpec['severity']>[]

/** The keys only some kinds use: changing kind leaves out what the new kind does not read. */
const KIND_KEYS: Record<ActionKind, readonly (keyof ActionSpec)[]> = {
  navigate: ['to', 'back'],
  call: ['call', 'after'],
  download: ['call'],
  form: ['form', 'dialogTitle', 'dialogWidth'],
  dialog: ['content', 'dialogTitle', 'dialogWidth'],
}

/** `base`, or `base-2`, `base-3`… : the first not in `taken`. */
export function uniqueId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base
  let n = 2
  while (taken.includes(`${base}-${n}`)) n++
  return `${base}-${n}`
}

/** A new action after `existing`: an id of its own, the label given, going nowhere until a target is picked. */
export function newAction(existing: readonly ActionSpec[], label: Text): ActionSpec {
  return { id: uniqueId('accion', existing.map((a) => a.id)), label, kind: 'navigate' }
}

/**
 * `action` turned into `kind`: what the old kind alone used (its target, call, form or dialog)
 * is left out; a call stays between call and download only when it is a GET, as a download is.
 */
export function withKind(action: ActionSpec, kind: ActionKind): ActionSpec {
  if (kind === action.kind) return action
  const keep = new Set(KIND_KEYS[kind])
  const drop: Partial<Record<keyof ActionSpec, undefined>> = {}
  for (const key of KIND_KEYS[action.kind]) if (!keep.has(key)) drop[key] = undefined
  if (keep.has('call') && action.call && (kind === 'download') !== (action.call.method === 'GET')) drop.call = undefined
  return withProps({ ...action, kind }, drop)
}

/** `action` with its `after` patched; an empty `after` leaves the action. */
export function withAfter(action: ActionSpec, patch: { [K in keyof AfterSpec]?: AfterSpec[K] | undefined }): ActionSpec {
  const after = withProps(action.after ?? {}, patch, true)
  return withProps(action, { after: Object.keys(after).length ? after : undefined })
}

/** Where an action sits, which says what its templates read: a row, the selected rows, a detail's data, the route's parameters. */
export interface ActionScope {
  kind: 'row' | 'selected' | 'data' | 'params'
  /** The fields (or route parameters) known there. */
  fields: readonly string[]
}

/** The templates offered for a parameter of an action in `scope`: `{row.Id}`, `{data.Codigo}`, `{params.id}`… */
export const templatesOf = (scope: ActionScope): string[] => [...new Set(scope.fields)].map((f) => `{${scope.kind}.${f}}`)
