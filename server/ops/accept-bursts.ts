import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Accepting first while connections pour in.
 *
 * Node 20's libuv accepts one connection per event-loop turn (libuv/libuv#3696), and every
 * turn also serves each connection already open. When many open at once (a proxy filling its
 * pool, a balancer sending a replica its share after a restart) the last ones wait hundreds
 * of turns, each as long as serving all the others, before their first request is even read:
 * a second at 200 connections here, where nginx takes a tenth of that. While new connections
 * keep coming turn after turn, this stops reading the open ones, so a turn is little more
 * than an accept and the queue drains in a few milliseconds; reading resumes on the first
 * turn with no new connection. A pause lasts `maxPauseMs` at most, and then none starts for
 * as long again, so an endless stream of new connections never starves the open ones.
 *
 * Reading is stopped and started on the socket's libuv handle (`readStop`/`readStart`, the
 * calls Node's own streams make). Node marks a handle it wants read with `reading`; a pause
 * never touches that mark, and resumes only handles Node still wants read, so back-pressure
 * and a closed socket stay Node's decision. Where the handle lacks those calls (another
 * runtime) nothing is ever paused: `active` says which.
 */

interface ReadableHandle {
  reading?: boolean
  readStop(): number
  readStart(): number
}

export interface AcceptBurstOptions {
  /** Longest pause of the open connections' reading; as long again must pass before another (100 ms; 0: never paused). */
  maxPauseMs?: number
  /** Consecutive turns with a new connection that make a burst (2: a lone connection pauses nobody). */
  burstTurns?: number
  now?: () => number
}

export interface AcceptBursts {
  /** Whether connections can be paused: on, and this runtime's sockets allow it. */
  readonly active: boolean
  /** Bursts met so far (each paused reading once). */
  readonly bursts: number
  /** Whether reading is paused now. */
  readonly paused: boolean
}

function handleOf(socket: Socket): ReadableHandle | undefined {
  const handle = (socket as unknown as { _handle?: Partial<ReadableHandle> | null })._handle
  return handle && typeof handle.readStop === 'function' && typeof handle.readStart === 'function' ? (handle as ReadableHandle) : undefined
}

export function acceptBurstsFirst(server: Server, options: AcceptBurstOptions = {}): AcceptBursts {
  const maxPauseMs = options.maxPauseMs ?? 100
  const burstTurns = options.burstTurns ?? 2
  const now = options.now ?? (() => performance.now())
  const open = new Set<Socket>()
  const stopped = new Set<Socket>()
  let active = maxPauseMs > 0
  let bursts = 0
  let pausedSince: number | undefined
  let quietUntil = 0
  // Turns in a row that accepted a connection; `accepted` is this turn's.
  let streak = 0
  let accepted = false
  let watching = false

  const stop = (socket: Socket) => {
    const handle = handleOf(socket)
    if (!handle || socket.destroyed || stopped.has(socket)) return
    handle.readStop()
    stopped.add(socket)
  }
  const resume = () => {
    for (const socket of stopped) {
      const handle = handleOf(socket)
      if (handle?.reading && !socket.destroyed) handle.readStart()
    }
    stopped.clear()
    pausedSince = undefined
  }

  // Runs once per turn, after its accepts (the check phase follows the poll phase).
  const endOfTurn = () => {
    streak = accepted ? streak + 1 : 0
    accepted = false
    if (pausedSince !== undefined && (streak === 0 || now() - pausedSince >= maxPauseMs)) {
      // Each pause stops and starts every open connection: after one, a while passes before
      // the next (a tenth of the bound, or the whole bound after a pause that reached it).
      quietUntil = now() + (streak > 0 ? maxPauseMs : maxPauseMs / 10)
      resume()
    } else if (pausedSince === undefined && streak >= burstTurns && now() >= quietUntil) {
      bursts++
      pausedSince = now()
      for (const socket of open) stop(socket)
    }
    if (streak > 0 || pausedSince !== undefined) setImmediate(endOfTurn)
    else watching = false
  }

  const stats = {
    get active() {
      return active
    },
    get bursts() {
      return bursts
    },
    get paused() {
      return pausedSince !== undefined
    },
  }
  if (maxPauseMs === 0) return stats

  server.on('connection', (socket: Socket) => {
    if (!handleOf(socket)) {
      active = false
      return
    }
    open.add(socket)
    socket.once('close', () => {
      open.delete(socket)
      stopped.delete(socket)
    })
    accepted = true
    // Node's HTTP server has already started reading it (its listener runs first).
    if (pausedSince !== undefined) stop(socket)
    if (!watching) {
      watching = true
      setImmediate(endOfTurn)
    }
  })

  return stats
}
