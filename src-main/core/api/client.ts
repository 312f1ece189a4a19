/**
 * Typed client for the bookkeeping API (api-spec.md, design.md §3). Plain Node: native fetch, no
 * Electron. Every request is checked with the shared schemas before it leaves the machine, every
 * response is parsed with them, and every failure is an ApiError.
 *
 * The API key and OAuth token live only in private fields: they are sent in headers and appear in
 * no message, property, log, toString, JSON or inspect output of the client or of its errors.
 *
 * The client makes one attempt per call. Retrying and pacing belong to the upload queue, which
 * passes the same `idempotencyKey` again (design.md §2) and reads `ApiError.retryable`,
 * `retryAfterMs` and the `onResponse` rate-limit information.
 */
import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { inspect } from 'node:util'
import { z } from 'zod'
import {
  AI_CREATE_ROUTES,
  AI_TARGETS,
  LIST_RESOURCES,
  addCreditsSchema,
  addSeatsData,
  addSeatsSchema,
  aiCreateSchema,
  bankUploadSchema,
  describeIssues,
  failureEnvelope,
  issuesByField,
  listQuerySchema,
  purchaseOrderData,
  purchaseOrderSchema,
  recordPatchSchema,
  recordPutSchema,
  referredListQuerySchema,
  registerBusinessSchema,
  registeredBusinessData,
  type AddCreditsInput,
  type AddSeatsInput,
  type AddSeatsResult,
  type AiTarget,
  type BillingStatus,
  type ListQuery,
  type ListResource,
  type PurchaseOrderData,
  type PurchaseOrderInput,
  type RecordPatch,
  type RecordPut,
  type ReferredBusinessPage,
  type ReferredListQuery,
  type RegisterBusinessInput,
  type RegisteredBusiness,
} from '../../../schemas/api'
import {
  RESOURCE_READERS,
  billingStatusRead,
  referredBusinessPageRead,
  readAddCredits,
  readAiCreate,
  readAuthValidate,
  readJob,
  readPageMeta,
  updatedRecordRead,
  type AddCreditsRead,
  type AiCreateRead,
  type AuthValidateRead,
  type InvoiceRead,
  type JobRead,
  type PageMetaRead,
  type ResourceRead,
  type UpdatedRecordRead,
} from '../../../schemas/read'
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  PUBLIC_KEY_MESSAGE,
  keyKind,
  type Environment,
} from '../../../schemas/assumptions'
import { resolveBaseUrl, type EnvironmentOption } from './base-url'
import { ApiError, CLIENT_ERROR_CODES, type ApiErrorInit } from './errors'
import { parseRateLimit, retryAfterMs, type RateLimit } from './ratelimit'
import {
  type BodyFile,
  FileBodyError,
  type StreamedJsonBody,
  streamedJsonBody,
  wholeJsonBody,
} from './stream-body'
import { errnoCode, isRecord, redact, sizeText } from '../util'

// ---------------------------------------------------------------------------------------------
// Shapes per resource
// ---------------------------------------------------------------------------------------------

/**
 * Every read goes through a tolerant reader (schemas/read.ts): only what the spec names is required,
 * everything else is optional with a fallback, unknown fields are dropped.
 */
function resourceReader<R extends ListResource>(resource: R): z.ZodType<ResourceRead<R>> {
  // TypeScript cannot relate an indexed access on a generic key to its inferred output; the table is const.
  return RESOURCE_READERS[resource] as unknown as z.ZodType<ResourceRead<R>>
}

export type AiCreateResult<T extends AiTarget> = AiCreateRead<T>

export interface Page<T> {
  data: T[]
  meta: PageMetaRead
}

export type UpdatedRecord = UpdatedRecordRead
export type AiCreateInput = z.input<typeof aiCreateSchema>

export interface FileAttachmentInput {
  path: string
  /** Name sent to the server, with extension (type detection); defaults to the file's own name. */
  name?: string
  /**
   * The version of the file that was recorded (size, mtime, sha256). When given, nothing is sent if
   * the file's size or mtime differs, and the request is aborted before its body is complete if the
   * sha256 of the bytes streamed differs: error `file_superseded` either way.
   */
  expect?: { size: number; mtimeMs: number; sha256: string }
}

