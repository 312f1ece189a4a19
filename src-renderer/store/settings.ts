import { defineMessages } from 'react-intl'
import { bookdrop } from '../lib/bridge'
import { getIntl } from '../lib/i18n'
import { settle } from '../lib/result'
import type { Result, Settings } from '../lib/types'
import type { SliceCreator } from './types'
import messages from './settings.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export interface SettingsSlice {
  settings: Settings | null
  loadSettings(): Promise<void>
  /** Optimistic: the form moves at once; a refusal puts the old value back and says why. */
  updateSettings(patch: Partial<Settings>): Promise<Result<Settings>>
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get) => ({
  settings: null,
  loadSettings: async () => {
    const r = await settle(bookdrop.getSettings({}))
    if (r.ok) set({ settings: r.value })
    else get().toast('error', getIntl().formatMessage(m.notLoaded, { message: r.error.message }))
  },
  updateSettings: async (patch) => {
    const before = get().settings
    if (before) set({ settings: { ...before, ...patch } })
    const r = await settle(bookdrop.setSettings(patch))
    if (r.ok) set({ settings: r.value })
    else {
      set({ settings: before })
      get().toast('error', getIntl().formatMessage(m.notSaved, { message: r.error.message }))
    }
    return r
  },
})
