/** The business registration form's words (issue 34): labels, the password rules and its problems. */
import { defineMessages } from 'react-intl'
import type { PASSWORD_RULES } from '../../../contract/api'
import { getIntl } from '../../lib/i18n'
import messages from './register-words.messages.json' with { type: 'json' }

export const m = defineMessages(messages.m)

const RULES = {
  length: m.ruleLength,
  letter: m.ruleLetter,
  number: m.ruleNumber,
  special: m.ruleSpecial,
} as const

/** A password rule in the person's language. */
export function rule(id: (typeof PASSWORD_RULES)[number]['id']): string {
  return getIntl().formatMessage(RULES[id])
}
