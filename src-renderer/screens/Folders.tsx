import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useState } from 'react'
import type { Tone } from '../components/Badge'
import { ConfirmDialog, Dialog } from '../components/Dialog'
import { Check, Choice, Field } from '../components/Field'
import { bookdrop } from '../lib/bridge'
import { codedOrText } from '../lib/coded'
import { formatDateTime } from '../lib/format'
import { FOLDER_STATE_LABELS, TARGET_LABELS } from '../lib/labels'
import { settle } from '../lib/result'
import type { AiTarget, FolderState, FolderView, Req, Result } from '../lib/types'
import { useApp } from '../store'
import { useShallow } from 'zustand/react/shallow'
import { RuleFields, ruleFieldsRequest } from '../components/RuleFields'
import { SourceForm, SourceHead, SourceScreen, useSourceForm } from '../components/SourceList'
import messages from './Folders.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

type AfterUpload = 'leave' | 'move' | 'archive'

interface FormValues {
  path: string
  target: AiTarget
  promptTemplate: string
  recursive: boolean
  acceptedKinds: string
  usePolling: boolean
  afterUpload: AfterUpload
  archiveDir: string
  takeExisting: boolean
  enabled: boolean
}

const blank = (): FormValues => ({
  path: '',
  target: 'expenses',
  promptTemplate: '',
  recursive: false,
  acceptedKinds: '',
  usePolling: false,
  afterUpload: 'leave',
  archiveDir: '',
  takeExisting: true,
  enabled: true,
})

const fromFolder = (f: FolderView): FormValues => ({
  path: f.path,
  target: f.target,
  promptTemplate: f.promptTemplate,
  recursive: f.recursive,
  acceptedKinds: f.acceptedKinds.join(', '),
  usePolling: f.usePolling,
  afterUpload: f.afterUpload,
  archiveDir: f.archiveDir ?? '',
  takeExisting: f.takeExisting,
  enabled: f.enabled,
})

const STATE_TONE: Record<FolderState, Tone> = {
  starting: 'busy',
  watching: 'good',
  polling: 'good',
  error: 'bad',
  stopped: 'neutral',
  disabled: 'neutral',
}

/** The picker when the host has one (Electron); the web host answers null and the field stays. */
function useBrowse(onPath: (p: string) => void) {
  const [noPicker, setNoPicker] = useState(false)
  const browse = async () => {
    const r = await settle(bookdrop.pickDirectory({}))
    if (r.ok && r.value.path) onPath(r.value.path)
    else if (r.ok) setNoPicker(true)
  }
  return { browse, noPicker }
}

/** A folder's full path, typed or picked (Browse… opens the host's picker when it has one). */
function PathField({
  label,
  value,
  onChange,
  error,
  hint,
}: {
  label: string
  value: string
  onChange: (path: string) => void
  error: string | undefined
  hint?: string
}) {
  const picker = useBrowse(onChange)
  const intl = useI18n()
  return (
    <Field
      label={label}
      className="span-2"
      required
      error={error}
      hint={hint === undefined ? undefined : picker.noPicker ? intl.formatMessage(m.noPicker) : hint}
    >
      {(p) => (
        <div className="input-row">
          <input {...p} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
          <button type="button" className="btn" onClick={() => void picker.browse()}>
            {intl.formatMessage(m.browse)}
          </button>
        </div>
      )}
    </Field>
  )
}

function FolderForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: FormValues
  submitLabel: string
  /** Sends the form; a failure's message and field messages show in the form. */
  onSubmit: (v: FormValues) => Promise<Result<unknown>>
  onCancel?: () => void
}) {
  const form = useSourceForm(initial, onSubmit)
  const { values: v, set, fe, text, check } = form
  const intl = useI18n()

  return (
    <SourceForm form={form} submitLabel={submitLabel} onCancel={onCancel}>
      <PathField
        label={intl.formatMessage(m.folder)}
        hint={intl.formatMessage(m.folderHint)}
        {...text('path')}
      />
      <RuleFields values={v} set={set} error={fe} source="folder" />
      <Choice
        legend={intl.formatMessage(m.after)}
        className="span-2"
        name={`after-${initial.path || 'new'}`}
        choices={[
          ['leave', intl.formatMessage(m.afterLeave)],
          ['move', intl.formatMessage(m.afterMove)],
          ['archive', intl.formatMessage(m.afterArchive)],
        ]}
        value={v.afterUpload}
        onChange={(after) => set('afterUpload', after)}
      />
      {v.afterUpload === 'archive' ? (
        <PathField label={intl.formatMessage(m.archiveFolder)} {...text('archiveDir')} />
      ) : null}
      <div className="span-2 checks">
        <Check label={intl.formatMessage(m.subfolders)} {...check('recursive')} />
        <Check
          label={intl.formatMessage(m.poll)}
          {...check('usePolling')}
          hint={intl.formatMessage(m.pollHint)}
        />
        <Check label={intl.formatMessage(m.takeExisting)} {...check('takeExisting')} />
        <Check label={intl.formatMessage(m.enabled)} {...check('enabled')} />
      </div>
    </SourceForm>
  )
}

