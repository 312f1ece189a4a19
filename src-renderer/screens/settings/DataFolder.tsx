/**
 * Settings › Data folder (issue 31): how much Bookdrop's data folder takes, per part, how long the
 * local copies of receipts are kept, and "Free space", which deletes the copies no unfinished
 * upload needs and says what it freed.
 */
import { useEffect, useState } from 'react'
import { BusyButton, FormError } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { formatBytes, plural } from '../../lib/format'
import type { Res } from '../../lib/types'
import { useApp } from '../../store'
import { useSubmit } from '../../lib/useSubmit'
import { useShallow } from 'zustand/react/shallow'
import { NumberSetting } from './Preferences'

type Size = Res<'getDataFolder'>

const PARTS: [keyof Size, string][] = [
  ['database', 'History database'],
  ['prepared', 'Prepared photos'],
  ['mail', 'Mail attachments'],
  ['phone', 'From phones'],
  ['dropped', 'Files added in the browser'],
  ['exports', 'Exports'],
  ['other', 'Other'],
]

export function DataFolder() {
  const [settings, update] = useApp(useShallow((s) => [s.settings, s.updateSettings] as const))
  const [size, setSize] = useState<Size | null>(null)
  const [freed, setFreed] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { error, refuse, reset } = useSubmit()
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
        ? 'Nothing to free: every local copy is still needed.'
        : `Freed ${formatBytes(r.value.bytes)} (${plural(r.value.files, 'file')}).`,
    )
  }

  return (
    <section className="section" aria-labelledby="data-folder-title">
      <h2 id="data-folder-title" className="h3">
        Data folder
      </h2>
      <p className="muted">
        Bookdrop keeps a copy of each photo it prepared, each mail attachment and each photo a phone sent, until the
        upload has ended and then for the days below. Without its copy, an ended upload stays in the history but
        cannot be sent again.
      </p>
      {size ? (
        <table className="table" aria-label="Data folder size">
          <tbody>
            {PARTS.map(([k, label]) => (
              <tr key={k}>
                <th scope="row">{label}</th>
                <td className="num">{formatBytes(size[k])}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Total</th>
              <td className="num">{formatBytes(size.total)}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p role="status">Measuring the data folder…</p>
      )}
      {settings ? (
        <div className="form form--grid">
          <NumberSetting
            label="Keep local copies for (days)"
            hint="After an upload has ended. 0 deletes a copy once its record exists. Uploads still on their way always keep theirs."
            value={settings.keepCopiesDays}
            min={0}
            max={3650}
            onCommit={(keepCopiesDays) => void update({ keepCopiesDays })}
          />
        </div>
      ) : null}
      <FormError message={error} />
      <BusyButton busy={busy} busyLabel="Freeing space…" onClick={() => void free()}>
        Free space
      </BusyButton>
      <p role="status" aria-live="polite">
        {freed}
      </p>
    </section>
  )
}
