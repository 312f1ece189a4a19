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

/**
 * A list the store loads from main for the active profile (watched folders, mail accounts), named
 * after it: its items, `<name>Loaded` once main answered (either way: a screen then shows the list
 * or why it failed), `<name>Error` the reason the last load failed, and `load<Name>`.
 */
export type LoadedList<Name extends string, Items extends string, T> = Record<Items, T[]> &
  Record<`${Name}Loaded`, boolean> &
  Record<`${Name}Error`, string | null> &
  Record<`load${Capitalize<Name>}`, () => Promise<void>>
