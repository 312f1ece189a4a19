/**
 * A mail against its rule: the rule's filters, what its reading depends on, and a mail's text
 * (sender, subject) made fit for a prompt or a file name.
 */
import type { MailRuleConfig } from '../../../../contract/types'
import type { MailMeta } from '../provider'

/** "Name <address>", or the address alone. */
export function senderText(meta: Pick<MailMeta, 'from'>): string {
  const f = meta.from[0]
  if (!f) return '(unknown sender)'
  const name = f.name.trim()
  return (name && f.address ? `${name} <${f.address}>` : name || f.address || '(unknown sender)').slice(
    0,
    300,
  )
}

/** The rule's filters (AND; case-insensitive substrings; from: the address or the display name). */
export function matchesRule(
  rule: Pick<MailRuleConfig, 'fromContains' | 'subjectContains'>,
  meta: Pick<MailMeta, 'from' | 'subject'>,
): boolean {
  if (rule.fromContains) {
    const want = rule.fromContains.toLowerCase()
    const hit = meta.from.some(
      (f) => f.address.toLowerCase().includes(want) || f.name.toLowerCase().includes(want),
    )
    if (!hit) return false
  }
  if (rule.subjectContains && !meta.subject.toLowerCase().includes(rule.subjectContains.toLowerCase()))
    return false
  return true
}

/** What a rule's reading depends on: a change reads the mailbox again from its start date. */
export function signatureOf(r: MailRuleConfig): string {
  return JSON.stringify([r.since, r.fromContains, r.subjectContains, [...r.acceptedKinds].sort(), r.sendBody])
}

/** Text of a mail (subject, sender) fit for a prompt or a file name: no control characters, bounded. */
export const clean = (s: string, max: number) =>
  s
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max)
