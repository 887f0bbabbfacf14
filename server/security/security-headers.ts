import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * Security headers on every answer (@fastify/helmet), stricter than its defaults: no inline or
 * foreign scripts, no plugins, no <base>, never framed, no referrer outside this origin, HSTS
 * in production. Styles allow 'unsafe-inline' because PrimeReact injects its component styles
 * at run time; scripts do not. Called on the root instance (not registered as a child plugin)
 * so the headers cover every route.
 */
export async function securityHeaders(app: FastifyInstance, opts: { production: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'frame-src': ["'self'", 'blob:'],
        'manifest-src': ["'self'"],
        'form-action': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        ...(opts.production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    strictTransportSecurity: opts.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // Brand artwork and downloads are only ever used by this origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  })
}
