/**
 * Words for the states the engine reports. Each map is a Record over the contract's union, so the
 * compiler says when a status is added and has no words yet. The words are messages of the
 * catalogue (issue 34): a map's value is worded in the language in use each time it is read.
 */
import { defineMessages, type MessageDescriptor } from 'react-intl'
import { getIntl } from './i18n'
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
import messages from './labels.messages.json' with { type: 'json' }

/** A map of words whose values are formatted in the language in use each time a key is read. */
function worded<K extends string>(messages: Record<K, MessageDescriptor>): Readonly<Record<K, string>> {
  const words = {} as Record<K, string>
  for (const k of Object.keys(messages) as K[])
    Object.defineProperty(words, k, { enumerable: true, get: () => getIntl().formatMessage(messages[k]) })
  return words
}

/** What files are sent as (contract/labels.ts has the same English words, for headless output). */
export const TARGET_LABELS = worded<AiTarget>(defineMessages(messages.TARGET_LABELS))
export const TARGETS = Object.keys(TARGET_LABELS) as AiTarget[]

/** What files sent to a target are, in a sentence: ".exe files are not receipts". */
export const TARGET_NOUNS = worded<AiTarget>(defineMessages(messages.TARGET_NOUNS))

export const STATUS_LABELS = worded<UploadStatus>(defineMessages(messages.STATUS_LABELS))
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

const actions = defineMessages(messages.actions)

export function retryLabel(status: UploadStatus): string {
  return getIntl().formatMessage(
    status === 'duplicate' || status === 'skipped' || status === 'held' ? actions.sendAnyway : actions.retry,
  )
}

export const SKIP_REASON_LABELS = worded<NonNullable<Upload['reason']>>(
  defineMessages(messages.SKIP_REASON_LABELS),
)

/** Why the engine recorded nothing for a file it was given. */
export const IGNORED_LABELS = worded<'already_handled' | 'changed' | 'not_saved'>(
  defineMessages(messages.IGNORED_LABELS),
)

export const FOLDER_STATE_LABELS = worded<FolderState>(defineMessages(messages.FOLDER_STATE_LABELS))

/** Where a file came from (the history's source column and filter). */
export const SOURCE_LABELS = worded<UploadSource>(defineMessages(messages.SOURCE_LABELS))
export const UPLOAD_SOURCE_LIST = Object.keys(SOURCE_LABELS) as UploadSource[]

export const MAIL_STATE_LABELS = worded<MailAccountState>(defineMessages(messages.MAIL_STATE_LABELS))

export const MAIL_AFTER_LABELS = worded<MailAfter>(defineMessages(messages.MAIL_AFTER_LABELS))

export const PROFILE_STATE_LABELS = worded<ProfileState>(defineMessages(messages.PROFILE_STATE_LABELS))

/** States that say the API cannot be reached now: nothing is held, and they end by themselves. */
export const CONNECTION_STATES: readonly ProfileState[] = ['unreachable', 'not_api', 'offline']

export const PROFILE_KIND_LABELS = worded<ProfileKind>(defineMessages(messages.PROFILE_KIND_LABELS))

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
