/**
 * Settings › Data folder (issue 31): how much Bookdrop's data folder takes, per part, how long the
 * local copies of receipts are kept, and "Free space", which deletes the copies no unfinished
 * upload needs and says what it freed.
 */
import { useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { BusyButton, FormError } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { formatBytes } from '../../lib/format'
import type { Res } from '../../lib/types'
import { useApp } from '../../store'
import { useSubmit } from '../../lib/useSubmit'
import { useShallow } from 'zustand/react/shallow'
import { NumberSetting } from './Preferences'
import messages from './DataFolder.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

type Size = Res<'getDataFolder'>

const PARTS = defineMessages(messages.PARTS)
const PART_KEYS = ['database', 'prepared', 'mail', 'phone', 'dropped', 'exports', 'other'] as const satisfies readonly (keyof Size)[]

const m = defineMessages(messages.m)

export function DataFolder() {
  const [settings, update] = useApp(useShallow((s) => [s.settings, s.updateSettings] as const))
  const [size, setSize] = useState<Size | null>(null)
  const [freed, setFreed] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { error, refuse, reset } = useSubmit()
  const intl = useI18n()
  useEffect(() => {
    void bookdrop.getDataFolder({}).then((r) => (r.ok ? setSize(r.value) : refuse(r.error.message)))
  }, [refuse])

  const free = async () => {
    setBusy(true)
    setFreed(null)
    const r = await bookdrop.freeDataFolder({})
    setBusy(false)
    if (!r.ok) return refuse(r.error.message)
    reset()
    setSize(r.value.size)
    setFreed(
      r.value.files === 0
        ? intl.formatMessage(m.nothingToFree)
        : intl.formatMessage(m.freed, { size: formatBytes(r.value.bytes), files: r.value.files }),
    )
  }

  return (
    <Section title={intl.formatMessage(m.title)}>
      <p className="muted">{intl.formatMessage(m.intro)}</p>
      {size ? (
        <table className="table" aria-label={intl.formatMessage(m.size)}>
          <tbody>
            {PART_KEYS.map((k) => (
              <tr key={k}>
                <th scope="row">{intl.formatMessage(PARTS[k])}</th>
                <td className="num">{formatBytes(size[k])}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{intl.formatMessage(m.total)}</th>
              <td className="num">{formatBytes(size.total)}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p role="status">{intl.formatMessage(m.measuring)}</p>
      )}
      {settings ? (
        <div className="form form--grid">
          <NumberSetting
            label={intl.formatMessage(m.keep)}
            hint={intl.formatMessage(m.keepHint)}
            value={settings.keepCopiesDays}
            min={0}
            max={3650}
            onCommit={(keepCopiesDays) => void update({ keepCopiesDays })}
          />
        </div>
      ) : null}
      <FormError message={error} />
      <BusyButton busy={busy} busyLabel={intl.formatMessage(m.freeing)} onClick={() => void free()}>
        {intl.formatMessage(m.free)}
      </BusyButton>
      <p role="status" aria-live="polite">
        {freed}
      </p>
    </Section>
  )
}
