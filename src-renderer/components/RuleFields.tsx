import type { ReactNode } from 'react'
import { Field, TargetOptions, TextAreaField, TextField } from './Field'
import type { AiTarget } from '../lib/types'

/** The part every rule that sends files has: where they go, which kinds, and the words sent with them. */
export interface RuleFieldValues {
  target: AiTarget
  acceptedKinds: string
  promptTemplate: string
}

/** How the shared fields are worded for files from a watched folder and for a mail's attachments. */
const WORDS: Record<
  'folder' | 'mail',
  {
    kindsLabel: string
    kindsHint: string
    instructionsLabel: string
    instructionsHint: ReactNode
    placeholder?: string
  }
> = {
  folder: {
    kindsLabel: 'File kinds',
    kindsHint:
      'Extensions separated by commas, e.g. pdf, jpg, png. Empty takes the usual kinds for this target.',
    instructionsLabel: 'Instructions sent with each file',
    instructionsHint: (
      <>
        <code>{'{filename}'}</code> the file’s name, <code>{'{folder}'}</code> its folder,{' '}
        <code>{'{date}'}</code> today’s date. Empty uses the default for the target.
      </>
    ),
    placeholder: 'Record an expense from the receipt {filename} (saved in {folder} on {date}).',
  },
  mail: {
    kindsLabel: 'Attachment kinds',
    kindsHint: 'e.g. pdf, jpg, png. Empty: the usual kinds (no .txt or .eml).',
    instructionsLabel: 'Instructions sent with each receipt',
    instructionsHint: (
      <>
        <code>{'{filename}'}</code>, <code>{'{from}'}</code> the sender, <code>{'{subject}'}</code>,{' '}
        <code>{'{folder}'}</code> the mailbox, <code>{'{date}'}</code> the day it arrived. Empty uses the
        default.
      </>
    ),
  },
}

/**
 * The target, kinds and instruction fields shared by a watched folder's form and a mail rule's form.
 * `children` (the source's own filters) come between the target and the kinds.
 */
export function RuleFields<V extends RuleFieldValues>({
  values,
  set,
  error,
  source,
  children,
}: {
  values: V
  set: <K extends keyof V>(k: K, value: V[K]) => void
  /** A field's message from the last answer. */
  error: (field: string) => string | undefined
  /** Where the files come from: the fields' words. */
  source: keyof typeof WORDS
  children?: ReactNode
}) {
  const { kindsLabel, kindsHint, instructionsLabel, instructionsHint, placeholder } = WORDS[source]
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
