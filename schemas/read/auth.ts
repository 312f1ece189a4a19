/** auth/validate (response fields not shown): a 200 means the key works. */
import { FIELD_ALIASES } from '../assumptions'
import { ident, isObject, pick, pickText } from './primitives'

export interface AuthValidateRead {
  business_uuid: string | null
  name: string | null
  currency: string | null
  country: string | null
}

/** The business of the key when recognisable, at the top of `data` or in `data.business`. */
export function readAuthValidate(data: unknown): AuthValidateRead {
  const top = isObject(data) ? data : {}
  const nested = isObject(top.business) ? top.business : {}
  const nonEmpty = (v: string | null) => (v !== null && v.trim() !== '' ? v.trim() : null)
  return {
    business_uuid:
      ident(pick(top, FIELD_ALIASES.businessUuid)) ?? ident(pick(nested, FIELD_ALIASES.businessUuidNested)),
    name: nonEmpty(pickText(top, FIELD_ALIASES.businessName) ?? pickText(nested, FIELD_ALIASES.businessName)),
    currency: nonEmpty(pickText(top, FIELD_ALIASES.currency) ?? pickText(nested, FIELD_ALIASES.currency)),
    country: nonEmpty(pickText(top, FIELD_ALIASES.country) ?? pickText(nested, FIELD_ALIASES.country)),
  }
}
