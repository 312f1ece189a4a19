/**
 * Types the renderer uses, all derived from the contract (the renderer never imports src-main).
 */
import type { Events, FolderView, ProfileList, Res, SessionState } from '../../contract'

export type {
  AppInfo,
  BookdropApi,
  BridgeError,
  ClientHealth,
  FolderView,
  HistoryFilterInput,
  IntakeOutcome,
  ListPage,
  ProfileList,
  RecordRow,
  Req,
  Res,
  Result,
  SessionState,
  Settings,
  Events,
  PhoneState,
  PhoneDevice,
  MailAccountView,
  MailAccountState,
  MailAfter,
  MailRuleConfig,
  UploadSource,
} from '../../contract'

export type Upload = Res<'history'>['rows'][number]
export type UploadStatus = Upload['status']
export type AiTarget = Upload['target']
export type Profile = ProfileList['profiles'][number]
export type ProfileKind = Profile['kind']
export type FolderState = FolderView['state']
export type ProfileState = SessionState['state']
export type RateLimit = NonNullable<SessionState['rateLimit']>
export type UploadEvent = Events['upload']
export type ProgressEvent = Events['progress']
