import { useState } from 'react'
import { BusyButton } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { formatNumber, plural } from '../../lib/format'
import { settle } from '../../lib/result'
import { useApp } from '../../store'

/** Export CSV: the filtered history to a file (Electron) or a one-time download link (web host). */
export function ExportButton() {
  const request = useApp((s) => s.historyRequest)
  const toast = useApp((s) => s.toast)
  const [busy, setBusy] = useState(false)
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
    if (!r.ok) toast('error', `Export failed: ${r.error.message}`)
    else {
      setResult(r.value)
      if (!r.value.downloadUrl && r.value.path)
        toast('success', `${plural(r.value.rows, 'row')} exported to ${r.value.path}`)
    }
  }
  return (
    <span className="export">
      <BusyButton onClick={() => void run()} busy={busy} busyLabel="Exporting…">
        Export CSV
      </BusyButton>
      {result?.downloadUrl ? (
        // The link works once (a single-use ticket, no token in it): gone once followed.
        <a
          className="btn btn--primary"
          href={result.downloadUrl}
          download
          onClick={() => setTimeout(() => setResult(null), 0)}
        >
          Download CSV ({formatNumber(result.rows)} rows)
        </a>
      ) : null}
    </span>
  )
}
