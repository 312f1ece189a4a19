/**
 * The emulator's HTTP plumbing, shared by every route: envelopes, authentication, rate limiting,
 * idempotent replays, fault injection and the loopback-only control routes under /_sandbox.
 *
 * Routes live in ./routes/*.ts and declare `config: { auth: 'business' | 'partner' | 'none' }`.
 * The control routes answer loopback clients only; inside the app (demo mode) they also need the
 * loopback Host and the run's control secret (ServerOptions.controlSecret).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  AI_CREDITS_EXHAUSTED_STATUS,
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  DEVELOPER_API_403_MESSAGE,
  ERROR_CODES,
  KEY_HEADERS,
  LIMITS,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  PUBLIC_KEY_MESSAGE,
  WRONG_KEY_KIND_STATUS,
  describeIssues,
} from '../schemas'
import {
  type Business,
  type FaultsInput,
  type Partner,
  type SandboxState,
  type StoredResponse,
  faultsSchema,
} from './state'
import { shapeAnswer } from './variants'

export const BASE_PATH = '/v1'

export type AuthKind = 'business' | 'partner' | 'none'

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind
  }
  interface FastifyRequest {
    business?: Business
    partner?: Partner
    /** Who holds the key: partner id or business uuid (or the raw presented key hash when unknown). */
    keyHolder?: string
    idempotencyKey?: string
    idemSlot?: { key: string; hash: string; resolve: (r: StoredResponse | null) => void; settled: boolean }
    idemReplay?: boolean
    /** Counted in SandboxState.inFlight until the request ends. */
    countedInFlight?: boolean
  }
}

/** A failure answered with the failure envelope (Part 7). Thrown by handlers. */
export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errorCode?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export function ok(reply: FastifyReply, message: string, data?: unknown, meta?: Record<string, unknown>) {
  const body: Record<string, unknown> = { status: 'success', message }
  if (data !== undefined) body.data = data
  if (meta !== undefined) body.meta = meta
  return reply.code(200).send(body)
}

/** Parses with a shared schema or throws a 400 whose message names each bad field. */
export function parse<T extends z.ZodType>(schema: T, input: unknown, what = 'request body'): z.output<T> {
  if (input === undefined || input === null) {
    if (what === 'request body')
      throw new ApiFailure(400, 'request body is required: send a JSON object', ERROR_CODES.validation)
  }
  const r = schema.safeParse(input ?? {})
  if (!r.success) throw new ApiFailure(400, describeIssues(r.error), ERROR_CODES.validation)
  return r.data
}

export function requireBusiness(req: FastifyRequest): Business {
  if (!req.business)
    throw new ApiFailure(500, 'route misconfigured: no business on request', ERROR_CODES.serverError)
  return req.business
}

export function requirePartner(req: FastifyRequest): Partner {
  if (!req.partner)
    throw new ApiFailure(500, 'route misconfigured: no partner on request', ERROR_CODES.serverError)
  return req.partner
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}

function presentedKey(req: FastifyRequest): string | undefined {
  for (const h of KEY_HEADERS) {
    const v = req.headers[h]
    const s = Array.isArray(v) ? v[0] : v
    if (s && s.trim()) return s.trim()
  }
  return undefined
}

