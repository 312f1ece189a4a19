import { useEffect } from 'react'
import { defineMessages } from 'react-intl'
import { Badge } from '../../components/Badge'
import { BusyButton } from '../../components/Field'
import { ListError, NOT_LOADED } from '../../components/RecordListSection'
import { Truncate } from '../../components/RowMenu'
import { Screen } from '../../components/Screen'
import { formatNumber, formatRelative, formatDateTime } from '../../lib/format'
import { FOLDER_STATE_LABELS } from '../../lib/labels'
import { useI18n } from '../../lib/i18n'
import { useApp } from '../../store'
import { EmptyRow, Table } from '../../components/TableHead'
import messages from './ClientHealth.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** For each business the partner also holds a key for on this machine: is it healthy? */
export function ClientHealth() {
  const health = useApp((s) => s.health)
  const load = useApp((s) => s.loadHealth)
  useEffect(() => {
    if (!useApp.getState().health.loaded) void load()
  }, [load])
  const intl = useI18n()
  const title = intl.formatMessage(m.title)
  return (
    <Screen
      title={title}
      intro={intl.formatMessage(m.intro)}
      actions={
        <BusyButton onClick={() => void load()} busy={health.loading} busyLabel={intl.formatMessage(m.checking)}>
          {intl.formatMessage(m.check)}
        </BusyButton>
      }
    >
      <ListError what={title} list={health} onRetry={() => void load()} />
      <Table
        className="table table--fit table--wrap"
        busy={health.loading}
        caption={title}
        cells={[
          intl.formatMessage(m.business),
          { label: intl.formatMessage(m.folders), className: 'col-p2' },
          { label: intl.formatMessage(m.lastUpload), className: 'col-p3', width: '120px' },
          { label: intl.formatMessage(m.stuck), className: 'num', width: '72px' },
          { label: intl.formatMessage(m.failed), className: 'num', width: '64px' },
          { label: intl.formatMessage(m.credits), className: 'num', width: '84px' },
          intl.formatMessage(m.problem),
        ]}
      >
        {health.rows.length === 0 ? (
          <EmptyRow span={7}>
            {intl.formatMessage(health.loading ? m.checking : health.error ? NOT_LOADED : m.empty)}
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
                  <span className="muted">{intl.formatMessage(m.none)}</span>
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
              <td className="col-p3" title={h.lastSuccessAt ? formatDateTime(h.lastSuccessAt) : undefined}>
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
      </Table>
    </Screen>
  )
}
