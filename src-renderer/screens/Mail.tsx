import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useEffect, useState } from 'react'
import { ConfirmDialog, Dialog } from '../components/Dialog'
import type { Result } from '../lib/types'
import { useApp } from '../store'
import { useShallow } from 'zustand/react/shallow'
import { AccountCard, type MailEdit } from './mail/AccountCard'
import { AccountForm, accountRequest, blankAccount, fromAccount } from './mail/AccountForm'
import { RuleForm, blankRule, fromRule, ruleRequest, ruleSummary } from './mail/RuleForm'
import { SourceScreen } from '../components/SourceList'
import messages from './Mail.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** The Mail screen: the profile's mail accounts, their rules, and the dialogs that edit them. */
export function Mail() {
  const [activeId, accounts] = useApp(useShallow((s) => [s.activeId, s.mailAccounts] as const))
  const [loaded, loadError, load] = useApp(
    useShallow((s) => [s.mailLoaded, s.mailError, s.loadMail] as const),
  )
  const [saveAccount, removeAccount] = useApp(
    useShallow((s) => [s.saveMailAccount, s.removeMailAccount] as const),
  )
  const [saveRule, removeRule] = useApp(useShallow((s) => [s.saveMailRule, s.removeMailRule] as const))
  const [checkMail, addDemoMail, toast] = useApp(
    useShallow((s) => [s.checkMail, s.addDemoMail, s.toast] as const),
  )
  const [editing, setEditing] = useState<MailEdit | null>(null)
  const [busy, setBusy] = useState(false)
  const intl = useI18n()

  useEffect(() => {
    if (!loaded && activeId) void load()
  }, [loaded, activeId, load])

  const act = async (p: Promise<Result<unknown>>) => {
    const r = await p
    if (!r.ok) toast('error', r.error.message)
  }
  /** A dialog's form sent: the dialog closes once it was saved. */
  const closeIfSaved = <T,>(r: Result<T>): Result<T> => {
    if (r.ok) setEditing(null)
    return r
  }
  /** What the open confirm dialog would remove, and how it asks. */
  const removal =
    editing?.kind === 'removeAccount'
      ? {
          title: intl.formatMessage(m.removeAccountTitle),
          message: (
            <p>
              {intl.formatMessage(m.removeAccountText, {
                name: editing.account.label,
                b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
              })}
            </p>
          ),
          confirmLabel: intl.formatMessage(m.removeAccount),
          run: () => removeAccount(editing.account.id),
        }
      : editing?.kind === 'removeRule'
        ? {
            title: intl.formatMessage(m.removeRuleTitle),
            message: <p>{intl.formatMessage(m.removeRuleText, { rule: ruleSummary(editing.rule) })}</p>,
            confirmLabel: intl.formatMessage(m.removeRule),
            run: () => removeRule(editing.rule.id),
          }
        : null
  /** What a confirm dialog removes: busy meanwhile, closed once done, else the reason in a toast. */
  const remove = async (p: () => Promise<Result<unknown>>) => {
    setBusy(true)
    const r = await p()
    setBusy(false)
    if (r.ok) setEditing(null)
    else toast('error', r.error.message)
  }

  return (
    <SourceScreen
      words={m}
      error={loadError}
      empty={loaded && accounts.length === 0}
      form={(close) => (
        <AccountForm
          initial={blankAccount()}
          isNew
          onCancel={close}
          onSubmit={async (v) => {
            const r = await saveAccount({
              account: accountRequest(activeId ?? '', v),
              ...(v.password ? { password: v.password } : {}),
            })
            if (r.ok) {
              close()
              // A new account reads nothing until it has a rule: ask for one at once.
              setEditing({ kind: 'rule', account: r.value, rule: null })
            }
            return r
          }}
        />
      )}
      items={accounts.map((a) => (
        <AccountCard
          key={a.id}
          account={a}
          onEdit={setEditing}
          onCheck={() => void act(checkMail(a.id))}
          onDemoMail={() => void act(addDemoMail())}
        />
      ))}
    >
      <details className="card help">
        <summary>{intl.formatMessage(m.helpTitle)}</summary>
        <p>
          {intl.formatMessage(m.helpAppPassword, { b: (chunks: ReactNode[]) => <strong>{chunks}</strong> })}
        </p>
        <p className="muted">{intl.formatMessage(m.helpMarked)}</p>
      </details>

      {editing?.kind === 'account' ? (
        <Dialog title={intl.formatMessage(m.accountSettings)} onClose={() => setEditing(null)} wide>
          <AccountForm
            initial={fromAccount(editing.account)}
            isNew={false}
            onCancel={() => setEditing(null)}
            onSubmit={async (v) =>
              closeIfSaved(
                await saveAccount({
                  id: editing.account.id,
                  account: accountRequest(activeId ?? '', v),
                  ...(v.password ? { password: v.password } : {}),
                }),
              )
            }
          />
        </Dialog>
      ) : null}
      {editing?.kind === 'rule' ? (
        <Dialog
          title={
            editing.rule
              ? intl.formatMessage(m.ruleTitle)
              : intl.formatMessage(m.addRuleTo, { name: editing.account.label })
          }
          onClose={() => setEditing(null)}
          wide
        >
          <RuleForm
            initial={editing.rule ? fromRule(editing.rule) : blankRule()}
            isNew={!editing.rule}
            onCancel={() => setEditing(null)}
            onSubmit={async (v) =>
              closeIfSaved(
                await saveRule({
                  ...(editing.rule ? { id: editing.rule.id } : {}),
                  rule: ruleRequest(editing.account.id, v),
                }),
              )
            }
          />
        </Dialog>
      ) : null}
      {removal ? (
        <ConfirmDialog
          key={removal.confirmLabel}
          title={removal.title}
          message={removal.message}
          confirmLabel={removal.confirmLabel}
          danger
          busy={busy}
          onCancel={() => setEditing(null)}
          onConfirm={() => remove(removal.run)}
        />
      ) : null}
    </SourceScreen>
  )
}