export interface AiCreateFromFilesInput {
  prompt: string
  text_attachment?: string
  process_type?: 'async' | 'direct'
  files: FileAttachmentInput[]
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/**
 * How the client authenticates (api-spec.md Part 5). For key auth, `mode` may be left out when the
 * prefix says it (svc_sk_ business, svc_partner_sk_ partner); set it for a partner key "of
 * equivalent form" with another prefix.
 */
export type ClientAuth =
  { mode?: 'business' | 'partner'; key: string } | { mode: 'oauth'; appKey: string; accessToken: string }

export type AuthMode = 'business' | 'partner' | 'oauth'

/** What `onResponse` sees for every HTTP response (never the key). */
export interface ResponseInfo {
  method: string
  /** API path without base or query, e.g. `/referred-businesses/abc/add-seats`. */
  path: string
  status: number
  rateLimit: RateLimit | undefined
}

export type ClientOptions = EnvironmentOption & {
  auth: ClientAuth
  /** Per-request timeout in ms (whole request, body included); default 60 000. */
  timeoutMs?: number
  /** Largest file aiCreateFromFiles sends; default 25 MB. */
  maxFileBytes?: number
  /** Called after every HTTP response, success or failure; exceptions it throws are ignored. */
  onResponse?: (info: ResponseInfo) => void
  userAgent?: string
}

export interface ReadOptions {
  signal?: AbortSignal
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number
}

export interface WriteOptions extends ReadOptions {
  /** Sent as `Idempotency-Key`; pass the same value when retrying the same create. Default: a new UUID. */
  idempotencyKey?: string
}

export const DEFAULT_TIMEOUT_MS = 60_000
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024
/** Files of an AI create that add up to at most this are sent as one body built in memory; more stream. */
const WHOLE_BODY_MAX_BYTES = 2 * 1024 * 1024

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type RouteAuth = 'business' | 'partner'

interface SendRequest<S extends z.ZodType> {
  method: Method
  path: string
  auth: RouteAuth
  query?: Record<string, string | number | undefined>
  json?: unknown
  stream?: StreamedJsonBody
  /** A JSON body already serialised (aiCreateFromFiles with small files). */
  text?: string
  /** Idempotency-Key already chosen by the caller of #send (mutations). */
  idempotencyKey?: string
  envelope: S
  opts: ReadOptions | undefined
}

const HEADER_SAFE = /^[\x21-\x7e]+$/

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

export class BookkeepingClient {
  readonly environment: Environment
  /** The base URL, ending in the version prefix, without a trailing slash. */
  readonly baseUrl: string
  readonly authMode: AuthMode
  readonly timeoutMs: number
  readonly maxFileBytes: number

  readonly #key: string
  readonly #accessToken: string | undefined
  readonly #onResponse: ((info: ResponseInfo) => void) | undefined
  readonly #userAgent: string

  constructor(options: ClientOptions) {
    this.environment = options.environment
    this.baseUrl = resolveBaseUrl(options)
    this.timeoutMs = positiveOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 2_147_483_647)
    this.maxFileBytes = positiveOption('maxFileBytes', options.maxFileBytes, DEFAULT_MAX_FILE_BYTES)
    this.#onResponse = options.onResponse
    this.#userAgent = options.userAgent ?? 'Bookdrop/0.1'

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
      this.#key = appKey
      this.#accessToken = secretValue(auth.accessToken, 'The OAuth access token')
      this.authMode = 'oauth'
    } else {
      const key = secretValue(auth.key, 'The API key')
      const kind = keyKind(key)
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
      this.#key = key
      this.#accessToken = undefined
      this.authMode = mode
    }
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

  // -------------------------------------------------------------------------------------------
  // Authentication and partner routes
  // -------------------------------------------------------------------------------------------

