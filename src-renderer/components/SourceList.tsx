import { type MessageDescriptor, defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useState } from 'react'
import { Badge, type Tone } from './Badge'
import { Screen } from './Screen'
import { Section } from './Section'
import { FormActions, FormError } from './Field'
import type { Result } from '../lib/types'
import { useSubmit } from '../lib/useSubmit'
import messages from './SourceList.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/**
 * The pieces the Watched folders and Mail screens share around their lists of sources: the add
 * button, the list's error and empty state, the screen around them (the add form in its card), a
 * source's head line, and the frame of a source's form.
 */

export function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="btn btn--primary" onClick={onClick}>
      {children}
    </button>
  )
}

/** Why the list did not load, or, once loaded empty (and not adding), what to do first. */
export function ListState({
  error,
  empty,
  text,
  addLabel,
  onAdd,
}: {
  error: string | null
  empty: boolean
  text: string
  addLabel: string
  onAdd: () => void
}) {
  return (
    <>
      <FormError message={error} />
      {empty ? (
        <div className="empty">
          <p>{text}</p>
          <AddButton onClick={onAdd}>{addLabel}</AddButton>
        </div>
      ) : null}
    </>
  )
}

/**
 * A screen of sources (Watched folders, Mail): the add button, or the add form in its card while
 * adding (`close` ends adding); the list's error and empty state; the list's items; then what the
 * screen shows below it. `words` are the screen's own messages.
 */
export function SourceScreen({
  words,
  error,
  empty,
  form,
  items,
  children,
}: {
  words: Record<'title' | 'intro' | 'add' | 'addTitle' | 'empty', MessageDescriptor>
  error: string | null
  /** Loaded, and nothing in the list. */
  empty: boolean
  form: (close: () => void) => ReactNode
  items: ReactNode
  children?: ReactNode
}) {
  const intl = useI18n()
  const [adding, setAdding] = useState(false)
  const add = intl.formatMessage(words.add)
  return (
    <Screen
      title={intl.formatMessage(words.title)}
      intro={intl.formatMessage(words.intro)}
      actions={!adding ? <AddButton onClick={() => setAdding(true)}>{add}</AddButton> : null}
    >
      {adding ? (
        <Section className="card" title={intl.formatMessage(words.addTitle)}>
          {form(() => setAdding(false))}
        </Section>
      ) : null}

      <ListState
        error={error}
        empty={empty && !adding}
        text={intl.formatMessage(words.empty)}
        addLabel={add}
        onAdd={() => setAdding(true)}
      />

      <ul className="folder-list">{items}</ul>
      {children}
    </Screen>
  )
}

/** A source's name, what it does in a line, and its state (announced when it changes). */
export function SourceHead({
  title,
  details,
  tone,
  state,
}: {
  title: ReactNode
  details: ReactNode
  tone: Tone
  state: string
}) {
  return (
    <div className="folder__head">
      <div>
        {title}
        <div className="muted">{details}</div>
      </div>
      <div className="folder__state" aria-live="polite">
        <Badge tone={tone}>{state}</Badge>
      </div>
    </div>
  )
}

/** A source form's state: its values, its fields' messages, and sending it (busy, error line). */
export function useSourceForm<V extends object>(
  initial: V,
  send: (v: V) => Promise<Result<unknown>>,
  /** Main may name a field as the request's part: `rule.mailbox` for `mailbox`. */
  prefix?: string,
) {
  const [values, setValues] = useState(initial)
  const set = <K extends keyof V>(k: K, value: V[K]) => setValues((o) => ({ ...o, [k]: value }))
  const { busy, error, fields, submit } = useSubmit()
  /** A field's message, whether main named it plainly or as the request's part. */
  const fe = (k: string): string | undefined => fields[k] ?? (prefix ? fields[`${prefix}.${k}`] : undefined)
  /** A text field bound to `k`: its value, its message, and what typing in it changes. */
  const text = <K extends KeysOf<V, string>>(k: K) => ({
    value: values[k] as string,
    error: fe(k),
    onChange: (t: string) => set(k, t as V[K]),
  })
  /** A check box bound to `k`. */
  const check = <K extends KeysOf<V, boolean>>(k: K) => ({
    checked: values[k] as boolean,
    onChange: (c: boolean) => set(k, c as V[K]),
  })
  return { values, set, fe, text, check, fields, busy, error, send: () => submit(() => send(values)) }
}

/** The keys of V whose values are of type T. */
type KeysOf<V, T> = { [K in keyof V]: V[K] extends T ? K : never }[keyof V] & string

/** A source's form on the grid: its fields, then the error line and Cancel / the submit button. */
export function SourceForm({
  form,
  submitLabel,
  onCancel,
  children,
}: {
  form: { busy: boolean; error: string | null; send: () => Promise<unknown> }
  submitLabel: string
  onCancel?: (() => void) | undefined
  children: ReactNode
}) {
  const intl = useI18n()
  return (
    <form
      className="form form--grid"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void form.send()
      }}
    >
      {children}
      <div className="span-2">
        <FormError message={form.error} />
        <FormActions onCancel={onCancel} busy={form.busy} busyLabel={intl.formatMessage(m.saving)}>
          {submitLabel}
        </FormActions>
      </div>
    </form>
  )
}
