import { useState } from 'react'
import type { Tone } from '../components/Badge'
import { ConfirmDialog, Dialog } from '../components/Dialog'
import { Check, Choice, Field } from '../components/Field'
import { Screen } from '../components/Screen'
import { bookdrop } from '../lib/bridge'
import { formatDateTime } from '../lib/format'
import { FOLDER_STATE_LABELS, TARGET_LABELS } from '../lib/labels'
import { settle } from '../lib/result'
import type { AiTarget, FolderState, FolderView, Req, Result } from '../lib/types'
import { useApp } from '../store'
import { useShallow } from 'zustand/react/shallow'
import { RuleFields, ruleFieldsRequest } from '../components/RuleFields'
import {
  AddButton,
  AddCard,
  ListState,
  SourceForm,
  SourceHead,
  useSourceForm,
} from '../components/SourceList'

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
  return (
    <Field
      label={label}
      className="span-2"
      required
      error={error}
      hint={
        hint === undefined
          ? undefined
          : picker.noPicker
            ? 'No folder picker here: type the folder’s full path.'
            : hint
      }
    >
      {(p) => (
        <div className="input-row">
          <input {...p} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
          <button type="button" className="btn" onClick={() => void picker.browse()}>
            Browse…
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
  const { values: v, set, fe } = form

  return (
    <SourceForm form={form} submitLabel={submitLabel} onCancel={onCancel}>
      <PathField
        label="Folder"
        error={fe('path')}
        hint={'The full path, e.g. /home/me/Receipts or C:\\Receipts.'}
        value={v.path}
        onChange={(p) => set('path', p)}
      />
      <RuleFields values={v} set={set} error={fe} source="folder" />
      <Choice
        legend="After a file is uploaded"
        className="span-2"
        name={`after-${initial.path || 'new'}`}
        choices={[
          ['leave', 'Leave it where it is'],
          ['move', 'Move it to an “Uploaded” folder inside'],
          ['archive', 'Move it to an archive folder'],
        ]}
        value={v.afterUpload}
        onChange={(after) => set('afterUpload', after)}
      />
      {v.afterUpload === 'archive' ? (
        <PathField
          label="Archive folder"
          error={fe('archiveDir')}
          value={v.archiveDir}
          onChange={(p) => set('archiveDir', p)}
        />
      ) : null}
      <div className="span-2 checks">
        <Check label="Include subfolders" checked={v.recursive} onChange={(c) => set('recursive', c)} />
        <Check
          label="Poll instead of listening for changes"
          checked={v.usePolling}
          onChange={(c) => set('usePolling', c)}
          hint="For network drives and synced folders that do not report changes."
        />
        <Check
          label="Also send files already in the folder"
          checked={v.takeExisting}
          onChange={(c) => set('takeExisting', c)}
        />
        <Check label="Enabled" checked={v.enabled} onChange={(c) => set('enabled', c)} />
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
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<FolderView | null>(null)
  const [removing, setRemoving] = useState<FolderView | null>(null)
  const [removeBusy, setRemoveBusy] = useState(false)

  const mine = folders.filter((f) => f.profileId === activeId)
  const others = folders.length - mine.length
  const profileName = (id: string) => profiles.find((p) => p.id === id)?.name ?? 'another profile'

  return (
    <Screen
      title="Watched folders"
      intro="Files saved into these folders are sent automatically. A rescan catches anything the watcher missed."
      actions={!adding ? <AddButton onClick={() => setAdding(true)}>Add folder</AddButton> : null}
    >
      {adding ? (
        <AddCard id="add-folder-title" title="Add a watched folder">
          <FolderForm
            initial={blank()}
            submitLabel="Start watching"
            onCancel={() => setAdding(false)}
            onSubmit={async (v) => {
              if (!activeId)
                return {
                  ok: false,
                  error: { code: 'no_active_profile', message: 'Choose a profile first (Settings).' },
                }
              const r = await addFolder({ profileId: activeId, ...toRequest(v) })
              if (r.ok) setAdding(false)
              return r
            }}
          />
        </AddCard>
      ) : null}

      <ListState
        error={loadError}
        empty={loaded && mine.length === 0 && !adding}
        text="No folder is watched for this profile yet."
        addLabel="Add folder"
        onAdd={() => setAdding(true)}
      />

      <ul className="folder-list">
        {mine.map((f) => (
          <li key={f.id} className="card folder">
            <SourceHead
              title={<div className="folder__path">{f.path}</div>}
              details={
                <>
                  {TARGET_LABELS[f.target]} · {f.recursive ? 'with subfolders' : 'this folder only'} ·{' '}
                  {f.afterUpload === 'leave'
                    ? 'files stay'
                    : f.afterUpload === 'move'
                      ? 'moved to Uploaded/'
                      : `archived to ${f.archiveDir}`}
                  {f.usePolling ? ' · polling' : ''} · added {formatDateTime(f.addedAt)}
                </>
              }
              tone={STATE_TONE[f.state]}
              state={FOLDER_STATE_LABELS[f.state]}
            />
            {f.message ? <p className={f.state === 'error' ? 'form-error' : 'muted'}>{f.message}</p> : null}
            <div className="muted small">Kinds: {f.acceptedKinds.join(', ')}</div>
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
                <span>{f.enabled ? 'Enabled' : 'Disabled'}</span>
              </label>
              <button type="button" className="btn btn--small" onClick={() => setEditing(f)}>
                Settings…
              </button>
              <button
                type="button"
                className="btn btn--small btn--danger-ghost"
                onClick={() => setRemoving(f)}
              >
                Remove…
              </button>
            </div>
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <p className="muted">
          {others} more folder{others === 1 ? '' : 's'} belong{others === 1 ? 's' : ''} to other profiles (
          {[
            ...new Set(folders.filter((f) => f.profileId !== activeId).map((f) => profileName(f.profileId))),
          ].join(', ')}
          ).
        </p>
      ) : null}

      {editing ? (
        <Dialog title={`Folder settings`} onClose={() => setEditing(null)} wide>
          <FolderForm
            initial={fromFolder(editing)}
            submitLabel="Save"
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
          title="Stop watching this folder?"
          message={
            <p>
              <strong>{removing.path}</strong> will no longer be watched. Files in it stay where they are, and
              the upload history is kept.
            </p>
          }
          confirmLabel="Remove folder"
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
    </Screen>
  )
}
