/**
 * What the client takes as the API's answer: the success envelope every answer is first read
 * through, and what a create's or a job's answer must hold besides (transport.ts checks it). The
 * client's calls and its base (ClientBase.checkConnection) both read answers through these.
 */
import { z } from 'zod'
import { looksLikeJob } from '../../../schemas/read'
import { isRecord } from '../util'

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

const WITH_DATA = new WeakMap<z.ZodType, z.ZodType>()

/**
 * The envelope whose `data` is read by `data`, made once per reader: zod compiles an object's
 * parser the first time it is used, so an envelope extended on each call paid that on every answer
 * (0.1 ms against 0.01 ms a record read).
 */
export function envelopeWith<D extends z.ZodType>(data: D) {
  const made = () => ANY_ENVELOPE.extend({ data })
  let e = WITH_DATA.get(data) as ReturnType<typeof made> | undefined
  if (!e) {
    e = made()
    WITH_DATA.set(data, e)
  }
  return e
}

/**
 * An AI create's success always carries `data` (2.5: the job's process_type and job_reference, or
 * the created resource): an envelope without it (`{"status":"success","message":"Scheduled
 * maintenance"}`) is not the API's answer, and ends nothing.
 */
export const CREATE_ANSWER = {
  holds: (body: Record<string, unknown>) =>
    (isRecord(body.data) && Object.keys(body.data).length > 0) ||
    (Array.isArray(body.data) && body.data.length > 0),
  what: 'the data an AI create returns (a job or a record)',
}

/** A job's answer names the job's status, its reference or its record (design.md §3, read tolerantly). */
export const JOB_ANSWER = {
  holds: (body: Record<string, unknown>) => looksLikeJob(body.data),
  what: "a job's status",
}
