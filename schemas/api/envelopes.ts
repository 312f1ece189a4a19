/** The envelopes around every answer of the API (2.1): success, failure, and a list's page meta. */
import { z } from 'zod'

export const metaSchema = z.record(z.string(), z.unknown())

function buildSuccessEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.literal('success'),
    message: z.string(),
    data,
    meta: metaSchema.optional(),
  })
}

const envelopes = new WeakMap<z.ZodType, z.ZodType>()

/** The success envelope around `data`; built once per data schema (building zod objects is not free). */
export function successEnvelope<T extends z.ZodType>(data: T): ReturnType<typeof buildSuccessEnvelope<T>> {
  let e = envelopes.get(data)
  if (!e) {
    e = buildSuccessEnvelope(data)
    envelopes.set(data, e)
  }
  return e as ReturnType<typeof buildSuccessEnvelope<T>>
}

/** A success envelope with no `data` (DELETE bank transaction). */
export const emptySuccessEnvelope = z.object({
  status: z.literal('success'),
  message: z.string(),
  meta: metaSchema.optional(),
})

export const failureEnvelope = z.object({
  status: z.literal('failed'),
  message: z.string(),
  error_code: z.string().optional(),
})
export type FailureEnvelope = z.infer<typeof failureEnvelope>

export const pageMeta = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
})
export type PageMeta = z.infer<typeof pageMeta>
