/**
 * The emulator's job runner (design.md §3): a job is queued, turns processing at half the
 * configured delay (state.jobDelayMs), and at the full delay runs its work, which creates the
 * records (never before) and ends the job completed with their uuids, or failed with a reason.
 *
 * Timers live in ctx.timers so stopping the sandbox cancels them; each removes itself when it fires.
 */
import { randomUUID } from 'node:crypto'
import type { Job, JobStatus } from '../schemas'
import type { RouteContext } from './context'
import { type SandboxState, type StoredJob, isoSeconds } from './state'

export type JobOutcome = { ok: true; resourceUuids: string[] } | { ok: false; reason: string }

export interface JobInit {
  business: string
  resourceType: string
  /** Runs once, when the job's delay is over; creates the records and says how it went. */
  work: () => Promise<JobOutcome>
}

/** What GET /jobs/{job_reference} answers: the Job of design.md §3 plus every created uuid. */
export type JobData = Job & { resource_uuids: string[] }

function later(ctx: RouteContext, ms: number, fn: () => void): void {
  const timer = setTimeout(() => {
    ctx.timers.delete(timer)
    fn()
  }, ms)
  ctx.timers.add(timer)
}

function setStatus(state: SandboxState, job: StoredJob, status: JobStatus): void {
  job.status = status
  job.updated_at = isoSeconds(state.now())
}

async function finish(state: SandboxState, job: StoredJob, work: () => Promise<JobOutcome>): Promise<void> {
  let outcome: JobOutcome
  try {
    outcome = await work()
  } catch (e) {
    outcome = { ok: false, reason: `internal error while processing: ${(e as Error).message}` }
  }
  if (outcome.ok) {
    job.resource_uuids = outcome.resourceUuids
    job.resource_uuid = outcome.resourceUuids[0] ?? null
    job.message = null
    setStatus(state, job, 'completed')
  } else {
    job.message = outcome.reason
    setStatus(state, job, 'failed')
  }
}

export function startJob(state: SandboxState, ctx: RouteContext, init: JobInit): StoredJob {
  const at = isoSeconds(state.now())
  const job: StoredJob = {
    job_reference: `job_${randomUUID()}`,
    status: 'queued',
    resource_type: init.resourceType,
    resource_uuid: null,
    message: null,
    created_at: at,
    updated_at: at,
    business: init.business,
    resource_uuids: [],
  }
  state.jobs.set(job.job_reference, job)
  const half = state.jobDelayMs / 2
  // A stalled server (faults.stall_jobs): the job starts processing and never finishes.
  const stalled = state.faults.stall_jobs
  later(ctx, half, () => {
    setStatus(state, job, 'processing')
    if (!stalled) later(ctx, half, () => void finish(state, job, init.work))
  })
  return job
}

/** A job of this business; another business's job is not found. */
export function findJob(state: SandboxState, business: string, ref: string): StoredJob | undefined {
  const job = state.jobs.get(ref)
  return job && job.business === business ? job : undefined
}

export function jobData(job: StoredJob): JobData {
  const { business: _business, ...data } = job
  return { ...data, resource_uuids: [...job.resource_uuids] }
}
