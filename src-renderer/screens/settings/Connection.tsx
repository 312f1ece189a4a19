import { useEffect, useState } from 'react'
import {
  BusyButton,
  Choice,
  FormError,
  SecretField,
  SubmitButton,
  TextAreaField,
  TextField,
} from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import type { Res } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'

type ConnectionSettings = Res<'getConnection'>
type ConnectionReport = Res<'testConnection'>
type ProxyMode = ConnectionSettings['proxyMode']

const PROXY_MODES: [ProxyMode, string][] = [
  ['system', "The system's"],
  ['manual', 'Manual'],
  ['none', 'None'],
]

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
    <section className="section" aria-labelledby="conn-title">
      <h2 id="conn-title" className="h3">
        Connection
      </h2>
      <form
        className="form form--grid"
        onSubmit={(e) => {
          e.preventDefault()
          void saveConnection(pem.trim() ? pem : undefined)
        }}
      >
        <Choice legend="Proxy" name="proxy-mode" choices={PROXY_MODES} value={mode} onChange={setMode} />
        {mode === 'manual' ? (
          <TextField
            label="Proxy address"
            hint="Such as http://proxy.example.com:3128. Bookdrop never sends requests to this computer through it."
            value={url}
            onChange={setUrl}
            error={save.fields.proxyUrl}
          />
        ) : null}
        <TextAreaField
          label="Extra trusted certificates (PEM)"
          hint={
            conn.extraCertificates.length > 0
              ? `Trusted now, besides the system's: ${conn.extraCertificates.join(', ')}. Paste to replace.`
              : "For a network that inspects encrypted traffic: paste its root certificate (-----BEGIN CERTIFICATE-----). The system's certificates are trusted too where they can be read: Test connection says what is trusted."
          }
          rows={3}
          value={pem}
          onChange={setPem}
          error={save.fields.caPem}
        />
        <FormError message={save.error} />
        <div className="form__actions">
          <SubmitButton busy={save.busy} busyLabel="Saving…">
            Save connection
          </SubmitButton>
          {conn.extraCertificates.length > 0 ? (
            <button type="button" className="btn" onClick={() => void saveConnection(null)}>
              Remove extra certificates
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
          label="Proxy user name"
          hint={
            conn.proxyPasswordSaved
              ? 'A password is saved in the keychain. Clear the user name and save to remove it.'
              : 'Only for a proxy that asks for one (407). The password is kept in the keychain.'
          }
          value={user}
          onChange={setUser}
          error={creds.fields.username}
        />
        <SecretField label="Proxy password" value={password} onChange={setPassword} />
        <FormError message={creds.error} />
        <div className="form__actions">
          <SubmitButton busy={creds.busy} busyLabel="Saving…">
            Save proxy password
          </SubmitButton>
        </div>
      </form>
      <div className="form">
        <div className="form__actions">
          <BusyButton
            busy={test.busy}
            busyLabel="Testing…"
            onClick={() => void test.submit(() => bookdrop.testConnection({})).then((r) => setReport(r))}
          >
            Test connection
          </BusyButton>
        </div>
        <FormError message={test.error} />
        {report ? (
          <dl className="facts" aria-live="polite">
            <dt>Base URL</dt>
            <dd>{report.baseUrl}</dd>
            <dt>Proxy</dt>
            <dd>{report.proxy ?? 'None (direct)'}</dd>
            <dt>Certificate</dt>
            <dd>
              {report.issuer
                ? `Signed by ${report.issuer}`
                : report.baseUrl.startsWith('https:')
                  ? 'Not read'
                  : 'None (this computer)'}
            </dd>
            <dt>Trusted</dt>
            <dd>{report.trust}</dd>
            <dt>Round trip</dt>
            <dd>{report.roundTripMs === null ? 'No answer' : `${report.roundTripMs} ms`}</dd>
            <dt>Answer</dt>
            <dd>
              {report.api
                ? report.keyAccepted === false
                  ? "The API's: it refused the key"
                  : "The API's"
                : report.status === null
                  ? 'None'
                  : `Not the API's (HTTP ${report.status})`}
            </dd>
            <dt>Details</dt>
            <dd>{report.message}</dd>
          </dl>
        ) : null}
      </div>
    </section>
  )
}
