/** Request pieces more than one group of calls uses, and the compile-time check of the contract. */
import { z } from 'zod'
import { AI_TARGETS, type AiTarget } from '../../schemas/routes'
import { MAX_FILE_CONTENTS_BASE64 } from '../channels'

export const none = z.object({}).strict()
export const id = z.string().min(1).max(200)
export const target = z.enum(AI_TARGETS as [AiTarget, ...AiTarget[]])

/** Compile-time check: `Assert<false>` does not compile. */
export type Assert<T extends true> = T

/**
 * Files given as bytes (the web host, or a drop where the OS gives no path). At most about 27 MB
 * each and 105 MB per call; main writes them under <dataDir>/dropped/ with a sanitised name.
 */
export const fileContents = z
  .array(
    z.object({
      name: z.string().min(1, { error: 'every file needs a name' }).max(255),
      base64: z
        .string()
        .max(36 * 1024 * 1024, {
          error: 'a file given as bytes can be at most about 27 MB: add it by path instead',
        })
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, {
          error: 'base64 must be plain Base64 (no data: prefix, no line breaks)',
        }),
    }),
  )
  .min(1, { error: 'give at least one file' })
  .max(50, { error: 'at most 50 files at a time' })
  .refine((files) => files.reduce((n, f) => n + f.base64.length, 0) <= MAX_FILE_CONTENTS_BASE64, {
    error: 'these files are too large to send in one go (about 105 MB at most): send fewer at a time',
  })
