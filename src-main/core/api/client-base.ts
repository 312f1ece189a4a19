/**
 * What every call of the client shares: the key and its kind (checked against each route before a
 * request leaves), the base URL and limits, the transport, and the checks of a request (body
 * against the shared schemas, path ids, Idempotency-Key). The calls themselves are in
 * ./partner-routes.ts and ./client.ts; the files an upload sends are checked in ./file-upload.ts.
 */
import { randomUUID } from 'node:crypto'
import { inspect } from 'node:util'
import type { z } from 'zod'
import { describeIssues, issuesByField } from '../../../schemas/api'
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  type Environment,
} from '../../../schemas/assumptions'
import { CLIENT_ERROR_CODES } from './errors'
import {
  type AuthMode,
  type ClientOptions,
  HEADER_SAFE,
  type Method,
  type RouteAuth,
  type SendRequest,
  type WriteOptions,
} from './client-types'
import { clientSettings } from './credentials'
import { anyEnvelope } from './envelope'
import { defaultNetwork } from './network'
import { type ConnectionReport, Transport } from './transport'

export abstract class ClientBase {
  readonly environment: Environment
  /** The base URL, ending in the version prefix, without a trailing slash. */
  readonly baseUrl: string
  readonly authMode: AuthMode
  readonly timeoutMs: number
  readonly maxFileBytes: number

  /** Sends requests and builds every error (secrets redacted); it alone holds the key. */
  protected readonly transport: Transport

  constructor(options: ClientOptions) {
    const c = clientSettings(options)
    this.environment = options.environment
    this.baseUrl = c.baseUrl
    this.timeoutMs = c.timeoutMs
    this.maxFileBytes = c.maxFileBytes
    this.authMode = c.authMode
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      key: c.key,
      accessToken: c.accessToken,
      userAgent: options.userAgent ?? 'Bookdrop/0.1',
      timeoutMs: this.timeoutMs,
      maxResponseBytes: c.maxResponseBytes,
      network: options.network ?? defaultNetwork(),
      timeoutHint: options.timeoutHint ?? 'the timeoutMs option',
      onResponse: options.onResponse,
      onConnection: options.onConnection,
    })
  }

  /**
   * "Test connection": one GET /auth/validate, reporting the base URL, the proxy used (or none),
   * the issuer of the server's certificate, the round trip and whether the answer was the API's.
   * Never throws for what the network does: the report says it.
   */
  async checkConnection(opts?: { timeoutMs?: number }): Promise<ConnectionReport> {
    return this.transport.check(anyEnvelope(), opts?.timeoutMs)
  }

  toJSON(): Record<string, unknown> {
    return {
      environment: this.environment,
      baseUrl: this.baseUrl,
      authMode: this.authMode,
      timeoutMs: this.timeoutMs,
    }
  }

  toString(): string {
    return `BookkeepingClient(${this.authMode} @ ${this.baseUrl})`
  }

  [inspect.custom](): string {
    return this.toString()
  }

  /** Validates `input` with a shared schema; on failure an ApiError naming the fields, nothing sent. */
  protected checked<S extends z.ZodType>(
    method: Method,
    path: string,
    auth: RouteAuth,
    schema: S,
    input: unknown,
    what: string,
  ): z.output<S> {
    // A wrong key is the first thing to fix: say so before talking about fields.
    this.checkRoute(auth, method, path)
    const r = schema.safeParse(input)
    if (r.success) return r.data
    throw this.transport.error({
      status: 0,
      errorCode: CLIENT_ERROR_CODES.validation,
      message: `${what}: ${describeIssues(r.error)}`,
      fields: issuesByField(r.error),
      retryable: false,
      method,
      path,
    })
  }

  protected pathId(method: Method, auth: RouteAuth, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '') {
      this.checkRoute(auth, method, '')
      throw this.transport.error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Nothing was sent: ${field} must not be empty.`,
        fields: { [field]: `${field} must not be empty` },
        method,
      })
    }
    return encodeURIComponent(value.trim())
  }

  /** A request of this client: the key's kind checked against the route, then sent. */
  protected send<S extends z.ZodType>(req: SendRequest<S>): Promise<z.output<S>> {
    this.checkRoute(req.auth, req.method, req.path)
    return this.transport.send(req)
  }

  protected checkRoute(auth: RouteAuth, method: Method, path: string): void {
    const kind = this.authMode === 'partner' ? 'partner' : 'business'
    if (auth === kind) return
    throw this.transport.error({
      status: 0,
      errorCode: CLIENT_ERROR_CODES.wrongKeyType,
      message: `Not sent: ${auth === 'partner' ? PARTNER_ROUTE_BUSINESS_KEY_MESSAGE : BUSINESS_ROUTE_PARTNER_KEY_MESSAGE}`,
      retryable: false,
      method,
      path: path || undefined,
    })
  }

  protected idempotencyKey(opts: WriteOptions | undefined, method: Method, path: string): string {
    const key = opts?.idempotencyKey
    if (key === undefined) return randomUUID()
    if (typeof key !== 'string' || key.length > 255 || !HEADER_SAFE.test(key)) {
      throw this.transport.error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.invalidOption,
        message: 'idempotencyKey must be 1 to 255 visible ASCII characters without spaces (a UUID is ideal).',
        method,
        path,
      })
    }
    return key
  }

  protected async mutate<S extends z.ZodType>(
    method: Method,
    path: string,
    auth: RouteAuth,
    json: unknown,
    envelope: S,
    opts: WriteOptions | undefined,
  ): Promise<z.output<S>> {
    const idempotencyKey = this.idempotencyKey(opts, method, path)
    return this.send({ method, path, auth, json, idempotencyKey, envelope, opts })
  }
}
