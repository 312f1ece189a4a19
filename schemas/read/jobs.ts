/**
 * Jobs (not shown) and AI create answers (2.5: async names process_type and job_reference; the
 * direct shape is not shown).
 */
import type { z } from 'zod'
import { FIELD_ALIASES, JOB_STATUS_ALIASES } from '../assumptions'
import type { JobStatus } from '../api/jobs'
import type { AiTarget } from '../routes'
import { type Obj, ident, isObject, pick, text } from './primitives'
import { DIRECT_READERS, type DirectRead } from './records'

export interface JobRead {
  job_reference: string | null
  /** `unknown`: the server sent a status the client does not recognise, or none. */
  status: JobStatus | 'unknown'
  resource_type: string | null
  /** The (first) record the job created, when the server says. */
  resource_uuid: string | null
  resource_uuids: string[]
  /** Null, or the reason a job failed. */
  message: string | null
  created_at: string | null
  updated_at: string | null
}

function jobStatus(v: unknown): JobStatus | 'unknown' {
  const s =
    typeof v === 'string'
      ? v
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : ''
  return (JOB_STATUS_ALIASES as Record<string, JobStatus>)[s] ?? 'unknown'
}

function messageOf(v: unknown): string | null {
  if (isObject(v)) return text(v.message)
  return text(v)
}

/**
 * True when `data` can be a job's answer: an object naming the job's status, its reference, or its
 * record(s) under our names or an alias. A success envelope without any of them (a maintenance
 * notice in JSON) is not the API's answer about a job.
 */
export function looksLikeJob(data: unknown): boolean {
  if (!isObject(data)) return false
  return [
    FIELD_ALIASES.jobStatus,
    FIELD_ALIASES.jobReference,
    FIELD_ALIASES.jobRecordUuid,
    FIELD_ALIASES.jobRecordUuids,
  ].some((names) => pick(data, names) !== undefined) || [data.resource, data.record, data.result].some(isObject)
}

export function readJob(data: unknown): JobRead {
  const o = isObject(data) ? data : {}
  const nested = [o.resource, o.record, o.result].find(isObject)
  const listed = pick(o, FIELD_ALIASES.jobRecordUuids)
  const uuids = (Array.isArray(listed) ? listed : []).map(ident).filter((u): u is string => u !== null)
  const first =
    ident(pick(o, FIELD_ALIASES.jobRecordUuid)) ??
    (nested ? ident(nested.uuid ?? nested.id) : null) ??
    uuids[0] ??
    null
  if (first !== null && !uuids.includes(first)) uuids.unshift(first)
  let status = jobStatus(pick(o, FIELD_ALIASES.jobStatus))
  // No status at all, but a created record named: the job is done.
  if (status === 'unknown' && pick(o, FIELD_ALIASES.jobStatus) === undefined && first !== null)
    status = 'completed'
  return {
    job_reference: ident(pick(o, FIELD_ALIASES.jobReference)),
    status,
    resource_type: text(o.resource_type) ?? (nested ? text(nested.resource_type) : null),
    resource_uuid: first,
    resource_uuids: uuids,
    message: status === 'completed' ? null : messageOf(pick(o, FIELD_ALIASES.jobMessage)),
    created_at: text(o.created_at),
    updated_at: text(o.updated_at),
  }
}

export type AiCreateRead<T extends AiTarget> =
  | { process_type: 'async'; job_reference: string }
  | { process_type: 'direct'; record: DirectRead<T> }
  /** The server accepted the create but said nothing the client can follow: no job, no record. */
  | { process_type: 'untracked' }

function jobReferenceOf(o: Obj): string | null {
  const direct = ident(pick(o, FIELD_ALIASES.jobReference))
  if (direct !== null) return direct
  const job = o.job
  if (isObject(job)) return ident(pick(job, FIELD_ALIASES.jobReferenceNested))
  return ident(job)
}

/** How a record may sit in a direct answer: `data` itself, wrapped, or first of a list. */
function recordCandidates(data: unknown): Obj[] {
  if (Array.isArray(data)) return data.filter(isObject).slice(0, 1)
  if (!isObject(data)) return []
  const out: Obj[] = [data]
  for (const k of FIELD_ALIASES.directRecord) {
    const v = data[k]
    if (isObject(v)) out.push(v)
    else if (Array.isArray(v) && isObject(v[0])) out.push(v[0])
  }
  const listed = pick(data, FIELD_ALIASES.jobRecordUuids)
  const one =
    ident(pick(data, FIELD_ALIASES.jobRecordUuid)) ?? (Array.isArray(listed) ? ident(listed[0]) : null)
  if (one !== null) out.push({ uuid: one })
  return out
}

/**
 * An AI create's `data`: an async job when it names a job reference (unless it says direct and
 * carries a record), a direct record when a record can be found, else `untracked`.
 */
export function readAiCreate<T extends AiTarget>(target: T, data: unknown): AiCreateRead<T> {
  const o = isObject(data) ? data : {}
  const ref = jobReferenceOf(o)
  const reader = DIRECT_READERS[target] as unknown as z.ZodType<DirectRead<T>>
  const record = () => {
    for (const c of recordCandidates(data)) {
      const r = reader.safeParse(c)
      if (r.success) return r.data
    }
    return null
  }
  if (ref !== null && o.process_type !== 'direct') return { process_type: 'async', job_reference: ref }
  const rec = record()
  if (rec !== null) return { process_type: 'direct', record: rec }
  if (ref !== null) return { process_type: 'async', job_reference: ref }
  return { process_type: 'untracked' }
}
