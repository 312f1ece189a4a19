import { useCallback, useState } from 'react'
import type { MessageDescriptor } from 'react-intl'
import type { z } from 'zod'
import { getIntl } from './i18n'
import type { BridgeError, Result } from './types'

/** What a form shows while and after it sends: busy, the error line and each field's message. */
export interface SubmitState {
  busy: boolean
  error: string | null
  fields: Record<string, string>
  /**
   * Runs `call`, busy meanwhile; its failure becomes the error line (in the words of `explain`, if
   * given) and the field messages. Returns the value, or null when it failed. Never leaves busy set.
   */
  submit<T>(call: () => Promise<Result<T>>, explain?: (e: BridgeError) => string): Promise<T | null>
  /** Shows a problem found before sending (a field that does not pass its check). */
  refuse(error: string | null, fields?: Record<string, string>): void
  /** Clears the error line and the field messages. */
  reset(): void
}

/** Form state for one submit: every form's busy, error and field messages, one way. */
export function useSubmit(): SubmitState {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [fields, setFields] = useState<Record<string, string>>({})

  const refuse = useCallback((e: string | null, f: Record<string, string> = {}) => {
    setError(e)
    setFields(f)
  }, [])
  const reset = useCallback(() => refuse(null), [refuse])
  const submit = useCallback(
    async <T,>(call: () => Promise<Result<T>>, explain?: (e: BridgeError) => string): Promise<T | null> => {
      setBusy(true)
      setError(null)
      setFields({})
      try {
        const r = await call()
        if (r.ok) return r.value
        refuse(explain ? explain(r.error) : r.error.message || r.error.code, r.error.fields ?? {})
        return null
      } catch (e) {
        refuse(e instanceof Error ? e.message : String(e))
        return null
      } finally {
        setBusy(false)
      }
    },
    [refuse],
  )
  return { busy, error, fields, submit, refuse, reset }
}

/** The words of a checked form's error line: what it says when the server refused, or fields need fixing. */
export interface FormLines {
  /** The server's reason introduced, e.g. "The order was not sent: {reason}" (a message with `reason`). */
  refused: MessageDescriptor
  /** Once the form was sent with fields that do not pass their checks. */
  invalid: MessageDescriptor
}

/** A checked form's error line: the server's refusal first, else, once sent with fields to fix, `invalid`. */
export function formErrorLine(
  sent: Pick<SubmitState, 'error'>,
  sentInvalid: boolean,
  lines: FormLines,
): string | null {
  const intl = getIntl()
  return sent.error
    ? intl.formatMessage(lines.refused, { reason: sent.error })
    : sentInvalid
      ? intl.formatMessage(lines.invalid)
      : null
}

/** One problem a form's check found: its field (last named part of its path) and zod's issue code. */
export interface FieldIssue {
  /** The field's name: `item_name` for items.0.item_name. */
  field: string
  /** The full path, e.g. items.0.item_name. */
  path: string
  /** zod's code: invalid_type (missing or not a number), too_small, too_big, custom… */
  code: string
}

/**
 * Field path → first problem, in the person's words (issue 34): `word` turns a field and its issue
 * code into a catalogue message (what to do, no API field names); a problem it does not know keeps
 * the schema's own sentence.
 */
export function wordIssues(
  error: z.core.$ZodError,
  word: (issue: FieldIssue) => string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of error.issues) {
    const path = i.path.map(String).join('.')
    if (out[path] !== undefined) continue
    const field = [...i.path].reverse().find((p) => typeof p === 'string') ?? ''
    out[path] = word({ field: String(field), path, code: i.code }) ?? i.message
  }
  return out
}
