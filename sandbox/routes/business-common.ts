/**
 * What the business-key routes share: their route config, the 404 of another business's thing,
 * the route as the create log records it, and the emulator's today.
 */
import type { FastifyRequest } from 'fastify'
import { ERROR_CODES } from '../../schemas'
import { ApiFailure, BASE_PATH } from '../server'
import type { SandboxState } from '../state'

export const BUSINESS = { config: { auth: 'business' as const } }

export type IdParams = { Params: { uuid: string } }

/** The route as the spec writes it, without the /v1 prefix ("/expenses"): what the create log records. */
export function routeOf(req: FastifyRequest): string {
  const url = req.routeOptions.url ?? req.url
  return url.startsWith(BASE_PATH) ? url.slice(BASE_PATH.length) : url
}

export function notFound(what: string, id: string): ApiFailure {
  return new ApiFailure(404, `no ${what} ${id} in this business`, ERROR_CODES.notFound)
}

export function today(state: SandboxState): string {
  return new Date(state.now()).toISOString().slice(0, 10)
}
