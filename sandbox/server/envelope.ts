/**
 * The emulator's answers: the success and failure envelopes (api-spec.md Part 7), the 404 of an
 * unknown route, parsing with a shared schema, and what a request carries once the gate has let it
 * in (fastify's request, extended).
 */
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { ERROR_CODES, describeIssues } from '../../schemas'
import type { Business, Partner, StoredResponse } from '../state'

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

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}

export function pathOf(req: FastifyRequest): string {
  const url = req.url
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/** Every failure in the failure envelope; `maxBodyBytes` names the limit a too large body passed. */
export function installEnvelope(app: FastifyInstance, maxBodyBytes: number): void {
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
      message = `request body is larger than ${Math.round(maxBodyBytes / 1048576)} MB`
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
}
