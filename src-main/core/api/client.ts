/**
 * Typed client for the bookkeeping API (api-spec.md, design.md §3). Plain Node: node:http (http.ts),
 * no Electron. Every request is checked with the shared schemas before it leaves the machine, every
 * response is parsed with them, and every failure is an ApiError.
 *
 * The API key and OAuth token live only in private fields: they are sent in headers and appear in
 * no message, property, log, toString, JSON or inspect output of the client or of its errors.
 *
 * The client makes one attempt per call. Retrying and pacing belong to the upload queue, which
 * passes the same `idempotencyKey` again (design.md §2) and reads `ApiError.retryable`,
 * `retryAfterMs` and the `onResponse` rate-limit information.
 */
import { z } from 'zod'
import {
  AI_CREATE_ROUTES,
  AI_TARGETS,
  LIST_RESOURCES,
  aiCreateSchema,
  bankUploadSchema,
  listQuerySchema,
  purchaseOrderData,
  purchaseOrderSchema,
  recordPatchSchema,
  recordPutSchema,
  type AiTarget,
  type ListQuery,
  type ListResource,
  type PurchaseOrderData,
  type PurchaseOrderInput,
  type RecordPatch,
  type RecordPut,
} from '../../../schemas/api'
import {
  RESOURCE_READERS,
  readAiCreate,
  readAuthValidate,
  readJob,
  readPageMeta,
  recordSummaryRead,
  updatedRecordRead,
  type RecordSummaryRead,
  type AiCreateRead,
  type AuthValidateRead,
  type InvoiceRead,
  type JobRead,
  type PageMetaRead,
  type ResourceRead,
  type UpdatedRecordRead,
} from '../../../schemas/read'
import { CLIENT_ERROR_CODES } from './errors'
import { RECORD_READ_RESOURCES } from '../../../schemas/assumptions'
import { streamedJsonBody } from './stream-body'
import { CREATE_ANSWER, JOB_ANSWER, anyEnvelope, envelopeWith } from './envelope'
import { checkedFiles, uploadMetadata, wholeUploadBody } from './file-upload'
import type { AiCreateFromFilesInput } from './file-upload'
import {
  type Method,
  type ReadOptions,
  WHOLE_BODY_MAX_BYTES,
  type WriteOptions,
  positiveOption,
} from './client-types'
import { PartnerRoutes } from './partner-routes'

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
export { ANY_ENVELOPE, anyEnvelope } from './envelope'
export type { AiCreateFromFilesInput, FileAttachmentInput } from './file-upload'

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

const LIST_READERS = new Map<ListResource, z.ZodType>()

/** A page's rows, each through resourceReader; one list schema per resource (see envelopeWith). */
function listReader<R extends ListResource>(resource: R): z.ZodType<ResourceRead<R>[]> {
  let r = LIST_READERS.get(resource)
  if (!r) {
    r = z.array(resourceReader(resource), { error: 'must be a list of records' })
    LIST_READERS.set(resource, r)
  }
  // As resourceReader: the map holds one list reader per resource, made just above from its reader.
  return r as z.ZodType<ResourceRead<R>[]>
}

export type AiCreateResult<T extends AiTarget> = AiCreateRead<T>

export interface Page<T> {
  data: T[]
  meta: PageMetaRead
}

export type UpdatedRecord = UpdatedRecordRead
export type AiCreateInput = z.input<typeof aiCreateSchema>

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

export class BookkeepingClient extends PartnerRoutes {
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
      envelopeWith(purchaseOrderData),
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
    const files = await checkedFiles(this.transport, input, path, limit)
    const metadata = uploadMetadata(input, files)
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
      const body = await wholeUploadBody(this.transport, fields, files, { path, idempotencyKey })
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
    const envelope = envelopeWith(listReader(resource))
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
      envelope: envelopeWith(resourceReader(resource)),
      opts,
    }).then((e) => e.data)
  }

  /**
   * GET /{resource}/{uuid} read as Review's summary (issue 32; RECORD_READ_RESOURCES says which
   * resource each kind is read at). `resource` must be one of that table's paths.
   */
  async getRecordSummary(resource: string, uuidOrSource: string, opts?: ReadOptions): Promise<RecordSummaryRead> {
    if (!Object.values(RECORD_READ_RESOURCES).includes(resource)) {
      throw new Error(`Bookdrop reads no records at /${resource}: use one of RECORD_READ_RESOURCES`)
    }
    const path = `/${resource}/${this.pathId('GET', 'business', 'uuid', uuidOrSource)}`
    const envelope = envelopeWith(recordSummaryRead)
    return (await this.send({ method: 'GET', path, auth: 'business', envelope, opts })).data
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
    const envelope = envelopeWith(updatedRecordRead)
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
