import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  CreateViewBody,
  UpdateViewBody,
  VIEW_LAYOUT_MAX_BYTES,
  VIEW_NAME_MAX,
  ViewListQuery,
  ViewParams,
  WithdrawViewQuery,
  type View,
  type ViewConflictAnswer,
  type ViewForUser,
  type ViewListAnswer,
} from '../../schemas/view'
import { fullName, originOf, type AuditWriter } from '../audit/audit-writer'
import { MESSAGES, sendError } from '../lib/errors'
import { viewerOf } from '../screens/screen-release'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { ScreenService } from '../screens/screen-service'
import type { SessionGate } from '../session/session-gate'
import { canEdit, canSee, isShared, PUBLISH_PERMISSION, type ViewReader } from './view-access'
import { columnProblem, sharedFilterProblem, tableOf } from './view-columns'
import { VIEW_LIMITS, type ViewStore, type ViewWriteResult } from './view-store'

export const VIEW_MESSAGES = {
  name: `El nombre de la vista debe tener entre 1 y ${VIEW_NAME_MAX} caracteres.`,
  nameTaken: (name: string) => `Ya tienes una vista llamada «${name}» en esta tabla: elige otro nombre.`,
  tableFull: `Has llegado al máximo de ${VIEW_LIMITS.perTable} vistas en esta tabla: retira alguna antes de guardar otra.`,
  ownerFull: `Has llegado al máximo de ${VIEW_LIMITS.perOwner} vistas: retira alguna antes de guardar otra.`,
  group: 'Para compartir la vista con un grupo, elige uno de los grupos a los que perteneces.',
  groupOnlyShared: 'Solo una vista compartida con un grupo lleva grupo.',
  publish: 'Solo quien gestiona los accesos (GESTORACCESS) puede publicar una vista para toda la marca.',
  ownerSharing: 'Solo quien creó la vista puede cambiar con quién se comparte.',
  layout: `La disposición de columnas de la vista es demasiado grande (máximo ${VIEW_LAYOUT_MAX_BYTES / 1024} KB).`,
  noScreen: (screen: string) => `No existe la pantalla «${screen}».`,
  noTable: (screen: string, table: string) => `La pantalla «${screen}» no tiene la tabla «${table}».`,
  none: 'No existe esa vista o no la puedes ver.',
  notOwner: 'Solo quien creó la vista (o, si está publicada para la marca, quien gestiona los accesos) puede cambiarla o retirarla.',
  stale: 'Otra persona ha cambiado esta vista mientras la editabas: vuelve a abrirla y repite el cambio.',
} as const

export interface ViewRouteOptions {
  gate: SessionGate
  store: ViewStore
  screens: Pick<ScreenService, 'screenFor' | 'viewFor'>
  audit: AuditWriter
  /** The endpoint catalogue: which columns of a table's call hold personal data. */
  catalogue: CallIndex
  now?: () => number
}

/**
 * `GET/POST /bff/views`, `PUT/DELETE /bff/views/:id`: views of lists kept by the BFF. The owner
 * and what they may share come from the session alone; filters, sort and columns are checked
 * against the screen this user is served. Shared views' saves and withdrawals are audited.
 */
