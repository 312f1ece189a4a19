/**
 * The client's transport: one HTTP request with the key in `X-API-Key` (and an OAuth bearer), a
 * timeout, no redirects, the rate-limit headers reported, and the answer read through the
 * envelope asked for. It alone holds the secrets, and every error it builds (for itself or for the
 * client) passes through `redact`, so no secret can reach a message.
 *
 * It also tells the API's word from anything else (design.md §1, issue 22): only JSON in the
 * spec's envelope (`status: success`, or `status: failed` with a `message`), after decoding, is an
 * answer of the API. Without it, the status code speaks first: a 5xx is the server or a gateway
 * failing (`connection: 'unreachable'`, code server_error_page, its Retry-After kept); a 413 to a
 * request with a body is a refusal of its size (request_too_large, not retried); a web page, an
 * empty or foreign body, a redirect, or a 2xx/3xx/4xx without the envelope is the path's problem
 * (`connection: 'not_api'`: a portal, a proxy); no answer at all is `unreachable` or `offline`.
 * The waits are retryable and name what was seen (their words are in path-errors.ts).
 */
import type { ConnectionReport } from '../../../contract/types'
import type { z } from 'zod'
import { failureEnvelope, describeIssues } from '../../../schemas'
import { ApiError, type ApiErrorInit, CLIENT_ERROR_CODES } from './errors'
import { ACCEPT_ENCODING, type HttpResponse, httpRequest } from './http'
import type { Network, Route } from './network'
import { describeBody, describeStatusPage, noAnswer, presentedCertificate } from './path-errors'
import { parseRateLimit, retryAfterMs } from './ratelimit'
import type { FileBodyError } from './stream-body'
import type { ConnectionEvent, Method, ResponseInfo, SendRequest } from './client-types'
import { isRecord, redact } from '../util'
import { positiveOption } from './client-types'

export interface TransportConfig {
  /** Ends in the version prefix, without a trailing slash. */
  baseUrl: string
  key: string
  accessToken: string | undefined
  userAgent: string
  timeoutMs: number
  maxResponseBytes: number
  network: Network
  timeoutHint: string
  onResponse: ((info: ResponseInfo) => void) | undefined
  onConnection: ((event: ConnectionEvent) => void) | undefined
}

/** What "Test connection" and `bookdrop headless --check` report: the contract's shape. */
export type { ConnectionReport }

export class Transport {
  readonly #c: TransportConfig

  constructor(config: TransportConfig) {
    this.#c = config
  }

  get network(): Network {
    return this.#c.network
  }

  async send<S extends z.ZodType>(req: SendRequest<S>): Promise<z.output<S>> {
    return (await this.exchange(req)).value
  }

