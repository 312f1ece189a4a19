/**
 * The AI creates (2.4, 2.5): a business-key POST per target that reads the prompt, the text and the
 * attachments and creates records, either at once (`direct`) or through a job (`async`). Credits
 * are charged once the request is valid and given back when nothing was created.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  AI_CREATE_ROUTES,
  AI_TARGETS,
  type AiTarget,
  ERROR_CODES,
  LIMITS,
  aiCreateSchema,
  bankUploadSchema,
} from '../../schemas'
import { AttachmentError, type PendingFile, acceptAttachment, digest, resolveFiles } from '../attachments'
import type { RouteContext } from '../context'
import { type Charge, chargeAiCreate } from '../credits'
import { extractInWorker } from '../documents'
import type { SourceFile } from '../extract'
import { type JobOutcome, startJob } from '../jobs'
import { RESOURCE_TYPES, buildRecord, readData } from '../records'
import { ApiFailure, ok, parse, requireBusiness } from '../server'
import type { Business, SandboxState, StoredRecord } from '../state'
import { BUSINESS, routeOf, today } from './business-common'

/** Everything a create needs once the request has been accepted. */
interface AiRequest {
  target: AiTarget
  business: Business
  prompt: string
  textAttachment?: string
  pending: PendingFile[]
  direct: boolean
  route: string
  idempotencyKey: string | null
}

function acceptAiRequest(target: AiTarget, req: FastifyRequest, ctx: RouteContext): AiRequest {
  const business = requireBusiness(req)
  const body = parse(target === 'bank-transactions' ? bankUploadSchema : aiCreateSchema, req.body)
  let pending: PendingFile[]
  try {
    pending = (body.attachments ?? []).map((a, i) => acceptAttachment(a, i, ctx.maxAttachmentBytes))
  } catch (e) {
    if (e instanceof AttachmentError) throw new ApiFailure(400, e.message, ERROR_CODES.validation)
    throw e
  }
  return {
    target,
    business,
    prompt: body.prompt,
    textAttachment: body.text_attachment,
    pending,
    direct: body.process_type === 'direct',
    route: routeOf(req),
    idempotencyKey: req.idempotencyKey ?? null,
  }
}

type Committed = { ok: true; records: StoredRecord[] } | { ok: false; reason: string }

/**
 * Extracts (in the documents worker: the request's text and files are untrusted) and stores the
 * records, logging each with the attachment it came from.
 */
async function commitRecords(
  state: SandboxState,
  ctx: RouteContext,
  ai: AiRequest,
  files: SourceFile[],
): Promise<Committed> {
  const result = await extractInWorker(
    { target: ai.target, prompt: ai.prompt, textAttachment: ai.textAttachment, files, today: today(state) },
    ctx.documents,
  )
  if (!result.ok) return result
  const now = state.now()
  const records = result.drafts.map((draft) => {
    const file = draft.source === null ? undefined : files[draft.source]
    const rec = buildRecord(ai.target, ai.business, draft, file?.name ?? null, now)
    state.putRecord(ai.target, rec)
    state.logCreate({
      route: ai.route,
      business: ai.business.uuid,
      partner: null,
      idempotency_key: ai.idempotencyKey,
      resource_type: rec.resource_type,
      uuid: rec.uuid,
      attachments: file ? [digest(file)] : [],
    })
    return rec
  })
  return { ok: true, records }
}

function fetchOptions(ctx: RouteContext) {
  return {
    ca: ctx.urlFetchCa,
    timeoutMs: ctx.urlFetchTimeoutMs ?? LIMITS.urlFetchTimeoutMs,
    maxBytes: ctx.maxAttachmentBytes,
  }
}

/**
 * `direct`: the first created record in `data`, in the shape of its single read; `meta` always
 * carries `{created: n, uuids: [...]}` so a request that made several records (a CSV statement,
 * several attachments) can find them all. Fetch or extraction problems answer 400 with the reason.
 */
async function createDirect(state: SandboxState, ctx: RouteContext, ai: AiRequest, reply: FastifyReply) {
  let files: SourceFile[]
  try {
    files = await resolveFiles(ai.pending, fetchOptions(ctx), ctx.documents)
  } catch (e) {
    if (e instanceof AttachmentError) throw new ApiFailure(400, e.message, ERROR_CODES.validation)
    throw e
  }
  const committed = await commitRecords(state, ctx, ai, files)
  if (!committed.ok) throw new ApiFailure(400, committed.reason, ERROR_CODES.validation)
  const { records } = committed
  const first = records[0]
  if (!first) throw new ApiFailure(500, 'nothing was created', ERROR_CODES.serverError)
  const what = records.length === 1 ? RESOURCE_TYPES[ai.target] : `${records.length} ${ai.target}`
  return ok(reply, `${what} created`, readData(ai.target, first), {
    created: records.length,
    uuids: records.map((r) => r.uuid),
  })
}

/**
 * `async` (the default): a job that fetches URL attachments and creates the records when it
 * completes. A job that fails gives the credits of its create back.
 */
function createAsync(
  state: SandboxState,
  ctx: RouteContext,
  ai: AiRequest,
  reply: FastifyReply,
  charge: Charge,
) {
  const work = async (): Promise<JobOutcome> => {
    let files: SourceFile[]
    try {
      files = await resolveFiles(ai.pending, fetchOptions(ctx), ctx.documents)
    } catch (e) {
      if (e instanceof AttachmentError) return { ok: false, reason: e.message }
      throw e
    }
    const committed = await commitRecords(state, ctx, ai, files)
    return committed.ok ? { ok: true, resourceUuids: committed.records.map((r) => r.uuid) } : committed
  }
  const job = startJob(state, ctx, {
    business: ai.business.uuid,
    resourceType: RESOURCE_TYPES[ai.target],
    work: async () => {
      try {
        const outcome = await work()
        if (!outcome.ok) charge.refund()
        return outcome
      } catch (e) {
        charge.refund()
        throw e
      }
    },
  })
  return ok(reply, 'accepted: the job is queued', { process_type: 'async', job_reference: job.job_reference })
}

export function registerAiCreates(app: FastifyInstance, state: SandboxState, ctx: RouteContext): void {
  for (const target of AI_TARGETS) {
    app.post(AI_CREATE_ROUTES[target], BUSINESS, async (req, reply) => {
      const ai = acceptAiRequest(target, req, ctx)
      // Charged once the request is valid (2.6); a direct create that fails is given back.
      const charge = chargeAiCreate(state, ai.business)
      if (!ai.direct) return createAsync(state, ctx, ai, reply, charge)
      try {
        return await createDirect(state, ctx, ai, reply)
      } catch (e) {
        charge.refund()
        throw e
      }
    })
  }
}
