import type { FastifyInstance } from 'fastify'
import fs from 'node:fs/promises'
import path from 'node:path'
import { sendError, MESSAGES } from '../lib/errors'
import type { Brand, BrandRegistry } from './brand-registry'

const TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

function assetsOf(brand: Brand): Set<string> {
  return new Set([brand.Icon.Light, brand.Icon.Dark, brand.LogoIdentidad.Light, brand.LogoIdentidad.Dark, brand.Favicon])
}

/** Brand artwork: only the files a brand.json names are served, so no path reaches elsewhere. */
export async function brandRoutes(app: FastifyInstance, opts: { brands: BrandRegistry }) {
  const cache = new Map<string, Buffer>()
  const send = async (brand: Brand, file: string) => {
    const key = `${brand.key}/${file}`
    let data = cache.get(key)
    if (!data) {
      data = await fs.readFile(path.join(brand.dir, file))
      cache.set(key, data)
    }
    return data
  }

  app.get('/favicon.ico', async (request, reply) => {
    const brand = request.brand
    reply.header('cache-control', 'public, max-age=3600').header('vary', 'Host')
    return reply.type(TYPES[path.extname(brand.Favicon)] ?? 'application/octet-stream').send(await send(brand, brand.Favicon))
  })

  app.get<{ Params: { key: string; file: string } }>('/bff/brand/:key/:file', async (request, reply) => {
    const brand = opts.brands.byKey(request.params.key)
    const file = request.params.file
    if (!brand || !assetsOf(brand).has(file)) return sendError(reply, 404, MESSAGES.notFound)
    reply.header('cache-control', 'public, max-age=86400')
    return reply.type(TYPES[path.extname(file)] ?? 'application/octet-stream').send(await send(brand, file))
  })
}
