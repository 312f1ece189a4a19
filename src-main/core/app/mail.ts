/**
 * The mail room (issue 24): the active business's mail accounts and rules, each account's state,
 * "Check now", and the demo's "a new receipt arrives". A password crosses the bridge once, renderer
 * → main, inside saveMailAccount, goes to the OS keychain and never comes back.
 */
import { coded } from '../../../contract/coded'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import type { Calls, MailAccountView, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import { mailSecretAccount, normalizeAccount } from '../mail/config'
import { storesSecrets } from '../mail/secrets'
import type { AppContext } from './context'
import type { Room } from './room'

export type MailRoom = Room<
  | 'listMail'
  | 'saveMailAccount'
  | 'removeMailAccount'
  | 'saveMailRule'
  | 'removeMailRule'
  | 'checkMail'
  | 'addDemoMail'
>

export function mailRoom(
  ctx: AppContext,
  samples: () => Promise<{ name: string; base64: string }[]>,
): MailRoom {
  /** The engine's mail service (loaded with the first mail call). */
  const mail = () => ctx.engine.mail()

  const view = async (accountId: string): Promise<MailAccountView> => {
    const v = (await mail()).list().find((a) => a.id === accountId)
    if (!v) throw new AppError('not_found', coded(E.mailAccountNotFound))
    return v
  }

  /** The account, which must belong to the active business profile. */
  const mine = async (accountId: string) => {
    const profileId = ctx.activeBusiness().profile.id
    const a = (await mail()).account(accountId)
    if (!a || a.profileId !== profileId)
      throw new AppError('not_found', coded(E.mailAccountNotFound))
    return a
  }

  const keychain = () => {
    const store = ctx.secretStore
    if (!store || !storesSecrets(store)) {
      throw new AppError(
        'keychain',
        `A mail password is kept only in the OS keychain, and none is available here${ctx.keychainProblem ? ` (${ctx.keychainProblem})` : ''}. Use the headless mode with BOOKDROP_MAIL_PASSWORD instead.`,
      )
    }
    return store
  }

  return {
    async listMail(): Promise<Calls['listMail']> {
      const profileId = ctx.activeBusiness().profile.id
      return (await mail()).list(profileId)
    },

    async saveMailAccount(req: ParsedReq<'saveMailAccount'>): Promise<MailAccountView> {
      const profileId = ctx.activeBusiness().profile.id
      if (req.account.profileId !== profileId) {
        throw new AppError(
          'invalid_request',
          'A mail account belongs to the profile that is active: switch to it first.',
          {
            profileId: 'the active profile',
          },
        )
      }
      const cur = req.id ? await mine(req.id) : undefined
      if (cur?.kind === 'demo')
        throw new AppError('not_demo', "The demo's inbox cannot be changed: add your own account.")
      // Checked first (a bad field answers before anything reaches the keychain).
      const next = normalizeAccount({ ...req.account, kind: 'imap' }, req.id, cur?.addedAt)
      const store = keychain()
      const entry = mailSecretAccount(next)
      const oldEntry = cur ? mailSecretAccount(cur) : null
      if (!cur && !req.password) {
        throw new AppError(
          'invalid_request',
          coded(E.mailPasswordRequired),
          { password: { ...coded(E.mailPasswordRequired), text: 'required' } },
        )
      }
      if (req.password) await store.set(entry, req.password)
      else if (oldEntry && oldEntry !== entry) {
        // The server or user changed: the saved password follows it.
        const old = await store.get(oldEntry)
        if (!old)
          throw new AppError('invalid_request', 'Give the password for the new server or user.', {
            password: 'required',
          })
        await store.set(entry, old)
      }
      const service = await mail()
      const saved = await ctx.engineAction('mail_account', () =>
        service.saveAccount({ ...req.account, kind: 'imap' }, req.id),
      )
      if (
        oldEntry &&
        oldEntry !== entry &&
        !service.list().some((a) => a.kind === 'imap' && mailSecretAccount(a) === oldEntry)
      ) {
        await store.delete(oldEntry).catch(() => undefined)
      }
      return view(saved.id)
    },

    async removeMailAccount(req: ParsedReq<'removeMailAccount'>): Promise<MailAccountView[]> {
      const a = await mine(req.id)
      if (a.kind === 'demo') throw new AppError('not_demo', "The demo's inbox goes away with the demo.")
      const service = await mail()
      await service.removeAccount(a.id)
      const entry = mailSecretAccount(a)
      const store = ctx.secretStore
      if (store && storesSecrets(store) && !service.list().some((o) => o.kind === 'imap' && mailSecretAccount(o) === entry)) {
        await store.delete(entry).catch(() => undefined)
      }
      return service.list(a.profileId)
    },

    async saveMailRule(req: ParsedReq<'saveMailRule'>): Promise<MailAccountView> {
      const a = await mine(req.rule.accountId)
      if (a.kind === 'demo')
        throw new AppError('not_demo', "The demo inbox's rule cannot be changed: add your own account.")
      const service = await mail()
      if (req.id) {
        const cur = service.store.rule(req.id)
        if (!cur || cur.accountId !== a.id)
          throw new AppError('not_found', coded(E.mailRuleNotFound))
      }
      await ctx.engineAction('mail_rule', () => service.saveRule(req.rule, req.id))
      return view(a.id)
    },

    async removeMailRule(req: ParsedReq<'removeMailRule'>): Promise<MailAccountView> {
      const service = await mail()
      const r = service.store.rule(req.id)
      if (!r) throw new AppError('not_found', coded(E.mailRuleNotFound))
      const a = await mine(r.accountId)
      await service.removeRule(r.id)
      return view(a.id)
    },

    async checkMail(req: ParsedReq<'checkMail'>): Promise<MailAccountView> {
      const a = await mine(req.accountId)
      await (await mail()).checkNow(a.id)
      return view(a.id)
    },

    async addDemoMail(): Promise<Calls['addDemoMail']> {
      const e = ctx.activeBusiness()
      const inbox = (await mail()).demo
      if (!e.demo || !inbox) {
        throw new AppError(
          'not_demo',
          "Test receipts arrive only in the demo's inbox: switch to the demo profile.",
        )
      }
      return { uid: inbox.deliverSample(await samples()) }
    },
  }
}
