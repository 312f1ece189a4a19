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

/** A map of words whose values are formatted in the language in use each time a key is read. */
function worded<K extends string>(messages: Record<K, MessageDescriptor>): Readonly<Record<K, string>> {
  const words = {} as Record<K, string>
  for (const k of Object.keys(messages) as K[])
    Object.defineProperty(words, k, { enumerable: true, get: () => getIntl().formatMessage(messages[k]) })
  return words
}

/** What files are sent as (contract/labels.ts has the same English words, for headless output). */
export const TARGET_LABELS = worded<AiTarget>(
  defineMessages({
    expenses: { id: 'labels.target.expenses', defaultMessage: 'Expenses (receipts)' },
    bills: { id: 'labels.target.bills', defaultMessage: 'Bills' },
    invoices: { id: 'labels.target.invoices', defaultMessage: 'Invoices' },
    income: { id: 'labels.target.income', defaultMessage: 'Income' },
    journals: { id: 'labels.target.journals', defaultMessage: 'Journals' },
    contacts: { id: 'labels.target.contacts', defaultMessage: 'Contacts' },
    accounts: { id: 'labels.target.accounts', defaultMessage: 'Chart of accounts' },
    'bank-transactions': { id: 'labels.target.bankTransactions', defaultMessage: 'Bank statement upload' },
  }),
)
export const TARGETS = Object.keys(TARGET_LABELS) as AiTarget[]

/** What files sent to a target are, in a sentence: ".exe files are not receipts". */
export const TARGET_NOUNS = worded<AiTarget>(
  defineMessages({
    expenses: { id: 'labels.targetNoun.expenses', defaultMessage: 'receipts' },
    bills: { id: 'labels.targetNoun.bills', defaultMessage: 'bills' },
    invoices: { id: 'labels.targetNoun.invoices', defaultMessage: 'invoices' },
    income: { id: 'labels.targetNoun.income', defaultMessage: 'income documents' },
    journals: { id: 'labels.targetNoun.journals', defaultMessage: 'journal documents' },
    contacts: { id: 'labels.targetNoun.contacts', defaultMessage: 'contact lists' },
    accounts: { id: 'labels.targetNoun.accounts', defaultMessage: 'charts of accounts' },
    'bank-transactions': { id: 'labels.targetNoun.bankTransactions', defaultMessage: 'bank statements' },
  }),
)

export const STATUS_LABELS = worded<UploadStatus>(
  defineMessages({
    queued: { id: 'labels.status.queued', defaultMessage: 'Queued' },
    uploading: { id: 'labels.status.uploading', defaultMessage: 'Uploading' },
    waiting_retry: { id: 'labels.status.waitingRetry', defaultMessage: 'Waiting to retry' },
    processing: { id: 'labels.status.processing', defaultMessage: 'Processing' },
    completed: { id: 'labels.status.completed', defaultMessage: 'Completed' },
    failed: { id: 'labels.status.failed', defaultMessage: 'Failed' },
    duplicate: { id: 'labels.status.duplicate', defaultMessage: 'Duplicate' },
    skipped: { id: 'labels.status.skipped', defaultMessage: 'Skipped' },
    cancelled: { id: 'labels.status.cancelled', defaultMessage: 'Cancelled' },
    superseded: { id: 'labels.status.superseded', defaultMessage: 'Changed before sending' },
    held: { id: 'labels.status.held', defaultMessage: 'Held' },
    discarded: { id: 'labels.status.discarded', defaultMessage: 'Discarded' },
  }),
)
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

const actions = defineMessages({
  sendAnyway: { id: 'labels.action.sendAnyway', defaultMessage: 'Send anyway' },
  retry: { id: 'labels.action.retry', defaultMessage: 'Retry' },
})

export function retryLabel(status: UploadStatus): string {
  return getIntl().formatMessage(
    status === 'duplicate' || status === 'skipped' || status === 'held' ? actions.sendAnyway : actions.retry,
  )
}

export const SKIP_REASON_LABELS = worded<NonNullable<Upload['reason']>>(
  defineMessages({
    unsupported_kind: {
      id: 'labels.skipReason.unsupportedKind',
      defaultMessage: 'This kind of file is not accepted for the chosen target.',
    },
    too_large: {
      id: 'labels.skipReason.tooLarge',
      defaultMessage: 'The file is larger than the maximum file size (Settings).',
    },
    empty: { id: 'labels.skipReason.empty', defaultMessage: 'The file is empty.' },
    unreadable: { id: 'labels.skipReason.unreadable', defaultMessage: 'The file could not be read.' },
    vanished: {
      id: 'labels.skipReason.vanished',
      defaultMessage: 'The file disappeared before it could be read.',
    },
    existed_before: {
      id: 'labels.skipReason.existedBefore',
      defaultMessage: 'The file was in the folder before it was watched.',
    },
    outside_folder: {
      id: 'labels.skipReason.outsideFolder',
      defaultMessage: 'A link to a file outside the watched folder: not sent.',
    },
    mismatch: {
      id: 'labels.skipReason.mismatch',
      defaultMessage: 'The content is not what the file name says.',
    },
    not_prepared: {
      id: 'labels.skipReason.notPrepared',
      defaultMessage: 'The photo could not be prepared (damaged, or too many pixels).',
    },
    no_receipt: { id: 'labels.skipReason.noReceipt', defaultMessage: 'No receipt in this mail.' },
  }),
)