  /** One exchange: the envelope read, or an ApiError (reported to onConnection either way). */
  private async exchange<S extends z.ZodType>(
    req: SendRequest<S>,
    wantPeer = false,
  ): Promise<{ value: z.output<S>; res: HttpResponse; route: Route }> {
    const { method, path, idempotencyKey } = req
    const timeoutMs = positiveOption('timeoutMs', req.opts?.timeoutMs, this.#c.timeoutMs, 2_147_483_647)

    const url = new URL(this.#c.baseUrl + path)
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))

    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Encoding': ACCEPT_ENCODING,
      'User-Agent': this.#c.userAgent,
      'X-API-Key': this.#c.key,
    }
    if (this.#c.accessToken !== undefined) headers.Authorization = `Bearer ${this.#c.accessToken}`
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey

    // Redirects are never followed (http.ts): X-API-Key would go along to wherever they point.
    let payload: Uint8Array | ReadableStream<Uint8Array> | undefined
    if (req.stream) {
      headers['Content-Type'] = 'application/json'
      headers['Content-Length'] = String(req.stream.contentLength)
      payload = req.stream.stream
    } else if (req.bytes !== undefined) {
      payload = req.bytes
    } else if (req.json !== undefined) {
      payload = Buffer.from(JSON.stringify(req.json))
    }
    if (payload !== undefined && !(payload instanceof ReadableStream)) {
      headers['Content-Type'] = 'application/json'
      headers['Content-Length'] = String(payload.byteLength)
    }

    const base = { method, path, idempotencyKey }
    let route: Route
    try {
      const r = this.#c.network.route(url)
      route = r instanceof Promise ? await r : r
    } catch (e) {
      throw this.observed(
        this.error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.proxy,
          message: `The proxy setting cannot be used: ${e instanceof Error ? e.message : String(e)}`,
          retryable: false,
          connection: 'unreachable',
          configuration: true,
        }),
      )
    }

    let res: HttpResponse
    try {
      res = await httpRequest({
        method,
        url,
        headers,
        body: payload,
        timeoutMs,
        signal: req.opts?.signal,
        // A read, or a write the server answers once per key: safe to send again.
        replayable: method === 'GET' || idempotencyKey !== undefined,
        route,
        maxResponseBytes: this.#c.maxResponseBytes,
        wantPeer,
      })
    } catch (e) {
      throw this.observed(await this.transportError(e, req, url, route, timeoutMs))
    }

    const now = Date.now()
    const rateLimit = parseRateLimit(res.headers, now)
    if (this.#c.onResponse) {
      try {
        this.#c.onResponse({ method, path, status: res.status, rateLimit })
      } catch {
        // An observer must never break a request.
      }
    }

    const text = res.text
    let body: unknown
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }

    const withResponse = { ...base, rateLimit, retryAfterMs: retryAfterMs(res.status, res.headers, now) }
    const notApi = (seen: string, errorCode: string = CLIENT_ERROR_CODES.notApi): ApiError =>
      this.observed(
        this.error({
          ...withResponse,
          status: res.status,
          errorCode,
          message:
            `${method} ${path}: ${seen} came instead of the API's answer: ` +
            'a Wi-Fi login page, a proxy or a web server in the way, or the wrong base URL?',
          retryable: true,
          connection: 'not_api',
        }),
      )
    if (res.status >= 300 && res.status < 400) {
      const location = String(res.headers.location ?? '')
      let where = ''
      try {
        where = location ? ` to ${new URL(location, url).host}` : ''
      } catch {
        // An unreadable Location names nothing.
      }
      throw notApi(`a redirect (${res.status})${where}, which Bookdrop never follows (the key must not go elsewhere),`, CLIENT_ERROR_CODES.redirect)
    }
    const ok = res.status >= 200 && res.status < 300
    const failure = isRecord(body) && body.status === 'failed' ? failureEnvelope.safeParse(body) : null
    if (failure?.success || (!ok && res.status === 429)) {
      // The API's refusal (or a rate limit, whoever says it: its Retry-After is obeyed either way).
      this.observed(null)
      throw this.error({
        ...withResponse,
        status: res.status,
        errorCode:
          failure?.success && failure.data.error_code ? failure.data.error_code : `http_${res.status}`,
        message:
          failure?.success && failure.data.message.trim() !== ''
            ? failure.data.message
            : `${method} ${path} failed: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`,
        retryable: ok ? false : undefined,
      })
    }
    if (!ok && (res.status >= 500 || (res.status === 413 && payload !== undefined))) {
      // The status code speaks first (design.md §1): a 5xx page is the server or a gateway failing
      // (waited for, its Retry-After obeyed); a 413 page says the file is too large for that server.
      const seen = describeStatusPage(res.status, res.statusText, res.headers, text, body)
      if (res.status === 413) {
        throw this.error({
          ...withResponse,
          status: 413,
          errorCode: CLIENT_ERROR_CODES.requestTooLarge,
          message: `${method} ${path}: ${seen}.`,
          retryable: false,
        })
      }
      throw this.observed(
        this.error({
          ...withResponse,
          status: res.status,
          errorCode: CLIENT_ERROR_CODES.serverPage,
          message: `${method} ${path}: ${seen}: the server or a gateway in front of it is failing.`,
          retryable: true,
          connection: 'unreachable',
        }),
      )
    }
    if (!ok || !isRecord(body) || body.status !== 'success') {
      throw notApi(describeBody(res.status, res.headers, text, body))
    }
    if (req.expect && !req.expect.holds(body)) {
      const msg = typeof body.message === 'string' && body.message.trim() ? ` ("${body.message.slice(0, 80)}")` : ''
      throw notApi(`a success envelope without ${req.expect.what}${msg} (HTTP ${res.status})`)
    }
    this.observed(null)
    const value = this.parseResponse(req.envelope, body, res.status, method, path, idempotencyKey) as z.output<S>
    return { value, res, route }
  }

  /** Tells onConnection how the exchange went (null: the API answered); returns the error. */
  private observed<E extends ApiError | null>(e: E): E {
    const fn = this.#c.onConnection
    if (fn && (e === null || e.connection)) {
      try {
        fn(
          e === null
            ? { ok: true }
            : {
                ok: false,
                problem: e.connection!,
                configuration: e.configuration,
                message: e.message,
                status: e.status,
                retryAfterMs: e.retryAfterMs,
              },
        )
      } catch {
        // An observer must never break a request.
      }
    }
    return e
  }

  /** The error of an exchange that brought no answer to read. */
  private async transportError(
    e: unknown,
    req: SendRequest<z.ZodType>,
    url: URL,
    route: Route,
    timeoutMs: number,
  ): Promise<ApiError> {
    const { method, path, idempotencyKey } = req
    const fileFailure = req.stream?.failure()
    if (fileFailure) return this.fileBodyError(fileFailure, { method, path, idempotencyKey })
    const exchange = { method, path, idempotencyKey, url, route, timeoutMs, timeoutHint: this.#c.timeoutHint }
    return this.error(await noAnswer(e, exchange, (text) => this.redact(text)))
  }

  /**
   * "Test connection" and `--check`: GET /auth/validate once, reporting the route, the
   * certificate's issuer, the round trip and whether the answer was the API's.
   */
  async check(envelope: z.ZodType, timeoutMs?: number): Promise<ConnectionReport> {
    const url = new URL(this.#c.baseUrl + '/auth/validate')
    const base = {
      baseUrl: this.#c.baseUrl,
      proxy: null as string | null,
      issuer: null as string | null,
      roundTripMs: null as number | null,
      status: null as number | null,
      api: false,
      keyAccepted: null as boolean | null,
      trust: this.#c.network.trustSummary(),
    }
    try {
      base.proxy = (await this.#c.network.route(url)).proxy
    } catch {
      // Reported by the exchange below.
    }
    const started = performance.now()
    try {
      const { res } = await this.exchange(
        { method: 'GET', path: '/auth/validate', auth: 'business', envelope, opts: timeoutMs ? { timeoutMs } : undefined },
        true,
      )
      return {
        ...base,
        issuer: res.issuer ?? null,
        roundTripMs: Math.round(performance.now() - started),
        status: res.status,
        api: true,
        keyAccepted: true,
        message: `The API answered in ${Math.round(performance.now() - started)} ms and accepted the key.`,
      }
    } catch (e) {
      const err = e instanceof ApiError ? e : this.error({ status: 0, errorCode: 'internal_error', message: String(e) })
      const answered = err.status > 0
      const api = answered && !err.connection
      let issuer: string | null = null
      if (url.protocol === 'https:' && (answered || err.errorCode === CLIENT_ERROR_CODES.certificate)) {
        const route = await Promise.resolve(this.#c.network.route(url)).catch(() => null)
        const peer = await presentedCertificate(url, route)
        issuer = peer?.issuer ?? null
      }
      return {
        ...base,
        issuer,
        roundTripMs: answered ? Math.round(performance.now() - started) : null,
        status: answered ? err.status : null,
        api,
        keyAccepted: api && err.status === 401 ? false : null,
        message: err.message,
      }
    }
  }

  parseResponse<T>(
    schema: z.ZodType<T>,
    value: unknown,
    status: number,
    method: Method,
    path: string,
    idempotencyKey: string | undefined,
  ): T {
    const r = schema.safeParse(value)
    if (r.success) return r.data
    throw this.error({
      status,
      errorCode: CLIENT_ERROR_CODES.badResponse,
      message: `Unexpected response from ${method} ${path}: ${describeIssues(r.error)}`,
      retryable: false,
      method,
      path,
      idempotencyKey,
    })
  }

  /** A file that did not read back as measured, as the ApiError the caller sees. */
  fileBodyError(
    f: FileBodyError,
    base: { method: Method; path: string; idempotencyKey: string | undefined },
  ): ApiError {
    return this.error({
      ...base,
      status: 0,
      errorCode:
        f.kind === 'read'
          ? CLIENT_ERROR_CODES.fileRead
          : f.kind === 'superseded' || f.file.sha256 !== undefined
            ? CLIENT_ERROR_CODES.fileSuperseded
            : CLIENT_ERROR_CODES.fileChanged,
      message: f.message,
      retryable: f.kind === 'changed' && f.file.sha256 === undefined,
    })
  }

  /** Every error the client builds goes through here, so no secret can reach a message. */
  error(init: ApiErrorInit): ApiError {
    return new ApiError({ ...init, message: this.redact(init.message) })
  }

  redact(text: string): string {
    return redact(text, [this.#c.key, this.#c.accessToken])
  }
}
