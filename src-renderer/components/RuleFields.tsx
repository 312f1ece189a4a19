import { defineMessages, type IntlShape } from 'react-intl'
import { useI18n } from '../lib/i18n'
import type { ReactNode } from 'react'
import { Field, TargetOptions, TextAreaField, TextField } from './Field'
import type { AiTarget } from '../lib/types'
import messages from './RuleFields.messages.json' with { type: 'json' }

/** The part every rule that sends files has: where they go, which kinds, and the words sent with them. */
export interface RuleFieldValues {
  target: AiTarget
  acceptedKinds: string
  promptTemplate: string
}

const m = defineMessages(messages.m)

const code = (chunks: ReactNode[]) => <code>{chunks}</code>

/** How the shared fields are worded for files from a watched folder and for a mail's attachments. */
function words(intl: IntlShape, source: 'folder' | 'mail') {
  return source === 'folder'
    ? {
        kindsLabel: intl.formatMessage(m.folderKinds),
        kindsHint: intl.formatMessage(m.folderKindsHint),
        instructionsLabel: intl.formatMessage(m.folderInstructions),
        instructionsHint: <>{intl.formatMessage(m.folderInstructionsHint, { code })}</>,
        placeholder: intl.formatMessage(m.folderPlaceholder) as string | undefined,
      }
    : {
        kindsLabel: intl.formatMessage(m.mailKinds),
        kindsHint: intl.formatMessage(m.mailKindsHint),
        instructionsLabel: intl.formatMessage(m.mailInstructions),
        instructionsHint: <>{intl.formatMessage(m.mailInstructionsHint, { code })}</>,
        placeholder: undefined,
      }
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
  source: 'folder' | 'mail'
  children?: ReactNode
}) {
  const intl = useI18n()
  const { kindsLabel, kindsHint, instructionsLabel, instructionsHint, placeholder } = words(intl, source)
  return (
    <>
      <Field label={intl.formatMessage(m.sendAs)} error={error('target')}>
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
