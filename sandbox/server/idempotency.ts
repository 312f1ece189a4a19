/**
 * Idempotent replays: a POST, PUT, PATCH or DELETE that carries an Idempotency-Key is handled once
 * per key holder, method, path and key; the same body again replays the stored answer, another body
 * is a 422, and a request that left no answer worth keeping frees its key. The commit-then-drop
 * and commit-then-502 faults act here too, once the answer is stored.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AI_CREDITS_EXHAUSTED_STATUS, ERROR_CODES } from '../../schemas'
import type { SandboxState, StoredResponse } from '../state'
import { ApiFailure, BASE_PATH, pathOf, sha256 } from './envelope'
import { faultApplies } from './gate'

/** What a gateway in front of a server says when the server's answer did not reach it. */
const BAD_GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n'

export function installIdempotency(app: FastifyInstance, state: SandboxState): void {
  app.addHook('preHandler', async (req, reply) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)) return
    const raw = req.headers['idempotency-key']
    const idem = Array.isArray(raw) ? raw[0] : raw
    if (!idem || !req.keyHolder) return
    req.idempotencyKey = idem
    const slotKey = `${req.keyHolder}\n${req.method}\n${pathOf(req)}\n${idem}`
    const hash = sha256(JSON.stringify(req.body ?? null))
    for (;;) {
      const existing = state.idempotency.get(slotKey)
      if (existing === undefined) break
      const stored = existing instanceof Promise ? await existing : existing
      if (stored === null) continue // the first attempt failed without a response worth keeping: retry it
      if (stored.bodyHash !== hash) {
        throw new ApiFailure(
          422,
          'this Idempotency-Key was already used with a different request body: use a new key for a new request',
          ERROR_CODES.idempotencyMismatch,
        )
      }
      req.idemReplay = true
      reply.code(stored.status).headers(stored.headers).header('Idempotent-Replayed', 'true')
      return reply.send(stored.body)
    }
    let resolve!: (r: StoredResponse | null) => void
    const pending = new Promise<StoredResponse | null>((r) => (resolve = r))
    state.idempotency.set(slotKey, pending)
    req.idemSlot = { key: slotKey, hash, resolve, settled: false }
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const slot = req.idemSlot
    if (slot && !slot.settled) {
      slot.settled = true
      // A 402 (no AI credits) says nothing happened, like a 5xx: the same key must work after a grant.
      if (
        reply.statusCode < 500 &&
        reply.statusCode !== AI_CREDITS_EXHAUSTED_STATUS &&
        typeof payload === 'string'
      ) {
        const ct = reply.getHeader('content-type')
        const stored: StoredResponse = {
          status: reply.statusCode,
          body: payload,
          headers: ct ? { 'content-type': String(ct) } : {},
          bodyHash: slot.hash,
        }
        state.idempotency.set(slot.key, stored)
        slot.resolve(stored)
      } else {
        state.idempotency.delete(slot.key)
        slot.resolve(null)
      }
    }
    const f = state.faults
    const committed =
      !req.idemReplay &&
      req.method === 'POST' &&
      reply.statusCode < 300 &&
      pathOf(req).startsWith(BASE_PATH) &&
      faultApplies(state, pathOf(req).slice(BASE_PATH.length))
    // Commit then drop: the create happened, the client never hears back.
    if (
      committed &&
      (f.commit_then_drop_next > 0 ||
        (f.commit_then_drop_rate > 0 && state.faultRandom() < f.commit_then_drop_rate))
    ) {
      if (f.commit_then_drop_next > 0) f.commit_then_drop_next--
      req.raw.socket.destroy()
    } else if (committed && f.commit_then_502_next > 0) {
      // Commit then a gateway's error page: the create happened and its answer is kept under the
      // key (a retry with the same body replays it), but the client gets an HTML 502.
      f.commit_then_502_next--
      reply.code(502).header('content-type', 'text/html; charset=utf-8')
      return BAD_GATEWAY_PAGE
    }
    return payload
  })

  // A request that ended without a response worth keeping frees its key for the next attempt.
  const releaseSlot = async (req: FastifyRequest) => {
    const slot = req.idemSlot
    if (slot && !slot.settled) {
      slot.settled = true
      state.idempotency.delete(slot.key)
      slot.resolve(null)
    }
  }
  app.addHook('onResponse', releaseSlot)
  app.addHook('onRequestAbort', releaseSlot)
}
