/** What auth/validate answers about the business of a key (design.md §3). */
import { z } from 'zod'

export const authValidateData = z.object({
  business_uuid: z.string(),
  name: z.string(),
  currency: z.string(),
  country: z.string(),
})
export type AuthValidateData = z.infer<typeof authValidateData>
