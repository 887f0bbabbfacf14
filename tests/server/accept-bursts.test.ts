import { EventEmitter } from 'node:events'
import http, { type Server } from 'node:http'
import net, { type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { acceptBurstsFirst } from '../../server/ops/accept-bursts'

/**
 * Issue 19: while connections pour in, the BFF stops reading the open ones so its event loop
 * accepts the queue first (Node 20 accepts one connection per turn). The pause must never lose
 * a request, must end when the burst does, must never outlast its bound, and must leave
 * Node's own decisions (back-pressure, closed sockets) alone.
 */

/** One event-loop turn: the check phase where the pause looks at what the turn accepted. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

class FakeSocket extends EventEmitter {
  destroyed = false
  _handle = { reading: true, readStop: vi.fn(() => 0), readStart: vi.fn(() => 0) }
}

function fakeServer(options: Parameters<typeof acceptBurstsFirst>[1] = {}) {
  const server = new EventEmitter() as unknown as Server
  const bursts = acceptBurstsFirst(server, options)
  const connect = () => {
    const socket = new FakeSocket()
    server.emit('connection', socket as unknown as Socket)
    return socket
  }
  return { bursts, connect }
}

describe('the pause, turn by turn', () => {
  it('pauses nobody for a lone connection', async () => {
    const { bursts, connect } = fakeServer()
    const open = connect()
    await turn()
    await turn()
    await turn()
    expect(bursts.bursts).toBe(0)
    expect(open._handle.readStop).not.toHaveBeenCalled()
  })

  it('stops the open connections once two turns in a row accept one, and starts them again the first turn that accepts none', async () => {
    const { bursts, connect } = fakeServer()
    const first = connect()
    await turn()
    const second = connect()
    await turn()
    expect(bursts.paused).toBe(true)
    expect(first._handle.readStop).toHaveBeenCalledTimes(1)
    expect(second._handle.readStop).toHaveBeenCalledTimes(1)
    // Accepted during the pause: stopped at once, like the others.
    const third = connect()
    expect(third._handle.readStop).toHaveBeenCalledTimes(1)
    await turn()
    expect(bursts.paused).toBe(true)
    await turn() // no new connection in this one
    expect(bursts.paused).toBe(false)
    expect(bursts.bursts).toBe(1)
    for (const s of [first, second, third]) expect(s._handle.readStart).toHaveBeenCalledTimes(1)
  })

  it('never pauses longer than its bound, and then lets as long pass before pausing again, however the connections keep coming', async () => {
    let clock = 0
    const { bursts, connect } = fakeServer({ maxPauseMs: 100, now: () => clock })
    const old = connect()
    const pausedAt: boolean[] = []
    // A new connection every turn, 10 ms apart, for 600 ms.
    for (let i = 0; i < 60; i++) {
      connect()
      await turn()
      pausedAt.push(bursts.paused)
      clock += 10
    }
    // Never more than 10 turns (100 ms) in a row paused, never fewer than 10 unpaused between.
    const runs = pausedAt.join('').split('false').filter(Boolean)
    expect(runs.length).toBeGreaterThanOrEqual(2)
    for (const run of pausedAt.map((p) => (p ? 'P' : '.')).join('').match(/P+/g) ?? []) expect(run.length).toBeLessThanOrEqual(11)
    for (const gap of pausedAt.map((p) => (p ? 'P' : '.')).join('').replace(/^\.+/, '').replace(/\.+$/, '').match(/\.+/g) ?? []) expect(gap.length).toBeGreaterThanOrEqual(9)
    // The connection open before it all was read again after each pause.
    expect(old._handle.readStart.mock.calls.length).toBe(old._handle.readStop.mock.calls.length - (bursts.paused ? 1 : 0))
  })

  it('lets a tenth of its bound pass after a pause before the next, so bursts in quick succession do not stop and start every connection each time', async () => {
    let clock = 0
    const { bursts, connect } = fakeServer({ maxPauseMs: 100, now: () => clock })
    const burst = async () => {
      connect()
      await turn()
      connect()
      await turn()
      await turn() // a turn with none: the burst is over
    }
    await burst()
    expect(bursts.bursts).toBe(1)
    clock += 5
    await burst()
    expect(bursts.bursts).toBe(1)
    clock += 10
    await burst()
    expect(bursts.bursts).toBe(2)
    expect(bursts.paused).toBe(false)
  })

  it('leaves alone what Node stopped itself (back-pressure) and what closed meanwhile', async () => {
    const { bursts, connect } = fakeServer()
    const heldBack = connect()
    const closing = connect()
    await turn()
    connect()
    await turn()
    expect(bursts.paused).toBe(true)
    // Node stops reading one for back-pressure (it clears `reading`); another one closes.
    heldBack._handle.reading = false
    closing.destroyed = true
    closing.emit('close')
    await turn()
    await turn()
    expect(bursts.paused).toBe(false)
    expect(heldBack._handle.readStart).not.toHaveBeenCalled()
    expect(closing._handle.readStart).not.toHaveBeenCalled()
  })

  it('pauses nobody when turned off (ACCEPT_BURST_MAX_PAUSE_MS=0)', async () => {
    const { bursts, connect } = fakeServer({ maxPauseMs: 0 })
    expect(bursts.active).toBe(false)
    const sockets = [connect()]
    for (let i = 0; i < 5; i++) {
      sockets.push(connect())
      await turn()
    }
    expect(bursts.active).toBe(false)
    expect(bursts.bursts).toBe(0)
    for (const s of sockets) expect(s._handle.readStop).not.toHaveBeenCalled()
  })

  it('stays out of the way where sockets cannot be paused this way', async () => {
    const server = new EventEmitter() as unknown as Server
    const bursts = acceptBurstsFirst(server)
    const bare = Object.assign(new EventEmitter(), { destroyed: false, _handle: {} })
    server.emit('connection', bare as unknown as Socket)
    await turn()
    expect(bursts.active).toBe(false)
    expect(bursts.bursts).toBe(0)
  })
})

describe('a real HTTP server under a burst of connections', () => {
  let server: Server | undefined
  const sockets: net.Socket[] = []
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy()
    await new Promise((r) => (server ? server.close(r) : r(undefined)))
    server = undefined
  })

  /** Opens `n` connections at once, each sending one request; resolves with each connection's answers so far. */
  function burst(port: number, n: number) {
    const answers = Array.from({ length: n }, () => '')
    const done = Array.from({ length: n }, (_, i) => {
      const socket = net.connect(port, '127.0.0.1')
      sockets.push(socket)
      socket.setEncoding('utf8')
      socket.write(`GET /r?c=${i}&k=1 HTTP/1.1\r\nHost: x\r\n\r\n`)
      return new Promise<void>((resolve) =>
        socket.on('data', (chunk: string) => {
          answers[i] += chunk
          if (answers[i]!.includes(`c=${i}&k=1;`)) resolve()
        }),
      )
    })
    return { answers, all: Promise.all(done) }
  }

  it('answers every request of 200 connections opened at once, pausing while they arrive, and keeps them all readable after', async () => {
    server = http.createServer((req, res) => {
      // Some work per request, as a proxy's: the turns grow with the connections served.
      const until = performance.now() + 0.05
      while (performance.now() < until);
      res.end(`${req.url!.split('?')[1]};`)
    })
    const bursts = acceptBurstsFirst(server)
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    const { answers, all } = burst(port, 200)
    await all
    for (let i = 0; i < 200; i++) expect(answers[i]).toMatch(new RegExp(`^HTTP/1.1 200 OK[\\s\\S]*c=${i}&k=1;$`))
    expect(bursts.active).toBe(true)
    // 200 connections at once queue up: the server met them as a burst.
    expect(bursts.bursts).toBeGreaterThanOrEqual(1)
    await turn()
    await turn()
    expect(bursts.paused).toBe(false)
    // Every connection is read again: a second request on each is answered.
    const second = sockets.map(
      (socket, i) =>
        new Promise<void>((resolve) => {
          socket.on('data', () => answers[i]!.includes(`c=${i}&k=2;`) && resolve())
          socket.write(`GET /r?c=${i}&k=2 HTTP/1.1\r\nHost: x\r\n\r\n`)
        }),
    )
    await Promise.all(second)
    expect(answers.every((a, i) => a.endsWith(`c=${i}&k=2;`))).toBe(true)
  })
})
