import { useState } from 'react'
import { Badge } from '../../components/Badge'
import { ConnectForm } from '../../components/ConnectForm'
import { ActionDialog, ConfirmDialog, Dialog } from '../../components/Dialog'
import { FormError, SecretField, TextField } from '../../components/Field'
import { RowMenu, Truncate } from '../../components/RowMenu'
import { ACTIONS, TableHead } from '../../components/TableHead'
import { formatDateTime } from '../../lib/format'
import { PROFILE_KIND_LABELS, businessLabel } from '../../lib/labels'
import type { Profile } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'

/** The profiles table: switch, add, rename, rotate the key of, and remove a profile. */
export function Profiles() {
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
