import { useEffect, useState } from 'react'
import { type MessageDescriptor, defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { Check, Choice, Field, TextField } from '../../components/Field'
import type { Settings } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import { LanguageSetting } from './Language'
import messages from './Preferences.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

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
  label: MessageDescriptor
  hint: MessageDescriptor
  min: number
  max: number
  read: (s: Settings) => number
  patch: (n: number) => Partial<Settings>
}

const m = defineMessages(messages.m)

const SENDING: NumberSpec[] = [
  {
    label: m.concurrency,
    hint: m.concurrencyHint,
    min: 1,
    max: 16,
    read: (s) => s.concurrency,
    patch: (concurrency) => ({ concurrency }),
  },
  {
    label: m.poll,
    hint: m.pollHint,
    min: 0.5,
    max: 30,
    read: (s) => Math.round(s.pollIntervalMs / 100) / 10,
    patch: (sec) => ({ pollIntervalMs: Math.round(sec * 1000) }),
  },
  {
    label: m.timeout,
    hint: m.timeoutHint,
    min: 1,
    max: 720,
    read: (s) => Math.max(1, Math.round(s.jobTimeoutMs / 3_600_000)),
    patch: (h) => ({ jobTimeoutMs: h * 3_600_000 }),
  },
  {
    label: m.maxSize,
    hint: m.maxSizeHint,
    min: 1,
    max: 200,
    read: (s) => Math.round(s.maxFileBytes / (1024 * 1024)),
    patch: (mb) => ({ maxFileBytes: mb * 1024 * 1024 }),
  },
]

const PHOTOS: NumberSpec[] = [
  {
    label: m.photoEdge,
    hint: m.photoEdgeHint,
    min: 800,
    max: 8000,
    read: (s) => s.photoMaxEdge,
    patch: (photoMaxEdge) => ({ photoMaxEdge }),
  },
  {
    label: m.photoQuality,
    hint: m.photoQualityHint,
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
  const intl = useI18n()
  return specs.map((spec) => (
    <NumberSetting
      key={spec.label.id}
      label={intl.formatMessage(spec.label)}
      hint={intl.formatMessage(spec.hint, { default: 2400, min: spec.min, max: spec.max })}
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
  const intl = useI18n()
  if (!settings) return <p role="status">{intl.formatMessage(m.loading)}</p>
  const themes: [Settings['theme'], string][] = [
    ['system', intl.formatMessage(m.themeSystem)],
    ['light', intl.formatMessage(m.themeLight)],
    ['dark', intl.formatMessage(m.themeDark)],
  ]
  return (
    <Section title={intl.formatMessage(m.preferences)}>
      <div className="form form--grid">
        <LanguageSetting value={settings.language} onChange={(language) => set({ language })} />
        <NumberSettings specs={SENDING} settings={settings} set={set} />
        <Choice
          legend={intl.formatMessage(m.theme)}
          name="theme"
          choices={themes}
          value={settings.theme}
          onChange={(theme) => set({ theme })}
        />
        <div className="checks">
          <Check
            label={intl.formatMessage(m.notifications)}
            hint={intl.formatMessage(m.notificationsHint)}
            checked={settings.notifications}
            onChange={(notifications) => set({ notifications })}
          />
          <Check
            label={intl.formatMessage(m.tray)}
            checked={settings.closeToTray}
            onChange={(closeToTray) => set({ closeToTray })}
          />
          <Check
            label={intl.formatMessage(m.login)}
            checked={settings.launchAtLogin}
            onChange={(launchAtLogin) => set({ launchAtLogin })}
          />
        </div>
      </div>
    </Section>
  )
}

/** Photo preparation and the address phones reach this computer on (issue 25). */
export function PhotosAndPhones() {
  const [settings, set] = useSettings()
  const [phone, loadPhone] = useApp(useShallow((s) => [s.phone, s.loadPhone] as const))
  useEffect(() => {
    void loadPhone()
  }, [loadPhone])
  const intl = useI18n()
  if (!settings) return null
  const interfaces = phone?.interfaces ?? []
  const known = settings.phoneListen === '' || interfaces.some((i) => i.address === settings.phoneListen)
  return (
    <Section title={intl.formatMessage(m.photosTitle)}>
      <div className="form form--grid">
        <div className="checks">
          <Check
            label={intl.formatMessage(m.prepare)}
            hint={intl.formatMessage(m.prepareHint)}
            checked={settings.preparePhotos}
            onChange={(preparePhotos) => set({ preparePhotos })}
          />
        </div>
        <NumberSettings specs={PHOTOS} settings={settings} set={set} />
        <Field
          label={intl.formatMessage(m.phoneListen)}
          hint={intl.formatMessage(m.phoneListenHint)}
        >
          {(p) => (
            <select
              {...p}
              value={settings.phoneListen}
              onChange={(e) => set({ phoneListen: e.target.value })}
            >
              <option value="">{intl.formatMessage(m.automatic)}</option>
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
    </Section>
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
  const intl = useI18n()
  useEffect(() => setText(String(value)), [value])
  const commit = () => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < min || n > max) {
      refuse(intl.formatMessage(m.wholeNumber, { min, max }))
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
