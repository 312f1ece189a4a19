/**
 * Authentication of a /v1 request (api-spec.md Part 5): the route's `config.auth` says which key it
 * takes; a business key acts for its business (or, with an OAuth bearer token, for the business the
 * token names), a partner key for its partner.
 */
import type { FastifyRequest } from 'fastify'
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  DEVELOPER_API_403_MESSAGE,
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  PUBLIC_KEY_MESSAGE,
  WRONG_KEY_KIND_STATUS,
} from '../../schemas'
import type { SandboxState } from '../state'
import { ApiFailure } from './envelope'

/** Sets req.business or req.partner (and req.keyHolder) as the route asks, or throws its 401 or 403. */
export function authenticate(req: FastifyRequest, state: SandboxState, key: string | undefined): void {
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
    throw new ApiFailure(WRONG_KEY_KIND_STATUS, BUSINESS_ROUTE_PARTNER_KEY_MESSAGE, ERROR_CODES.wrongKeyKind)
  if (!business.developer_api)
    throw new ApiFailure(403, DEVELOPER_API_403_MESSAGE, ERROR_CODES.developerApiNotAllowed)
  req.business = business
  req.keyHolder = business.uuid
}
