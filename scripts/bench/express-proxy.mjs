// The comparison many teams would write: Express 5 + http-proxy-middleware forwarding /api/*
// over a keep-alive agent, with the same header injection as the BFF (bearer token, brand
// domain, request id, forwarded host and scheme; the browser's cookie dropped), but no
// session lookup and no request log. Run as its own process by the benchmark:
//   PORT=… UPSTREAM_URL=… UPSTREAM_TOKEN=… BRAND_DOMAIN=… node scripts/bench/express-proxy.mjs
import express from 'express'
import { createProxyMiddleware } from 'http-proxy-middleware'
import { randomUUID } from 'node:crypto'
import http from 'node:http'

const { PORT, UPSTREAM_URL, UPSTREAM_TOKEN, BRAND_DOMAIN } = process.env
if (!PORT || !UPSTREAM_URL || !UPSTREAM_TOKEN || !BRAND_DOMAIN) throw new Error('PORT, UPSTREAM_URL, UPSTREAM_TOKEN and BRAND_DOMAIN are needed')

// Without keep-alive every proxied request would open a connection to the upstream.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256 })
const bearer = `Bearer ${UPSTREAM_TOKEN}`

const app = express()
app.disable('x-powered-by')
app.get('/healthz', (_req, res) => res.json({ status: 'ok' }))
app.use(
  createProxyMiddleware({
    target: UPSTREAM_URL,
    pathFilter: '/api',
    agent,
    on: {
      proxyReq: (proxyReq, req) => {
        proxyReq.removeHeader('cookie')
        proxyReq.setHeader('authorization', bearer)
        proxyReq.setHeader('x-brand-domain', BRAND_DOMAIN)
        proxyReq.setHeader('x-request-id', randomUUID())
        proxyReq.setHeader('x-forwarded-host', req.headers.host ?? '')
        proxyReq.setHeader('x-forwarded-proto', 'http')
      },
    },
  }),
)

const server = app.listen(Number(PORT), '127.0.0.1', () => console.log(`express proxy on http://127.0.0.1:${PORT} → ${UPSTREAM_URL}`))
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)))
