/**
 * The web host's per-run token: made at start, printed once in the link, and checked by the `/api`
 * scope's own onRequest hook, a bearer header (or, for a GET such as the event stream, `?token=`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { refusal } from './guard'

/** A fresh random secret, URL-safe (the token, and each download ticket). */
export function randomSecret(): string {
  return randomBytes(24).toString('base64url')
}

function sameSecret(given: string | undefined, token: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null
  return m?.[1]
}

function queryToken(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined
  return typeof q?.token === 'string' ? q.token : undefined
}

/** The onRequest hook of the API scope: no caching, and 401 without the right token. */
export function requireToken(token: string) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store')
    const given =
      req.method === 'GET' || req.method === 'HEAD' ? (queryToken(req) ?? bearer(req)) : bearer(req)
    if (!sameSecret(given, token)) {
      return reply
        .code(401)
        .send(refusal('unauthorized', 'Missing or wrong token: open the link the web host printed.'))
    }
  }
}
