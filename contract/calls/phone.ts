/** The calls of the phone panel ("Add from phone", issue 25). */
import { z } from 'zod'
import type { AiTarget } from '../../schemas/routes'
import type { PhoneState, PhoneTarget } from '../phone'
import { type Assert, none } from './shared'

export const PHONE_CALLS = {
  getPhone: none,
  /** Starts the listener on the address of Settings (or the web host's --phone-listen) and makes a link. */
  openPhone: none,
  newPhoneLink: none,
  decidePhone: z.object({ id: z.string().min(1).max(64), allow: z.boolean() }).strict(),
  endPhone: z.object({ id: z.string().min(1).max(64) }).strict(),
  /** Closes the panel: every phone's session ends and the listener stops. */
  closePhone: none,
} as const

export interface PhoneCalls {
  getPhone: PhoneState
  openPhone: PhoneState
  newPhoneLink: PhoneState
  decidePhone: PhoneState
  endPhone: PhoneState
  closePhone: PhoneState
}

/** The phone's targets are targets of the API (contract/phone.ts cannot import schemas: the phone's page bundles it). */
type _PhoneTargetsAreTargets = Assert<PhoneTarget extends AiTarget ? true : false>