export async function viewRoutes(app: FastifyInstance, opts: ViewRouteOptions) {
  const now = opts.now ?? Date.now
  // Before the body is read: a signed-out caller costs no parsing.
  app.addHook('onRequest', async (request, reply) => {
    if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
  })

  const readerOf = (request: FastifyRequest): ViewReader => {
    const user = request.sessionMemo!.user
    return { id: user.Id, brand: request.brand.key, groups: (user.Grupos ?? []).map((g) => g.Id), publisher: user.Permisos.some((p) => p.NombreNormalizado === PUBLISH_PERMISSION) }
  }
  const forUser = (view: View, reader: ViewReader): ViewForUser => ({ ...view, editable: canEdit(view, reader) })

  /** What the table of `screen` lets a view name, or the Spanish reason it cannot be saved there (with its status). */
  const checkContent = async (request: FastifyRequest, screenId: string, tableId: string, content: Pick<View, 'filters' | 'sort' | 'columns' | 'layout' | 'visibility'>): Promise<{ status: number; message: string } | null> => {
    const session = request.sessionMemo!
    const viewer = viewerOf(request.brand.key, session.user)
    const served = await opts.screens.screenFor(screenId, viewer)
    if (!served) return { status: 404, message: VIEW_MESSAGES.noScreen(screenId) }
    // A screen behind a permission the user lacks takes no views of theirs (as it is not served to them).
    const routes = (await opts.screens.viewFor(viewer)).routes.filter((r) => r.screen === screenId)
    const permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    if (routes.length > 0 && routes.every((r) => r.permission && !permissions.has(r.permission))) return { status: 403, message: MESSAGES.forbidden }
    const table = tableOf(served.screen, tableId)
    if (!table) return { status: 400, message: VIEW_MESSAGES.noTable(screenId, tableId) }
    const problem = columnProblem(table, content) ?? (content.visibility === 'private' ? null : sharedFilterProblem(table, content.filters, opts.catalogue))
    if (problem) return { status: 400, message: problem }
    if (content.layout && Buffer.byteLength(JSON.stringify(content.layout)) > VIEW_LAYOUT_MAX_BYTES) return { status: 400, message: VIEW_MESSAGES.layout }
    return null
  }

  /** Who may see it, as sent: a group of the saver's own, brand for publishers only. */
  const checkSharing = (request: FastifyRequest, reader: ViewReader, body: Pick<View, 'visibility' | 'groupId'>): { status: number; message: string; groupName?: string } | { groupName?: string } => {
    if (body.visibility === 'brand' && !reader.publisher) return { status: 403, message: VIEW_MESSAGES.publish }
    if (body.visibility !== 'group') return body.groupId === undefined ? {} : { status: 400, message: VIEW_MESSAGES.groupOnlyShared }
    const group = (request.sessionMemo!.user.Grupos ?? []).find((g) => g.Id === body.groupId)
    return group ? { groupName: group.Nombre } : { status: 400, message: VIEW_MESSAGES.group }
  }

  const refused = (reply: FastifyReply, result: ViewWriteResult, name: string, current?: ViewForUser) => {
    if (result === 'name-taken') return sendError(reply, 400, VIEW_MESSAGES.nameTaken(name))
    if (result === 'table-full') return sendError(reply, 400, VIEW_MESSAGES.tableFull)
    if (result === 'owner-full') return sendError(reply, 400, VIEW_MESSAGES.ownerFull)
    if (result === 'missing') return sendError(reply, 404, VIEW_MESSAGES.none)
    return conflict(reply, current!)
  }
  const conflict = (reply: FastifyReply, current: ViewForUser) => {
    const answer: ViewConflictAnswer = { statusCode: 409, error: 'Conflict', message: VIEW_MESSAGES.stale, current }
    return reply.code(409).header('cache-control', 'no-store').send(answer)
  }

  const audited = (request: FastifyRequest, status: number, action: string, view: View) =>
    opts.audit.admin(originOf(request, status), {
      action,
      doc: `vista:${view.id}`,
      version: view.version,
      details: { name: view.name, screen: view.screen, table: view.table, visibility: view.visibility, ...(view.groupId !== undefined ? { groupId: view.groupId, groupName: view.groupName } : {}), owner: view.owner },
    })

  app.get<{ Querystring: ViewListQuery }>('/bff/views', { schema: { querystring: ViewListQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const reader = readerOf(request)
    const user = request.sessionMemo!.user
    const all = await opts.store.listTable(reader.brand, request.query.screen, request.query.table)
    const views = all
      .filter((v) => canSee(v, reader))
      .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id))
      .map((v) => forUser(v, reader))
    const answer: ViewListAnswer = { views, groups: (user.Grupos ?? []).map((g) => ({ id: g.Id, name: g.Nombre })), canPublish: reader.publisher }
    return answer
  })

  app.post<{ Body: CreateViewBody }>('/bff/views', { schema: { body: CreateViewBody } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const body = request.body
    const reader = readerOf(request)
    const name = body.name.trim()
    if (!name || name.length > VIEW_NAME_MAX) return sendError(reply, 400, VIEW_MESSAGES.name)
    const sharing = checkSharing(request, reader, body)
    if ('status' in sharing) return sendError(reply, sharing.status, sharing.message)
    const bad = await checkContent(request, body.screen, body.table, body)
    if (bad) return sendError(reply, bad.status, bad.message)
    const user = request.sessionMemo!.user
    const view: View = {
      id: randomUUID(),
      name,
      screen: body.screen,
      table: body.table,
      filters: body.filters,
      sort: body.sort,
      ...(body.columns ? { columns: body.columns } : {}),
      ...(body.layout ? { layout: body.layout } : {}),
      visibility: body.visibility,
      ...(body.visibility === 'group' ? { groupId: body.groupId, groupName: sharing.groupName } : {}),
      owner: { id: user.Id, name: fullName(user) },
      brand: reader.brand,
      version: 1,
      updatedAt: new Date(now()).toISOString(),
    }
    const result = await opts.store.create(view)
    if (result !== 'ok') return refused(reply, result, name)
    if (isShared(view)) await audited(request, 201, 'view.save', view)
    return reply.code(201).send(forUser(view, reader))
  })

  app.put<{ Params: ViewParams; Body: UpdateViewBody }>('/bff/views/:id', { schema: { params: ViewParams, body: UpdateViewBody } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const body = request.body
    const reader = readerOf(request)
    const current = await opts.store.get(request.params.id)
    if (!current || !canSee(current, reader)) return sendError(reply, 404, VIEW_MESSAGES.none)
    if (!canEdit(current, reader)) return sendError(reply, 403, VIEW_MESSAGES.notOwner)
    if (current.version !== body.version) return conflict(reply, forUser(current, reader))
    const name = body.name.trim()
    if (!name || name.length > VIEW_NAME_MAX) return sendError(reply, 400, VIEW_MESSAGES.name)
    const owner = current.owner.id === reader.id
    if (!owner && (body.visibility !== current.visibility || body.groupId !== current.groupId)) return sendError(reply, 403, VIEW_MESSAGES.ownerSharing)
    const sharing = checkSharing(request, reader, body)
    if ('status' in sharing) return sendError(reply, sharing.status, sharing.message)
    const bad = await checkContent(request, current.screen, current.table, body)
    if (bad) return sendError(reply, bad.status, bad.message)
    const next: View = {
      id: current.id,
      name,
      screen: current.screen,
      table: current.table,
      filters: body.filters,
      sort: body.sort,
      ...(body.columns ? { columns: body.columns } : {}),
      ...(body.layout ? { layout: body.layout } : {}),
      visibility: body.visibility,
      ...(body.visibility === 'group' ? { groupId: body.groupId, groupName: sharing.groupName } : {}),
      owner: current.owner,
      brand: current.brand,
      version: current.version + 1,
      updatedAt: new Date(now()).toISOString(),
    }
    const result = await opts.store.replace(next, body.version)
    if (result === 'stale') {
      const latest = await opts.store.get(current.id)
      return latest ? conflict(reply, forUser(latest, reader)) : sendError(reply, 404, VIEW_MESSAGES.none)
    }
    if (result !== 'ok') return refused(reply, result, name)
    // Shared before or after: either way people other than the owner saw it change.
    if (isShared(next) || isShared(current)) await audited(request, 200, 'view.update', next)
    return forUser(next, reader)
  })

  app.delete<{ Params: ViewParams; Querystring: WithdrawViewQuery }>('/bff/views/:id', { schema: { params: ViewParams, querystring: WithdrawViewQuery } }, async (request, reply) => {
    const reader = readerOf(request)
    const current = await opts.store.get(request.params.id)
    if (!current || !canSee(current, reader)) return sendError(reply, 404, VIEW_MESSAGES.none)
    if (!canEdit(current, reader)) return sendError(reply, 403, VIEW_MESSAGES.notOwner)
    const expected = request.query.version
    if (expected !== undefined && expected !== current.version) return conflict(reply, forUser(current, reader))
    const result = await opts.store.remove(current.id, expected)
    if (result === 'stale') {
      const latest = await opts.store.get(current.id)
      return latest ? conflict(reply, forUser(latest, reader)) : reply.code(204).send()
    }
    // Gone meanwhile: what was asked is done.
    if (result === 'ok' && isShared(current)) await audited(request, 204, 'view.withdraw', current)
    return reply.code(204).send()
  })
}