/** Whether a client address is on the loopback interface: 127.0.0.0/8, ::1, or 127.x as an IPv4-mapped IPv6 address. */
export function isLoopback(addr: string | undefined): boolean {
  return !!addr && (addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.'))
}

function faultApplies(state: SandboxState, path: string): boolean {
  const p = state.faults.paths
  return p.length === 0 || p.some((prefix) => path.startsWith(prefix))
}

function pathOf(req: FastifyRequest): string {
  const url = req.url
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

interface Bucket {
  windowStart: number
  count: number
}

export interface ServerOptions {
  logger?: boolean
  /** Largest request body; LIMITS.maxBodyBytes unless a benchmark raises it. */
  maxBodyBytes?: number
  /**
   * When set (the emulator inside the app, in demo mode), the control routes answer only a request
   * that names the loopback address as Host and carries this secret in CONTROL_HEADER. Without it
   * (`npm run sandbox`, tests), they answer any loopback client, as scripts expect.
   */
  controlSecret?: string
}

/** The header that carries the control secret. */
export const CONTROL_HEADER = 'x-sandbox-control'

function sameSecret(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(secret).digest()
  return timingSafeEqual(a, b)
}

/**
 * Why a request may not use the control routes (null: it may). Always: from a loopback address.
 * With a secret: also the loopback Host (a page that rebinds a name to 127.0.0.1 sends its own
 * name) and the secret.
 */
function controlRefusal(req: FastifyRequest, secret: string | undefined): string | null {
  if (!isLoopback(req.socket.remoteAddress)) return 'sandbox control routes answer loopback only'
  if (secret === undefined) return null
  const port = req.socket.localPort
  const host = req.headers.host
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}` && host !== `[::1]:${port}`)
    return 'sandbox control routes answer only requests to the loopback address'
  if (!sameSecret(req.headers[CONTROL_HEADER], secret))
    return `this emulator runs inside Bookdrop: its control routes need the ${CONTROL_HEADER} header of this run`
  return null
}

export function buildServer(state: SandboxState, opts: ServerOptions = {}): FastifyInstance {
  const app = Fastify({
    // Off by default; when on, only errors are logged (request lines could carry key headers).
    logger: opts.logger ? { level: 'error' } : false,
    bodyLimit: opts.maxBodyBytes ?? LIMITS.maxBodyBytes,
  })
  const buckets = new Map<string, Bucket>()

  // ---- envelope for every failure -------------------------------------------------------------
  app.setErrorHandler((err: unknown, _req, reply) => {
    if (err instanceof ApiFailure) {
      reply.headers(err.headers)
      const body: Record<string, unknown> = { status: 'failed', message: err.message }
      if (err.errorCode) body.error_code = err.errorCode
      return reply.code(err.statusCode).send(body)
    }
    const e = err as { statusCode?: number; code?: string; message?: string }
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500
    let message = status >= 500 ? 'internal server error' : (e.message ?? 'bad request')
    if (
      e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      /JSON/.test(e.message ?? '')
    )
      message = 'request body is not valid JSON: send a JSON object with Content-Type: application/json'
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      message = `request body is larger than ${Math.round((opts.maxBodyBytes ?? LIMITS.maxBodyBytes) / 1048576)} MB`
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      message = 'send the body as JSON with Content-Type: application/json'
    return reply.code(status).send({
      status: 'failed',
      message,
      error_code: status >= 500 ? ERROR_CODES.serverError : ERROR_CODES.validation,
    })
  })
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({
      status: 'failed',
      message: `no route ${req.method} ${pathOf(req)}`,
      error_code: ERROR_CODES.notFound,
    })
  })

  // ---- rate limit, faults and auth on /v1 -----------------------------------------------------
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
      return reply.code(200).send({ status: 'success', message: 'injected malformed answer', data: { injected: true } })
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
    const auth = req.routeOptions.config.auth ?? 'none'
    if (auth === 'none') return
    if (!key) {
      throw new ApiFailure(
        401,
        'missing API key: send your secret key in the X-API-Key header (api-key and sk also work)',
        ERROR_CODES.invalidKey,
      )
    }
    if (state.businessByPublicKey.has(key) || key.startsWith('svc_pk_')) {
      throw new ApiFailure(401, PUBLIC_KEY_MESSAGE, ERROR_CODES.invalidKey)
    }
    const partner = state.partners.get(key)
    let business = state.businessByKey.get(key)
    const authz = req.headers.authorization
    if (business && typeof authz === 'string' && authz.length > 0) {
      // OAuth: the app key plus a user's bearer token acts for the business that token names.
      const m = /^Bearer\s+(\S+)$/i.exec(authz)
      const tok = m ? state.oauthTokens.get(m[1] ?? '') : undefined
      if (!tok || tok.app_key !== key) {
        throw new ApiFailure(
          401,
          'invalid or expired bearer token: authorize the app again',
          ERROR_CODES.invalidKey,
        )
      }
      business = state.businesses.get(tok.business)
    }
    if (!partner && !business) {
      throw new ApiFailure(
        401,
        'invalid API key: check the key, or rotate it in the application',
        ERROR_CODES.invalidKey,
      )
    }
    if (auth === 'partner') {
      if (!partner)
        throw new ApiFailure(
          WRONG_KEY_KIND_STATUS,
          PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
          ERROR_CODES.wrongKeyKind,
        )
      req.partner = partner
      req.keyHolder = partner.id
      return
    }
    if (!business)
      throw new ApiFailure(
        WRONG_KEY_KIND_STATUS,
        BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
        ERROR_CODES.wrongKeyKind,
      )
    if (!business.developer_api)
      throw new ApiFailure(403, DEVELOPER_API_403_MESSAGE, ERROR_CODES.developerApiNotAllowed)
    req.business = business
    req.keyHolder = business.uuid
  })

  // ---- answer shapes: the spec-minimal variant (sandbox/variants.ts) ---------------------------
  app.addHook('preSerialization', async (req, _reply, payload) => {
    if (state.variant === 'default' || !pathOf(req).startsWith(BASE_PATH)) return payload
    const url = req.routeOptions.url
    const route = url?.startsWith(BASE_PATH + '/') ? url.slice(BASE_PATH.length) : undefined
    return shapeAnswer(state.variant, req.method, route, payload)
  })

  // ---- idempotent replays -----------------------------------------------------------------------
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
    // Commit then drop: the create happened, the client never hears back.
    const f = state.faults
    if (
      !req.idemReplay &&
      req.method === 'POST' &&
      reply.statusCode < 300 &&
      pathOf(req).startsWith(BASE_PATH) &&
      faultApplies(state, pathOf(req).slice(BASE_PATH.length)) &&
      (f.commit_then_drop_next > 0 ||
        (f.commit_then_drop_rate > 0 && state.faultRandom() < f.commit_then_drop_rate))
    ) {
      if (f.commit_then_drop_next > 0) f.commit_then_drop_next--
      req.raw.socket.destroy()
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
  // In-flight count for /_sandbox/stats: a request counts from the rate-limit hook until it ends.
  const leave = async (req: FastifyRequest) => {
    if (req.countedInFlight) {
      req.countedInFlight = false
      state.inFlight--
    }
  }
  app.addHook('onResponse', leave)
  app.addHook('onRequestAbort', leave)

  // ---- control routes: a scope of their own, whose hook decides who may use them ----------------
  // (on the route that matched, never on the raw URL: /%5Fsandbox/faults is this scope too).
  void app.register(
    async (ctl) => {
      ctl.addHook('onRequest', async (req, reply) => {
        const refused = controlRefusal(req, opts.controlSecret)
        if (refused) return reply.code(403).send({ status: 'failed', message: refused })
      })
      ctl.get('/creates', async (req, reply) => {
        const q = req.query as { route?: string; business?: string }
        const rows = state.creates.filter(
          (c) => (!q.route || c.route === q.route) && (!q.business || c.business === q.business),
        )
        return reply.send({ status: 'success', message: `${rows.length} creates`, data: rows })
      })
      ctl.get('/faults', async (_req, reply) =>
        reply.send({ status: 'success', message: 'faults', data: state.faults }),
      )
      ctl.post('/faults', async (req, reply) => {
        const body = (req.body as object | null) ?? {}
        const r = faultsSchema.safeParse({ ...state.faults, ...body })
        if (!r.success) throw new ApiFailure(400, describeIssues(r.error), ERROR_CODES.validation)
        state.setFaults(body as FaultsInput)
        return reply.send({ status: 'success', message: 'faults set', data: state.faults })
      })
      ctl.delete('/faults', async (_req, reply) => {
        state.setFaults({}, null)
        return reply.send({ status: 'success', message: 'faults cleared', data: state.faults })
      })
      ctl.get('/stats', async (_req, reply) =>
        reply.send({
          status: 'success',
          message: 'stats',
          data: { in_flight: state.inFlight, requests: state.requests, seed: state.faults.seed ?? null },
        }),
      )
      ctl.post('/clock', async (req, reply) => {
        const body = (req.body ?? {}) as { advance_ms?: unknown }
        if (typeof body.advance_ms !== 'number' || !Number.isFinite(body.advance_ms)) {
          throw new ApiFailure(400, 'advance_ms must be a number of milliseconds', ERROR_CODES.validation)
        }
        state.clockOffsetMs += body.advance_ms
        return reply.send({
          status: 'success',
          message: 'clock moved',
          data: { now: new Date(state.now()).toISOString() },
        })
      })
      ctl.post('/rate-limit', async (req, reply) => {
        const body = (req.body ?? {}) as { limit?: unknown; window_seconds?: unknown }
        if (typeof body.limit === 'number' && body.limit > 0) state.rateLimit.limit = Math.floor(body.limit)
        if (typeof body.window_seconds === 'number' && body.window_seconds > 0)
          state.rateLimit.window_seconds = body.window_seconds
        buckets.clear()
        return reply.send({ status: 'success', message: 'rate limit set', data: state.rateLimit })
      })
    },
    { prefix: '/_sandbox' },
  )

  return app
}
