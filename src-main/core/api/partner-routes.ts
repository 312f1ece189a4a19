/**
 * The partner key's routes (api-spec.md §4, §2.6–2.8): registering a business, the businesses it
 * referred, their billing, and granting them seats and credits. BookkeepingClient (client.ts)
 * adds the business routes.
 */
import { z } from 'zod'
import {
  addCreditsSchema,
  addSeatsData,
  addSeatsSchema,
  referredListQuerySchema,
  registerBusinessSchema,
  registeredBusinessData,
  type AddCreditsInput,
  type AddSeatsInput,
  type AddSeatsResult,
  type BillingStatus,
  type ReferredBusinessPage,
  type ReferredListQuery,
  type RegisterBusinessInput,
  type RegisteredBusiness,
} from '../../../schemas/api'
import {
  billingStatusRead,
  referredBusinessPageRead,
  readAddCredits,
  type AddCreditsRead,
} from '../../../schemas/read'
import { ClientBase } from './client-base'
import type { ReadOptions, WriteOptions } from './client-types'
import { envelopeWith } from './envelope'

export abstract class PartnerRoutes extends ClientBase {
  /** POST /register-business (partner key). With grant_access admin the result carries the business's keys. */
  async registerBusiness(input: RegisterBusinessInput, opts?: WriteOptions): Promise<RegisteredBusiness> {
    const refusal = 'The business was not registered'
    return this.#partnerPost(
      '/register-business',
      registerBusinessSchema,
      input,
      refusal,
      registeredBusinessData,
      opts,
    )
  }

  /** GET /referred-businesses?page&limit (partner key). */
  async listReferredBusinesses(
    query: ReferredListQuery = {},
    opts?: ReadOptions,
  ): Promise<ReferredBusinessPage> {
    const path = '/referred-businesses'
    const q = this.checked(
      'GET',
      path,
      'partner',
      referredListQuerySchema,
      query,
      'The list was not requested',
    )
    return this.send({
      method: 'GET',
      path,
      auth: 'partner',
      query: q,
      envelope: envelopeWith(referredBusinessPageRead),
      opts,
    }).then((e) => e.data)
  }

  /** GET /referred-businesses/{uuid}/billing-status (partner key). */
  async billingStatus(businessUuid: string, opts?: ReadOptions): Promise<BillingStatus> {
    const path = `/referred-businesses/${this.pathId('GET', 'partner', 'business_uuid', businessUuid)}/billing-status`
    return this.send({
      method: 'GET',
      path,
      auth: 'partner',
      envelope: envelopeWith(billingStatusRead),
      opts,
    }).then((e) => e.data)
  }

  /** POST /referred-businesses/{uuid}/add-seats (partner key): grants Plus seats from the partner holding. */
  async addSeats(businessUuid: string, input: AddSeatsInput, opts?: WriteOptions): Promise<AddSeatsResult> {
    const path = `/referred-businesses/${this.pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-seats`
    return this.#partnerPost(path, addSeatsSchema, input, 'No seats were granted', addSeatsData, opts)
  }

  /** POST /referred-businesses/{uuid}/add-credits (partner key): grants AI credits from the partner holding. */
  async addCredits(
    businessUuid: string,
    input: AddCreditsInput,
    opts?: WriteOptions,
  ): Promise<AddCreditsRead> {
    const path = `/referred-businesses/${this.pathId('POST', 'partner', 'business_uuid', businessUuid)}/add-credits`
    const refusal = 'No credits were granted'
    return this.#partnerPost(path, addCreditsSchema, input, refusal, z.unknown(), opts).then(readAddCredits)
  }

  /** A partner POST: the body checked against `schema` (else `refusal`), the answer's `data` read by `data`. */
  #partnerPost<S extends z.ZodType, D extends z.ZodType>(
    path: string,
    schema: S,
    input: unknown,
    refusal: string,
    data: D,
    opts: WriteOptions | undefined,
  ): Promise<z.output<D>> {
    const body = this.checked('POST', path, 'partner', schema, input, refusal)
    const envelope = envelopeWith(data)
    // The envelope's data is `data`'s output; zod's types do not follow a generic through extend().
    return this.mutate('POST', path, 'partner', body, envelope, opts).then(
      (e) => (e as { data: z.output<D> }).data,
    )
  }
}