  /**
   * GET /auth/validate: a success means the key works. The business it belongs to (response fields
   * not shown) is returned where recognisable; each field is null otherwise.
   */
  async validateKey(opts?: ReadOptions): Promise<AuthValidateRead> {
    return this.#send({
      method: 'GET',
      path: '/auth/validate',
      auth: 'business',
      envelope: anyEnvelope(),
      opts,
    }).then((e) => readAuthValidate(e.data))
  }

  /** POST /register-business (partner key). With grant_access admin the result carries the business's keys. */
  async registerBusiness(input: RegisterBusinessInput, opts?: WriteOptions): Promise<RegisteredBusiness> {
    const path = '/register-business'
    const body = this.#checked(
      'POST',
      path,
      'partner',
      registerBusinessSchema,
      input,
      'The business was not registered',
    )
    return this.#mutate(
      'POST',
      path,
      'partner',
      body,
      anyEnvelope().extend({ data: registeredBusinessData }),
      opts,
    ).then((e) => e.data)
  }

  /** GET /referred-businesses?page&limit (partner key). */
  async listReferredBusinesses(
    query: ReferredListQuery = {},
    opts?: ReadOptions,
  ): Promise<ReferredBusinessPage> {
    const path = '/referred-businesses'
    const q = this.#checked(
      'GET',
      path,
      'partner',
      referredListQuerySchema,
      query,
      'The list was not requested',
    )
    return this.#send({
      method: 'GET',
      path,
      auth: 'partner',
      query: q,
      envelope: anyEnvelope().extend({ data: referredBusinessPageRead }),
      opts,
    }).then((e) => e.data)
  }

  /** GET /referred-businesses/{uuid}/billing-status (partner key). */
  async billingStatus(businessUuid: string, opts?: ReadOptions): Promise<BillingStatus> {
    const path = `/referred-businesses/${this.#pathId('GET', 'partner', 'business_uuid', businessUuid)}/billing-status`
    return this.#send({
      method: 'GET',
      path,
      auth: 'partner',
      envelope: anyEnvelope().extend({ data: billingStatusRead }),
      opts,
    }).then((e) => e.data)
  }

  /** POST /referred-businesses/{uuid}/add-seats (partner key): grants Plus seats from the partner holding. */
  async addSeats(businessUuid: string, input: AddSeatsInput, opts?: WriteOptions): Promise<AddSeatsResult> {
    const path = `/referred-businesses/${this.#pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-seats`
    const body = this.#checked('POST', path, 'partner', addSeatsSchema, input, 'No seats were granted')
    return this.#mutate(
      'POST',
      path,
      'partner',
      body,
      anyEnvelope().extend({ data: addSeatsData }),
      opts,
    ).then((e) => e.data)
  }

  /** POST /referred-businesses/{uuid}/add-credits (partner key): grants AI credits from the partner holding. */
  async addCredits(
    businessUuid: string,
    input: AddCreditsInput,
    opts?: WriteOptions,
  ): Promise<AddCreditsRead> {
    const path = `/referred-businesses/${this.#pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-credits`
    const body = this.#checked('POST', path, 'partner', addCreditsSchema, input, 'No credits were granted')
    return this.#mutate('POST', path, 'partner', body, anyEnvelope(), opts).then((e) =>
      readAddCredits(e.data),
    )
  }

  // -------------------------------------------------------------------------------------------
  // Business routes: creates
  // -------------------------------------------------------------------------------------------

  /**
   * POST /purchase-orders (or the alias POST /create/purchase_order with `alias: true`). The order is
   * checked first; aliases (vendor, name, price) are sent under their canonical names.
   */
  async createPurchaseOrder(
    po: PurchaseOrderInput,
    opts?: WriteOptions & { alias?: boolean },
  ): Promise<PurchaseOrderData> {
    const path = opts?.alias ? '/create/purchase_order' : '/purchase-orders'
    const body = this.#checked(
      'POST',
      path,
      'business',
      purchaseOrderSchema,
      po,
      'The purchase order was not sent',
    )
    return this.#mutate(
      'POST',
      path,
      'business',
      body,
      anyEnvelope().extend({ data: purchaseOrderData }),
      opts,
    ).then((e) => e.data)
  }

  /**
   * AI create (api-spec.md 2.5) on the route of `target`. Returns `{process_type: 'async',
   * job_reference}` for a queued job, or `{process_type: 'direct', record}` for a direct create. The
   * bank statement upload is checked with its stricter schema (prompt required, accepted file kinds).
   */
  async aiCreate<T extends AiTarget>(
    target: T,
    body: AiCreateInput,
    opts?: WriteOptions,
  ): Promise<AiCreateResult<T>> {
    const path = this.#aiPath(target)
    const schema = target === 'bank-transactions' ? bankUploadSchema : aiCreateSchema
    const checked = this.#checked('POST', path, 'business', schema, body, 'Nothing was sent')
    const idempotencyKey = this.#idempotencyKey(opts, 'POST', path)
    const envelope = await this.#send({
      method: 'POST',
      path,
      auth: 'business',
      json: checked,
      idempotencyKey,
      envelope: anyEnvelope(),
      opts,
    })
    return readAiCreate(target, envelope.data)
  }

  /**
   * The same AI create with files from disk, streamed: each file is read and Base64-encoded chunk by
   * chunk into the JSON body, so memory does not grow with file size; Content-Length is exact.
   * Files must exist, be regular files and be at most `maxFileBytes` (client option, default 25 MB).
   */
  async aiCreateFromFiles<T extends AiTarget>(
    target: T,
    input: AiCreateFromFilesInput,
    opts?: WriteOptions & { maxFileBytes?: number; onProgress?: (sent: number, total: number) => void },
  ): Promise<AiCreateResult<T>> {
    const path = this.#aiPath(target)
    this.#checkRoute('business', 'POST', path)
    const limit = positiveOption('maxFileBytes', opts?.maxFileBytes, this.maxFileBytes)
    if (!isRecord(input) || !Array.isArray(input.files)) {
      throw this.#error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: 'Nothing was sent: files must be a list of {path, name}.',
        fields: { files: 'files must be a list of {path, name}' },
        method: 'POST',
        path,
      })
    }

    const files: BodyFile[] = []
    for (const [i, f] of input.files.entries()) {
      const filePath = isRecord(f) && typeof f.path === 'string' ? f.path : ''
      const name = isRecord(f) && typeof f.name === 'string' && f.name !== '' ? f.name : basename(filePath)
      if (!filePath) {
        throw this.#error({
          status: 0,
          errorCode: CLIENT_ERROR_CODES.validation,
          message: `Nothing was sent: files.${i}.path must be the path of a file.`,
          fields: { [`files.${i}.path`]: 'must be the path of a file' },
          method: 'POST',
          path,
        })
      }
      const st = await this.#fileStat(filePath, name, limit, path)
      const expect = isRecord(f) ? f.expect : undefined
      if (expect && (st.size !== expect.size || Math.floor(st.mtimeMs) !== Math.floor(expect.mtimeMs))) {
        throw this.#error({
          status: 0,
          errorCode: CLIENT_ERROR_CODES.fileSuperseded,
          message: `"${name}" changed on disk after it was queued (${sizeText(expect.size)} then, ${sizeText(st.size)} now); nothing was sent.`,
          retryable: false,
          method: 'POST',
          path,
        })
      }
      files.push({ path: filePath, name, size: st.size, ...(expect ? { sha256: expect.sha256 } : {}) })
    }

    // The same rules as a JSON AI create, on equivalent metadata: the content is generated here, so a
    // placeholder of the right emptiness stands in for the Base64.
    const metadata = {
      prompt: input.prompt,
      text_attachment: input.text_attachment,
      process_type: input.process_type,
      attachments: files.map((f) => ({
        file: f.size > 0 ? 'AAAA' : '',
        type: 'base64' as const,
        name: f.name,
      })),
    }
    const schema = target === 'bank-transactions' ? bankUploadSchema : aiCreateSchema
    const checked = this.#checked('POST', path, 'business', schema, metadata, 'Nothing was sent')
    const fields = {
      prompt: checked.prompt,
      text_attachment: checked.text_attachment,
      process_type: checked.process_type,
    }

    const idempotencyKey = this.#idempotencyKey(opts, 'POST', path)
    const totalBytes = files.reduce((n, f) => n + f.size, 0)
    let envelope: { data?: unknown }
    if (totalBytes <= WHOLE_BODY_MAX_BYTES) {
      // Receipt-sized files: the body is built whole after each file was read and checked, so a file
      // that changed sends nothing at all.
      let text: string
      try {
        text = await wholeJsonBody(fields, files)
      } catch (e) {
        if (e instanceof FileBodyError) throw this.#fileBodyError(e, { method: 'POST', path, idempotencyKey })
        throw e
      }
      envelope = await this.#send({
        method: 'POST',
        path,
        auth: 'business',
        text,
        idempotencyKey,
        envelope: anyEnvelope(),
        opts,
      })
      opts?.onProgress?.(Buffer.byteLength(text), Buffer.byteLength(text))
    } else {
      // Larger files stream in 256 KiB chunks: memory stays flat whatever their size.
      const stream = streamedJsonBody(fields, files, 256 * 1024, opts?.onProgress, 1024 * 1024)
      envelope = await this.#send({
        method: 'POST',
        path,
        auth: 'business',
        stream,
        idempotencyKey,
        envelope: anyEnvelope(),
        opts,
      })
    }
    return readAiCreate(target, envelope.data)
  }

  /**
   * GET /jobs/{job_reference}: the state of an async AI create (design.md §3; not shown by the spec).
   * Read tolerantly: status synonyms, other field names; a status it does not know is `unknown`.
   */
  async getJob(jobReference: string, opts?: ReadOptions): Promise<JobRead> {
    const path = `/jobs/${this.#pathId('GET', 'business', 'job_reference', jobReference)}`
    return this.#send({ method: 'GET', path, auth: 'business', envelope: anyEnvelope(), opts }).then((e) => {
      const job = readJob(e.data)
      return { ...job, job_reference: job.job_reference ?? jobReference.trim() }
    })
  }

  // -------------------------------------------------------------------------------------------
  // Business routes: reads
  // -------------------------------------------------------------------------------------------

  /**
   * GET /<resource>?page&limit&date_order&search&status&bank&schema → rows and {page, limit, total}.
   * `meta` is optional (2.1): without it the page and limit are the ones asked for and total is null.
   */
  async list<R extends ListResource>(
    resource: R,
    query: ListQuery = {},
    opts?: ReadOptions,
  ): Promise<Page<ResourceRead<R>>> {
    const path = `/${this.#resource('GET', resource)}`
    const q = this.#checked('GET', path, 'business', listQuerySchema, query, 'The list was not requested')
    const envelope = anyEnvelope().extend({
      data: z.array(resourceReader(resource), { error: 'must be a list of records' }),
    })
    const res = await this.#send({ method: 'GET', path, auth: 'business', query: q, envelope, opts })
    return { data: res.data, meta: readPageMeta(res.meta, q) }
  }

  /** GET /<resource>/{uuid}; the identifier may be the record's uuid or its source_uuid. */
  async get<R extends ListResource>(
    resource: R,
    uuidOrSource: string,
    opts?: ReadOptions,
  ): Promise<ResourceRead<R>> {
    const base = `/${this.#resource('GET', resource)}`
    const path = `${base}/${this.#pathId('GET', 'business', 'uuid', uuidOrSource)}`
    return this.#send({
      method: 'GET',
      path,
      auth: 'business',
      envelope: anyEnvelope().extend({ data: resourceReader(resource) }),
      opts,
    }).then((e) => e.data)
  }

  /** GET /invoices/{uuid} (uuid or source_uuid). */
  async getInvoice(uuidOrSource: string, opts?: ReadOptions): Promise<InvoiceRead> {
    return this.get('invoices', uuidOrSource, opts)
  }

  // -------------------------------------------------------------------------------------------
  // Business routes: updates and delete
  // -------------------------------------------------------------------------------------------

  /** PATCH /expenses/{uuid}: change some fields. */
  async patchExpense(uuidOrSource: string, patch: RecordPatch, opts?: WriteOptions): Promise<UpdatedRecord> {
    return this.#update('PATCH', 'expenses', uuidOrSource, patch, opts)
  }

  /** PATCH /bills/{uuid}: change some fields. */
  async patchBill(uuidOrSource: string, patch: RecordPatch, opts?: WriteOptions): Promise<UpdatedRecord> {
    return this.#update('PATCH', 'bills', uuidOrSource, patch, opts)
  }

  /** PUT /bills/{uuid}: replace the editable fields. */
  async putBill(uuidOrSource: string, body: RecordPut, opts?: WriteOptions): Promise<UpdatedRecord> {
    return this.#update('PUT', 'bills', uuidOrSource, body, opts)
  }

  /** DELETE /bank-transactions/{uuid}; resolves with the server's message. */
  async deleteBankTransaction(uuidOrSource: string, opts?: WriteOptions): Promise<{ message: string }> {
    const path = `/bank-transactions/${this.#pathId('DELETE', 'business', 'uuid', uuidOrSource)}`
    const res = await this.#mutate('DELETE', path, 'business', undefined, anyEnvelope(), opts)
    return { message: res.message }
  }

  // -------------------------------------------------------------------------------------------
  // Internals
  // -------------------------------------------------------------------------------------------

  async #update(
    method: 'PATCH' | 'PUT',
    resource: 'expenses' | 'bills',
    uuidOrSource: string,
    body: unknown,
    opts: WriteOptions | undefined,
  ): Promise<UpdatedRecord> {
    const path = `/${resource}/${this.#pathId(method, 'business', 'uuid', uuidOrSource)}`
    const schema = method === 'PATCH' ? recordPatchSchema : recordPutSchema
    const checked = this.#checked(method, path, 'business', schema, body, 'The change was not sent')
    const envelope = anyEnvelope().extend({ data: updatedRecordRead })
    return this.#mutate(method, path, 'business', checked, envelope, opts).then((e) => e.data)
  }

  #aiPath(target: AiTarget): string {
    if (!(AI_TARGETS as readonly string[]).includes(target)) {
      throw this.#error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Unknown AI create target "${String(target)}": use one of ${AI_TARGETS.join(', ')}.`,
        fields: { target: `must be one of ${AI_TARGETS.join(', ')}` },
      })
    }
    return AI_CREATE_ROUTES[target]
  }

  #resource(method: Method, resource: ListResource): ListResource {
    if (!(LIST_RESOURCES as readonly string[]).includes(resource)) {
      throw this.#error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Unknown resource "${String(resource)}": use one of ${LIST_RESOURCES.join(', ')}.`,
        fields: { resource: `must be one of ${LIST_RESOURCES.join(', ')}` },
        method,
      })
    }
    return resource
  }

  #parseResponse<T>(
    schema: z.ZodType<T>,
    value: unknown,
    status: number,
    method: Method,
    path: string,
    idempotencyKey: string | undefined,
  ): T {
    const r = schema.safeParse(value)
    if (r.success) return r.data
    throw this.#error({
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
  #fileBodyError(
    f: FileBodyError,
    base: { method: Method; path: string; idempotencyKey: string | undefined },
  ): ApiError {
    return this.#error({
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

  async #fileStat(
    filePath: string,
    name: string,
    limit: number,
    apiPath: string,
  ): Promise<{ size: number; mtimeMs: number }> {
    const fail = (errorCode: string, message: string): ApiError =>
      this.#error({ status: 0, errorCode, message, retryable: false, method: 'POST', path: apiPath })
    let st
    try {
      st = await stat(filePath)
    } catch (e) {
      const code = errnoCode(e)
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw fail(
          CLIENT_ERROR_CODES.fileNotFound,
          `"${name}" was not found at ${filePath}; nothing was sent.`,
        )
      }
      throw fail(
        CLIENT_ERROR_CODES.fileRead,
        `Could not read "${name}" at ${filePath} (${code ?? 'error'}); nothing was sent.`,
      )
    }
    if (!st.isFile()) {
      throw fail(
        CLIENT_ERROR_CODES.notAFile,
        `${filePath} is not a regular file (a folder or device?); nothing was sent.`,
      )
    }
    if (st.size > limit) {
      throw fail(
        CLIENT_ERROR_CODES.fileTooLarge,
        `"${name}" is ${sizeText(st.size)}, over the ${sizeText(limit)} limit for one upload; nothing was sent. ` +
          'Send a smaller file, or raise the limit with the maxFileBytes option (of the client, or of this call).',
      )
    }
    return { size: st.size, mtimeMs: st.mtimeMs }
  }

  /** Validates `input` with a shared schema; on failure an ApiError naming the fields, nothing sent. */
  #checked<S extends z.ZodType>(
    method: Method,
    path: string,
    auth: RouteAuth,
    schema: S,
    input: unknown,
    what: string,
  ): z.output<S> {
    // A wrong key is the first thing to fix: say so before talking about fields.
    this.#checkRoute(auth, method, path)
    const r = schema.safeParse(input)
    if (r.success) return r.data
    throw this.#error({
      status: 0,
      errorCode: CLIENT_ERROR_CODES.validation,
      message: `${what}: ${describeIssues(r.error)}`,
      fields: issuesByField(r.error),
      retryable: false,
      method,
      path,
    })
  }

  #pathId(method: Method, auth: RouteAuth, field: string, value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '') {
      this.#checkRoute(auth, method, '')
      throw this.#error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Nothing was sent: ${field} must not be empty.`,
        fields: { [field]: `${field} must not be empty` },
        method,
      })
    }
    return encodeURIComponent(value.trim())
  }

  #checkRoute(auth: RouteAuth, method: Method, path: string): void {
    const kind = this.authMode === 'partner' ? 'partner' : 'business'
    if (auth === kind) return
    throw this.#error({
      status: 0,
      errorCode: CLIENT_ERROR_CODES.wrongKeyType,
      message: `Not sent: ${auth === 'partner' ? PARTNER_ROUTE_BUSINESS_KEY_MESSAGE : BUSINESS_ROUTE_PARTNER_KEY_MESSAGE}`,
      retryable: false,
      method,
      path: path || undefined,
    })
  }

  #idempotencyKey(opts: WriteOptions | undefined, method: Method, path: string): string {
    const key = opts?.idempotencyKey
    if (key === undefined) return randomUUID()
    if (typeof key !== 'string' || key.length > 255 || !HEADER_SAFE.test(key)) {
      throw this.#error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.invalidOption,
        message: 'idempotencyKey must be 1 to 255 visible ASCII characters without spaces (a UUID is ideal).',
        method,
        path,
      })
    }
    return key
  }

  async #mutate<S extends z.ZodType>(
    method: Method,
    path: string,
    auth: RouteAuth,
    json: unknown,
    envelope: S,
    opts: WriteOptions | undefined,
  ): Promise<z.output<S>> {
    const idempotencyKey = this.#idempotencyKey(opts, method, path)
    return this.#send({ method, path, auth, json, idempotencyKey, envelope, opts })
  }

  async #send<S extends z.ZodType>(req: SendRequest<S>): Promise<z.output<S>> {
    const { method, path, idempotencyKey } = req
    this.#checkRoute(req.auth, method, path)
    const timeoutMs = positiveOption('timeoutMs', req.opts?.timeoutMs, this.timeoutMs, 2_147_483_647)

    const url = new URL(this.baseUrl + path)
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))

    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': this.#userAgent,
      'X-API-Key': this.#key,
    }
    if (this.#accessToken !== undefined) headers.Authorization = `Bearer ${this.#accessToken}`
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey

    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = req.opts?.signal ? AbortSignal.any([timeout, req.opts.signal]) : timeout
    // `duplex` is needed by undici for a stream body; the DOM RequestInit type does not know it yet.
    // Redirects are never followed: X-API-Key would go along to wherever they point.
    const init: RequestInit & { duplex?: 'half' } = { method, headers, signal, redirect: 'manual' }
    if (req.stream) {
      headers['Content-Type'] = 'application/json'
      headers['Content-Length'] = String(req.stream.contentLength)
      init.body = req.stream.stream
      init.duplex = 'half'
      // Any mode but 'error' makes undici clone the request, which tees the body stream and keeps
      // every chunk alive in the unread branch: the whole upload would sit in memory.
      init.redirect = 'error'
    } else if (req.text !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = req.text
    } else if (req.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = JSON.stringify(req.json)
    }

    const base = { method, path, idempotencyKey }
    const transportError = (e: unknown): ApiError => {
      const fileFailure = req.stream?.failure()
      if (fileFailure) return this.#fileBodyError(fileFailure, base)
      if (timeout.aborted) {
        return this.#error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.timeout,
          message: `${method} ${path} got no complete answer within ${timeoutMs / 1000} s (timeoutMs option).`,
          retryable: true,
        })
      }
      if (req.opts?.signal?.aborted) {
        return this.#error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.aborted,
          message: `${method} ${path} was cancelled.`,
          retryable: false,
        })
      }
      const cause = (e as { cause?: unknown } | null)?.cause ?? e
      if (req.stream && cause instanceof Error && cause.message === 'unexpected redirect') {
        return this.#error({
          ...base,
          status: 0,
          errorCode: CLIENT_ERROR_CODES.redirect,
          message: `${method} ${path} was redirected. Redirects are not followed, so the key is never sent elsewhere: check the base URL.`,
          retryable: false,
        })
      }
      const code = errnoCode(cause)
      const detail = code ?? (cause instanceof Error ? cause.message : String(cause))
      return this.#error({
        ...base,
        status: 0,
        errorCode: CLIENT_ERROR_CODES.network,
        message: `Could not reach ${url.host} (${detail}); check the connection and the base URL.`,
        retryable: true,
        cause: new Error(
          this.#redact(`${code ? `${code}: ` : ''}${cause instanceof Error ? cause.message : String(cause)}`),
        ),
      })
    }

    let res: Response
    try {
      res = await fetch(url, init)
    } catch (e) {
      throw transportError(e)
    }

    const now = Date.now()
    const rateLimit = parseRateLimit(res.headers, now)
    if (this.#onResponse) {
      try {
        this.#onResponse({ method, path, status: res.status, rateLimit })
      } catch {
        // An observer must never break a request.
      }
    }

    let text: string
    try {
      text = await res.text()
    } catch (e) {
      throw transportError(e)
    }
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }

    const withResponse = { ...base, rateLimit, retryAfterMs: retryAfterMs(res.status, res.headers, now) }
    if (res.status >= 300 && res.status < 400) {
      throw this.#error({
        ...withResponse,
        status: res.status,
        errorCode: CLIENT_ERROR_CODES.redirect,
        message:
          `${method} ${path} was redirected (${res.status}). Redirects are not followed, so the key is never sent ` +
          'elsewhere: check the base URL.',
        retryable: false,
      })
    }
    if (!res.ok || (isRecord(body) && body.status === 'failed')) {
      const failure = failureEnvelope.safeParse(body)
      throw this.#error({
        ...withResponse,
        status: res.status,
        errorCode:
          failure.success && failure.data.error_code ? failure.data.error_code : `http_${res.status}`,
        message:
          failure.success && failure.data.message.trim() !== ''
            ? failure.data.message
            : `${method} ${path} failed: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`,
        retryable: res.ok ? false : undefined,
      })
    }
    if (body === undefined) {
      throw this.#error({
        ...withResponse,
        status: res.status,
        errorCode: CLIENT_ERROR_CODES.badResponse,
        message: `Unexpected response from ${method} ${path}: the body is not JSON.`,
        retryable: false,
      })
    }
    return this.#parseResponse(req.envelope, body, res.status, method, path, idempotencyKey) as z.output<S>
  }

  /** Every error the client builds goes through here, so no secret can reach a message. */
  #error(init: ApiErrorInit): ApiError {
    return new ApiError({ ...init, message: this.#redact(init.message) })
  }

  #redact(text: string): string {
    return redact(text, [this.#key, this.#accessToken])
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function localError(errorCode: string, message: string): ApiError {
  return new ApiError({ status: 0, errorCode, message, retryable: false })
}

/** A key or token: trimmed (pasted keys often carry a newline), non-empty, sendable in a header. */
function secretValue(value: unknown, what: string): string {
  const v = typeof value === 'string' ? value.trim() : ''
  if (v === '') throw localError(CLIENT_ERROR_CODES.invalidKey, `${what} is missing.`)
  if (!HEADER_SAFE.test(v)) {
    throw localError(
      CLIENT_ERROR_CODES.invalidKey,
      `${what} contains spaces or characters that cannot be sent in a header; paste it again as one word.`,
    )
  }
  return v
}

function positiveOption(
  name: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw localError(
      CLIENT_ERROR_CODES.invalidOption,
      `${name} must be a number greater than 0 (got ${String(value)}).`,
    )
  }
  return value
}

/**
 * The success envelope as the client reads it: `status: success` (2.1) and whatever `data` and `meta`
 * hold, for a reader to make sense of; a missing `message` reads as empty.
 */
const ANY_ENVELOPE = z.object({
  status: z.literal('success'),
  message: z.string().catch(''),
  data: z.unknown().optional(),
  meta: z.unknown().optional(),
})
function anyEnvelope(): typeof ANY_ENVELOPE {
  return ANY_ENVELOPE
}
