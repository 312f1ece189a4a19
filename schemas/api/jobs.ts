/** A job of an async AI create, as the emulator answers it (fields not shown: our choice). */
import { z } from 'zod'

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export const jobSchema = z.object({
  job_reference: z.string(),
  status: z.enum(JOB_STATUSES),
  resource_type: z.string(),
  resource_uuid: z.string().nullable(),
  message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Job = z.infer<typeof jobSchema>
