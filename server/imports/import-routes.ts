import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CheckImportBody, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportDefinitionView, type ImportJobView, type RowOutcomeKind } from '../../schemas/import'
import { HttpError, MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from '../session/session-gate'
import type { Session } from '../session/session-store'
import { columnViews, type ResolvedImport } from './import-definitions'
import type { ImportService } from './import-service'
import type { StoredJob } from './import-store'
import { sessionCalls } from './session-calls'
import { readTable, writeCsv, writeXlsx } from './table-file'

/**
 * `/bff/imports`: the bulk import of a catalogued call (issue 17). Template, upload, dry run,
 * commit, progress, result file and undo, for the signed-in user holding the target call's own
 * permission, in their brand. Rows go upstream through `/api` with the user's session.
 */

const OUTCOME_TEXT: Record<RowOutcomeKind, string> = {
  created: 'Importada',
  held: 'Pendiente de aprobación',
  duplicate: 'Ya importada',
  failed: 'Error',
  invalid: 'No enviada (datos no válidos)',
}

const FILE_TYPES = ['application/octet-stream', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']

function publicView(job: StoredJob): ImportJobView {
  const { brand: _b, ownerId: _o, createdAt: _c, undoData: _u, ...view } = job
  // While rows are being sent the client polls for progress: the outcomes come once at the end.
  return job.state === 'running' || job.state === 'undoing' ? { ...view, outcomes: [] } : view
}

export async function importRoutes(app: FastifyInstance, opts: { gate: SessionGate; service: ImportService; root: FastifyInstance }) {
  const { gate, service } = opts

  app.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body))

  const sessionOf = async (request: FastifyRequest, reply: FastifyReply): Promise<Session> => {
    const session = await gate.current(request, reply)
    if (!session) throw new HttpError(401, MESSAGES.unauthenticated)
    return session
  }

  /** The import, if the user may make its call. */
  const importFor = (session: Session, id: string): ResolvedImport => {
    const imp = service.definition(id)
    if (!imp) throw new HttpError(404, 'No existe esa importación.')
    if (imp.permission && !session.user.Permisos.some((p) => p.NombreNormalizado === imp.permission)) throw new HttpError(403, MESSAGES.forbidden)
    return imp
  }

  const owner = (request: FastifyRequest, session: Session) => ({ userId: session.userId, brand: request.brand.key })
  const callsFor = (request: FastifyRequest) => sessionCalls(opts.root, { cookie: String(request.headers.cookie ?? ''), host: String(request.headers.host ?? '') })
  const writable = (session: Session) => {
    if (session.actor) throw new HttpError(403, MESSAGES.viewAsReadOnly)
  }

  app.get<{ Params: { def: string } }>('/bff/imports/:def', async (request, reply) => {
    const imp = importFor(await sessionOf(request, reply), request.params.def)
    const view: ImportDefinitionView = { id: imp.def.id, title: imp.def.title, columns: columnViews(imp), maxRows: IMPORT_MAX_ROWS, maxBytes: IMPORT_MAX_BYTES }
    return view
  })

  app.get<{ Params: { def: string }; Querystring: { format?: string } }>('/bff/imports/:def/template', async (request, reply) => {
    const imp = importFor(await sessionOf(request, reply), request.params.def)
    const format = request.query.format ?? 'xlsx'
    if (format !== 'xlsx' && format !== 'csv') throw new HttpError(400, 'El formato de la plantilla debe ser xlsx o csv.')
    const headers = imp.columns.map((c) => c.name)
    const example = imp.columns.map((c) => imp.def.example[c.name] ?? '')
    if (format === 'csv') {
      const cells = example.map((v) => (typeof v === 'number' ? v.toLocaleString('es-ES', { useGrouping: false, maximumFractionDigits: 6 }) : v))
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="plantilla-${imp.def.fileName}.csv"`).send(writeCsv(headers, [cells]))
    }
    const file = await writeXlsx('Plantilla', headers, [example])
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="plantilla-${imp.def.fileName}.xlsx"`)
      .send(file)
  })

  app.post<{ Params: { def: string }; Querystring: { name?: string } }>(
    '/bff/imports/:def/upload',
    {
      // Refused on its declared size, before a byte of it is read.
      onRequest: (request, reply, done) => {
        const length = Number(request.headers['content-length'] ?? 0)
        if (length > IMPORT_MAX_BYTES) {
          sendError(reply, 413, `El archivo supera el máximo de ${IMPORT_MAX_BYTES / 1024 / 1024} MB: divídelo en varios.`)
          return
        }
        done()
      },
    },
    async (request, reply) => {
      const session = await sessionOf(request, reply)
      writable(session)
      const imp = importFor(session, request.params.def)
      if (!Buffer.isBuffer(request.body)) throw new HttpError(415, 'Envía el archivo CSV o XLSX tal cual (application/octet-stream).')
      const name = (request.query.name ?? 'importacion.csv').slice(0, 200)
      const table = await readTable(request.body, name)
      const job = await service.upload(imp, owner(request, session), name, table)
      request.log.info({ event: 'import_uploaded', import: imp.def.id, job: job.id, rows: job.rowCount }, 'import file uploaded')
      return reply.code(201).send(publicView(job))
    },
  )

  const withJob = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const session = await sessionOf(request, reply)
    const job = await service.jobOf(request.params.id, owner(request, session))
    const imp = importFor(session, job.definition)
    return { session, job, imp }
  }

  app.get<{ Params: { id: string } }>('/bff/imports/jobs/:id', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const { job } = await withJob(request, reply)
    return publicView(job)
  })

  app.post<{ Params: { id: string }; Body: CheckImportBody }>('/bff/imports/jobs/:id/check', { schema: { body: CheckImportBody } }, async (request, reply) => {
    const { session, job, imp } = await withJob(request, reply)
    writable(session)
    return publicView(await service.check(imp, job, request.body.mapping, callsFor(request)))
  })

  app.post<{ Params: { id: string } }>('/bff/imports/jobs/:id/commit', async (request, reply) => {
    const { session, job, imp } = await withJob(request, reply)
    writable(session)
    return reply.code(202).send(publicView(await service.commit(imp, job, callsFor(request))))
  })

  app.post<{ Params: { id: string } }>('/bff/imports/jobs/:id/undo', async (request, reply) => {
    const { session, job, imp } = await withJob(request, reply)
    writable(session)
    return reply.code(202).send(publicView(await service.undo(imp, job, callsFor(request))))
  })

  app.get<{ Params: { id: string } }>('/bff/imports/jobs/:id/result', async (request, reply) => {
    const { job, imp } = await withJob(request, reply)
    if (job.state !== 'done' && job.state !== 'undone') throw new HttpError(409, 'La importación aún no ha terminado.')
    const undoneLeft = new Map((job.undo?.left ?? []).map((l) => [l.row, l.reason]))
    const rows = job.outcomes.map((o) => {
      const undo = job.state === 'undone' && o.outcome === 'created' ? (undoneLeft.has(o.row) ? `No deshecha: ${undoneLeft.get(o.row)}` : 'Deshecha') : ''
      return [o.row, OUTCOME_TEXT[o.outcome], o.record ?? '', o.message ?? '', undo]
    })
    const file = await writeXlsx('Resultado', ['Fila', 'Resultado', 'Registro', 'Mensaje', 'Deshacer'], rows)
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="resultado-${imp.def.fileName}.xlsx"`)
      .send(file)
  })
}
