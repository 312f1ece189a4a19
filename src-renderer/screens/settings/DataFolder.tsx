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

type Size = Res<'getDataFolder'>

const PARTS = defineMessages({
  database: { id: 'settings.data.database', defaultMessage: 'History database' },
  prepared: { id: 'settings.data.prepared', defaultMessage: 'Prepared photos' },
  mail: { id: 'settings.data.mail', defaultMessage: 'Mail attachments' },
  phone: { id: 'settings.data.phone', defaultMessage: 'From phones' },
  dropped: { id: 'settings.data.dropped', defaultMessage: 'Files added in the browser' },
  exports: { id: 'settings.data.exports', defaultMessage: 'Exports' },
  other: { id: 'settings.data.other', defaultMessage: 'Other' },
})
const PART_KEYS = ['database', 'prepared', 'mail', 'phone', 'dropped', 'exports', 'other'] as const satisfies readonly (keyof Size)[]

const m = defineMessages({
  nothingToFree: { id: 'settings.data.nothing_to_free', defaultMessage: 'Nothing to free: every local copy is still needed.' },
  freed: {
    id: 'settings.data.freed',
    defaultMessage: 'Freed {size} ({files, plural, one {# file} other {# files}}).',
  },
  title: { id: 'settings.data.title', defaultMessage: 'Data folder' },
  intro: {
    id: 'settings.data.intro',
    defaultMessage:
      'Bookdrop keeps a copy of each photo it prepared, each mail attachment and each photo a phone sent, until the upload has ended and then for the days below. Without its copy, an ended upload stays in the history but cannot be sent again.',
  },
  size: { id: 'settings.data.size', defaultMessage: 'Data folder size' },
  total: { id: 'settings.data.total', defaultMessage: 'Total' },
  measuring: { id: 'settings.data.measuring', defaultMessage: 'Measuring the data folder…' },
  keep: { id: 'settings.data.keep', defaultMessage: 'Keep local copies for (days)' },
  keepHint: {
    id: 'settings.data.keep_hint',
    defaultMessage:
      'After an upload has ended. 0 deletes a copy once its record exists. Uploads still on their way always keep theirs.',
  },
  freeing: { id: 'settings.data.freeing', defaultMessage: 'Freeing space…' },
  free: { id: 'settings.data.free', defaultMessage: 'Free space' },
})

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
    <section className="section" aria-labelledby="data-folder-title">
      <h2 id="data-folder-title" className="h3">
        {intl.formatMessage(m.title)}
      </h2>
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
    </section>
  )
}
