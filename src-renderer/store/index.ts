/**
 * The renderer's one zustand store, built from one slice per domain (zustand's slices pattern).
 * Components select what they need with `useApp(selector)`; server data only arrives through the
 * bridge (calls and events).
 */
import { create } from 'zustand'
import { createFoldersSlice } from './folders'
import { createMailSlice } from './mail'
import { createHistorySlice } from './history'
import { createOverviewSlice } from './overview'
import { createPartnerSlice } from './partner'
import { createPhoneSlice } from './phone'
import { createRecordsSlice } from './records'
import { createReviewSlice } from './review'
import { createSessionSlice } from './session'
import { createSettingsSlice } from './settings'
import type { AppState } from './types'
import { createUiSlice } from './ui'
import { createUploadsSlice } from './uploads'
import { stopEvents } from './events'

export type { AppState } from './types'

export const useApp = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createUploadsSlice(...a),
  ...createHistorySlice(...a),
  ...createOverviewSlice(...a),
  ...createFoldersSlice(...a),
  ...createMailSlice(...a),
  ...createRecordsSlice(...a),
  ...createReviewSlice(...a),
  ...createPartnerSlice(...a),
  ...createSettingsSlice(...a),
  ...createUiSlice(...a),
  ...createPhoneSlice(...a),
}))

const initialState = useApp.getState()

/** Back to the first-load state (tests call this between cases); event subscriptions are dropped. */
export function resetStores(): void {
  stopEvents()
  useApp.setState(initialState, true)
}
