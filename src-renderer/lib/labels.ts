/**
 * Words for the states the engine reports. Each map is a Record over the contract's union, so the
 * compiler says when a status is added and has no words yet.
 */
import { TARGET_LABELS } from '../../contract/labels'
import type {
  AiTarget,
  FolderState,
  MailAccountState,
  MailAfter,
  ProfileKind,
  ProfileState,
  Upload,
  UploadSource,
  UploadStatus,
} from './types'

export { TARGET_LABELS }
export const TARGETS = Object.keys(TARGET_LABELS) as AiTarget[]

/** What files sent to a target are, in a sentence: ".exe files are not receipts". */
export const TARGET_NOUNS: Record<AiTarget, string> = {
  expenses: 'receipts',
  bills: 'bills',
  invoices: 'invoices',
  income: 'income documents',
  journals: 'journal documents',
  contacts: 'contact lists',
  accounts: 'charts of accounts',
  'bank-transactions': 'bank statements',
}

export const STATUS_LABELS: Record<UploadStatus, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  waiting_retry: 'Waiting to retry',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  duplicate: 'Duplicate',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
  superseded: 'Changed before sending',
  held: 'Held',
  discarded: 'Discarded',
}
export const UPLOAD_STATUS_LIST = Object.keys(STATUS_LABELS) as UploadStatus[]

/** Tone of a status badge: a CSS modifier. */
export const STATUS_TONE: Record<UploadStatus, 'neutral' | 'busy' | 'good' | 'warn' | 'bad'> = {
  queued: 'neutral',
  uploading: 'busy',
  waiting_retry: 'warn',
  processing: 'busy',
  completed: 'good',
  failed: 'bad',
  duplicate: 'warn',
  skipped: 'warn',
  cancelled: 'neutral',
  superseded: 'neutral',
  held: 'warn',
  discarded: 'neutral',
}

/** The contract's lists: still on its way to the server; finished, one way or another. */
export { ACTIVE_STATUSES as ACTIVE, TERMINAL_STATUSES as TERMINAL } from '../../contract/types'
export const ATTENTION: readonly UploadStatus[] = ['failed', 'skipped', 'duplicate', 'held']
/** Statuses the engine lets a person cancel. */
export const CANCELLABLE: readonly UploadStatus[] = [
  'queued',
  'waiting_retry',
  'uploading',
  'processing',
  'duplicate',
]
/** Statuses the engine lets a person retry (a duplicate or a skipped file is "sent anyway"). */
export const RETRYABLE: readonly UploadStatus[] = ['failed', 'cancelled', 'skipped', 'duplicate', 'held']

export function retryLabel(status: UploadStatus): string {
  return status === 'duplicate' || status === 'skipped' || status === 'held' ? 'Send anyway' : 'Retry'
}

export const SKIP_REASON_LABELS: Record<NonNullable<Upload['reason']>, string> = {
  unsupported_kind: 'This kind of file is not accepted for the chosen target.',
  too_large: 'The file is larger than the maximum file size (Settings).',
  empty: 'The file is empty.',
  unreadable: 'The file could not be read.',
  vanished: 'The file disappeared before it could be read.',
  existed_before: 'The file was in the folder before it was watched.',
  outside_folder: 'A link to a file outside the watched folder: not sent.',
  mismatch: 'The content is not what the file name says.',
  not_prepared: 'The photo could not be prepared (damaged, or too many pixels).',
  no_receipt: 'No receipt in this mail.',
}

/** Why the engine recorded nothing for a file it was given. */
export const IGNORED_LABELS: Record<'already_handled' | 'changed' | 'not_saved', string> = {
  already_handled: 'This exact file was already handled: nothing new to send.',
  changed: 'The file changed while it was being read: add it again once it is saved.',
  not_saved: 'Bookdrop could not save this file to send it: add it again.',
}

export const FOLDER_STATE_LABELS: Record<FolderState, string> = {
  starting: 'Starting',
  watching: 'Watching',
  polling: 'Polling',
  error: 'Error',
  stopped: 'Stopped',
  disabled: 'Disabled',
}

/** Where a file came from (the history's source column and filter). */
export const SOURCE_LABELS: Record<UploadSource, string> = {
  watch: 'Folder',
  drop: 'Drop',
  cli: 'Command line',
  mail: 'Mail',
  phone: 'Phone',
}
export const UPLOAD_SOURCE_LIST = Object.keys(SOURCE_LABELS) as UploadSource[]

export const MAIL_STATE_LABELS: Record<MailAccountState, string> = {
  starting: 'Starting',
  connecting: 'Connecting',
  connected: 'Connected',
  waiting: 'Waiting for the server',
  error: 'Needs attention',
  disabled: 'Off',
}

export const MAIL_AFTER_LABELS: Record<MailAfter, string> = {
  leave: 'Leave it as it is',
  seen: 'Mark it read',
  move: 'Move it to a mailbox',
}

export const PROFILE_STATE_LABELS: Record<ProfileState, string> = {
  active: 'Connected',
  paused: 'Paused',
  rate_limited: 'Rate limited',
  auth_required: 'Key refused',
  forbidden: 'No API access',
  out_of_credits: 'Out of AI credits',
  unreachable: 'Cannot reach the server',
  not_api: 'Not the API answering',
  offline: 'Offline',
}

/** States that say the API cannot be reached now: nothing is held, and they end by themselves. */
export const CONNECTION_STATES: readonly ProfileState[] = ['unreachable', 'not_api', 'offline']

export const PROFILE_KIND_LABELS: Record<ProfileKind, string> = {
  business: 'Business',
  partner: 'Partner',
  oauth: 'Integration app',
}

/**
 * The business a profile acts for, as the server described it: "Demo Bakery Ltd (NGN, NG)". What
 * the server did not say is left out; without a business name, the profile's own name stands in.
 */
export function businessLabel(p: {
  name: string
  business?: { name: string | null; currency: string | null; country: string | null } | null
}): string {
  const b = p.business
  if (!b) return '—'
  const where = [b.currency, b.country].filter((x): x is string => !!x).join(', ')
  return `${b.name ?? p.name}${where ? ` (${where})` : ''}`
}
