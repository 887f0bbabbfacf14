import fp from 'fastify-plugin'
import type { Brand, BrandRegistry } from '../../brand/brand-registry'

declare module 'fastify' {
  interface FastifyRequest {
    /** The brand picked from the Host header; set for every request (see brandPlugin). */
    brand: Brand
  }
}

/**
 * Sets `request.brand` from the Host header on every request (host → brand is
 * server/brand/brand-registry.ts). After the host check, so only names this portal serves are
 * resolved; before every route, the proxy and the session gate, which all read it.
 */
export const brandPlugin = fp<{ brands: BrandRegistry }>(
  async function brand(app, { brands }) {
    app.decorateRequest('brand', null as never)
    app.addHook('onRequest', (request, _reply, done) => {
      request.brand = brands.resolve(request.host)
      done()
    })
  },
  { name: 'brand', fastify: '5.x', dependencies: ['host-check'] },
)