/** Why the engine recorded nothing for a file it was given. */
export const IGNORED_LABELS = worded<'already_handled' | 'changed' | 'not_saved'>(
  defineMessages({
    already_handled: {
      id: 'labels.ignored.alreadyHandled',
      defaultMessage: 'This exact file was already handled: nothing new to send.',
    },
    changed: {
      id: 'labels.ignored.changed',
      defaultMessage: 'The file changed while it was being read: add it again once it is saved.',
    },
    not_saved: {
      id: 'labels.ignored.notSaved',
      defaultMessage: 'Bookdrop could not save this file to send it: add it again.',
    },
  }),
)

export const FOLDER_STATE_LABELS = worded<FolderState>(
  defineMessages({
    starting: { id: 'labels.folderState.starting', defaultMessage: 'Starting' },
    watching: { id: 'labels.folderState.watching', defaultMessage: 'Watching' },
    polling: { id: 'labels.folderState.polling', defaultMessage: 'Polling' },
    error: { id: 'labels.folderState.error', defaultMessage: 'Error' },
    stopped: { id: 'labels.folderState.stopped', defaultMessage: 'Stopped' },
    disabled: { id: 'labels.folderState.disabled', defaultMessage: 'Disabled' },
  }),
)

/** Where a file came from (the history's source column and filter). */
export const SOURCE_LABELS = worded<UploadSource>(
  defineMessages({
    watch: { id: 'labels.source.watch', defaultMessage: 'Folder' },
    drop: { id: 'labels.source.drop', defaultMessage: 'Drop' },
    cli: { id: 'labels.source.cli', defaultMessage: 'Command line' },
    mail: { id: 'labels.source.mail', defaultMessage: 'Mail' },
    phone: { id: 'labels.source.phone', defaultMessage: 'Phone' },
  }),
)
export const UPLOAD_SOURCE_LIST = Object.keys(SOURCE_LABELS) as UploadSource[]

export const MAIL_STATE_LABELS = worded<MailAccountState>(
  defineMessages({
    starting: { id: 'labels.mailState.starting', defaultMessage: 'Starting' },
    connecting: { id: 'labels.mailState.connecting', defaultMessage: 'Connecting' },
    connected: { id: 'labels.mailState.connected', defaultMessage: 'Connected' },
    waiting: { id: 'labels.mailState.waiting', defaultMessage: 'Waiting for the server' },
    error: { id: 'labels.mailState.error', defaultMessage: 'Needs attention' },
    disabled: { id: 'labels.mailState.disabled', defaultMessage: 'Off' },
  }),
)

export const MAIL_AFTER_LABELS = worded<MailAfter>(
  defineMessages({
    leave: { id: 'labels.mailAfter.leave', defaultMessage: 'Leave it as it is' },
    seen: { id: 'labels.mailAfter.seen', defaultMessage: 'Mark it read' },
    move: { id: 'labels.mailAfter.move', defaultMessage: 'Move it to a mailbox' },
  }),
)

export const PROFILE_STATE_LABELS = worded<ProfileState>(
  defineMessages({
    active: { id: 'labels.profileState.active', defaultMessage: 'Connected' },
    paused: { id: 'labels.profileState.paused', defaultMessage: 'Paused' },
    rate_limited: { id: 'labels.profileState.rateLimited', defaultMessage: 'Rate limited' },
    auth_required: { id: 'labels.profileState.authRequired', defaultMessage: 'Key refused' },
    forbidden: { id: 'labels.profileState.forbidden', defaultMessage: 'No API access' },
    out_of_credits: { id: 'labels.profileState.outOfCredits', defaultMessage: 'Out of AI credits' },
    unreachable: { id: 'labels.profileState.unreachable', defaultMessage: 'Cannot reach the server' },
    not_api: { id: 'labels.profileState.notApi', defaultMessage: 'Not the API answering' },
    offline: { id: 'labels.profileState.offline', defaultMessage: 'Offline' },
  }),
)

/** States that say the API cannot be reached now: nothing is held, and they end by themselves. */
export const CONNECTION_STATES: readonly ProfileState[] = ['unreachable', 'not_api', 'offline']

export const PROFILE_KIND_LABELS = worded<ProfileKind>(
  defineMessages({
    business: { id: 'labels.profileKind.business', defaultMessage: 'Business' },
    partner: { id: 'labels.profileKind.partner', defaultMessage: 'Partner' },
    oauth: { id: 'labels.profileKind.oauth', defaultMessage: 'Integration app' },
  }),
)

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
