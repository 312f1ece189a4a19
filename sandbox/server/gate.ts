/**
 * The gate of every /v1 request, in this order: the rate limit (a fixed window per presented key,
 * or per client address without one), the injected faults (state.faults), then authentication
 * (auth.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ERROR_CODES, KEY_HEADERS } from '../../schemas'
import type { SandboxState } from '../state'
import { authenticate } from './auth'
import { ApiFailure, BASE_PATH, pathOf, sha256 } from './envelope'

function presentedKey(req: FastifyRequest): string | undefined {
  for (const h of KEY_HEADERS) {
    const v = req.headers[h]
    const s = Array.isArray(v) ? v[0] : v
    if (s && s.trim()) return s.trim()
  }
  return undefined
}

export function faultApplies(state: SandboxState, path: string): boolean {
  const p = state.faults.paths
  return p.length === 0 || p.some((prefix) => path.startsWith(prefix))
}

export interface Bucket {
  windowStart: number
  count: number
}

/** Installs the gate; the rate-limit buckets it returns are emptied when a control route sets a new limit. */
export function installGate(app: FastifyInstance, state: SandboxState): Map<string, Bucket> {
  const buckets = new Map<string, Bucket>()
  app.addHook('onRequest', async (req, reply) => {
    const path = pathOf(req)
    if (!path.startsWith(BASE_PATH + '/') && path !== BASE_PATH) return
    const sub = path.slice(BASE_PATH.length)
    const key = presentedKey(req)
    const now = state.now()

    // Rate limit: a fixed window per presented key (or per client address when none).
    const bucketKey = key ? `k:${sha256(key)}` : `a:${req.socket.remoteAddress ?? '?'}`
    const { limit, window_seconds } = state.rateLimit
    const windowMs = window_seconds * 1000
    let b = buckets.get(bucketKey)
    if (!b || now - b.windowStart >= windowMs) {
      b = { windowStart: now, count: 0 }
      buckets.set(bucketKey, b)
    }
    b.count++
    const resetSeconds = Math.max(1, Math.ceil((b.windowStart + windowMs - now) / 1000))
    reply.header('X-RateLimit-Limit', String(limit))
    reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - b.count)))
    reply.header('X-RateLimit-Reset', String(resetSeconds))

    const f = state.faults
    const random = state.faultRandom
    const faulty = faultApplies(state, sub)
    state.requests++
    state.inFlight++
    req.countedInFlight = true
    if (faulty && f.latency_ms > 0) await new Promise((r) => setTimeout(r, f.latency_ms))
    if (faulty && (f.drop_next > 0 || (f.drop_rate > 0 && random() < f.drop_rate))) {
      if (f.drop_next > 0) f.drop_next--
      reply.hijack()
      req.raw.socket.destroy()
      return reply
    }
    if (faulty && f.burst_429 > 0) {
      f.burst_429--
      const wait = f.burst_wait_seconds
      const reset =
        f.burst_reset_style === 'epoch' ? String(Math.ceil(Date.now() / 1000) + wait) : String(wait)
      reply.header('X-RateLimit-Remaining', '0')
      reply.header('X-RateLimit-Reset', reset)
      const headers: Record<string, string> = f.burst_retry_after ? { 'Retry-After': String(wait) } : {}
      throw new ApiFailure(
        429,
        'too many requests: slow down and retry after the reset time',
        ERROR_CODES.rateLimited,
        headers,
      )
    }
    if (faulty && (f.fail_next > 0 || (f.error_rate > 0 && random() < f.error_rate))) {
      if (f.fail_next > 0) f.fail_next--
      const statuses = f.error_statuses
      const status = statuses[Math.floor(random() * statuses.length)] ?? 500
      throw new ApiFailure(status, `injected fault: ${status}`, ERROR_CODES.serverError)
    }
    if (f.missing_paths.some((prefix) => sub.startsWith(prefix))) {
      throw new ApiFailure(404, `no route ${req.method} ${path}`, ERROR_CODES.notFound)
    }
    if (faulty && f.not_found_next > 0) {
      f.not_found_next--
      throw new ApiFailure(404, `injected fault: no such thing (yet): ${sub}`, ERROR_CODES.notFound)
    }
    if (faulty && f.malformed_next > 0) {
      f.malformed_next--
      // A 200 whose data is not what the route answers: what a misbehaving proxy or server might send.
      return reply
        .code(200)
        .send({ status: 'success', message: 'injected malformed answer', data: { injected: true } })
    }
    if (b.count > limit) {
      throw new ApiFailure(
        429,
        `too many requests: ${limit} per ${window_seconds} s for this key; retry after ${resetSeconds} s`,
        ERROR_CODES.rateLimited,
        { 'Retry-After': String(resetSeconds) },
      )
    }
    // Authentication (Part 5).
    authenticate(req, state, key)
  })
  return buckets
}
