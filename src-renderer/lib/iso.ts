/**
 * ISO lists for the registration form's datalists. Currency codes come from the runtime (Intl);
 * there is no Intl list of regions, so the ISO 3166-1 alpha-2 codes are listed here, and their
 * names come from Intl.DisplayNames in the interface's language (issue 34).
 */
import { getIntl } from './i18n'

const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ')

const FALLBACK_CURRENCIES =
  'AED AUD BRL CAD CHF CNY EGP EUR GBP GHS INR JPY KES MAD NGN RWF TZS UGX USD XAF XOF ZAR ZMW'.split(' ')

function names(type: 'region' | 'currency'): (code: string) => string {
  try {
    const dn = new Intl.DisplayNames([getIntl().locale, 'en'], { type })
    return (code) => dn.of(code) ?? code
  } catch {
    return (code) => code
  }
}

export function countryOptions(): { code: string; name: string }[] {
  const name = names('region')
  return COUNTRY_CODES.map((code) => ({ code, name: name(code) }))
}

export function currencyOptions(): { code: string; name: string }[] {
  let codes: string[]
  try {
    codes = Intl.supportedValuesOf('currency')
  } catch {
    codes = FALLBACK_CURRENCIES
  }
  const name = names('currency')
  return codes.map((code) => ({ code, name: name(code) }))
}

export function timeZones(): string[] {
  let zones: string[] = []
  try {
    zones = Intl.supportedValuesOf('timeZone')
  } catch {
    zones = []
  }
  if (!zones.includes('UTC')) zones = ['UTC', ...zones]
  return zones
}

export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}
