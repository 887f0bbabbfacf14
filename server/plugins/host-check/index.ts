import fp from 'fastify-plugin'
import type { BrandRegistry } from '../../brand/brand-registry'
import { sendError } from '../../lib/errors'

export interface HostPolicy {
  production: boolean
  brands: BrandRegistry
  /** ALLOWED_HOSTS: further names served in production (host names, no port). */
  allowedHosts: string[]
}

/** Paths answered on any host: orchestrators probe and Prometheus scrapes by IP or service name (/metrics has its own access check). */
const ANY_HOST_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

/** A host name without port or trailing dot, lower case; IPv6 literals keep their brackets. */
export function hostName(host: string | undefined): string {
  const h = (host ?? '').trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  return h.replace(/:\d+$/, '').replace(/\.$/, '')
}

const isIp = (name: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')

/**
 * The host names this portal answers: in production `portal.<Domain>` of each brand plus
 * ALLOWED_HOSTS; outside production also localhost, `*.localhost` (the brands' e2e hosts) and
 * IP literals. Anything else would let a foreign name (DNS rebinding, a cache keyed on Host,
 * links built from Host) reach the portal. The named hosts are gathered once, not per request.
 */
export function hostAllowlist(policy: HostPolicy): (host: string | undefined) => boolean {
  const named = new Set([...policy.brands.all.map((b) => `portal.${b.Domain.toLowerCase()}`), ...policy.allowedHosts.map(hostName)])
  return (host) => {
    const name = hostName(host)
    if (!name) return false
    if (named.has(name)) return true
    if (policy.production) return false
    return name === 'localhost' || name.endsWith('.localhost') || isIp(name)
  }
}

/**
 * Refuses other host names with 421 Misdirected Request. After the security headers and the
 * request-target refusal, before the brand, CSRF and everything else: nothing is resolved
 * or compared for a name this portal does not serve (the CSRF Origin check relies on it).
 */
export const hostCheckPlugin = fp<HostPolicy>(
  async function hostCheck(app, policy) {
    const allowed = hostAllowlist(policy)
    // Callback style (no promise per request); an answered request does not call done.
    app.addHook('onRequest', (request, reply, done) => {
      if (allowed(request.host) || ANY_HOST_PATHS.has(request.url.split('?', 1)[0]!)) return done()
      request.log.warn({ event: 'host_refused', host: String(request.host).slice(0, 100) }, 'request for a host this portal does not serve')
      sendError(reply, 421, 'Este portal no atiende ese nombre de servidor.')
    })
  },
  { name: 'host-check', fastify: '5.x', dependencies: ['security-headers', 'request-target'] },
)
