import type { ReactNode } from 'react'
import { Field, TargetOptions, TextAreaField, TextField } from '../../components/Field'
import type { AiTarget } from '../../lib/types'

/** The part every rule that sends files has: where they go, which kinds, and the words sent with them. */
export interface RuleFieldValues {
  target: AiTarget
  acceptedKinds: string
  promptTemplate: string
}

/**
 * The target, kinds and instruction fields shared by a watched folder's form and a mail rule's form.
 * `children` (the source's own filters) come between the target and the kinds.
 */
export function RuleFields<V extends RuleFieldValues>({
  values,
  set,
  error,
  kindsLabel,
  kindsHint,
  instructionsLabel,
  instructionsHint,
  placeholder,
  children,
}: {
  values: V
  set: <K extends keyof V>(k: K, value: V[K]) => void
  /** A field's message from the last answer. */
  error: (field: string) => string | undefined
  kindsLabel: string
  kindsHint: string
  instructionsLabel: string
  instructionsHint: ReactNode
  placeholder?: string
  children?: ReactNode
}) {
  return (
    <>
      <Field label="Send as" error={error('target')}>
        {(p) => (
          <select {...p} value={values.target} onChange={(e) => set('target', e.target.value as V['target'])}>
            <TargetOptions />
          </select>
        )}
      </Field>
      {children}
      <TextField
        label={kindsLabel}
        error={error('acceptedKinds')}
        hint={kindsHint}
        value={values.acceptedKinds}
        onChange={(kinds) => set('acceptedKinds', kinds as V['acceptedKinds'])}
        input={{ spellCheck: false }}
      />
      <TextAreaField
        label={instructionsLabel}
        className="span-2"
        error={error('promptTemplate')}
        hint={instructionsHint}
        rows={2}
        value={values.promptTemplate}
        onChange={(text) => set('promptTemplate', text as V['promptTemplate'])}
        {...(placeholder !== undefined ? { placeholder } : {})}
      />
    </>
  )
}

/**
 * What a rule's three shared fields send: the kinds as a list of lower-case extensions (left out
 * when empty, so the server's default applies) and the instructions trimmed (left out when empty).
 */
export function ruleFieldsRequest(v: RuleFieldValues) {
  const kinds = v.acceptedKinds
    .split(/[,\s]+/)
    .map((k) => k.trim().replace(/^\./, '').toLowerCase())
    .filter(Boolean)
  return {
    target: v.target,
    ...(kinds.length ? { acceptedKinds: kinds } : {}),
    ...(v.promptTemplate.trim() ? { promptTemplate: v.promptTemplate.trim() } : {}),
  }
}
