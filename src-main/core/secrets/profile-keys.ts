/**
 * A profile's keys before anything is saved: the input of a new profile checked (kind, name,
 * environment, key and bearer token, each with a message that says what to paste), then the key
 * asked about at the server, which names the business it acts for.
 */
import { keyKind } from '../../../schemas/assumptions'
import { BookkeepingClient, type EnvironmentOption } from '../api'
import type { BusinessInfo, ProfileKind } from '../../../contract/types'
import {
  type NewProfileInput,
  type ProfileClientOptions,
  ProfileError,
  authFor,
  checkEnvironment,
  checkKeyPrefix,
  checkKind,
  checkName,
  checkSecret,
  validationFailure,
} from './profile-rules'

/** The input of a new profile, checked (nothing asked of the server yet); `secrets` are kept out of messages. */
export function checkNewProfile(
  input: NewProfileInput,
  secrets: ReadonlyArray<string | undefined>,
): {
  kind: ProfileKind
  name: string
  env: EnvironmentOption
  baseUrl: string | undefined
  secret: string
  bearer: string | undefined
} {
  const kind = checkKind(input.kind)
  const name = checkName(input.name, secrets)
  const { env, baseUrl } = checkEnvironment(input.environment, input.baseUrl)
  const secret = checkSecret(input.secret, 'secret')
  checkKeyPrefix(kind, secret)
  let bearer: string | undefined
  if (kind === 'oauth') {
    bearer = checkSecret(input.bearerToken, 'bearerToken')
    if (keyKind(bearer) !== 'unknown') {
      throw new ProfileError(
        'invalid_input',
        'The bearer token looks like an API key: paste the token the user authorised the app with.',
        { field: 'bearerToken' },
      )
    }
  } else if (input.bearerToken !== undefined && input.bearerToken !== '') {
    throw new ProfileError('invalid_input', 'Only OAuth profiles take a bearer token.', {
      field: 'bearerToken',
    })
  }
  return { kind, name, env, baseUrl, secret, bearer }
}

/** Asks the server whether the key (and token) works for the profile kind; returns the business for business/OAuth keys. */
export async function validateWithServer(
  clientOptions: ProfileClientOptions,
  kind: ProfileKind,
  env: EnvironmentOption,
  secret: string,
  bearer: string | undefined,
): Promise<BusinessInfo | undefined> {
  let baseUrl = env.environment === 'custom' ? env.baseUrl : env.environment
  try {
    const client = new BookkeepingClient({
      ...clientOptions,
      ...env,
      auth: authFor(kind, secret, bearer),
    })
    baseUrl = client.baseUrl
    if (kind === 'partner') {
      await client.listReferredBusinesses({ limit: 1 })
      return undefined
    }
    const data = await client.validateKey()
    return { uuid: data.business_uuid, name: data.name, currency: data.currency, country: data.country }
  } catch (err) {
    throw validationFailure(err, kind, baseUrl)
  }
}
