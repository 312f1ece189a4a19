/**
 * What every request to the web host must pass before any route, and how a refusal reads: an
 * origin-form target, 127.0.0.1 or localhost as Host (DNS rebinding), no foreign Origin; the
 * security headers on every answer; errors as the contract's `{ ok: false, error }`. Nothing here
 * decides who may run a call: that is the API scope's own hook (auth.ts, api-routes.ts).
 */
import type { FastifyInstance } from 'fastify'
import type { Result } from '../../contract'
import { isAllowedHost, isAllowedOrigin } from '../core/security'
import { isOriginForm } from '../shell/static-files'

export const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

export function refusal(code: string, message: string): Result<never> {
  return { ok: false, error: { code, message } }
}

/**
 * The checks of every request and the error handler. `port` is read per request: the host knows
 * its port only once it listens (0 picks a free one).
 */
export function guardEveryRequest(app: FastifyInstance, port: () => number): void {
  // Every request: an origin-form target, the right Host (DNS rebinding), no foreign Origin, and the
  // security headers. Nothing here decides who may run a call: that is the API scope's own hook.
  app.addHook('onRequest', async (req, reply) => {
    reply.headers(SECURITY_HEADERS)
    if (!isOriginForm(req.raw.url)) {
      return reply
        .code(400)
        .send(refusal('bad_request', 'Bookdrop takes only a path as the request target (origin form).'))
    }
    if (!isAllowedHost(req.headers.host, port())) {
      return reply
        .code(403)
        .send(refusal('forbidden_host', 'Bookdrop answers only to 127.0.0.1 and localhost.'))
    }
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
    if (!isAllowedOrigin(origin, req.headers.host, port())) {
      return reply.code(403).send(refusal('forbidden_origin', 'Requests from other sites are refused.'))
    }
  })

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    const message =
      status === 413
        ? 'The request is too large: send fewer or smaller files at a time.'
        : status < 500
          ? err.message
          : 'Something went wrong in the web host.'
    void reply.code(status).send(refusal(status < 500 ? 'bad_request' : 'internal', message))
  })
}
