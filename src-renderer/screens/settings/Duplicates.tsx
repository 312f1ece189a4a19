/**
 * Settings › Possible duplicates (issue 33), the active business's own choice: hold a file that
 * looks like a receipt already sent (same text, same picture) until you choose Send anyway or
 * Discard, or send it anyway (its row still says what it looks like). Saved per profile.
 */
import { useEffect, useId, useState } from 'react'
import { defineMessages } from 'react-intl'
import { FormError } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { useI18n } from '../../lib/i18n'
import type { Res } from '../../lib/types'
import { useApp } from '../../store'
import { isPartner } from '../../store/session'
import { useSubmit } from '../../lib/useSubmit'
import messages from './Duplicates.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

type Mode = Res<'getDuplicateSetting'>['mode']

const m = defineMessages(messages.m)

export function DuplicateSetting() {
  const intl = useI18n()
  const activeId = useApp((s) => s.activeId)
  // The setting is a business's own: a partner profile sends no files (its call would be refused).
  const partner = useApp(isPartner)
  const [mode, setMode] = useState<Mode | null>(null)
  const [saved, setSaved] = useState(false)
  const { error, refuse, reset } = useSubmit()
  const name = useId()
  useEffect(() => {
    setMode(null)
    setSaved(false)
    if (!activeId || partner) return
    void bookdrop.getDuplicateSetting({}).then((r) => (r.ok ? setMode(r.value.mode) : refuse(r.error.message)))
  }, [activeId, partner, refuse])
  if (!activeId || partner) return null

  const choose = async (next: Mode) => {
    setMode(next)
    setSaved(false)
    const r = await bookdrop.setDuplicateSetting({ mode: next })
    if (!r.ok) return refuse(r.error.message)
    reset()
    setMode(r.value.mode)
    setSaved(true)
  }
  const option = (value: Mode, label: string, hint: string) => (
    <label className="radio">
      <input
        type="radio"
        name={name}
        value={value}
        checked={mode === value}
        disabled={mode === null}
        onChange={() => void choose(value)}
      />{' '}
      {label} <span className="muted small">{hint}</span>
    </label>
  )
  return (
    <Section title={intl.formatMessage(m.title)}>
      <p className="muted">{intl.formatMessage(m.intro)}</p>
      <fieldset className="stack" aria-label={intl.formatMessage(m.title)}>
        {option('hold', intl.formatMessage(m.hold), intl.formatMessage(m.holdHint))}
        {option('send', intl.formatMessage(m.send), intl.formatMessage(m.sendHint))}
      </fieldset>
      {saved ? (
        <p className="small" role="status">
          {intl.formatMessage(m.saved)}
        </p>
      ) : null}
      <FormError message={error} />
    </Section>
  )
}
