/**
 * The one error type the API client throws. Everything a caller needs to decide what to show and
 * whether to retry is a plain property; nothing in it ever holds the API key or the OAuth token.
 */
import { ERROR_CODES } from '../../../schemas/assumptions'
import { coded, type MessageDescriptor } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import type { RateLimit } from './ratelimit'
import { isRetryableHttpStatus } from './ratelimit'

/** Codes the client gives to failures it detects itself (status 0), next to the server's codes. */
export const CLIENT_ERROR_CODES = {
  /** A request failed the shared schemas before leaving the machine (same code as the server's 400). */
  validation: ERROR_CODES.validation,
  /** A partner key on a business route, a business/OAuth key on a partner route, or a public key. */
  wrongKeyType: ERROR_CODES.wrongKeyKind,
  /** A key or token that is empty or cannot be sent in a header. */
  invalidKey: ERROR_CODES.invalidKey,
  invalidBaseUrl: 'invalid_base_url',
  invalidOption: 'invalid_option',
  network: 'network_error',
  /** No network at all (ENETUNREACH, ENETDOWN, EAI_AGAIN). */
  offline: 'offline',
  timeout: 'timeout',
  aborted: 'aborted',
  /** The server answered with a redirect; it is not followed, so the key never goes elsewhere. */
  redirect: 'redirect_refused',
  /** Something answered that is not the API: a web page, an empty or foreign body, a proxy's error. */
  notApi: 'not_api',
  /**
   * A 5xx that is not in the API's envelope (an ingress's or a gateway's error page): the server or
   * something in front of it is failing. Waited for like a path problem, with its Retry-After.
   */
  serverPage: 'server_error_page',
  /** A 413 that is not in the API's envelope: the request (the file) is too large for that server. */
  requestTooLarge: 'request_too_large',
  /** The proxy wants a user name and password (407). */
  proxyAuth: 'proxy_auth_required',
  /** The proxy could not open a tunnel to the server (502, 503, 403 … to CONNECT). */
  proxy: 'proxy_error',
  /** The server's certificate is not trusted here (unknown authority, expired, another name). */
  certificate: 'certificate_error',
  /** The answer was larger than the client reads (maxResponseBytes): a server problem. */
  tooLarge: 'response_too_large',
  /** The API answered, but not with the shape the schemas describe. */
  badResponse: 'bad_response',
  fileNotFound: 'file_not_found',
  notAFile: 'not_a_file',
  fileTooLarge: 'file_too_large',
  fileRead: 'file_read_error',
  fileChanged: 'file_changed',
  /** The file is not the version that was recorded (size, mtime, or the sha256 of the bytes streamed). */
  fileSuperseded: 'file_superseded',
} as const

/** The codes of failures with no answer of the API (ApiError.connection set). */
export const CONNECTION_ERROR_CODES: readonly string[] = [
  CLIENT_ERROR_CODES.network,
  CLIENT_ERROR_CODES.offline,
  CLIENT_ERROR_CODES.timeout,
  CLIENT_ERROR_CODES.notApi,
  CLIENT_ERROR_CODES.serverPage,
  CLIENT_ERROR_CODES.redirect,
  CLIENT_ERROR_CODES.proxyAuth,
  CLIENT_ERROR_CODES.proxy,
  CLIENT_ERROR_CODES.certificate,
]

/**
 * Why no answer of the API came (issue 22): nothing answered (`unreachable`), something that is
 * not the API answered (`not_api`), or this computer has no network (`offline`). Such a failure
 * is the path's, not the API's word: nothing was refused, so the upload queue waits and tries
 * again with the same Idempotency-Key, and uses no attempt.
 */
export type ConnectionProblem = 'unreachable' | 'not_api' | 'offline'

export interface ApiErrorInit {
  /** Set when no answer of the API came: see ConnectionProblem. */
  connection?: ConnectionProblem
  /**
   * Only a change of settings can fix it (an untrusted certificate, proxy credentials): trying
   * again at once would give the same answer.
   */
  configuration?: boolean
  /** HTTP status; 0 when no response arrived (network, timeout, or refused locally). */
  status: number
  errorCode: string
  message: string
  retryable?: boolean
  retryAfterMs?: number
  rateLimit?: RateLimit
  /** Field path → first message, when the failure is a validation of a request. */
  fields?: Record<string, string>
  method?: string
  path?: string
  idempotencyKey?: string
  cause?: unknown
  /**
   * The message as a catalogue id with parameters (issue 34); by default derived from the code
   * (`apiCoded`): the path's problems, a rate limit, a key refused, or the server's own words.
   */
  coded?: Coded
}

