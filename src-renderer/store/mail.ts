/**
 * Mail accounts and rules of the active business (issue 24): loaded with listMail, changed through
 * the bridge, each account's state kept current by `mail` events (connected, last check, the error
 * and what to do). A password goes to main once, in saveMailAccount, and is never kept here.
 */
import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import { getIntl } from '../lib/i18n'
import { defineMessages } from 'react-intl'
import type { Events, MailAccountView, Req, Result } from '../lib/types'
import type { LoadedList, SliceCreator } from './types'
import messages from './mail.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export interface MailSlice extends LoadedList<'mail', 'mailAccounts', MailAccountView> {
  saveMailAccount(req: Req<'saveMailAccount'>): Promise<Result<MailAccountView>>
  removeMailAccount(id: string): Promise<Result<MailAccountView[]>>
  saveMailRule(req: Req<'saveMailRule'>): Promise<Result<MailAccountView>>
  removeMailRule(id: string): Promise<Result<MailAccountView>>
  checkMail(accountId: string): Promise<Result<MailAccountView>>
  addDemoMail(): Promise<Result<{ uid: number }>>
  applyMailEvent(e: Events['mail']): void
  resetMail(): void
}

export const createMailSlice: SliceCreator<MailSlice> = (set, get) => {
  /** Puts an account (an answer of a call) in the list, in place or at the end. */
  const upsert = (v: MailAccountView) =>
    set((s) => {
      const i = s.mailAccounts.findIndex((a) => a.id === v.id)
      if (i < 0) return { mailAccounts: [...s.mailAccounts, v] }
      const next = s.mailAccounts.slice()
      next[i] = v
      return { mailAccounts: next }
    })
  const withToast = async <T>(p: Promise<Result<T>>, ok?: (v: T) => void): Promise<Result<T>> => {
    const r = await settle(p)
    if (r.ok) ok?.(r.value)
    return r
  }
  return {
    mailAccounts: [],
    mailLoaded: false,
    mailError: null,

    loadMail: async () => {
      const r = await settle(bookdrop.listMail({}))
      if (r.ok) set({ mailAccounts: r.value, mailLoaded: true, mailError: null })
      else set({ mailLoaded: true, mailError: r.error.message })
    },

    saveMailAccount: (req) =>
      withToast(bookdrop.saveMailAccount(req), (v) => {
        upsert(v)
        get().toast('success', getIntl().formatMessage(m.saved, { name: v.label }))
      }),

    removeMailAccount: (id) =>
      withToast(bookdrop.removeMailAccount({ id }), (list) => set({ mailAccounts: list })),

    saveMailRule: (req) => withToast(bookdrop.saveMailRule(req), upsert),

    removeMailRule: (id) => withToast(bookdrop.removeMailRule({ id }), upsert),

    checkMail: (accountId) => withToast(bookdrop.checkMail({ accountId }), upsert),

    addDemoMail: () =>
      withToast(bookdrop.addDemoMail({}), () => get().toast('info', getIntl().formatMessage(m.demoMail))),

    applyMailEvent: (e) =>
      set((s) => {
        const i = s.mailAccounts.findIndex((a) => a.id === e.accountId)
        if (i < 0) return s
        const { accountId: _id, ...status } = e
        const next = s.mailAccounts.slice()
        next[i] = { ...next[i]!, status }
        return { mailAccounts: next }
      }),

    resetMail: () => set({ mailAccounts: [], mailLoaded: false, mailError: null }),
  }
}
