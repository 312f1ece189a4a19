import { useEffect } from 'react'
import { Badge } from '../../components/Badge'
import { BusyButton } from '../../components/Field'
import { ListError, NOT_LOADED } from '../../components/RecordListSection'
import { Truncate } from '../../components/RowMenu'
import { Screen } from '../../components/Screen'
import { formatNumber, formatRelative, formatDateTime } from '../../lib/format'
import { FOLDER_STATE_LABELS } from '../../lib/labels'
import { useApp } from '../../store'
import { EmptyRow, TableHead } from '../../components/TableHead'

/** For each business the partner also holds a key for on this machine: is it healthy? */
export function ClientHealth() {
  const health = useApp((s) => s.health)
  const load = useApp((s) => s.loadHealth)
  useEffect(() => {
    if (!useApp.getState().health.loaded) void load()
  }, [load])
  return (
    <Screen
      title="Client health"
      intro="Businesses you also hold a key for on this computer: their folders, last upload, stuck jobs and credits."
      actions={
        <BusyButton onClick={() => void load()} busy={health.loading} busyLabel="Checking…">
          Check again
        </BusyButton>
      }
    >
      <ListError what="Client health" list={health} onRetry={() => void load()} />
      <div className="table-wrap">
        <table className="table table--fit table--wrap" aria-busy={health.loading}>
          <caption className="sr-only">Client health</caption>
          <TableHead
            cells={[
              'Business',
              { label: 'Watched folders', className: 'col-p2' },
              { label: 'Last successful upload', className: 'col-p3', width: '120px' },
              { label: 'Stuck over 1 h', className: 'num', width: '72px' },
              { label: 'Failed', className: 'num', width: '64px' },
              { label: 'Credit balance', className: 'num', width: '84px' },
              'Problem',
            ]}
          />
          <tbody>
            {health.rows.length === 0 ? (
              <EmptyRow span={7}>
                {health.loading
                  ? 'Checking…'
                  : health.error
                    ? NOT_LOADED
                    : 'No business profile on this computer yet. Register a business with admin access and save it as a profile, or add its key in Settings.'}
              </EmptyRow>
            ) : (
              health.rows.map((h) => (
                <tr key={h.profileId}>
                  <td>
                    <Truncate text={h.profileName} focusable />
                    {h.businessUuid ? <Truncate text={h.businessUuid} /> : null}
                  </td>
                  <td className="col-p2">
                    {h.folders.length === 0 ? (
                      <span className="muted">None</span>
                    ) : (
                      <ul className="plain">
                        {h.folders.map((f) => (
                          <li key={f.path}>
                            <Badge
                              tone={
                                f.state === 'error'
                                  ? 'bad'
                                  : f.state === 'watching' || f.state === 'polling'
                                    ? 'good'
                                    : 'neutral'
                              }
                            >
                              {FOLDER_STATE_LABELS[f.state]}
                            </Badge>{' '}
                            <span className="small">{f.path}</span>
                            {f.message ? <div className="muted small">{f.message}</div> : null}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td
                    className="col-p3"
                    title={h.lastSuccessAt ? formatDateTime(h.lastSuccessAt) : undefined}
                  >
                    {formatRelative(h.lastSuccessAt)}
                  </td>
                  <td className={`num${h.stuckJobs ? ' text-bad' : ''}`}>{formatNumber(h.stuckJobs)}</td>
                  <td className={`num${h.failed ? ' text-bad' : ''}`}>{formatNumber(h.failed)}</td>
                  <td className="num">{h.creditBalance === null ? '—' : formatNumber(h.creditBalance)}</td>
                  <td>
                    {h.error ? <span className="text-bad">{h.error}</span> : <span className="muted">—</span>}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Screen>
  )
}
