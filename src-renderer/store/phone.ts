/**
 * "Add from phone" (issue 25): the phone panel's state as main reports it (the `phone` event and
 * the phone calls). Main owns everything (the listener, the link, the sessions); this only shows it.
 */
import { bookdrop } from '../lib/bridge'
import { errorText, settle } from '../lib/result'
import { getIntl } from '../lib/i18n'
import { defineMessages } from 'react-intl'
import type { PhoneState, Result } from '../lib/types'
import type { SliceCreator } from './types'
import messages from './phone.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export interface PhoneSlice {
  phone: PhoneState | null
  phoneBusy: boolean
  /** The last call's refusal, shown in the panel. */
  phoneError: string | null
  loadPhone(): Promise<void>
  openPhone(): Promise<void>
  newPhoneLink(): Promise<void>
  decidePhone(id: string, allow: boolean): Promise<void>
  endPhone(id: string): Promise<void>
  closePhone(): Promise<void>
  applyPhone(state: PhoneState): void
}

export const createPhoneSlice: SliceCreator<PhoneSlice> = (set, get) => {
  const run = async (call: () => Promise<Result<PhoneState>>) => {
    set({ phoneBusy: true, phoneError: null })
    const r = await settle(call())
    if (r.ok) get().applyPhone(r.value)
    set({ phoneBusy: false, phoneError: r.ok ? null : errorText(r.error) })
  }
  return {
    phone: null,
    phoneBusy: false,
    phoneError: null,
    loadPhone: () => run(() => bookdrop.getPhone({})),
    openPhone: () => run(() => bookdrop.openPhone({})),
    newPhoneLink: () => run(() => bookdrop.newPhoneLink({})),
    decidePhone: (id, allow) => run(() => bookdrop.decidePhone({ id, allow })),
    endPhone: (id) => run(() => bookdrop.endPhone({ id })),
    closePhone: () => run(() => bookdrop.closePhone({})),
    applyPhone: (state) => {
      const before = new Set(get().phone?.pending.map((p) => p.id) ?? [])
      set({ phone: state })
      // A phone asking while another screen is shown: say where to answer it.
      if (get().screen !== 'capture' && state.pending.some((p) => !before.has(p.id)))
        get().toast('info', getIntl().formatMessage(m.phoneAsks))
    },
  }
}
