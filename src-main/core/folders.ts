/**
 * Watched folder settings: validated with zod (the same schema checks the bridge later), stored in
 * SQLite, and the prompt template each file is sent with.
 *
 * The schema is written with zod/mini: the engine validates a folder at every start of the headless
 * mode, and zod/mini bundles to ~40 KB where zod's full API costs the idle process ~9 MB of RSS
 * (issue 14). Its errors are zod errors all the same ($ZodError, see bridge.ts).
 */
import { isAbsolute, join, resolve } from 'node:path'
import * as z from 'zod/mini'
import { AI_TARGETS, type AiTarget } from '../../schemas/routes'
import { UPLOADED_DIR } from './intake/after-upload'
import { configNormalizer } from './config-normalizer'
import { checkAcceptedKinds } from './accepted-kinds'
import { allowedKinds } from './kinds'
import { localDay } from './util'
import { ConfigTable } from './store/config-table'
import type { Db } from './store/db'
import type { FolderConfig } from '../../contract/types'

export type { FolderConfig }

export const DEFAULT_PROMPTS: Record<AiTarget, string> = {
  expenses: 'Record an expense from the receipt {filename} (saved in {folder} on {date}).',
  bills: 'Record a bill from the document {filename} (saved in {folder} on {date}).',
  invoices: 'Create an invoice from the document {filename} (saved in {folder} on {date}).',
  income: 'Record income from the document {filename} (saved in {folder} on {date}).',
  journals: 'Create a journal entry from {filename} (saved in {folder} on {date}).',
  contacts: 'Create contacts from {filename}.',
  accounts: 'Create chart of accounts entries from {filename}.',
  'bank-transactions': 'Import the bank statement {filename} (saved in {folder} on {date}).',
}

export const folderInputSchema = z
  .object({
    profileId: z.string().check(z.minLength(1, { error: 'choose the profile (business) this folder uploads to' })),
    path: z
      .string({ error: 'path is required' })
      .check(
        z.minLength(1, { error: 'choose a folder' }),
        z.refine((p) => isAbsolute(p), { error: 'the folder path must be absolute, e.g. /home/me/Receipts' }),
      ),
    target: z.enum(AI_TARGETS as [AiTarget, ...AiTarget[]], {
      error: `target must be one of ${AI_TARGETS.join(', ')}`,
    }),
    promptTemplate: z.optional(
      z.string().check(z.trim(), z.minLength(1, { error: 'the prompt must not be empty' })),
    ),
    recursive: z._default(z.boolean(), false),
    acceptedKinds: z.optional(
      z.array(z.string().check(z.regex(/^\.?[a-z0-9]+$/i, { error: 'a kind is a file extension such as pdf' }))),
    ),
    usePolling: z._default(z.boolean(), false),
    afterUpload: z._default(z.enum(['leave', 'move', 'archive']), 'leave'),
    archiveDir: z._default(z.nullable(z.string()), null),
    takeExisting: z._default(z.boolean(), true),
    enabled: z._default(z.boolean(), true),
    processType: z._default(z.enum(['async', 'direct']), 'async'),
  })
  .check(
    z.superRefine((f, ctx) => {
      if (f.afterUpload === 'archive' && (!f.archiveDir || !isAbsolute(f.archiveDir))) {
        ctx.addIssue({
          code: 'custom',
          path: ['archiveDir'],
          message: 'choose an archive folder (an absolute path) to move uploaded files to',
        })
      }
      // Only the bank statement upload can be narrowed to nothing (allowedKinds caps no other target).
      checkAcceptedKinds(
        ctx,
        f.target,
        f.acceptedKinds,
        'the bank statement upload only takes pdf, csv, xlsx, xls, jpg, jpeg, png, webp, gif, bmp',
      )
    }),
  )
export type FolderInput = z.input<typeof folderInputSchema>

export const normalizeFolder = configNormalizer(
  folderInputSchema,
  (f, id, addedAt): FolderConfig => ({
    id,
    profileId: f.profileId,
    path: resolve(f.path),
    target: f.target,
    promptTemplate: f.promptTemplate ?? DEFAULT_PROMPTS[f.target],
    recursive: f.recursive,
    acceptedKinds: allowedKinds(f.target, f.acceptedKinds),
    usePolling: f.usePolling,
    afterUpload: f.afterUpload,
    archiveDir: f.archiveDir ? resolve(f.archiveDir) : null,
    takeExisting: f.takeExisting,
    enabled: f.enabled,
    processType: f.processType,
    addedAt,
  }),
)

/** Where a folder's uploaded files go, or null when they stay. */
export function destinationDir(f: Pick<FolderConfig, 'afterUpload' | 'archiveDir' | 'path'>): string | null {
  if (f.afterUpload === 'move') return join(f.path, UPLOADED_DIR)
  if (f.afterUpload === 'archive') return f.archiveDir
  return null
}

/** Fills `{filename}`, `{folder}` and `{date}` (the local date, YYYY-MM-DD). */
export function renderPrompt(template: string, v: { filename: string; folder: string; date?: Date }): string {
  const d = v.date ?? new Date()
  const date = localDay(d)
  return template
    .replaceAll('{filename}', v.filename)
    .replaceAll('{folder}', v.folder)
    .replaceAll('{date}', date)
}

/** The watched folders' settings (table `folders`). */
export class FolderStore extends ConfigTable<FolderConfig> {
  constructor(db: Db) {
    super(db, 'folders')
  }
}

/** Key-value settings kept next to the queue. */
export class SettingsStore {
  constructor(private readonly db: Db) {}

  get<T>(key: string, fallback: T): T {
    const r = this.db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key)
    return r ? (JSON.parse(r.value) as T) : fallback
  }

  set(key: string, value: unknown): void {
    this.db.run(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      key,
      JSON.stringify(value),
    )
  }
}
