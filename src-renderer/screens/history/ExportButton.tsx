import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { useState } from 'react'
import { BusyButton } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { settle } from '../../lib/result'
import { useApp } from '../../store'
import messages from './ExportButton.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** Export CSV: the filtered history to a file (Electron) or a one-time download link (web host). */
export function ExportButton() {
  const request = useApp((s) => s.historyRequest)
  const toast = useApp((s) => s.toast)
  const [busy, setBusy] = useState(false)
  const intl = useI18n()
  const [result, setResult] = useState<{
    path: string | null
    rows: number
    downloadUrl: string | null
  } | null>(null)
  const run = async () => {
    setBusy(true)
    setResult(null)
    const r = await settle(bookdrop.exportHistory({ filter: request() }))
    setBusy(false)
    if (!r.ok) toast('error', intl.formatMessage(m.failed, { message: r.error.message }))
    else {
      setResult(r.value)
      if (!r.value.downloadUrl && r.value.path)
        toast('success', intl.formatMessage(m.exported, { count: r.value.rows, path: r.value.path }))
    }
  }
  return (
    <span className="export">
      <BusyButton onClick={() => void run()} busy={busy} busyLabel={intl.formatMessage(m.exporting)}>
        {intl.formatMessage(m.export)}
      </BusyButton>
      {result?.downloadUrl ? (
        // The link works once (a single-use ticket, no token in it): gone once followed.
        <a
          className="btn btn--primary"
          href={result.downloadUrl}
          download
          onClick={() => setTimeout(() => setResult(null), 0)}
        >
          {intl.formatMessage(m.download, { count: result.rows })}
        </a>
      ) : null}
    </span>
  )
}
