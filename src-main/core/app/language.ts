/**
 * The language main speaks in (issue 34): tray, notifications and other sentences main words itself
 * follow the same choice as the window: the Language setting, or ("System") the first of the OS's
 * preferred languages Bookdrop has.
 */
import { type Language, languageInUse } from '../../../contract/i18n/languages'
import type { AppContext } from './context'
import { readSettings } from './settings'

/** The OS's preferred languages as the host reports them (none: an empty list), checked. */
export function systemLanguages(ctx: AppContext): string[] {
  try {
    const list = ctx.shell.preferredLanguages?.() ?? []
    return list.filter((l): l is string => typeof l === 'string' && /^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$/.test(l)).slice(0, 20)
  } catch {
    return []
  }
}

/** The language in use now for what main words itself. */
export function currentLanguage(ctx: AppContext): Language {
  return languageInUse(readSettings(ctx).language, systemLanguages(ctx))
}
