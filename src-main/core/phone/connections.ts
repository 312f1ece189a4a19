/**
 * What one peer on the network may hold of the phone listener (issue 31): a few connections, kept
 * only while bytes move. A phone's browser opens at most six connections to a host; someone opening
 * many, trickling headers or never finishing a body (slowloris) gets its own connections cut and
 * never the ones of the phone that is sending photos.
 *
 *   PER_PEER_CONNECTIONS   8       more from the same address are closed as they open
 *   MAX_CONNECTIONS        256     in all (every peer together)
 *   HEADERS_TIMEOUT_MS     10 s    a request's headers must have arrived by then (checked every second)
 *   IDLE_TIMEOUT_MS        60 s    a connection with no byte either way is closed (the longest wait
 *                                  is the 20 s of GET /state?wait=1, or a document being made)
 *   REQUEST_TIMEOUT_MS     5 min   a whole request, the phone's own upload timeout: 40 MB (the
 *                                  largest photo) at 1.1 Mbit/s, a 5 MB photo at 140 kbit/s
 *   KEEP_ALIVE_TIMEOUT_MS  5 s     between two requests on one connection
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'

export const PER_PEER_CONNECTIONS = 8
export const MAX_CONNECTIONS = 256
export const HEADERS_TIMEOUT_MS = 10_000
export const IDLE_TIMEOUT_MS = 60_000
export const REQUEST_TIMEOUT_MS = 5 * 60_000
export const KEEP_ALIVE_TIMEOUT_MS = 5_000

/** Options of `createServer` for these limits. */
export const SERVER_LIMITS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  // Node checks the two timeouts above on this interval (30 s by default).
  connectionsCheckingInterval: 1_000,
  maxHeaderSize: 8192,
} as const

/** Applies the limits to a server: the per-peer cap, the total, idle and keep-alive timeouts. */
export function limitConnections(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.setTimeout(IDLE_TIMEOUT_MS, (socket: Socket) => socket.destroy())
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? ''
    const n = (open.get(peer) ?? 0) + 1
    if (n > PER_PEER_CONNECTIONS) {
      socket.destroy()
      return
    }
    open.set(peer, n)
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1
      if (left > 0) open.set(peer, left)
      else open.delete(peer)
    })
  })
}
