/**
 * The emulator's HTTP plumbing, shared by every route: envelopes, authentication, rate limiting,
 * idempotent replays, fault injection and the loopback-only control routes under /_sandbox.
 *
 * This file composes them; each lives in ./server/: envelope.ts (answers and failures), gate.ts
 * (rate limit and faults), auth.ts, idempotency.ts (replays) and control.ts (/_sandbox).
 *
 * Routes live in ./routes/*.ts and declare `config: { auth: 'business' | 'partner' | 'none' }`.
 * The control routes answer loopback clients only; inside the app (demo mode) they also need the
 * loopback Host and the run's control secret (ServerOptions.controlSecret).
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { LIMITS } from '../schemas'
import { registerControlRoutes } from './server/control'
import { BASE_PATH, installEnvelope, pathOf } from './server/envelope'
import { installGate } from './server/gate'
import { installIdempotency } from './server/idempotency'
import type { SandboxState } from './state'
import { shapeAnswer } from './variants'

export { CONTROL_HEADER, isLoopback } from './server/control'
export {
  ApiFailure,
  type AuthKind,
  BASE_PATH,
  ok,
  parse,
  requireBusiness,
  requirePartner,
} from './server/envelope'

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

export function buildServer(state: SandboxState, opts: ServerOptions = {}): FastifyInstance {
  const app = Fastify({
    // Off by default; when on, only errors are logged (request lines could carry key headers).
    logger: opts.logger ? { level: 'error' } : false,
    bodyLimit: opts.maxBodyBytes ?? LIMITS.maxBodyBytes,
  })
  installEnvelope(app, opts.maxBodyBytes ?? LIMITS.maxBodyBytes)
  const buckets = installGate(app, state)

  // ---- answer shapes: the spec-minimal variant (sandbox/variants.ts) ---------------------------
  app.addHook('preSerialization', async (req, _reply, payload) => {
    if (state.variant === 'default' || !pathOf(req).startsWith(BASE_PATH)) return payload
    const url = req.routeOptions.url
    const route = url?.startsWith(BASE_PATH + '/') ? url.slice(BASE_PATH.length) : undefined
    return shapeAnswer(state.variant, req.method, route, payload)
  })

  installIdempotency(app, state)
  // In-flight count for /_sandbox/stats: a request counts from the rate-limit hook until it ends.
  const leave = async (req: FastifyRequest) => {
    if (req.countedInFlight) {
      req.countedInFlight = false
      state.inFlight--
    }
  }
  app.addHook('onResponse', leave)
  app.addHook('onRequestAbort', leave)

  registerControlRoutes(app, state, opts.controlSecret, buckets)
  return app
}
