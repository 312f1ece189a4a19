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
import type { FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
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
  looksLikeJob,
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
import { CLIENT_ERROR_CODES } from './errors'
import { type BodyFile, FileBodyError, streamedJsonBody, wholeJsonBody } from './stream-body'
import { isRecord, sizeText } from '../util'
import {
  type Method,
  type ReadOptions,
  WHOLE_BODY_MAX_BYTES,
  type WriteOptions,
  positiveOption,
} from './client-types'
import { ClientBase } from './client-base'

export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type AuthMode,
  type ClientAuth,
  type ClientOptions,
  type ReadOptions,
  type ResponseInfo,
  type WriteOptions,
} from './client-types'

/**
 * The success envelope as the client reads it: `status: success` (2.1) and whatever `data` and `meta`
 * hold, for a reader to make sense of; a missing `message` reads as empty.
 */
export const ANY_ENVELOPE = z.object({
  status: z.literal('success'),
  message: z.string().catch(''),
  data: z.unknown().optional(),
  meta: z.unknown().optional(),
})
export function anyEnvelope(): typeof ANY_ENVELOPE {
  return ANY_ENVELOPE
}

/**
 * An AI create's success always carries `data` (2.5: the job's process_type and job_reference, or
 * the created resource): an envelope without it (`{"status":"success","message":"Scheduled
 * maintenance"}`) is not the API's answer, and ends nothing.
 */
const CREATE_ANSWER = {
  holds: (body: Record<string, unknown>) =>
    (isRecord(body.data) && Object.keys(body.data).length > 0) ||
    (Array.isArray(body.data) && body.data.length > 0),
  what: 'the data an AI create returns (a job or a record)',
}

/** A job's answer names the job's status, its reference or its record (design.md §3, read tolerantly). */
const JOB_ANSWER = {
  holds: (body: Record<string, unknown>) => looksLikeJob(body.data),
  what: "a job's status",
}

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
  /**
   * The file, already opened by the caller (who closes it once the call returned): measured and read
   * through this descriptor instead of opening `path` again, by position, so a retried body reads it
   * whole again. `path` still names it in messages, and a file over the whole-read size streams
   * from `path`.
   */
  handle?: FileHandle
}

/** An open FileHandle (anything else given as `handle` is ignored: the path is read). */
function isFileHandle(v: unknown): v is FileHandle {
  return isRecord(v) && typeof v.fd === 'number' && typeof v.read === 'function' && typeof v.stat === 'function'
}

export interface AiCreateFromFilesInput {
  prompt: string
  text_attachment?: string
  process_type?: 'async' | 'direct'
  files: FileAttachmentInput[]
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

export class BookkeepingClient extends ClientBase {
  /**
   * GET /auth/validate: a success means the key works. The business it belongs to (response fields
   * not shown) is returned where recognisable; each field is null otherwise.
   */
  async validateKey(opts?: ReadOptions): Promise<AuthValidateRead> {
    return this.send({
      method: 'GET',
      path: '/auth/validate',
      auth: 'business',
      envelope: anyEnvelope(),
      opts,
    }).then((e) => readAuthValidate(e.data))
  }

  /** POST /register-business (partner key). With grant_access admin the result carries the business's keys. */
  async registerBusiness(input: RegisterBusinessInput, opts?: WriteOptions): Promise<RegisteredBusiness> {
    const refusal = 'The business was not registered'
    return this.#partnerPost(
      '/register-business',
      registerBusinessSchema,
      input,
      refusal,
      registeredBusinessData,
      opts,
    )
  }