function toRequest(v: FormValues): Omit<Req<'addFolder'>, 'profileId'> {
  return {
    path: v.path.trim(),
    ...ruleFieldsRequest(v),
    recursive: v.recursive,
    usePolling: v.usePolling,
    afterUpload: v.afterUpload,
    archiveDir: v.afterUpload === 'archive' ? v.archiveDir.trim() || null : null,
    takeExisting: v.takeExisting,
    enabled: v.enabled,
  }
}

export function Folders() {
  const [activeId, folders] = useApp(useShallow((s) => [s.activeId, s.folders] as const))
  const [loaded, loadError] = useApp(useShallow((s) => [s.foldersLoaded, s.foldersError] as const))
  const [addFolder, updateFolder] = useApp(useShallow((s) => [s.addFolder, s.updateFolder] as const))
  const [removeFolder, profiles] = useApp(useShallow((s) => [s.removeFolder, s.profiles] as const))
  const toast = useApp((s) => s.toast)
  const [editing, setEditing] = useState<FolderView | null>(null)
  const [removing, setRemoving] = useState<FolderView | null>(null)
  const [removeBusy, setRemoveBusy] = useState(false)

  const intl = useI18n()
  const mine = folders.filter((f) => f.profileId === activeId)
  const others = folders.length - mine.length
  const profileName = (id: string) =>
    profiles.find((p) => p.id === id)?.name ?? intl.formatMessage(m.anotherProfile)

  return (
    <SourceScreen
      words={m}
      error={loadError}
      empty={loaded && mine.length === 0}
      form={(close) => (
        <FolderForm
          initial={blank()}
          submitLabel={intl.formatMessage(m.start)}
          onCancel={close}
          onSubmit={async (v) => {
            if (!activeId)
              return {
                ok: false,
                error: { code: 'no_active_profile', message: intl.formatMessage(m.noProfile) },
              }
            const r = await addFolder({ profileId: activeId, ...toRequest(v) })
            if (r.ok) close()
            return r
          }}
        />
      )}
      items={mine.map((f) => (
        <li key={f.id} className="card folder">
          <SourceHead
            title={<div className="folder__path">{f.path}</div>}
            details={
              <>
                {TARGET_LABELS[f.target]} · {intl.formatMessage(f.recursive ? m.withSub : m.thisOnly)} ·{' '}
                {f.afterUpload === 'leave'
                  ? intl.formatMessage(m.filesStay)
                  : f.afterUpload === 'move'
                    ? intl.formatMessage(m.movedUploaded)
                    : intl.formatMessage(m.archivedTo, { path: f.archiveDir ?? '' })}
                {f.usePolling ? ` · ${intl.formatMessage(m.polling)}` : ''} ·{' '}
                {intl.formatMessage(m.addedAt, { date: formatDateTime(f.addedAt) })}
              </>
            }
            tone={STATE_TONE[f.state]}
            state={FOLDER_STATE_LABELS[f.state]}
          />
          {f.message ? (
            <p className={f.state === 'error' ? 'form-error' : 'muted'}>{codedOrText(f.messageCoded, f.message)}</p>
          ) : null}
          <div className="muted small">
            {intl.formatMessage(m.kinds, { kinds: f.acceptedKinds.join(', ') })}
          </div>
          <div className="folder__actions">
            <label className="switch">
              <input
                type="checkbox"
                role="switch"
                checked={f.enabled}
                onChange={(e) =>
                  void updateFolder(f.id, { enabled: e.target.checked }).then((r) => {
                    if (!r.ok) toast('error', `${f.path}: ${r.error.message}`)
                  })
                }
              />
              <span>{intl.formatMessage(f.enabled ? m.enabled : m.disabled)}</span>
            </label>
            <button type="button" className="btn btn--small" onClick={() => setEditing(f)}>
              {intl.formatMessage(m.settings)}
            </button>
            <button type="button" className="btn btn--small btn--danger-ghost" onClick={() => setRemoving(f)}>
              {intl.formatMessage(m.remove)}
            </button>
          </div>
        </li>
      ))}
    >
      {others > 0 ? (
        <p className="muted">
          {intl.formatMessage(m.others, {
            count: others,
            profiles: intl.formatList([
              ...new Set(
                folders.filter((f) => f.profileId !== activeId).map((f) => profileName(f.profileId)),
              ),
            ]),
          })}
        </p>
      ) : null}

      {editing ? (
        <Dialog title={intl.formatMessage(m.settingsTitle)} onClose={() => setEditing(null)} wide>
          <FolderForm
            initial={fromFolder(editing)}
            submitLabel={intl.formatMessage(m.save)}
            onCancel={() => setEditing(null)}
            onSubmit={async (v) => {
              const r = await updateFolder(editing.id, toRequest(v))
              if (r.ok) setEditing(null)
              return r
            }}
          />
        </Dialog>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={intl.formatMessage(m.removeTitle)}
          message={
            <p>
              {intl.formatMessage(m.removeText, {
                path: removing.path,
                b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
              })}
            </p>
          }
          confirmLabel={intl.formatMessage(m.removeConfirm)}
          danger
          busy={removeBusy}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            setRemoveBusy(true)
            const r = await removeFolder(removing.id)
            setRemoveBusy(false)
            if (r.ok) setRemoving(null)
          }}
        />
      ) : null}
    </SourceScreen>
  )
}
