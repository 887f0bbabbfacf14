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
 * A dot-named folder or file: `.vite/manifest.json` (Vite's module graph, read from disk by
 * `npm run bench:client`, of no use to a browser) and whatever else a tool leaves that way.
 */
const DOT_SEGMENT = /(?:^|\/)\./
/** Source maps (`build.sourcemap`): the client's sources, kept out of production. */
const SOURCE_MAP = /\.map$/i

/** Files of the build that are not for the browser: never served, answered 404 rather than with the app. */
function privateBuildFile(production: boolean): (pathName: string) => boolean {
  return (pathName) => DOT_SEGMENT.test(pathName) || (production && SOURCE_MAP.test(pathName))
}

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated; the
 * build's brotli or gzip copy when the browser accepts it (dynamic answers, index.html
 * included, are compressed by ./compression.ts); any other browser navigation gets
 * index.html so the client router can answer (its 404 page too). Files not meant for the
 * browser (privateBuildFile) are a 404, whatever the mode.
 */
export async function clientAssets(app: FastifyInstance, opts: { clientDist: string; production: boolean }) {
  const isPrivate = privateBuildFile(opts.production)
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
      // Also checked on the file finally chosen (its .br/.gz copy included), by the plugin.
      allowedPath: (pathName) => !COMPRESSED_VARIANT.test(pathName) && !isPrivate(pathName),
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
    // A private one too: the app's 200 would read as "it is there".
    if (url.startsWith('/api/') || url.startsWith('/bff/') || url.startsWith('/assets/') || isPrivate(url.split('?')[0]!) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, MESSAGES.notFound)
    }
    if (!indexHtml) return sendError(reply, 404, 'El cliente no está compilado: ejecuta `npm run build`.')
    return sendIndex(reply)
  })
}