  /** GET /referred-businesses?page&limit (partner key). */
  async listReferredBusinesses(
    query: ReferredListQuery = {},
    opts?: ReadOptions,
  ): Promise<ReferredBusinessPage> {
    const path = '/referred-businesses'
    const q = this.checked(
      'GET',
      path,
      'partner',
      referredListQuerySchema,
      query,
      'The list was not requested',
    )
    return this.send({
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
    const path = `/referred-businesses/${this.pathId('GET', 'partner', 'business_uuid', businessUuid)}/billing-status`
    return this.send({
      method: 'GET',
      path,
      auth: 'partner',
      envelope: anyEnvelope().extend({ data: billingStatusRead }),
      opts,
    }).then((e) => e.data)
  }

  /** POST /referred-businesses/{uuid}/add-seats (partner key): grants Plus seats from the partner holding. */
  async addSeats(businessUuid: string, input: AddSeatsInput, opts?: WriteOptions): Promise<AddSeatsResult> {
    const path = `/referred-businesses/${this.pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-seats`
    return this.#partnerPost(path, addSeatsSchema, input, 'No seats were granted', addSeatsData, opts)
  }

  /** POST /referred-businesses/{uuid}/add-credits (partner key): grants AI credits from the partner holding. */
  async addCredits(
    businessUuid: string,
    input: AddCreditsInput,
    opts?: WriteOptions,
  ): Promise<AddCreditsRead> {
    const path = `/referred-businesses/${this.pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-credits`
    const refusal = 'No credits were granted'
    return this.#partnerPost(path, addCreditsSchema, input, refusal, z.unknown(), opts).then(readAddCredits)
  }

  /** A partner POST: the body checked against `schema` (else `refusal`), the answer's `data` read by `data`. */
  #partnerPost<S extends z.ZodType, D extends z.ZodType>(
    path: string,
    schema: S,
    input: unknown,
    refusal: string,
    data: D,
    opts: WriteOptions | undefined,
  ): Promise<z.output<D>> {
    const body = this.checked('POST', path, 'partner', schema, input, refusal)
    const envelope = anyEnvelope().extend({ data })
    // The envelope's data is `data`'s output; zod's types do not follow a generic through extend().
    return this.mutate('POST', path, 'partner', body, envelope, opts).then(
      (e) => (e as { data: z.output<D> }).data,
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
    const body = this.checked(
      'POST',
      path,
      'business',
      purchaseOrderSchema,
      po,
      'The purchase order was not sent',
    )
    return this.mutate(
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
    const checked = this.checked('POST', path, 'business', schema, body, 'Nothing was sent')
    const idempotencyKey = this.idempotencyKey(opts, 'POST', path)
    const envelope = await this.send({
      method: 'POST',
      path,
      auth: 'business',
      json: checked,
      idempotencyKey,
      envelope: anyEnvelope(),
      opts,
      expect: CREATE_ANSWER,
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
    this.checkRoute('business', 'POST', path)
    const limit = positiveOption('maxFileBytes', opts?.maxFileBytes, this.maxFileBytes)
    if (!isRecord(input) || !Array.isArray(input.files)) {
      throw this.transport.error({
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
        throw this.transport.error({
          status: 0,
          errorCode: CLIENT_ERROR_CODES.validation,
          message: `Nothing was sent: files.${i}.path must be the path of a file.`,
          fields: { [`files.${i}.path`]: 'must be the path of a file' },
          method: 'POST',
          path,
        })
      }
      const handle = isRecord(f) && isFileHandle(f.handle) ? f.handle : undefined
      const st = await this.fileStat(filePath, name, limit, path, handle)
      const expect = isRecord(f) ? f.expect : undefined
      if (expect && (st.size !== expect.size || Math.floor(st.mtimeMs) !== Math.floor(expect.mtimeMs))) {
        throw this.transport.error({
          status: 0,
          errorCode: CLIENT_ERROR_CODES.fileSuperseded,
          message: `"${name}" changed on disk after it was queued (${sizeText(expect.size)} then, ${sizeText(st.size)} now); nothing was sent.`,
          retryable: false,
          method: 'POST',
          path,
        })
      }
      files.push({
        path: filePath,
        name,
        size: st.size,
        ...(expect ? { sha256: expect.sha256 } : {}),
        ...(handle ? { handle } : {}),
      })
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
    const checked = this.checked('POST', path, 'business', schema, metadata, 'Nothing was sent')
    const fields = {
      prompt: checked.prompt,
      text_attachment: checked.text_attachment,
      process_type: checked.process_type,
    }

    const idempotencyKey = this.idempotencyKey(opts, 'POST', path)
    const totalBytes = files.reduce((n, f) => n + f.size, 0)
    let envelope: { data?: unknown }
    if (totalBytes <= WHOLE_BODY_MAX_BYTES) {
      // Receipt-sized files: the body is built whole after each file was read and checked, so a file
      // that changed sends nothing at all.
      let body: Buffer
      try {
        body = await wholeJsonBody(fields, files)
      } catch (e) {
        if (e instanceof FileBodyError)
          throw this.transport.fileBodyError(e, { method: 'POST', path, idempotencyKey })
        throw e
      }
      envelope = await this.send({
        method: 'POST',
        path,
        auth: 'business',
        bytes: body,
        idempotencyKey,
        envelope: anyEnvelope(),
        opts,
        expect: CREATE_ANSWER,
      })
      opts?.onProgress?.(body.length, body.length)
    } else {
      // Larger files stream in 256 KiB chunks: memory stays flat whatever their size.
      const stream = streamedJsonBody(fields, files, 256 * 1024, opts?.onProgress, 1024 * 1024)
      envelope = await this.send({
        method: 'POST',
        path,
        auth: 'business',
        stream,
        idempotencyKey,
        envelope: anyEnvelope(),
        opts,
        expect: CREATE_ANSWER,
      })
    }
    return readAiCreate(target, envelope.data)
  }

  /**
   * GET /jobs/{job_reference}: the state of an async AI create (design.md §3; not shown by the spec).
   * Read tolerantly: status synonyms, other field names; a status it does not know is `unknown`.
   */
  async getJob(jobReference: string, opts?: ReadOptions): Promise<JobRead> {
    const path = `/jobs/${this.pathId('GET', 'business', 'job_reference', jobReference)}`
    return this.send({ method: 'GET', path, auth: 'business', envelope: anyEnvelope(), opts, expect: JOB_ANSWER }).then((e) => {
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
    const q = this.checked('GET', path, 'business', listQuerySchema, query, 'The list was not requested')
    const envelope = anyEnvelope().extend({
      data: z.array(resourceReader(resource), { error: 'must be a list of records' }),
    })
    const res = await this.send({ method: 'GET', path, auth: 'business', query: q, envelope, opts })
    return { data: res.data, meta: readPageMeta(res.meta, q) }
  }

  /** GET /<resource>/{uuid}; the identifier may be the record's uuid or its source_uuid. */
  async get<R extends ListResource>(
    resource: R,
    uuidOrSource: string,
    opts?: ReadOptions,
  ): Promise<ResourceRead<R>> {
    const base = `/${this.#resource('GET', resource)}`
    const path = `${base}/${this.pathId('GET', 'business', 'uuid', uuidOrSource)}`
    return this.send({
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
    const path = `/bank-transactions/${this.pathId('DELETE', 'business', 'uuid', uuidOrSource)}`
    const res = await this.mutate('DELETE', path, 'business', undefined, anyEnvelope(), opts)
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
    const path = `/${resource}/${this.pathId(method, 'business', 'uuid', uuidOrSource)}`
    const schema = method === 'PATCH' ? recordPatchSchema : recordPutSchema
    const checked = this.checked(method, path, 'business', schema, body, 'The change was not sent')
    const envelope = anyEnvelope().extend({ data: updatedRecordRead })
    return this.mutate(method, path, 'business', checked, envelope, opts).then((e) => e.data)
  }

  #aiPath(target: AiTarget): string {
    if (!(AI_TARGETS as readonly string[]).includes(target)) {
      throw this.transport.error({
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
      throw this.transport.error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Unknown resource "${String(resource)}": use one of ${LIST_RESOURCES.join(', ')}.`,
        fields: { resource: `must be one of ${LIST_RESOURCES.join(', ')}` },
        method,
      })
    }
    return resource
  }
}
