import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fs from 'node:fs'
import path from 'node:path'
import { MESSAGES, sendError } from '../lib/errors'

/** The build id written by `vite build` next to the client, or `dev` when running from sources. */
export function readBuildId(clientDist: string): string {
  try {
    const { buildId } = JSON.parse(fs.readFileSync(path.join(clientDist, 'build.json'), 'utf8')) as { buildId?: string }
    if (buildId) return buildId
  } catch {
    // no build yet
  }
  return 'dev'
}

/** Hashed file names: a new build gets new names, so these never change under their URL. */
const HASHED_DIR = `assets${path.sep}`
/** The build writes `.br` and `.gz` next to each text file; they are served in its place, never by their own name. */
const COMPRESSED_VARIANT = /\.(br|gz)$/

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated; the
 * build's brotli or gzip copy when the browser accepts it (dynamic answers, index.html
 * included, are compressed by ./compression.ts); any other browser navigation gets
 * index.html so the client router can answer (its 404 page too).
 */
export async function clientAssets(app: FastifyInstance, opts: { clientDist: string }) {
  const indexFile = path.join(opts.clientDist, 'index.html')
  const hasBuild = fs.existsSync(indexFile)
  const indexHtml = hasBuild ? fs.readFileSync(indexFile) : null

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: opts.clientDist,
      prefix: '/',
      index: false,
      wildcard: true,
      redirect: false,
      serveDotFiles: false,
      preCompressed: true,
      allowedPath: (pathName) => !COMPRESSED_VARIANT.test(pathName),
      setHeaders(res, filePath) {
        const rel = path.relative(opts.clientDist, filePath)
        res.header('cache-control', rel.startsWith(HASHED_DIR) ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }

  const sendIndex = (reply: FastifyReply) =>
    reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)

  // The root is a folder of the build: answer it with the app, not a directory listing refusal.
  if (indexHtml) app.get('/', (_request, reply) => sendIndex(reply))

  app.setNotFoundHandler((request, reply) => {
    const url = request.url
    // A missing build file is a 404, not the app: a stale page asking for an old chunk must see the failure.
    if (url.startsWith('/api/') || url.startsWith('/bff/') || url.startsWith('/assets/') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, MESSAGES.notFound)
    }
    if (!indexHtml) return sendError(reply, 404, 'El cliente no está compilado: ejecuta `npm run build`.')
    return sendIndex(reply)
  })
}
