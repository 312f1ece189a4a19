import { useState } from 'react'
import { defineMessages } from 'react-intl'
import { ENVIRONMENT_MESSAGES, PROFILE_KIND_MESSAGES } from '../../lib/common-messages'
import { useI18n } from '../../lib/i18n'
import { Badge } from '../../components/Badge'
import { ConnectForm } from '../../components/ConnectForm'
import { ActionDialog, ConfirmDialog, Dialog } from '../../components/Dialog'
import { FormError, SecretField, TextField } from '../../components/Field'
import { RowMenu, Truncate } from '../../components/RowMenu'
import { ACTIONS, Table } from '../../components/TableHead'
import { formatDateTime } from '../../lib/format'
import { businessLabel } from '../../lib/labels'
import type { Profile } from '../../lib/types'
import { useSubmit } from '../../lib/useSubmit'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import messages from './Profiles.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

const m = defineMessages(messages.m)

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
  const intl = useI18n()

  return (
    <Section
      title={intl.formatMessage(m.title)}
      actions={
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          {intl.formatMessage(m.add)}
        </button>
      }
    >
      <Table
        caption={intl.formatMessage(m.title)}
        cells={[
          intl.formatMessage(m.name),
          { label: intl.formatMessage(m.kind), className: 'col-p3', width: '110px' },
          { label: intl.formatMessage(m.environment), className: 'col-p2' },
          intl.formatMessage(m.business),
          { label: intl.formatMessage(m.checked), className: 'col-p3', width: '120px' },
          { label: ACTIONS, className: 'actions-cell', width: '150px' },
        ]}
      >
        {profiles.map((p) => (
          <tr key={p.id} aria-current={p.id === activeId ? 'true' : undefined}>
            <td>
              <Truncate text={p.name} focusable />
              {p.id === activeId ? <Badge tone="good">{intl.formatMessage(m.active)}</Badge> : null}{' '}
              {p.demo ? <Badge tone="warn">{intl.formatMessage(m.demo)}</Badge> : null}
            </td>
            <td className="col-p3 cell-wrap">{intl.formatMessage(PROFILE_KIND_MESSAGES[p.kind])}</td>
            <td className="col-p2">
              {intl.formatMessage(ENVIRONMENT_MESSAGES[p.environment])}
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
                    aria-label={intl.formatMessage(m.switchTo, { name: p.name })}
                  >
                    {intl.formatMessage(m.switch)}
                  </button>
                ) : null}
                <RowMenu
                  label={intl.formatMessage(m.more, { name: p.name })}
                  items={[
                    { label: intl.formatMessage(m.rename), onSelect: () => setRenaming(p) },
                    { label: intl.formatMessage(m.rotate), onSelect: () => setRotating(p) },
                    { label: intl.formatMessage(m.remove), onSelect: () => setRemoving(p), danger: true },
                  ]}
                />
              </span>
            </td>
          </tr>
        ))}
      </Table>

      {adding ? (
        <Dialog title={intl.formatMessage(m.addTitle)} onClose={() => setAdding(false)}>
          <ConnectForm
            activate={false}
            submitLabel={intl.formatMessage(m.checkAndSave)}
            onDone={() => setAdding(false)}
          />
        </Dialog>
      ) : null}
      {rotating ? <RotateKeyDialog profile={rotating} onClose={() => setRotating(null)} /> : null}
      {renaming ? <RenameDialog profile={renaming} onClose={() => setRenaming(null)} /> : null}
      {removing ? (
        <ConfirmDialog
          title={intl.formatMessage(m.removeTitle, { name: removing.name })}
          message={<p>{intl.formatMessage(m.removeText)}</p>}
          confirmLabel={intl.formatMessage(m.removeProfile)}
          danger
          busy={removal.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            // A refusal is told in a toast (the store's removeProfile).
            if (await removal.submit(() => removeProfile(removing.id))) setRemoving(null)
          }}
        />
      ) : null}
    </Section>
  )
}

function RotateKeyDialog({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const rotate = useApp((s) => s.rotateKey)
  const toast = useApp((s) => s.toast)
  const [secret, setSecret] = useState('')
  const { busy, error, fields, submit, refuse } = useSubmit()
  const intl = useI18n()
  const save = async () => {
    if (!secret.trim()) {
      refuse(null, { secret: intl.formatMessage(m.pasteKey) })
      return
    }
    if (!(await submit(() => rotate(profile.id, secret.trim())))) return
    toast('success', intl.formatMessage(m.keySaved, { name: profile.name }))
    onClose()
  }
  return (
    <ActionDialog
      title={intl.formatMessage(m.rotateTitle, { name: profile.name })}
      onClose={onClose}
      onAction={() => void save()}
      label={intl.formatMessage(m.checkAndSave)}
      busyLabel={intl.formatMessage(m.checking)}
      busy={busy}
    >
      <p className="muted">{intl.formatMessage(m.rotateText)}</p>
      <SecretField
        label={intl.formatMessage(m.newKey)}
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
  const intl = useI18n()
  const save = async () => {
    if (!name.trim()) {
      refuse(intl.formatMessage(m.needsName))
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
    <ActionDialog
      title={intl.formatMessage(m.renameTitle)}
      onClose={onClose}
      onAction={() => void save()}
      label={intl.formatMessage(m.save)}
    >
      <TextField
        label={intl.formatMessage(m.name)}
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
