/**
 * The client's transport: one HTTP request with the key in `X-API-Key` (and an OAuth bearer), a
 * timeout, no redirects, the rate-limit headers reported, and the answer read through the
 * envelope asked for. It alone holds the secrets, and every error it builds (for itself or for the
 * client) passes through `redact`, so no secret can reach a message.
 */
import type { z } from 'zod'
import { failureEnvelope, describeIssues } from '../../../schemas'
import { ApiError, type ApiErrorInit, CLIENT_ERROR_CODES } from './errors'
import { HttpAborted, type HttpResponse, HttpTimeout, httpRequest } from './http'
import { parseRateLimit, retryAfterMs } from './ratelimit'
import type { FileBodyError } from './stream-body'
import type { Method, ResponseInfo, SendRequest } from './client-types'
import { errnoCode, isRecord, redact } from '../util'
import { positiveOption } from './client-types'

export interface TransportConfig {
  /** Ends in the version prefix, without a trailing slash. */
  baseUrl: string
  key: string
  accessToken: string | undefined
  userAgent: string
  timeoutMs: number
  onResponse: ((info: ResponseInfo) => void) | undefined
}

export class Transport {
  readonly #c: TransportConfig

  constructor(config: TransportConfig) {
    this.#c = config
  }

  async send<S extends z.ZodType>(req: SendRequest<S>): Promise<z.output<S>> {
    const { method, path, idempotencyKey } = req
    const timeoutMs = positiveOption('timeoutMs', req.opts?.timeoutMs, this.#c.timeoutMs, 2_147_483_647)

    const url = new URL(this.#c.baseUrl + path)
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))

    const headers: Record<string, string> = {
      Accept: 'application/json',
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
    const transportError = (e: unknown): ApiError => {
      const fileFailure = req.stream?.failure()
      if (fileFailure) return this.fileBodyError(fileFailure, base)
      if (e instanceof HttpTimeout) {
        return this.error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.timeout,
          message: `${method} ${path} got no complete answer within ${timeoutMs / 1000} s (timeoutMs option).`,
          retryable: true,
        })
      }
      if (e instanceof HttpAborted) {
        return this.error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.aborted,
          message: `${method} ${path} was cancelled.`,
          retryable: false,
        })
      }
      const code = errnoCode(e)
      const detail = code ?? (e instanceof Error ? e.message : String(e))
      return this.error({
        ...base,
        status: 0,
        errorCode: CLIENT_ERROR_CODES.network,
        message: `Could not reach ${url.host} (${detail}); check the connection and the base URL.`,
        retryable: true,
        cause: new Error(
          this.redact(`${code ? `${code}: ` : ''}${e instanceof Error ? e.message : String(e)}`),
        ),
      })
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
      })
    } catch (e) {
      throw transportError(e)
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
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }

    const withResponse = { ...base, rateLimit, retryAfterMs: retryAfterMs(res.status, res.headers, now) }
    if (res.status >= 300 && res.status < 400) {
      throw this.error({
        ...withResponse,
        status: res.status,
        errorCode: CLIENT_ERROR_CODES.redirect,
        message:
          `${method} ${path} was redirected (${res.status}). Redirects are not followed, so the key is never sent ` +
          'elsewhere: check the base URL.',
        retryable: false,
      })
    }
    const ok = res.status >= 200 && res.status < 300
    if (!ok || (isRecord(body) && body.status === 'failed')) {
      const failure = failureEnvelope.safeParse(body)
      throw this.error({
        ...withResponse,
        status: res.status,
        errorCode:
          failure.success && failure.data.error_code ? failure.data.error_code : `http_${res.status}`,
        message:
          failure.success && failure.data.message.trim() !== ''
            ? failure.data.message
            : `${method} ${path} failed: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`,
        retryable: ok ? false : undefined,
      })
    }
    if (body === undefined) {
      throw this.error({
        ...withResponse,
        status: res.status,
        errorCode: CLIENT_ERROR_CODES.badResponse,
        message: `Unexpected response from ${method} ${path}: the body is not JSON.`,
        retryable: false,
      })
    }
    return this.parseResponse(req.envelope, body, res.status, method, path, idempotencyKey) as z.output<S>
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
