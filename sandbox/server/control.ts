/**
 * The control routes under /_sandbox (the create log, faults, stats, clock, rate limit): loopback
 * clients only; inside the app (demo mode) they also need the loopback Host and the run's control
 * secret (ServerOptions.controlSecret).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ERROR_CODES, describeIssues } from '../../schemas'
import { type FaultsInput, type SandboxState, faultsSchema } from '../state'
import { ApiFailure } from './envelope'
import type { Bucket } from './gate'

/** Whether a client address is on the loopback interface: 127.0.0.0/8, ::1, or 127.x as an IPv4-mapped IPv6 address. */
export function isLoopback(addr: string | undefined): boolean {
  return !!addr && (addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.'))
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

/** `buckets`: the gate's rate-limit windows, emptied when a new limit is set. */
export function registerControlRoutes(
  app: FastifyInstance,
  state: SandboxState,
  secret: string | undefined,
  buckets: Map<string, Bucket>,
): void {
  // ---- control routes: a scope of their own, whose hook decides who may use them ----------------
  // (on the route that matched, never on the raw URL: /%5Fsandbox/faults is this scope too).
  void app.register(
    async (ctl) => {
      ctl.addHook('onRequest', async (req, reply) => {
        const refused = controlRefusal(req, secret)
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
}
