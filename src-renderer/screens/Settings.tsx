import { useEffect, useState } from 'react'
import { Badge } from '../components/Badge'
import { ConnectForm } from '../components/ConnectForm'
import { ActionDialog, ConfirmDialog, Dialog } from '../components/Dialog'
import { Check, Choice, Field, FormError, SecretField, SubmitButton, TextAreaField, TextField } from '../components/Field'
import { bookdrop } from '../lib/bridge'
import { RowMenu, Truncate } from '../components/RowMenu'
import { Screen } from '../components/Screen'
import { formatDateTime } from '../lib/format'
import { PROFILE_KIND_LABELS, businessLabel } from '../lib/labels'
import type { Profile, Res, Settings as SettingsT } from '../lib/types'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { ACTIONS, TableHead } from '../components/TableHead'
import { useShallow } from 'zustand/react/shallow'
import { DataFolder } from './settings/DataFolder'

export function Settings() {
  return (
    <Screen title="Settings">
      <Profiles />
      <Preferences />
      <Connection />
      <PhotosAndPhones />
      <DataFolder />
    </Screen>
  )
}

function Profiles() {
  const [profiles, activeId] = useApp(useShallow((s) => [s.profiles, s.activeId] as const))
  const [switchProfile] = useApp(useShallow((s) => [s.switchProfile] as const))
  const removeProfile = useApp((s) => s.removeProfile)
  const [adding, setAdding] = useState(false)
  const [rotating, setRotating] = useState<Profile | null>(null)
  const [renaming, setRenaming] = useState<Profile | null>(null)
  const [removing, setRemoving] = useState<Profile | null>(null)
  const removal = useSubmit()

  return (
    <section className="section" aria-labelledby="profiles-title">
      <div className="section__head">
        <h2 id="profiles-title" className="h3">
          Profiles
        </h2>
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          Add profile
        </button>
      </div>
      <div className="table-wrap">
        <table className="table table--fit">
          <caption className="sr-only">Profiles</caption>
          <TableHead
            cells={[
              'Name',
              { label: 'Kind', className: 'col-p3', width: '84px' },
              { label: 'Environment', className: 'col-p2' },
              'Business',
              { label: 'Key checked', className: 'col-p3', width: '120px' },
              { label: ACTIONS, className: 'actions-cell', width: '120px' },
            ]}
          />
          <tbody>
            {profiles.map((p) => (
              <tr key={p.id} aria-current={p.id === activeId ? 'true' : undefined}>
                <td>
                  <Truncate text={p.name} focusable />
                  {p.id === activeId ? <Badge tone="good">Active</Badge> : null}{' '}
                  {p.demo ? <Badge tone="warn">Demo</Badge> : null}
                </td>
                <td className="col-p3">{PROFILE_KIND_LABELS[p.kind]}</td>
                <td className="col-p2">
                  {p.environment}
                  {p.baseUrl ? <Truncate text={p.baseUrl} /> : null}
                </td>
                <td>
                  <Truncate text={businessLabel(p)} />
                </td>
                <td className="col-p3">{formatDateTime(p.validatedAt)}</td>
                <td className="actions-cell">
                  <span className="row-actions">
                    {p.id !== activeId ? (
                      <button
                        type="button"
                        className="btn btn--small"
                        onClick={() => void switchProfile(p.id)}
                        aria-label={`Switch to ${p.name}`}
                      >
                        Switch
                      </button>
                    ) : null}
                    <RowMenu
                      label={`More for ${p.name}`}
                      items={[
                        { label: 'Rename…', onSelect: () => setRenaming(p) },
                        { label: 'Rotate key…', onSelect: () => setRotating(p) },
                        { label: 'Remove…', onSelect: () => setRemoving(p), danger: true },
                      ]}
                    />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {adding ? (
        <Dialog title="Add a profile" onClose={() => setAdding(false)}>
          <ConnectForm activate={false} submitLabel="Check and save" onDone={() => setAdding(false)} />
        </Dialog>
      ) : null}
      {rotating ? <RotateKeyDialog profile={rotating} onClose={() => setRotating(null)} /> : null}
      {renaming ? <RenameDialog profile={renaming} onClose={() => setRenaming(null)} /> : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove “${removing.name}”?`}
          message={
            <p>
              Its key is deleted from the system keychain. Upload history stays; watched folders of this
              profile stop.
            </p>
          }
          confirmLabel="Remove profile"
          danger
          busy={removal.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            // A refusal is told in a toast (the store's removeProfile).
            if (await removal.submit(() => removeProfile(removing.id))) setRemoving(null)
          }}
        />
      ) : null}
    </section>
  )
}

function RotateKeyDialog({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const rotate = useApp((s) => s.rotateKey)
  const toast = useApp((s) => s.toast)
  const [secret, setSecret] = useState('')
  const { busy, error, fields, submit, refuse } = useSubmit()
  const save = async () => {
    if (!secret.trim()) {
      refuse(null, { secret: 'Paste the new secret key.' })
      return
    }
    if (!(await submit(() => rotate(profile.id, secret.trim())))) return
    toast('success', `The new key of ${profile.name} is saved.`)
    onClose()
  }
  return (
    <ActionDialog
      title={`Rotate the key of “${profile.name}”`}
      onClose={onClose}
      onAction={() => void save()}
      label="Check and save"
      busyLabel="Checking…"
      busy={busy}
    >
      <p className="muted">The new key is checked with the server and must belong to the same business.</p>
      <SecretField
        label="New secret key"
        error={fields.secret}
        value={secret}
        onChange={setSecret}
        onEnter={() => void save()}
        autoFocus
      />
      <FormError message={error} />
    </ActionDialog>
  )
}

function RenameDialog({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const rename = useApp((s) => s.renameProfile)
  const [name, setName] = useState(profile.name)
  const { error, submit, refuse } = useSubmit()
  const save = async () => {
    if (!name.trim()) {
      refuse('A profile needs a name.')
      return
    }
    // The name's own message if the server gives one, else its message: shown under the field.
    if (
      await submit(
        () => rename(profile.id, name.trim()),
        (e) => e.fields?.name ?? e.message,
      )
    )
      onClose()
  }
  return (
    <ActionDialog title="Rename profile" onClose={onClose} onAction={() => void save()} label="Save">
      <TextField
        label="Name"
        error={error}
        value={name}
        onChange={setName}
        input={{
          onKeyDown: (e) => {
            if (e.key === 'Enter') void save()
          },
          'data-autofocus': true,
        }}
      />
    </ActionDialog>
  )
}

function Preferences() {
  const [settings, update] = useApp(useShallow((s) => [s.settings, s.updateSettings] as const))
  const load = useApp((s) => s.loadSettings)
  useEffect(() => {
    if (!useApp.getState().settings) void load()
  }, [load])
  if (!settings) return <p role="status">Loading settings…</p>
  const set = (patch: Partial<SettingsT>) => void update(patch)
  return (
    <section className="section" aria-labelledby="prefs-title">
      <h2 id="prefs-title" className="h3">
        Preferences
      </h2>
      <div className="form form--grid">
        <NumberSetting
          label="Files sent at the same time"
          hint="1 to 16. More is faster on a good connection."
          value={settings.concurrency}
          min={1}
          max={16}
          onCommit={(concurrency) => set({ concurrency })}
        />
        <NumberSetting
          label="First job check after (seconds)"
          hint="How soon Bookdrop first asks whether a record exists; later checks slow down to every 30 s."
          value={Math.round(settings.pollIntervalMs / 100) / 10}
          min={0.5}
          max={30}
          onCommit={(s) => set({ pollIntervalMs: Math.round(s * 1000) })}
        />
        <NumberSetting
          label="Give up on a job after (hours)"
          hint="If the server has not finished a file's job by then, the file is marked failed with the reason; Retry follows the job again. 1 to 720 hours."
          value={Math.max(1, Math.round(settings.jobTimeoutMs / 3_600_000))}
          min={1}
          max={720}
          onCommit={(h) => set({ jobTimeoutMs: h * 3_600_000 })}
        />
        <NumberSetting
          label="Maximum file size (MB)"
          hint="Larger files are skipped with a reason. 1 to 200 MB."
          value={Math.round(settings.maxFileBytes / (1024 * 1024))}
          min={1}
          max={200}
          onCommit={(mb) => set({ maxFileBytes: mb * 1024 * 1024 })}
        />
        <Choice
          legend="Theme"
          name="theme"
          choices={[
            ['system', 'Follow the system'],
            ['light', 'Light'],
            ['dark', 'Dark'],
          ]}
          value={settings.theme}
          onChange={(theme) => set({ theme })}
        />
        <div className="checks">
          <Check
            label="Notifications"
            hint="One notification per batch when files are done or need attention."
            checked={settings.notifications}
            onChange={(notifications) => set({ notifications })}
          />
          <Check
            label="Keep running in the tray when the window is closed"
            checked={settings.closeToTray}
            onChange={(closeToTray) => set({ closeToTray })}
          />
          <Check
            label="Start Bookdrop when I log in"
            checked={settings.launchAtLogin}
            onChange={(launchAtLogin) => set({ launchAtLogin })}
          />
        </div>
      </div>
    </section>
  )
}

/** Photo preparation and the address phones reach this computer on (issue 25). */
function PhotosAndPhones() {
  const [settings, update] = useApp(useShallow((s) => [s.settings, s.updateSettings] as const))
  const [phone, loadPhone] = useApp(useShallow((s) => [s.phone, s.loadPhone] as const))
  useEffect(() => {
    void loadPhone()
  }, [loadPhone])
  if (!settings) return null
  const set = (patch: Partial<SettingsT>) => void update(patch)
  const interfaces = phone?.interfaces ?? []
  const known = settings.phoneListen === '' || interfaces.some((i) => i.address === settings.phoneListen)
  return (
    <section className="section" aria-labelledby="photos-title">
      <h2 id="photos-title" className="h3">
        Photos and phones
      </h2>
      <div className="form form--grid">
        <div className="checks">
          <Check
            label="Prepare photos before sending them"
            hint="A HEIC photo becomes a JPEG; every photo is turned upright, made smaller and stripped of its location and camera details. PDFs and small images without such details are sent as they are."
            checked={settings.preparePhotos}
            onChange={(preparePhotos) => set({ preparePhotos })}
          />
        </div>
        <NumberSetting
          label="Longest side of a photo (pixels)"
          hint="Larger photos are scaled down to this. 2,400 keeps a receipt readable at a fraction of its size. 800 to 8,000."
          value={settings.photoMaxEdge}
          min={800}
          max={8000}
          onCommit={(photoMaxEdge) => set({ photoMaxEdge })}
        />
        <NumberSetting
          label="Photo quality (JPEG)"
          hint="40 to 95. Higher keeps more detail and weighs more."
          value={settings.photoQuality}
          min={40}
          max={95}
          onCommit={(photoQuality) => set({ photoQuality })}
        />
        <Field
          label="Phones reach this computer on"
          hint="The network address “Add from phone” listens on (plain HTTP: choose your home or office network, never a public one). It takes effect the next time the phone panel opens."
        >
          {(p) => (
            <select {...p} value={settings.phoneListen} onChange={(e) => set({ phoneListen: e.target.value })}>
              <option value="">Automatic (the first private network address)</option>
              {interfaces.map((i) => (
                <option key={i.address} value={i.address}>
                  {i.address} ({i.name})
                </option>
              ))}
              {known ? null : <option value={settings.phoneListen}>{settings.phoneListen}</option>}
            </select>
          )}
        </Field>
      </div>
    </section>
  )
}

/** A number field that saves on blur or Enter, and says when the value is out of range. */
function NumberSetting({
  label,
  hint,
  value,
  min,
  max,
  onCommit,
}: {
  label: string
  hint: string
  value: number
  min: number
  max: number
  onCommit: (n: number) => void
}) {
  const [text, setText] = useState(String(value))
  const { error, refuse, reset } = useSubmit()
  useEffect(() => setText(String(value)), [value])
  const commit = () => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < min || n > max) {
      refuse(`Enter a whole number from ${min} to ${max}.`)
      return
    }
    reset()
    if (n !== value) onCommit(n)
  }
  return (
    <TextField
      label={label}
      hint={hint}
      error={error}
      value={text}
      onChange={setText}
      input={{
        type: 'number',
        inputMode: 'numeric',
        min,
        max,
        onBlur: commit,
        onKeyDown: (e) => {
          if (e.key === 'Enter') commit()
        },
      }}
    />
  )
}

type ConnectionSettings = Res<'getConnection'>
type ConnectionReport = Res<'testConnection'>
type ProxyMode = ConnectionSettings['proxyMode']

/**
 * How requests reach the API (issue 22): the proxy (the system's settings and PAC file, a manual
 * one, or none), its password (kept in the keychain), extra trusted certificates for a network
 * that inspects TLS, and Test connection.
 */
function Connection() {
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
        <Choice
          legend="Proxy"
          name="proxy-mode"
          choices={[
            ['system', "The system's"],
            ['manual', 'Manual'],
            ['none', 'None'],
          ]}
          value={mode}
          onChange={setMode}
        />
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
          void creds.submit(() => bookdrop.setProxyCredentials({ username: user, password })).then((next) => {
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
          <button
            type="button"
            className="btn"
            disabled={test.busy}
            onClick={() => void test.submit(() => bookdrop.testConnection({})).then((r) => setReport(r))}
          >
            {test.busy ? 'Testing…' : 'Test connection'}
          </button>
        </div>
        <FormError message={test.error} />
        {report ? (
          <dl className="facts" aria-live="polite">
            <dt>Base URL</dt>
            <dd>{report.baseUrl}</dd>
            <dt>Proxy</dt>
            <dd>{report.proxy ?? 'None (direct)'}</dd>
            <dt>Certificate</dt>
            <dd>{report.issuer ? `Signed by ${report.issuer}` : report.baseUrl.startsWith('https:') ? 'Not read' : 'None (this computer)'}</dd>
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
