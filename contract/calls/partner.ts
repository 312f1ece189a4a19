/** The calls of the partner console: referred businesses, registration, seats, credits, health. */
import { z } from 'zod'
import type {
  AddCreditsRead,
  AddSeatsResult,
  BillingStatus,
  ReferredBusinessPage,
  RegisteredBusiness,
} from '../../schemas'
import { addCreditsSchema, addSeatsSchema, registerBusinessSchema } from '../../schemas/api'
import type { ClientHealth, ProfileList, ProfileView } from '../views'
import { id, none } from './shared'

export const PARTNER_CALLS = {
  listReferredBusinesses: z.object({
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  getBillingStatus: z.object({ businessUuid: id }),
  registerBusiness: z.object({ input: registerBusinessSchema }),
  saveRegisteredBusiness: z.object({
    name: z.string(),
    businessUuid: id,
    /** The svc_sk_ key the registration returned; main keeps it until it is saved or discarded. */
    registrationId: id,
  }),
  /** Forgets a registration's secret key without saving it (it is forgotten after 15 minutes anyway). */
  discardRegistration: z.object({ registrationId: id }),
  addSeats: z.object({ businessUuid: id, grant: addSeatsSchema }),
  addCredits: z.object({ businessUuid: id, grant: addCreditsSchema }),
  getClientHealth: none,
} as const

export interface PartnerCalls {
  listReferredBusinesses: ReferredBusinessPage
  getBillingStatus: BillingStatus
  /** The secret key is held in main under `registrationId`; only its last 4 characters come back. */
  registerBusiness: Omit<RegisteredBusiness, 'api_secret_key'> & {
    registrationId: string | null
    secretKeyHint: string | null
  }
  /** The new business profile, and the list it is now part of (not made active: switch with setActiveProfile). */
  saveRegisteredBusiness: ProfileList & { profile: ProfileView }
  discardRegistration: { discarded: boolean }
  addSeats: AddSeatsResult
  addCredits: AddCreditsRead
  getClientHealth: ClientHealth[]
}
