/**
 * A request's schema refusals as sentences in the person's language (issue 34): each issue of a
 * form's field becomes a `Coded` by its kind (required, too long, a number out of range, a choice…),
 * the schema's own English kept as its text; the few checks of our own are known by their words.
 * The form shows each under its field; the message as a whole says how many need a change.
 */
import type { $ZodError, $ZodIssue } from 'zod/v4/core'
import { coded } from '../../contract/coded'
import { FORM_ERRORS as F } from '../../contract/main-states'
import type { Coded } from '../../contract/message'
import { describeIssues } from '../../schemas'

/** Our own checks (superRefine) by their English words. */
const OWN: Readonly<Record<string, keyof typeof F>> = {
  'the user name has a control character': 'userControl',
  'a connection without TLS is allowed only to this computer (127.0.0.1): choose TLS or STARTTLS': 'plainRemote',
  'mails cannot be moved to the mailbox they are read from': 'moveToSame',
  'choose at least one kind this target accepts': 'kindsNeeded',
  'choose an archive folder (an absolute path) to move uploaded files to': 'archiveNeeded',
}

/** Issues worded by their kind alone. */
const PLAIN: Partial<Record<$ZodIssue['code'], keyof typeof F>> = {
  invalid_format: 'format',
  invalid_value: 'choose',
  not_multiple_of: 'wholeNumber',
}

const NUMBERS = new Set(['number', 'int', 'bigint'])

/** A string, a number or a list past its bound (a string of at least one character: required). */
function bound(i: $ZodIssue & { code: 'too_small' | 'too_big' }): Coded | undefined {
  const small = i.code === 'too_small'
  const n = num(small ? i.minimum : i.maximum)
  const param: Record<string, number> = small ? { minimum: n } : { maximum: n }
  if (i.origin === 'string') return small && n <= 1 ? coded(F.required) : coded(small ? F.tooShort : F.tooLong, param)
  if (NUMBERS.has(i.origin)) return coded(small ? F.numberTooSmall : F.numberTooLarge, param)
  if (i.origin === 'array' || i.origin === 'set') return coded(small ? F.tooFew : F.tooMany, param)
  return undefined
}

function num(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0
}

/** One issue as a sentence, or undefined when it has no wording of its own (its English shows). */
export function issueCoded(i: $ZodIssue): Coded | undefined {
  const c = (() => {
    switch (i.code) {
      case 'custom': {
        const own = OWN[i.message]
        return own ? coded(F[own]) : undefined
      }
      case 'invalid_type':
        // Issues do not keep the input: zod says what it received.
        if (i.input === undefined || i.input === null || /received (undefined|null)$/.test(i.message))
          return coded(F.required)
        if (i.expected === 'number' || i.expected === 'int' || i.expected === 'bigint') return coded(F.notNumber)
        return undefined
      case 'too_small':
      case 'too_big':
        return bound(i)
      default: {
        const plain = PLAIN[i.code]
        return plain ? coded(F[plain]) : undefined
      }
    }
  })()
  return c ? { ...c, text: i.message } : undefined
}

/** The refusal's message and its fields' sentences, coded; the English texts as the schema wrote them. */
export function zodCoded(e: $ZodError): { coded?: Coded; codedFields?: Record<string, Coded> } {
  const codedFields: Record<string, Coded> = {}
  const seen = new Set<string>()
  let allWorded = true
  for (const i of e.issues) {
    const path = i.path.map(String).join('.')
    if (seen.has(path)) continue
    seen.add(path)
    const c = issueCoded(i)
    if (c && path) codedFields[path] = c
    else allWorded = false
  }
  const out: { coded?: Coded; codedFields?: Record<string, Coded> } = {}
  if (Object.keys(codedFields).length) out.codedFields = codedFields
  const text = describeIssues(e)
  // How many fields need a change, when each has its sentence to show under it (else the English).
  if (seen.size > 0 && allWorded) out.coded = { ...coded(F.fields, { count: seen.size }), text }
  return out
}
