import type { StateCreator } from 'zustand'
import type { FoldersSlice } from './folders'
import type { HistorySlice } from './history'
import type { MailSlice } from './mail'
import type { OverviewSlice } from './overview'
import type { PartnerSlice } from './partner'
import type { PhoneSlice } from './phone'
import type { RecordsSlice } from './records'
import type { ReviewSlice } from './review'
import type { SessionSlice } from './session'
import type { SettingsSlice } from './settings'
import type { UiSlice } from './ui'
import type { UploadsSlice } from './uploads'

export type AppState = SessionSlice &
  UploadsSlice &
  HistorySlice &
  OverviewSlice &
  FoldersSlice &
  MailSlice &
  RecordsSlice &
  ReviewSlice &
  PartnerSlice &
  SettingsSlice &
  UiSlice &
  PhoneSlice

/** The zustand slices pattern: each slice sees the whole state. */
export type SliceCreator<T> = StateCreator<AppState, [], [], T>