/** The sentence of each code the client gives itself (and the wrong-key refusal), by code. */
const CODED_BY_CODE: Readonly<Record<string, MessageDescriptor>> = {
  [CLIENT_ERROR_CODES.offline]: E.offline,
  [CLIENT_ERROR_CODES.network]: E.unreachable,
  [CLIENT_ERROR_CODES.timeout]: E.timeout,
  [CLIENT_ERROR_CODES.notApi]: E.notApi,
  [CLIENT_ERROR_CODES.redirect]: E.redirect,
  [CLIENT_ERROR_CODES.serverPage]: E.serverFailing,
  [CLIENT_ERROR_CODES.certificate]: E.certificate,
  [CLIENT_ERROR_CODES.proxyAuth]: E.proxyAuth,
  [CLIENT_ERROR_CODES.proxy]: E.proxy,
  [CLIENT_ERROR_CODES.badResponse]: E.badResponse,
  [CLIENT_ERROR_CODES.tooLarge]: E.badResponse,
  [CLIENT_ERROR_CODES.requestTooLarge]: E.requestTooLarge,
  [CLIENT_ERROR_CODES.fileNotFound]: E.fileVanished,
  [CLIENT_ERROR_CODES.fileRead]: E.fileUnreadable,
  [CLIENT_ERROR_CODES.fileChanged]: E.fileChanged,
  [CLIENT_ERROR_CODES.fileSuperseded]: E.fileChanged,
  [ERROR_CODES.wrongKeyKind]: E.keyWrongKind,
}

/**
 * What a person reads for an ApiError, in any language: the path's problems and the client's own
 * refusals by code; the server's own refusal as "The server said: …" with its message as it wrote
 * it. The English `text` stays the error's message.
 */
export function apiCoded(init: ApiErrorInit): Coded | undefined {
  const say = (m: MessageDescriptor, params?: Record<string, string | number>): Coded => ({
    ...coded(m, params),
    text: init.message,
  })
  const known = Object.hasOwn(CODED_BY_CODE, init.errorCode) ? CODED_BY_CODE[init.errorCode] : undefined
  if (known === E.unreachable) return say(known, { detail: init.message })
  if (known) return say(known, known === E.serverFailing ? { status: init.status } : undefined)
  if (init.status === 429 || init.errorCode === ERROR_CODES.rateLimited) {
    const ms = init.retryAfterMs
    return ms !== undefined && ms > 0 ? say(E.rateLimited, { seconds: Math.ceil(ms / 1000) }) : say(E.rateLimitedNow)
  }
  if (init.status === 0) return undefined
  if (init.status === 401 || init.errorCode === ERROR_CODES.invalidKey) return say(E.keyRefused)
  if (init.errorCode === `http_${init.status}`) return say(E.serverRefused, { status: init.status })
  if (init.message.trim() !== '') return say(E.serverSaid, { message: init.message })
  return say(E.serverRefused, { status: init.status })
}

export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status; 0 when no response arrived (network, timeout, or refused locally). */
  readonly status: number
  /** The server's `error_code`, or a code of CLIENT_ERROR_CODES, or `http_<status>`. */
  readonly errorCode: string
  /** Network failures, timeouts, 429 and 5xx. */
  readonly retryable: boolean
  /** How long to wait before retrying, from `Retry-After` or (on 429) `X-RateLimit-Reset`. */
  readonly retryAfterMs: number | undefined
  readonly rateLimit: RateLimit | undefined
  readonly fields: Record<string, string> | undefined
  readonly method: string | undefined
  /** The API path (no base, no query), e.g. `/invoices/abc`. */
  readonly path: string | undefined
  /** The Idempotency-Key sent (or that would have been sent): reuse it when retrying the same create. */
  readonly idempotencyKey: string | undefined
  /** Set when no answer of the API came (the path's problem, not the API's word). */
  readonly connection: ConnectionProblem | undefined
  /** Only a change of settings (certificate, proxy credentials) can fix it. */
  readonly configuration: boolean
  /** The message as a catalogue id with parameters, worded in the person's language by the renderer. */
  readonly coded: Coded | undefined

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.status = init.status
    this.errorCode = init.errorCode
    this.retryable = init.retryable ?? isRetryableHttpStatus(init.status)
    this.retryAfterMs = init.retryAfterMs
    this.rateLimit = init.rateLimit
    this.fields = init.fields
    this.method = init.method
    this.path = init.path
    this.idempotencyKey = init.idempotencyKey
    this.connection = init.connection
    this.configuration = init.configuration ?? false
    this.coded = init.coded ?? apiCoded(init)
  }

  /** Plain data for logs and for crossing the IPC bridge as `{ ok: false, error }`. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      errorCode: this.errorCode,
      message: this.message,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      rateLimit: this.rateLimit,
      fields: this.fields,
      method: this.method,
      path: this.path,
      idempotencyKey: this.idempotencyKey,
      connection: this.connection,
      configuration: this.configuration,
    }
  }
}
