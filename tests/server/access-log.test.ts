import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DestinationStream } from 'pino'
import { describe, expect, it } from 'vitest'
import { requestCompletedLogger } from '../../server/plugins/access-log'

const collector = () => {
  const lines: string[] = []
  const stream: DestinationStream = { write: (line: string) => void lines.push(line) }
  return { lines, stream }
}
/** A request; `personal` names the query parameters its catalogued call marks as personal data (none: not a catalogued call). */
const request = (url: string, host = 'portal.energiaverde.localhost', personal?: string[]) =>
  ({ id: 'a1b2c3', method: 'GET', url, host, ip: '127.0.0.1', apiCall: personal ? { personalQuery: new Set(personal) } : null }) as unknown as FastifyRequest
const reply = { statusCode: 404, elapsedTime: 12.345 } as unknown as FastifyReply

describe('the request-completed line', () => {
  it('is one JSON line in the logger’s shape, with the query’s secrets masked', () => {
    const { lines, stream } = collector()
    requestCompletedLogger('info', stream)(request('/api/clientes?iban=ES9121000418450200051332&pageIndex=2', undefined, ['iban']), reply)
    expect(lines).toHaveLength(1)
    expect(lines[0]!.endsWith('}\n')).toBe(true)
    const line = JSON.parse(lines[0]!)
    expect(line).toMatchObject({
      level: 30,
      pid: process.pid,
      reqId: 'a1b2c3',
      req: { method: 'GET', url: '/api/clientes?iban=ES************32&pageIndex=2', host: 'portal.energiaverde.localhost', remoteAddress: '127.0.0.1' },
      res: { statusCode: 404 },
      responseTime: 12.3,
      msg: 'request completed',
    })
    expect(Math.abs(line.time - Date.now())).toBeLessThan(5_000)
  })

  it('stays valid JSON whatever the URL and host hold', () => {
    const { lines, stream } = collector()
    const url = '/api/x?q="}\u0001\n{"level":60'
    requestCompletedLogger('debug', stream)(request(url, 'evil"host', []), reply)
    const line = JSON.parse(lines[0]!)
    expect(line.req.url).toBe(url)
    expect(line.req.host).toBe('evil"host')
    expect(line.level).toBe(30)
    expect(lines[0]!.split('\n')).toHaveLength(2)
  })

  it('masks what the catalogue marks as personal, a list filter’s values included, and every value of a call it does not know', () => {
    const { lines, stream } = collector()
    const log = requestCompletedLogger('info', stream)
    log(request('/api/contract?pageIndex=0&filterColumns[0]=Nif&filterQueries[0]=B34091231', undefined, ['filterQueries']), reply)
    log(request('/auth/resetpassword?email=ana%40ejemplo.es&token=abcdefghijklmnop'), reply)
    const [list, page] = lines.map((l) => JSON.parse(l).req.url as string)
    expect(list).toBe('/api/contract?pageIndex=0&filterColumns[0]=Nif&filterQueries[0]=B3*****31')
    expect(page).toBe('/auth/resetpassword?email=an**********es&token=ab************op')
    expect(lines.join('')).not.toMatch(/B34091231|ejemplo|abcdefghijklmnop/)
  })

  it('writes nothing when the log level is above info', () => {
    for (const level of ['warn', 'error', 'silent']) {
      const { lines, stream } = collector()
      requestCompletedLogger(level, stream)(request('/api/x'), reply)
      expect(lines, level).toHaveLength(0)
    }
  })
})
