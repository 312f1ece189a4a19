/** The AI create body (2.4 attachments, 2.5 body), the bank statement upload, and the async answer. */
import { z } from 'zod'
import { BANK_UPLOAD_KINDS, fileKind } from '../routes'
import { LIMITS } from '../assumptions'
import { nonEmpty } from './primitives'

export const ATTACHMENT_TYPES = ['base64', 'url', 'raw'] as const

export const attachmentSchema = z
  .object(
    {
      file: z
        .string({ error: 'file must be text: the content, read as type says' })
        .min(1, { error: 'file must not be empty' }),
      type: z.enum(ATTACHMENT_TYPES, {
        error: 'type is required: base64, url or raw (a bare string is never taken as Base64)',
      }),
      name: z.string().optional(),
    },
    { error: 'each attachment must be an object {file, type, name}, never a bare string or URL' },
  )
  .superRefine((a, ctx) => {
    if (a.type === 'base64') {
      if (a.file.startsWith('data:')) {
        ctx.addIssue({
          code: 'custom',
          path: ['file'],
          message: 'base64 file must be plain Base64 without a data:...;base64, prefix',
        })
      } else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.file) || a.file.length % 4 !== 0) {
        ctx.addIssue({ code: 'custom', path: ['file'], message: 'file is not valid standard Base64' })
      }
    }
    if (a.type === 'url' && !/^https:\/\/[^\s]+$/i.test(a.file)) {
      ctx.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'a url attachment must be a public https:// URL',
      })
    }
  })
export type Attachment = z.infer<typeof attachmentSchema>

export const PROCESS_TYPES = ['async', 'direct'] as const

const aiCreateFields = {
  prompt: nonEmpty('prompt'),
  attachments: z
    .array(attachmentSchema, { error: 'attachments must be a list of attachment objects' })
    .max(LIMITS.maxAttachments, { error: `at most ${LIMITS.maxAttachments} attachments per request` })
    .optional(),
  text_attachment: z.string({ error: 'text_attachment must be text' }).optional(),
  process_type: z.enum(PROCESS_TYPES, { error: 'process_type must be async or direct' }).optional(),
}

export const aiCreateSchema = z.object(aiCreateFields)
export type AiCreateBody = z.infer<typeof aiCreateSchema>


export const bankUploadSchema = z
  .object({
    ...aiCreateFields,
    prompt: z
      .string({ error: 'prompt is required on a bank statement upload' })
      .trim()
      .min(1, { error: 'prompt is required on a bank statement upload' }),
  })
  .superRefine((body, ctx) => {
    body.attachments?.forEach((a, i) => {
      const kind = fileKind(a.name)
      if (!(BANK_UPLOAD_KINDS as readonly string[]).includes(kind)) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachments', i, 'name'],
          message: `${a.name ? `"${a.name}"` : 'an attachment without a name'} is not an accepted statement file: allowed kinds are ${BANK_UPLOAD_KINDS.join(', ')}`,
        })
      }
    })
  })

export const asyncJobData = z.object({
  process_type: z.literal('async'),
  job_reference: z.string(),
})
export type AsyncJobData = z.infer<typeof asyncJobData>
