/**
 * A mail's body as plain text, for a mail whose receipt is the body itself (sent as
 * `text_attachment` when the rule says so) and for the "Send anyway" of a mail with no receipt.
 * HTML is read in the mail-text worker (./text-worker.ts) with time, memory and size limits.
 */
import { TaskPool } from '../../../workers/pool'
import { MAX_BODY_BYTES } from './structure'

export type MailTextTasks = {
  bodyText(input: { type: 'text/plain' | 'text/html'; text: string }): Promise<string>
}

export const MAIL_TEXT_LIMITS = {
  timeoutMs: 10_000,
  maxHeapMb: 128,
  maxInputBytes: MAX_BODY_BYTES * 2 + 1024,
}

export function mailTextPool(): TaskPool<MailTextTasks> {
  return new TaskPool<MailTextTasks>('mail-text', { limits: MAIL_TEXT_LIMITS, size: 1, idleMs: 10_000 })
}
