import { useEffect, useState } from 'react'
import { Check, Choice, Field, TextField } from '../../components/Field'
import type { Settings } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import { LanguageSetting } from './Language'

/** The settings, and a patch that saves some of them. */
function useSettings() {
  const [settings, update] = useApp(useShallow((s) => [s.settings, s.updateSettings] as const))
  const set = (patch: Partial<Settings>) => void update(patch)
  return [settings, set] as const
}

/**
 * A whole-number setting: its words, its range, how it reads from the settings (in the unit the
 * person types) and the patch a typed value saves.
 */
interface NumberSpec {
  label: string
  hint: string
  min: number
  max: number
  read: (s: Settings) => number
  patch: (n: number) => Partial<Settings>
}

const THEMES: [Settings['theme'], string][] = [
  ['system', 'Follow the system'],
  ['light', 'Light'],
  ['dark', 'Dark'],
]

const SENDING: NumberSpec[] = [
  {
    label: 'Files sent at the same time',
    hint: '1 to 16. More is faster on a good connection.',
    min: 1,
    max: 16,
    read: (s) => s.concurrency,
    patch: (concurrency) => ({ concurrency }),
  },
  {
    label: 'First job check after (seconds)',
    hint: 'How soon Bookdrop first asks whether a record exists; later checks slow down to every 30 s.',
    min: 0.5,
    max: 30,
    read: (s) => Math.round(s.pollIntervalMs / 100) / 10,
    patch: (sec) => ({ pollIntervalMs: Math.round(sec * 1000) }),
  },
  {
    label: 'Give up on a job after (hours)',
    hint: "If the server has not finished a file's job by then, the file is marked failed with the reason; Retry follows the job again. 1 to 720 hours.",
    min: 1,
    max: 720,
    read: (s) => Math.max(1, Math.round(s.jobTimeoutMs / 3_600_000)),
    patch: (h) => ({ jobTimeoutMs: h * 3_600_000 }),
  },
  {
    label: 'Maximum file size (MB)',
    hint: 'Larger files are skipped with a reason. 1 to 200 MB.',
    min: 1,
    max: 200,
    read: (s) => Math.round(s.maxFileBytes / (1024 * 1024)),
    patch: (mb) => ({ maxFileBytes: mb * 1024 * 1024 }),
  },
]

const PHOTOS: NumberSpec[] = [
  {
    label: 'Longest side of a photo (pixels)',
    hint: 'Larger photos are scaled down to this. 2,400 keeps a receipt readable at a fraction of its size. 800 to 8,000.',
    min: 800,
    max: 8000,
    read: (s) => s.photoMaxEdge,
    patch: (photoMaxEdge) => ({ photoMaxEdge }),
  },
  {
    label: 'Photo quality (JPEG)',
    hint: '40 to 95. Higher keeps more detail and weighs more.',
    min: 40,
    max: 95,
    read: (s) => s.photoQuality,
    patch: (photoQuality) => ({ photoQuality }),
  },
]

/** The number fields of `specs`, each saved on its own. */
function NumberSettings({
  specs,
  settings,
  set,
}: {
  specs: NumberSpec[]
  settings: Settings
  set: (patch: Partial<Settings>) => void
}) {
  return specs.map((spec) => (
    <NumberSetting
      key={spec.label}
      label={spec.label}
      hint={spec.hint}
      value={spec.read(settings)}
      min={spec.min}
      max={spec.max}
      onCommit={(n) => set(spec.patch(n))}
    />
  ))
}

export function Preferences() {
  const [settings, set] = useSettings()
  const load = useApp((s) => s.loadSettings)
  useEffect(() => {
    if (!useApp.getState().settings) void load()
  }, [load])
  if (!settings) return <p role="status">Loading settings…</p>
  return (
    <section className="section" aria-labelledby="prefs-title">
      <h2 id="prefs-title" className="h3">
        Preferences
      </h2>
      <div className="form form--grid">
        <LanguageSetting value={settings.language} onChange={(language) => set({ language })} />
        <NumberSettings specs={SENDING} settings={settings} set={set} />
        <Choice
          legend="Theme"
          name="theme"
          choices={THEMES}
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
export function PhotosAndPhones() {
  const [settings, set] = useSettings()
  const [phone, loadPhone] = useApp(useShallow((s) => [s.phone, s.loadPhone] as const))
  useEffect(() => {
    void loadPhone()
  }, [loadPhone])
  if (!settings) return null
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
        <NumberSettings specs={PHOTOS} settings={settings} set={set} />
        <Field
          label="Phones reach this computer on"
          hint="The network address “Add from phone” listens on (plain HTTP: choose your home or office network, never a public one). It takes effect the next time the phone panel opens."
        >
          {(p) => (
            <select
              {...p}
              value={settings.phoneListen}
              onChange={(e) => set({ phoneListen: e.target.value })}
            >
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
export function NumberSetting({
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
