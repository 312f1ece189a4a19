/**
 * Words several screens share (issue 34): a profile's connection state, its kind, its environment.
 * Messages like any other (ids common.*): format them with `useI18n()` or `getIntl()`.
 */
import { defineMessages } from 'react-intl'
import type { AiTarget, ProfileKind, ProfileState } from './types'
import messages from './common-messages.messages.json' with { type: 'json' }

export const PROFILE_STATE_MESSAGES = defineMessages(
  messages.PROFILE_STATE_MESSAGES satisfies Record<ProfileState, unknown>,
)

export const PROFILE_KIND_MESSAGES = defineMessages(
  messages.PROFILE_KIND_MESSAGES satisfies Record<ProfileKind, unknown>,
)

export const ENVIRONMENT_MESSAGES = defineMessages(messages.ENVIRONMENT_MESSAGES)

/** The kinds of record a file can be sent as ("Send as"): TARGET_LABELS' words, as messages. */
export const TARGET_MESSAGES = defineMessages(messages.TARGET_MESSAGES satisfies Record<AiTarget, unknown>)

/** Words of buttons and fields every form and dialog uses. */
export const COMMON = defineMessages(messages.COMMON)
