/**
 * Words several screens share (issue 34): a profile's connection state, its kind, its environment.
 * Messages like any other (ids common.*): format them with `useI18n()` or `getIntl()`.
 */
import { defineMessages } from 'react-intl'
import type { AiTarget, ProfileKind, ProfileState } from './types'

export const PROFILE_STATE_MESSAGES = defineMessages({
  active: { id: 'common.state.active', defaultMessage: 'Connected' },
  paused: { id: 'common.state.paused', defaultMessage: 'Paused' },
  rate_limited: { id: 'common.state.rate_limited', defaultMessage: 'Rate limited' },
  auth_required: { id: 'common.state.auth_required', defaultMessage: 'Key refused' },
  forbidden: { id: 'common.state.forbidden', defaultMessage: 'No API access' },
  out_of_credits: { id: 'common.state.out_of_credits', defaultMessage: 'Out of AI credits' },
  unreachable: { id: 'common.state.unreachable', defaultMessage: 'Cannot reach the server' },
  not_api: { id: 'common.state.not_api', defaultMessage: 'Not the API answering' },
  offline: { id: 'common.state.offline', defaultMessage: 'Offline' },
} satisfies Record<ProfileState, unknown>)

export const PROFILE_KIND_MESSAGES = defineMessages({
  business: { id: 'common.kind.business', defaultMessage: 'Business' },
  partner: { id: 'common.kind.partner', defaultMessage: 'Partner' },
  oauth: { id: 'common.kind.oauth', defaultMessage: 'Integration app' },
} satisfies Record<ProfileKind, unknown>)

export const ENVIRONMENT_MESSAGES = defineMessages({
  production: { id: 'common.environment.production', defaultMessage: 'production' },
  sandbox: { id: 'common.environment.sandbox', defaultMessage: 'sandbox' },
  custom: { id: 'common.environment.custom', defaultMessage: 'custom' },
})

/** The kinds of record a file can be sent as ("Send as"): TARGET_LABELS' words, as messages. */
export const TARGET_MESSAGES = defineMessages({
  expenses: { id: 'common.target.expenses', defaultMessage: 'Expenses (receipts)' },
  bills: { id: 'common.target.bills', defaultMessage: 'Bills' },
  invoices: { id: 'common.target.invoices', defaultMessage: 'Invoices' },
  income: { id: 'common.target.income', defaultMessage: 'Income' },
  journals: { id: 'common.target.journals', defaultMessage: 'Journals' },
  contacts: { id: 'common.target.contacts', defaultMessage: 'Contacts' },
  accounts: { id: 'common.target.accounts', defaultMessage: 'Chart of accounts' },
  'bank-transactions': { id: 'common.target.bank_transactions', defaultMessage: 'Bank statement upload' },
} satisfies Record<AiTarget, unknown>)

/** Words of buttons and fields every form and dialog uses. */
export const COMMON = defineMessages({
  cancel: { id: 'common.cancel', defaultMessage: 'Cancel' },
  close: { id: 'common.close', defaultMessage: 'Close' },
  working: { id: 'common.working', defaultMessage: 'Working…' },
  required: { id: 'common.required', defaultMessage: '(required)' },
  tryAgain: { id: 'common.try_again', defaultMessage: 'Try again' },
})
