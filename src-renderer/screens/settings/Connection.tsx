import { useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import {
  BusyButton,
  Choice,
  FormActions,
  FormError,
  SecretField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import type { Res } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'
import messages from './Connection.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

type ConnectionSettings = Res<'getConnection'>
type ConnectionReport = Res<'testConnection'>
type ProxyMode = ConnectionSettings['proxyMode']

const m = defineMessages(messages.m)

/**
 * How requests reach the API (issue 22): the proxy (the system's settings and PAC file, a manual
 * one, or none), its password (kept in the keychain), extra trusted certificates for a network
 * that inspects TLS, and Test connection.
 */
export function Connection() {
  const [conn, setConn] = useState<ConnectionSettings | null>(null)
  const [mode, setMode] = useState<ProxyMode>('system')
  const [url, setUrl] = useState('')
  const [pem, setPem] = useState('')
  const [user, setUser] = useState('')
  const [password, setPassword] = useState('')
  const [report, setReport] = useState<ConnectionReport | null>(null)
  const save = useSubmit()
  const creds = useSubmit()
  const test = useSubmit()
  const intl = useI18n()
  const proxyModes: [ProxyMode, string][] = [
    ['system', intl.formatMessage(m.system)],
    ['manual', intl.formatMessage(m.manual)],
    ['none', intl.formatMessage(m.none)],
  ]
  const show = (c: ConnectionSettings) => {
    setConn(c)
    setMode(c.proxyMode)
    setUrl(c.proxyUrl ?? '')
    setUser(c.proxyUser ?? '')
  }
  useEffect(() => {
    void bookdrop.getConnection({}).then((r) => {
      if (r.ok) show(r.value)
    })
  }, [])
  if (!conn) return null

  const saveConnection = async (caPem?: string | null) => {
    const next = await save.submit(() =>
      bookdrop.setConnection({
        proxyMode: mode,
        proxyUrl: mode === 'manual' ? url : null,
        ...(caPem !== undefined ? { caPem } : {}),
      }),
    )
    if (next) {
      show(next)
      setPem('')
    }
  }
  return (
    <Section title={intl.formatMessage(m.title)}>
      <form
        className="form form--grid"
        onSubmit={(e) => {
          e.preventDefault()
          void saveConnection(pem.trim() ? pem : undefined)
        }}
      >
        <Choice
          legend={intl.formatMessage(m.proxy)}
          name="proxy-mode"
          choices={proxyModes}
          value={mode}
          onChange={setMode}
        />
        {mode === 'manual' ? (
          <TextField
            label={intl.formatMessage(m.proxyAddress)}
            hint={intl.formatMessage(m.proxyAddressHint)}
            value={url}
            onChange={setUrl}
            error={save.fields.proxyUrl}
          />
        ) : null}
        <TextAreaField
          label={intl.formatMessage(m.certs)}
          hint={
            conn.extraCertificates.length > 0
              ? intl.formatMessage(m.certsNow, { list: intl.formatList(conn.extraCertificates) })
              : intl.formatMessage(m.certsHint)
          }
          rows={3}
          value={pem}
          onChange={setPem}
          error={save.fields.caPem}
        />
        <FormError message={save.error} />
        <div className="form__actions">
          <SubmitButton busy={save.busy} busyLabel={intl.formatMessage(m.saving)}>
            {intl.formatMessage(m.save)}
          </SubmitButton>
          {conn.extraCertificates.length > 0 ? (
            <button type="button" className="btn" onClick={() => void saveConnection(null)}>
              {intl.formatMessage(m.removeCerts)}
            </button>
          ) : null}
        </div>
      </form>
      <form
        className="form form--grid"
        onSubmit={(e) => {
          e.preventDefault()
          void creds
            .submit(() => bookdrop.setProxyCredentials({ username: user, password }))
            .then((next) => {
              if (next) {
                show(next)
                setPassword('')
              }
            })
        }}
      >
        <TextField
          label={intl.formatMessage(m.user)}
          hint={conn.proxyPasswordSaved ? intl.formatMessage(m.userSaved) : intl.formatMessage(m.userHint)}
          value={user}
          onChange={setUser}
          error={creds.fields.username}
        />
        <SecretField label={intl.formatMessage(m.password)} value={password} onChange={setPassword} />
        <FormError message={creds.error} />
        <FormActions busy={creds.busy} busyLabel={intl.formatMessage(m.saving)}>
          {intl.formatMessage(m.savePassword)}
        </FormActions>
      </form>
      <div className="form">
        <div className="form__actions">
          <BusyButton
            busy={test.busy}
            busyLabel={intl.formatMessage(m.testing)}
            onClick={() => void test.submit(() => bookdrop.testConnection({})).then((r) => setReport(r))}
          >
            {intl.formatMessage(m.test)}
          </BusyButton>
        </div>
        <FormError message={test.error} />
        {report ? (
          <dl className="facts" aria-live="polite">
            <dt>{intl.formatMessage(m.baseUrl)}</dt>
            <dd dir="ltr">{report.baseUrl}</dd>
            <dt>{intl.formatMessage(m.proxy)}</dt>
            <dd>{report.proxy ?? intl.formatMessage(m.direct)}</dd>
            <dt>{intl.formatMessage(m.certificate)}</dt>
            <dd>
              {report.issuer
                ? intl.formatMessage(m.signedBy, { issuer: report.issuer })
                : report.baseUrl.startsWith('https:')
                  ? intl.formatMessage(m.notRead)
                  : intl.formatMessage(m.local)}
            </dd>
            <dt>{intl.formatMessage(m.trusted)}</dt>
            <dd>{report.trust}</dd>
            <dt>{intl.formatMessage(m.roundTrip)}</dt>
            <dd>
              {report.roundTripMs === null
                ? intl.formatMessage(m.noAnswer)
                : intl.formatMessage(m.ms, { ms: report.roundTripMs })}
            </dd>
            <dt>{intl.formatMessage(m.answer)}</dt>
            <dd>
              {report.api
                ? report.keyAccepted === false
                  ? intl.formatMessage(m.apiRefused)
                  : intl.formatMessage(m.api)
                : report.status === null
                  ? intl.formatMessage(m.none)
                  : intl.formatMessage(m.notApi, { status: report.status })}
            </dd>
            <dt>{intl.formatMessage(m.details)}</dt>
            <dd>{report.message}</dd>
          </dl>
        ) : null}
      </div>
    </Section>
  )
}
