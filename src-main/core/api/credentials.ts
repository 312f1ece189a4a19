/**
 * What a client is made of, checked: the base URL, the limits, the key and its kind against the
 * auth mode. The client's constructor uses it; the headless mode calls it alone at start, so a bad
 * base URL or a public key fails before anything is watched without loading the client and the
 * API schemas (issue 14: those load with the first request).
 */
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  PUBLIC_KEY_MESSAGE,
  keyKind,
} from '../../../schemas/assumptions'
import { resolveBaseUrl } from './base-url'
import {
  type AuthMode,
  type ClientOptions,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  localError,
  positiveOption,
  secretValue,
} from './client-types'
import { CLIENT_ERROR_CODES } from './errors'

export interface ClientSettings {
  /** The base URL, ending in the version prefix, without a trailing slash. */
  baseUrl: string
  timeoutMs: number
  maxFileBytes: number
  maxResponseBytes: number
  authMode: AuthMode
  key: string
  accessToken: string | undefined
}

/** The settings of a client for `options`, or the ApiError a client would throw. */
export function clientSettings(options: ClientOptions): ClientSettings {
  const common = {
    baseUrl: resolveBaseUrl(options),
    timeoutMs: positiveOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 2_147_483_647),
    maxFileBytes: positiveOption('maxFileBytes', options.maxFileBytes, DEFAULT_MAX_FILE_BYTES),
    maxResponseBytes: positiveOption(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_MAX_RESPONSE_BYTES,
      256 * 1024 * 1024,
    ),
  }
  const auth = options.auth
  if (auth.mode === 'oauth') {
    const appKey = secretValue(auth.appKey, 'The OAuth app key')
    const kind = keyKind(appKey)
    if (kind === 'public') throw localError(CLIENT_ERROR_CODES.wrongKeyType, PUBLIC_KEY_MESSAGE)
    if (kind === 'partner') {
      throw localError(
        CLIENT_ERROR_CODES.wrongKeyType,
        "OAuth uses the integration app's secret key (svc_sk_...) in X-API-Key, not a partner key.",
      )
    }
    const accessToken = secretValue(auth.accessToken, 'The OAuth access token')
    return { ...common, authMode: 'oauth', key: appKey, accessToken }
  }
  const plain = secretValue(auth.key, 'The API key')
  const kind = keyKind(plain)
  if (kind === 'public') throw localError(CLIENT_ERROR_CODES.wrongKeyType, PUBLIC_KEY_MESSAGE)
  const mode = auth.mode ?? (kind === 'partner' || kind === 'business' ? kind : undefined)
  if (mode === undefined) {
    throw localError(
      CLIENT_ERROR_CODES.invalidKey,
      'This key does not start with svc_sk_ (business) or svc_partner_sk_ (partner): say which it is with auth.mode.',
    )
  }
  if ((kind === 'partner' || kind === 'business') && kind !== mode) {
    throw localError(
      CLIENT_ERROR_CODES.wrongKeyType,
      kind === 'partner'
        ? `This is a partner key (svc_partner_sk_...), but the profile says ${mode}. ${BUSINESS_ROUTE_PARTNER_KEY_MESSAGE}`
        : `This is a business key (svc_sk_...), but the profile says ${mode}. ${PARTNER_ROUTE_BUSINESS_KEY_MESSAGE}`,
    )
  }
  return { ...common, authMode: mode, key: plain, accessToken: undefined }
}
